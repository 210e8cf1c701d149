#pragma once
// A statistics table as a Qt item model: display text exactly as the CLI
// prints it (the nsys reports read as nsys prints them), or for the
// analysis panels readably (durations in units, counts with their digits
// grouped, the exact value in the tooltip); numbers sortable as numbers
// (Qt::UserRole); optional highlighted cells (the slowest rank of a column).
#include "stats/resulttable.h"

#include <QAbstractTableModel>
#include <set>

namespace rankscope {

class ResultTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole;

    explicit ResultTableModel(QObject *parent = nullptr);
    void setTable(ResultTable table);
    const ResultTable &table() const { return m_table; }
    void setHighlighted(std::set<std::pair<int, int>> cells);
    // Columns "… (ns)" show "3.968 s" under a header without the unit;
    // other integers "3,968,307"; the tooltip says the exact value.
    void setReadable(bool readable);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ResultTable m_table;
    std::set<std::pair<int, int>> m_highlighted;
    bool m_readable = false;
    bool isNanosecondColumn(int column) const;
};

} // namespace rankscope
