#include "panels/resulttablemodel.h"

#include "common/plaintext.h"
#include "core/units.h"

#include "theme/theme.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QTextDocument>

namespace rankscope {

ResultTableModel::ResultTableModel(QObject *parent) : QAbstractTableModel(parent) { }

void ResultTableModel::setTable(ResultTable table)
{
    beginResetModel();
    m_table = std::move(table);
    m_highlighted.clear();
    endResetModel();
}

void ResultTableModel::setHighlighted(std::set<std::pair<int, int>> cells)
{
    m_highlighted = std::move(cells);
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::BackgroundRole});
}

void ResultTableModel::setReadable(bool readable)
{
    beginResetModel();
    m_readable = readable;
    endResetModel();
}

bool ResultTableModel::isNanosecondColumn(int column) const
{
    return column < m_table.headers.size() && m_table.headers[column].endsWith(QLatin1String(" (ns)"));
}

int ResultTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_table.rowCount());
}

int ResultTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_table.headers.size());
}

QVariant ResultTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const Cell cell = m_table.cell(std::size_t(index.row()), std::size_t(index.column()));
    const bool readableInteger = m_readable && cell.type == Cell::Type::Integer;
    switch (role) {
    case Qt::DisplayRole:
        if (readableInteger)
            return isNanosecondColumn(index.column()) ? formatDuration(cell.integer) : formatInteger(cell.integer);
        return cell.display();
    case Qt::ToolTipRole:
        if (readableInteger) // the exact value, as exported
            return formatInteger(cell.integer) + (isNanosecondColumn(index.column()) ? QStringLiteral(" ns") : QString());
        return plainTooltip(cell.display()); // a name is data, not markup
    case SortRole:
        if (cell.type == Cell::Type::Integer)
            return QVariant::fromValue<qlonglong>(cell.integer);
        if (cell.type == Cell::Type::Decimal)
            return cell.decimal;
        return cell.text;
    case Qt::TextAlignmentRole:
        return int((cell.isNumber() ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        if (m_highlighted.count({index.row(), index.column()}))
            return QBrush(Theme(QGuiApplication::palette()).standoutCellBackground());
        return {};
    default:
        return {};
    }
}

QVariant ResultTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if ((role != Qt::DisplayRole && role != Qt::ToolTipRole) || section < 0)
        return {};
    if (orientation == Qt::Horizontal) {
        if (section >= m_table.headers.size())
            return {};
        const QString &header = m_table.headers[section];
        // Readable durations carry their own units; the tooltip keeps the column's name as exported.
        if (role == Qt::DisplayRole && m_readable && isNanosecondColumn(section))
            return header.chopped(5);
        // A column may be named after a file: as a tooltip, never markup.
        return role == Qt::ToolTipRole && Qt::mightBeRichText(header) ? QVariant(plainTooltip(header)) : QVariant(header);
    }
    return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
}

} // namespace rankscope
