#pragma once
// A titled, sortable, filterable table of statistics with CSV export.
#include "stats/resulttable.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace rankscope {

class ResultTableModel;

class TableBox : public QWidget {
    Q_OBJECT
public:
    explicit TableBox(const QString &title, QWidget *parent = nullptr);
    void setTable(ResultTable table);
    void setTitle(const QString &title);
    ResultTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    bool exportCsv(const QString &path) const;
    // The order a new table is shown in until the user clicks a header:
    // by the column with this header, e.g. "Delay Caused (ns)" descending,
    // so that what matters most is in view. Unset, or no such column: the
    // table's own order.
    void setDefaultSort(const QString &header, Qt::SortOrder order);

signals:
    // A row was double-clicked: its index in the table (not the view).
    void rowActivated(int row);
    void rowSelected(int row);

private:
    QLabel *m_title;
    QLineEdit *m_filter;
    QTableView *m_view;
    ResultTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QString m_defaultSortHeader;
    Qt::SortOrder m_defaultSortOrder = Qt::DescendingOrder;
    bool m_userSorted = false; // a header was clicked: the user's order stays
};

} // namespace rankscope
