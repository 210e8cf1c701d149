#include "panels/resulttableproxy.h"

namespace rankscope {

ResultTableProxy::ResultTableProxy(ResultTableModel *source, QObject *parent) : QSortFilterProxyModel(parent), m_source(source)
{
    setSourceModel(source);
}

bool ResultTableProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const ResultTable &table = m_source->table();
    const auto column = std::size_t(left.column());
    const auto a = std::size_t(left.row()), b = std::size_t(right.row());
    const Cell::Type typeA = table.typeAt(a, column), typeB = table.typeAt(b, column);
    // Empty cells first, then numbers, then texts.
    auto rank = [](Cell::Type type) { return type == Cell::Type::Empty ? 0 : type == Cell::Type::Text ? 2 : 1; };
    if (rank(typeA) != rank(typeB))
        return rank(typeA) < rank(typeB);
    if (typeA == Cell::Type::Integer && typeB == Cell::Type::Integer)
        return table.integerAt(a, column) < table.integerAt(b, column); // exact beyond 2^53
    if (rank(typeA) == 1)
        return table.numberAt(a, column) < table.numberAt(b, column);
    if (rank(typeA) == 2)
        return ResultTable::compareTexts(table.textAt(a, column), table.textAt(b, column)) < 0;
    return false;
}

} // namespace rankscope
