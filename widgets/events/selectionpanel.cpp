#include "events/selectionpanel.h"

#include "core/units.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"

#include <QCoreApplication>
#include <QLabel>
#include <QVBoxLayout>

namespace rankscope {

SelectionPanel::SelectionPanel(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_table(new TableBox(tr("Slices in the area, largest total first"), this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText);
    layout->addWidget(m_title);
    layout->addWidget(m_table, 1);
    m_table->model()->setReadable(true);
    m_table->setToolTip(tr("Double-click a name to find its instances"));
    connect(m_table, &TableBox::rowActivated, this,
            [this](int row) { emit searchRequested(m_table->model()->table().cell(std::size_t(row), 0).text); });
    clear();
}

QString SelectionPanel::title() const
{
    return m_title->text();
}

void SelectionPanel::clear()
{
    m_summary.cancel();
    m_title->setText(tr("Shift+drag across rows on the timeline to summarise the slices of those rows in that range."));
    m_table->setTable({});
}

void SelectionPanel::summarise(std::shared_ptr<const Session> session, std::vector<stats::TrackRef> tracks, TimeRange range, int rows)
{
    const QString what =
        tr("%n row(s), %1 from %2", nullptr, rows).arg(formatDuration(range.duration()), formatTimestamp(range.start - session->extent().start));
    m_title->setText(tr("%1: summarising...").arg(what));
    m_summary.start([session, tracks = std::move(tracks), range](const JobToken &) { return stats::selectionSummary(*session, tracks, range); },
                    [this, what](ResultTable table) {
                        std::int64_t slices = 0;
                        for (std::size_t r = 0; r < table.rowCount(); ++r)
                            slices += table.cell(r, 1).integer;
                        m_title->setText(tr("%1: %n slice(s)", nullptr, int(std::min<std::int64_t>(slices, INT_MAX))).arg(what)
                                         + tr(" under %n name(s)", nullptr, int(table.rowCount())));
                        m_table->setTable(std::move(table));
                    });
}

void SelectionPanel::waitForSummary()
{
    m_summary.waitForFinished();
    QCoreApplication::sendPostedEvents();
}

} // namespace rankscope
