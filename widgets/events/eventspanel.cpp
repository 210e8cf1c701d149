#include "events/eventspanel.h"

#include "core/units.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace rankscope {

EventsPanel::EventsPanel(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_table(new QTableView(this)), m_model(new EventsTableModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    layout->addWidget(m_table, 1);
    m_table->setModel(m_model);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // start order until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (!m_marking && current.isValid())
            emit eventActivated(m_model->eventAt(current.row()));
    });
    refresh();
}

void EventsPanel::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    m_rank = -1;
    m_tracks.clear();
    m_rowName.clear();
    m_range.reset();
    refresh();
}

void EventsPanel::showRow(int rank, std::vector<std::uint32_t> tracks, const QString &name)
{
    if (rank == m_rank && tracks == m_tracks)
        return;
    m_rank = rank;
    m_tracks = std::move(tracks);
    m_rowName = name;
    refresh();
}

void EventsPanel::setRange(std::optional<TimeRange> range)
{
    m_range = range;
    refresh();
}

void EventsPanel::refresh()
{
    if (!m_session || m_rank < 0 || m_tracks.empty()) {
        m_model->clear();
        m_title->setText(tr("Click a row's label or one of its events on the timeline to list its events here."));
        return;
    }
    m_model->setEvents(m_session, m_rank, m_tracks, m_range);
    QString scope =
        m_range ? tr("from %1 to %2")
                      .arg(formatTimestamp(m_range->start - m_session->extent().start), formatTimestamp(m_range->end - m_session->extent().start))
                : tr("over the whole session");
    m_title->setText(tr("<b>%1</b>: %2 events %3").arg(m_rowName.toHtmlEscaped(), formatInteger(m_model->rowCount()), scope));
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch); // the name takes the room left
}

bool EventsPanel::lists(const EventLocation &event) const
{
    return event.rank == m_rank && std::find(m_tracks.begin(), m_tracks.end(), event.track) != m_tracks.end();
}

void EventsPanel::markEvent(const std::optional<EventLocation> &event)
{
    const int row = event ? m_model->rowOf(*event) : -1;
    m_marking = true;
    if (row >= 0) {
        m_table->selectRow(row);
        m_table->scrollTo(m_model->index(row, 0));
    } else {
        m_table->clearSelection();
    }
    m_marking = false;
}

} // namespace rankscope
