#include "panels/diagnosispanel.h"
#include "common/exportfolder.h"
#include "core/safefiles.h"
#include "core/units.h"

#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace rankscope {

using namespace stats;

namespace {
constexpr int kSentenceColumnWidth = 380; // px: a finding's evidence or advice, wrapped
} // namespace

DiagnosisPanel::DiagnosisPanel(QWidget *parent)
    : StatsPanel(parent), m_notes(new QLabel(this)), m_advice(new QLabel(this)), m_findings(new TableBox(tr("Findings, costliest first"), this)),
      m_instances(new TableBox(tr("Instances"), this))
{
    // Durations in units and counts grouped; the exact values in tooltips and exports.
    for (TableBox *table : {m_findings, m_instances})
        table->model()->setReadable(true);
    auto *layout = new QVBoxLayout(this);
    auto *header = new QHBoxLayout;
    m_notes->setTextFormat(Qt::PlainText); // notes quote names from the traces
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    header->addWidget(m_notes, 1);
    auto *save = new QPushButton(tr("Save report..."), this);
    save->setToolTip(tr("The findings, their evidence, advice and first instances as a Markdown file"));
    header->addWidget(save, 0, Qt::AlignTop);
    layout->addLayout(header);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_findings);
    auto *lower = new QWidget(split);
    auto *lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    m_advice->setWordWrap(true);
    m_advice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lowerLayout->addWidget(m_advice);
    lowerLayout->addWidget(m_instances, 1);
    split->addWidget(lower);
    m_findings->setMinimumHeight(150); // four findings without scrolling
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);
    exportTable(m_findings);
    exportTable(m_instances);
    m_findings->setToolTip(tr("Select a finding to list its instances and read its advice"));
    m_instances->setToolTip(tr("Double-click an instance to zoom the timeline to it and select it"));
    connect(m_findings, &TableBox::rowSelected, this, &DiagnosisPanel::showFinding);
    connect(m_findings, &TableBox::rowActivated, this, &DiagnosisPanel::showFinding);
    connect(m_instances, &TableBox::rowActivated, this, &DiagnosisPanel::activateInstance);
    connect(save, &QPushButton::clicked, this, &DiagnosisPanel::saveReport);
}

void DiagnosisPanel::refresh()
{
    if (!session())
        return;
    // The workspace's diagnosis: the communication classes and the aligned
    // match the Collectives panel reads, computed once for both.
    run<std::shared_ptr<const Diagnosis>>([w = workspace()] { return w->diagnosis(); },
                                          [this](std::shared_ptr<const Diagnosis> d) { present(std::move(d)); });
}

void DiagnosisPanel::sessionChanged()
{
    m_diagnosis.reset(); // its tables were cleared with every panel's (StatsPanel::setWorkspace)
    m_shown = -1;
    m_notes->setText(tr("Diagnosing the session..."));
    m_advice->clear();
}

void DiagnosisPanel::present(std::shared_ptr<const Diagnosis> diagnosis)
{
    m_diagnosis = std::move(diagnosis);
    QString notes = m_diagnosis->findings.empty() ? tr("No findings: nothing costs 1% or more of the GPU time in the loop. ")
                                                  : tr("%n finding(s) over the whole session. ", nullptr, int(m_diagnosis->findings.size()));
    m_notes->setText(notes + m_diagnosis->notes.join(QLatin1Char(' ')));
    m_findings->setTable(stats::findingsTable(*m_diagnosis));
    // Evidence and advice are sentences: wrapped at a word, never cut in one
    // ("f…mputing"); their rows as tall as they need.
    QTableView *view = m_findings->view();
    view->setWordWrap(true);
    view->setTextElideMode(Qt::ElideNone);
    const QStringList headers = m_findings->model()->table().headers;
    for (const QString &sentence : {QStringLiteral("Evidence"), QStringLiteral("Advice")})
        if (const int column = int(headers.indexOf(sentence)); column >= 0)
            view->setColumnWidth(column, kSentenceColumnWidth);
    view->resizeRowsToContents();
    m_shown = -1;
    showFinding(m_diagnosis->findings.empty() ? -1 : 0);
}

void DiagnosisPanel::showFinding(int row)
{
    if (!m_diagnosis || row < 0 || std::size_t(row) >= m_diagnosis->findings.size()) {
        m_advice->clear();
        m_instances->setTable({});
        return;
    }
    if (row == m_shown)
        return;
    m_shown = row;
    const Finding &f = m_diagnosis->findings[std::size_t(row)];
    m_advice->setText(
        tr("<b>%1</b> (%2, %3): %4.<br><b>Advice.</b> %5")
            .arg(f.title.toHtmlEscaped(), severityName(f.severity), f.ranks.toHtmlEscaped(), f.evidence.toHtmlEscaped(), f.advice.toHtmlEscaped()));
    m_instances->setTable(findingInstancesTable(*session(), f));
}

QString DiagnosisPanel::advice() const
{
    return m_advice->text();
}

QString DiagnosisPanel::markdown() const
{
    return m_diagnosis && session() ? findingsMarkdown(*session(), *m_diagnosis) : QString();
}

namespace {

// The GPU a rank's loop ran on: its first GPU's all-streams row holds its
// gaps (the loop is the union of the rank's GPUs); -1 without one.
int gpuOf(const Session &session, int rankIndex)
{
    const RankEntry &entry = session.ranks()[std::size_t(rankIndex)];
    int device = -1;
    for (const Track &t : entry.report->tracks)
        if (isGpuOperation(t.kind) && Session::ownsTrack(entry, t) && (device < 0 || t.deviceId < device))
            device = t.deviceId;
    return device;
}

} // namespace

void DiagnosisPanel::activateInstance(int row)
{
    if (!m_diagnosis || m_shown < 0 || row < 0)
        return;
    const Finding &f = m_diagnosis->findings[std::size_t(m_shown)];
    if (std::size_t(row) >= f.instances.size())
        return;
    const FindingInstance &i = f.instances[std::size_t(row)];
    // On its event's row, else its rank's GPU row, outlined, with the
    // evidence (the range that explains a gap) outlined and in view too; in Details.
    TimeMark mark{i.rankIndex, gpuOf(*session(), i.rankIndex), i.time, i.event, f.title, {}, i.evidence};
    mark.fields << std::pair{tr("Rank"), QString::number(session()->ranks()[std::size_t(i.rankIndex)].rank)}
                << std::pair{tr("Start"), formatTimestamp(i.time.start - session()->extent().start)}
                << std::pair{tr("Duration"), formatDuration(i.time.duration())} << std::pair{tr("Cost"), formatDuration(i.cost)}
                << std::pair{tr("What"), i.what};
    emit markRequested(mark);
}

void DiagnosisPanel::saveReport()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save the diagnosis"), exportPathFor(QStringLiteral("diagnosis.md")), tr("Markdown (*.md)"));
    if (path.isEmpty())
        return;
    rememberExportFolder(path);
    if (const QString error = writeFileAtomically(path, markdown().toUtf8()); !error.isEmpty())
        QMessageBox::warning(this, tr("Save the diagnosis"), tr("Cannot write %1: %2").arg(path, error));
}

} // namespace rankscope
