#pragma once
// Nsight Systems' Events View: the events of one timeline row, optionally
// only those inside the selected range, one table row each: name, start,
// duration and the columns of the row's kind (grid and block for kernels,
// size and throughput for copies, ...). Sorting is done here on typed keys,
// not through a proxy, so a row of a million kernels sorts in well under a
// second; cells are formatted only when shown.
#include "session/session.h"

#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <vector>

namespace rankscope {

class EventsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    // The events of `tracks` of rank `rank` overlapping `range` (session
    // time; everything when empty), in start order.
    void setEvents(std::shared_ptr<const Session> session, int rank, std::vector<std::uint32_t> tracks, std::optional<TimeRange> range);
    void clear();
    EventLocation eventAt(int row) const;
    // The table row showing `event`, or -1.
    int rowOf(const EventLocation &event) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;

    enum class Column : std::uint8_t {
        Name,
        Start,
        Duration,
        Kind,
        Grid,
        Block,
        Stream, // kernels
        Size,
        Direction,
        Memory,
        Throughput,  // copies (size also memsets)
        Correlation, // CUDA API calls
        Depth,       // nested ranges
    };
    const std::vector<Column> &columns() const { return m_columns; }

private:
    // What cells show (Qt::DisplayRole) and sort by.
    QString text(const EventLocation &e, Column c) const;
    double number(const EventLocation &e, Column c) const; // NaN: not numeric
    void chooseColumns();

    std::shared_ptr<const Session> m_session;
    int m_rank = -1;
    std::vector<std::uint32_t> m_tracks;
    struct Entry {
        std::uint32_t trackSlot;
        std::uint32_t event;
    };
    std::vector<Entry> m_entries;
    std::vector<Column> m_columns;
};

} // namespace rankscope
