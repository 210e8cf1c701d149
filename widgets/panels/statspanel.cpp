#include "panels/statspanel.h"

#include "core/safefiles.h"
#include "core/units.h"
#include "panels/chartfactory.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"

#include <QDir>
#include <QHBoxLayout>
#include <QSplitter>

namespace rankscope {

QString outOfMemoryMessage()
{
    return QObject::tr("ran out of memory computing it (%1 is available to Rankscope now); the rest of the session is still open")
        .arg(formatBinarySize(availableMemoryBytes()));
}

void StatsPanel::setWorkspace(WorkspacePtr workspace)
{
    if (workspace == m_workspace)
        return;
    const bool sameSession = workspace && m_workspace && workspace->session() == m_workspace->session();
    const bool sameSettings = sameSession && workspace->settings() == m_workspace->settings();
    m_workspace = std::move(workspace);
    if (sameSession) {
        if (!sameSettings && readsAnalysisSettings())
            refreshWhenShown();
        return;
    }
    m_job.cancel(); // a result still computing is the old session's: dropped
    showComputing(false);
    // What the panel showed was the old session's: it goes at once, not
    // when the new session's results arrive.
    for (TableBox *table : m_exportTables)
        table->setTable({});
    for (const auto &[slot, fileName] : m_exportCharts)
        if (*slot)
            replaceWidget(*slot, new QWidget((*slot)->parentWidget()));
    m_scope = {};
    sessionChanged();
    refreshWhenShown();
}

void StatsPanel::showComputing(bool computing)
{
    // What the tables and charts show meanwhile is the previous scope's:
    // greyed out, so it is not read as the new scope's (a new session's
    // panels are cleared instead, setWorkspace).
    for (TableBox *table : m_exportTables)
        table->setEnabled(!computing);
    for (const auto &[slot, fileName] : m_exportCharts)
        if (*slot)
            (*slot)->setEnabled(!computing);
    if (!computing) {
        if (m_computing)
            m_computing->hide();
        if (m_progressTimer)
            m_progressTimer->stop();
        return;
    }
    if (!m_computing) {
        m_computing = new QLabel(this);
        m_computing->setObjectName(QStringLiteral("computing"));
        m_computing->setAutoFillBackground(true);
        m_computing->setMargin(4);
        m_computing->setFrameShape(QFrame::StyledPanel);
        // The worker writes where it is; the label reads it four times a second.
        m_progressTimer = new QTimer(this);
        m_progressTimer->setInterval(250);
        connect(m_progressTimer, &QTimer::timeout, this, &StatsPanel::updateComputingText);
    }
    updateComputingText();
    m_computing->show();
    m_computing->raise();
    m_progressTimer->start();
}

void StatsPanel::updateComputingText()
{
    QString text = m_scope.range ? tr("Computing for the selected range...") : tr("Computing...");
    // A pass over one rank says nothing a user can use.
    if (const std::uint32_t ranks = m_progress ? m_progress->ranks.load(std::memory_order_relaxed) : 0; ranks > 1)
        text += tr(" rank %1 of %2").arg(m_progress->rank.load(std::memory_order_relaxed)).arg(ranks);
    if (m_computing->text() == text)
        return;
    m_computing->setText(text);
    m_computing->adjustSize();
    m_computing->move(width() - m_computing->width() - 4, 4);
}

void StatsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_computing && m_computing->isVisible())
        m_computing->move(width() - m_computing->width() - 4, 4);
}

bool StatsPanel::isShowingComputing() const
{
    return m_computing && !m_computing->isHidden();
}

void StatsPanel::refreshWhenShown()
{
    m_stale = m_onlyWhenShown && !isVisible();
    if (!m_stale)
        refresh();
}

void StatsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale) {
        m_stale = false;
        refresh();
    }
}

void StatsPanel::ensureComputed()
{
    const bool background = m_background;
    m_background = false;
    if (m_stale) {
        m_stale = false;
        refresh();
    }
    computeRemainingParts();
    m_background = background;
}

QStringList StatsPanel::exportAll(const QString &directory) const
{
    const QDir dir(directory);
    QStringList written;
    for (TableBox *table : m_exportTables) {
        if (table->model()->table().name.isEmpty())
            continue; // a table the scope has nothing for (never filled)
        const QString path = dir.filePath(table->model()->table().name + QStringLiteral(".csv"));
        if (table->exportCsv(path))
            written << path;
    }
    for (const auto &make : m_exportResults) {
        const std::optional<ResultTable> table = make();
        if (!table)
            continue;
        const QString path = dir.filePath(table->name + QStringLiteral(".csv"));
        AtomicFileWriter file(path); // a link planted under the name is replaced, not followed
        if (file.open(QIODevice::WriteOnly) && table->writeCsv(file) && file.commit())
            written << path;
    }
    for (const auto &[slot, fileName] : m_exportCharts) {
        const QString path = dir.filePath(fileName);
        if (charts::savePng(*slot, path))
            written << path;
    }
    return written;
}

QSplitter *chartsOverTables(QWidget *parent, const std::vector<std::pair<QWidget **, int>> &chartSlots,
                            const std::vector<std::pair<QWidget *, int>> &tables)
{
    auto *split = new QSplitter(Qt::Vertical, parent);
    auto *charts = new QWidget(split);
    auto *chartRow = new QHBoxLayout(charts);
    chartRow->setContentsMargins(0, 0, 0, 0);
    for (const auto &[slot, stretch] : chartSlots) {
        *slot = new QWidget(charts);
        chartRow->addWidget(*slot, stretch);
    }
    auto *tableArea = new QWidget(split);
    auto *tableRow = new QHBoxLayout(tableArea);
    tableRow->setContentsMargins(0, 0, 0, 0);
    for (const auto &[table, stretch] : tables)
        tableRow->addWidget(table, stretch);
    split->addWidget(charts);
    split->addWidget(tableArea);
    // The chart placeholders have no size of their own: without a minimum
    // and stretch the splitter would give the charts nothing in a short dock.
    charts->setMinimumHeight(charts::kMinimumChartHeight);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    return split;
}

void replaceWidget(QWidget *&slot, QWidget *replacement)
{
    if (slot && slot->parentWidget() && slot->parentWidget()->layout())
        delete slot->parentWidget()->layout()->replaceWidget(slot, replacement);
    delete slot;
    slot = replacement;
}

} // namespace rankscope
