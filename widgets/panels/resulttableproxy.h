#pragma once
// The filtered, sortable view of a ResultTableModel: a click on a header
// sorts by the table's own values (numbers as numbers, texts by their
// UTF-8 bytes) read from its columns, not by a QVariant and a QString made
// for every comparison: an NVTX summary of 195,000 ranges took 3.3 s to
// sort by name that way, 0.6-1.9 s this way (Xvfb, this machine).
#include "panels/resulttablemodel.h"

#include <QSortFilterProxyModel>

namespace rankscope {

class ResultTableProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ResultTableProxy(ResultTableModel *source, QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    const ResultTableModel *m_source;
};

} // namespace rankscope
