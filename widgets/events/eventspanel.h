#pragma once
// The Events dock: the events of the timeline row last clicked (its label
// or one of its events), within the selected range when there is one,
// as a sortable table. Selecting a line selects the event on the timeline.
#include "events/eventstablemodel.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace rankscope {

class EventsPanel : public QWidget {
    Q_OBJECT
public:
    explicit EventsPanel(QWidget *parent = nullptr);

    void setSession(std::shared_ptr<const Session> session);
    // The row to list: its rank, tracks and name ("Rank 0 / CUDA HW … / Stream 7").
    void showRow(int rank, std::vector<std::uint32_t> tracks, const QString &name);
    void setRange(std::optional<TimeRange> range);
    // Whether the listed row draws the event's track.
    bool lists(const EventLocation &event) const;
    // Follows the timeline's selection: marks the event's line if listed.
    void markEvent(const std::optional<EventLocation> &event);

    const EventsTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    const QString &rowName() const { return m_rowName; }

signals:
    void eventActivated(rankscope::EventLocation event);

private:
    void refresh();

    std::shared_ptr<const Session> m_session;
    int m_rank = -1;
    std::vector<std::uint32_t> m_tracks;
    QString m_rowName;
    std::optional<TimeRange> m_range;
    QLabel *m_title;
    QTableView *m_table;
    EventsTableModel *m_model;
    bool m_marking = false; // selection set from the timeline, not by the user
};

} // namespace rankscope
