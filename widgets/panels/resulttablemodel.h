#pragma once
// A statistics table as a Qt item model: display text exactly as the CLI
// prints it, numbers sortable as numbers (Qt::UserRole), and optional
// highlighted cells (the slowest rank of a column).
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

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ResultTable m_table;
    std::set<std::pair<int, int>> m_highlighted;
};

} // namespace rankscope
