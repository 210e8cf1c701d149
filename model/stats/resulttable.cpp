#include "stats/resulttable.h"

#include "stats/sqlround.h"
#include "core/untrustedtext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace rankscope {

QString Cell::display() const
{
    switch (type) {
    case Type::Empty: return {};
    case Type::Integer: return QString::number(integer);
    case Type::Decimal: return tiesToEven ? formatRoundedHalfEven(decimal, decimals) : formatRounded(decimal, decimals);
    case Type::Text: return text;
    }
    return {};
}

namespace {

// Appends a field as Python csv's QUOTE_MINIMAL writes it, which nsys
// uses: quoted when it holds the delimiter, a quote or a line break, with
// the quotes inside doubled.
void appendCsvField(QString &out, const QString &field)
{
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"'))
        && !field.contains(QLatin1Char('\n')) && !field.contains(QLatin1Char('\r'))) {
        out += field;
        return;
    }
    QString quoted = field;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    out += QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

void ResultTable::writeCsv(const std::function<void(const QString &)> &write, qsizetype chunkChars, CsvCells cells) const
{
    // Lines are gathered into one buffer, handed over when it passes
    // chunkChars: an nvtx_sum of an emit_nvtx export can have millions of
    // rows, and its whole text (UTF-16, then UTF-8) would cost gigabytes.
    QString out;
    auto appendLine = [&](qsizetype count, auto fieldAt) {
        for (qsizetype i = 0; i < count; ++i) {
            if (i)
                out += QLatin1Char(',');
            appendCsvField(out, fieldAt(i));
        }
        out += QLatin1Char('\n');
        if (out.size() >= chunkChars) {
            write(out);
            out.clear(); // keeps its capacity
        }
    };
    appendLine(headers.size(), [this](qsizetype i) { return headers[i]; });
    for (const auto &row : rows)
        appendLine(qsizetype(row.size()), [&row, cells](qsizetype i) {
            const Cell &cell = row[std::size_t(i)];
            // Only text can be a formula: a negative number stays a number.
            return cells == CsvCells::SpreadsheetSafe && cell.type == Cell::Type::Text ? spreadsheetSafe(cell.text) : cell.display();
        });
    if (!out.isEmpty())
        write(out);
}

bool ResultTable::writeCsv(QIODevice &device, CsvCells cells) const
{
    bool ok = true;
    writeCsv([&](const QString &chunk) { ok = ok && device.write(chunk.toUtf8()) >= 0; }, 1 << 20, cells);
    return ok;
}

QString ResultTable::toCsv(CsvCells cells) const
{
    QString text;
    writeCsv([&text](const QString &chunk) { text += chunk; }, 1 << 16, cells);
    return text;
}

QString ResultTable::toText() const
{
    // A table for a terminal: a name's line breaks and escape sequences
    // are shown, not acted on (they would also break the columns).
    auto shown = [](const Cell &cell) { return cell.type == Cell::Type::Text ? terminalSafe(cell.text, false) : cell.display(); };
    std::vector<qsizetype> width(std::size_t(headers.size()), 0);
    for (qsizetype c = 0; c < headers.size(); ++c)
        width[std::size_t(c)] = headers[c].size();
    for (const auto &row : rows)
        for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], shown(row[c]).size());
    QString out;
    auto line = [&](auto cellText, auto isNumber) {
        QStringList parts;
        for (std::size_t c = 0; c < width.size(); ++c) {
            const QString t = cellText(c);
            parts << (isNumber(c) ? t.rightJustified(width[c]) : t.leftJustified(width[c]));
        }
        QString text = parts.join(QLatin1String("  "));
        while (text.endsWith(QLatin1Char(' ')))
            text.chop(1);
        out += text + QLatin1Char('\n');
    };
    line([&](std::size_t c) { return headers[qsizetype(c)]; }, [](std::size_t) { return false; });
    QStringList rules;
    for (qsizetype w : width)
        rules << QString(w, QLatin1Char('-'));
    out += rules.join(QLatin1String("  ")) + QLatin1Char('\n');
    for (const auto &row : rows)
        line([&](std::size_t c) { return c < row.size() ? shown(row[c]) : QString(); },
             [&](std::size_t c) { return c < row.size() && row[c].isNumber(); });
    return out;
}

QString ResultTable::toJson() const
{
    QJsonArray array;
    for (const auto &row : rows) {
        QJsonObject object;
        for (std::size_t c = 0; c < row.size() && c < std::size_t(headers.size()); ++c) {
            const Cell &cell = row[c];
            const QString &key = headers[qsizetype(c)];
            switch (cell.type) {
            case Cell::Type::Empty: object.insert(key, QJsonValue::Null); break;
            case Cell::Type::Integer: object.insert(key, QJsonValue(qint64(cell.integer))); break;
            case Cell::Type::Decimal: object.insert(key, cell.display().toDouble()); break;
            case Cell::Type::Text: object.insert(key, cell.text); break;
            }
        }
        array.append(object);
    }
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented));
}

namespace {

QDataStream &operator<<(QDataStream &out, const Cell &cell)
{
    out << quint8(cell.type) << cell.decimals << cell.tiesToEven;
    switch (cell.type) {
    case Cell::Type::Empty: break;
    case Cell::Type::Integer: out << qint64(cell.integer); break;
    case Cell::Type::Decimal: out << cell.decimal; break;
    case Cell::Type::Text: out << cell.text; break;
    }
    return out;
}

QDataStream &operator>>(QDataStream &in, Cell &cell)
{
    quint8 type = 0, decimals = 0;
    bool tiesToEven = false;
    in >> type >> decimals >> tiesToEven;
    switch (type) {
    case quint8(Cell::Type::Empty): cell = Cell(); break;
    case quint8(Cell::Type::Integer): {
        qint64 v = 0;
        in >> v;
        cell = Cell::ofInteger(v);
        break;
    }
    case quint8(Cell::Type::Decimal): {
        double v = 0;
        in >> v;
        cell = Cell::ofDecimal(v, 0);
        break;
    }
    case quint8(Cell::Type::Text): {
        QString text;
        in >> text;
        cell = Cell::ofText(std::move(text));
        break;
    }
    default: in.setStatus(QDataStream::ReadCorruptData); break;
    }
    cell.decimals = decimals;
    cell.tiesToEven = tiesToEven;
    return in;
}

} // namespace

QDataStream &operator<<(QDataStream &out, const ResultTable &table)
{
    out << table.name << table.title << table.headers << table.notes << quint64(table.rows.size());
    for (const std::vector<Cell> &row : table.rows) {
        out << quint32(row.size());
        for (const Cell &cell : row)
            out << cell;
    }
    return out;
}

QDataStream &operator>>(QDataStream &in, ResultTable &table)
{
    quint64 rows = 0;
    in >> table.name >> table.title >> table.headers >> table.notes >> rows;
    table.rows.clear();
    // Grown as read: a damaged count allocates only what is there.
    for (quint64 r = 0; r < rows && in.status() == QDataStream::Ok; ++r) {
        quint32 cells = 0;
        in >> cells;
        std::vector<Cell> row;
        for (quint32 c = 0; c < cells && in.status() == QDataStream::Ok; ++c) {
            Cell cell;
            in >> cell;
            row.push_back(std::move(cell));
        }
        table.rows.push_back(std::move(row));
    }
    return in;
}

} // namespace rankscope
