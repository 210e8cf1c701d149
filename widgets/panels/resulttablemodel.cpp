#include "panels/resulttablemodel.h"

#include "common/plaintext.h"
#include "core/units.h"

#include "theme/theme.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QTextDocument>

#include <cmath>

namespace rankscope {

namespace {

// The exported digits with thousands grouped: 4004667.3 reads 4,004,667.3.
QString groupedNumber(const Cell &cell)
{
    if (cell.type == Cell::Type::Integer)
        return formatInteger(cell.integer);
    const QString text = cell.display();
    const qsizetype point = text.indexOf(QLatin1Char('.'));
    const QString whole = point < 0 ? text : text.left(point);
    bool ok = false;
    const qlonglong value = whole.toLongLong(&ok);
    if (!ok) // inf, nan or beyond 64 bits: as exported
        return text;
    const QString grouped = formatInteger(value);
    const QString sign = whole.startsWith(QLatin1Char('-')) && value == 0 ? QStringLiteral("-") : QString();
    return sign + grouped + (point < 0 ? QString() : text.mid(point));
}

} // namespace

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
    const bool readableNumber = m_readable && cell.isNumber();
    const bool nanoseconds = isNanosecondColumn(index.column());
    switch (role) {
    case Qt::DisplayRole:
        if (!readableNumber)
            return cell.display();
        if (nanoseconds) // a mean of nanoseconds reads as a duration; its fraction is in the tooltip
            return formatDuration(cell.type == Cell::Type::Integer ? cell.integer : TimeNs(std::llround(cell.decimal)));
        return groupedNumber(cell);
    case Qt::ToolTipRole:
        if (readableNumber) // the exact value, as exported
            return groupedNumber(cell) + (nanoseconds ? QStringLiteral(" ns") : QString());
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
