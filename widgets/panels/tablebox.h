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
};

} // namespace rankscope
