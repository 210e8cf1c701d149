#include "stats/resulttable.h"

#include "core/report.h"
#include "core/untrustedtext.h"
#include "stats/sqlround.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <simdjson.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>

namespace rankscope {

QString Cell::display() const
{
    switch (type) {
    case Type::Empty:
        return {};
    case Type::Integer:
        return QString::number(integer);
    case Type::Decimal:
        return tiesToEven ? formatRoundedHalfEven(decimal, decimals) : formatRounded(decimal, decimals);
    case Type::Text:
        return text;
    }
    return {};
}

namespace {

// What a cell's byte says: its type in bits 0-1; a decimal's places in
// bits 2-6 and round-half-even in bit 7; a text's kind in bits 2-3 (a
// report's string, a computed one, or the table's own).
constexpr std::uint8_t kTypeBits = 0x3;
constexpr std::uint8_t kTiesToEvenBit = 0x80;
constexpr std::uint8_t kReportTextBit = 0x4;
// A computed text comes with its cell as read (CellRead): no value.
constexpr std::uint8_t kComputedTextBit = 0x8;
// An owned text's value: its offset in the table's buffer << 24 | its
// length; a length of kLongText means the length is the 8 bytes before it.
constexpr std::uint64_t kLongText = 0xFFFFFF;
// A report text's value: id | prefix slot << 32 | source slot << 48.
constexpr std::uint32_t kMaxSlots = 0xFFFF;
// Owned texts up to this long are stored once, the first so many of them
// (a critical path's 10^7 rows name a few hundred kernels of ~200 bytes;
// a table of distinct texts hashes each and keeps no more than 4 MB of keys).
constexpr std::size_t kShortText = 1024;
constexpr qsizetype kMaxShortTexts = 4096;

Cell::Type typeOf(std::uint8_t format)
{
    return Cell::Type(format & kTypeBits);
}

std::uint8_t decimalFormat(int places, bool tiesToEven)
{
    return std::uint8_t(std::uint8_t(Cell::Type::Decimal) | std::uint8_t(std::clamp(places, 0, 17)) << 2 | (tiesToEven ? kTiesToEvenBit : 0));
}

// Lexicographic order of a + b against c + d, bytewise (memcmp over the
// overlapping stretches of the pieces).
int compareJoined(std::string_view a, std::string_view b, std::string_view c, std::string_view d)
{
    std::string_view left[2] = {a, b}, right[2] = {c, d};
    int l = 0, r = 0;
    while (true) {
        while (l < 2 && left[l].empty())
            ++l;
        while (r < 2 && right[r].empty())
            ++r;
        if (l == 2 || r == 2)
            return l == 2 ? (r == 2 ? 0 : -1) : 1;
        const std::size_t n = std::min(left[l].size(), right[r].size());
        if (const int order = std::memcmp(left[l].data(), right[r].data(), n); order != 0)
            return order < 0 ? -1 : 1;
        left[l].remove_prefix(n);
        right[r].remove_prefix(n);
    }
}

} // namespace

ResultTable ResultTable::computed(std::shared_ptr<const ComputedCells> cells, std::vector<std::uint32_t> keys)
{
    ResultTable table;
    if (keys.empty()) // a table without rows has no columns
        return table;
    table.m_computedColumns = std::min<std::size_t>(cells->columnCount(), 0xFF);
    table.m_computed = std::move(cells);
    table.m_rowCount = keys.size();
    table.m_keys = std::move(keys);
    table.m_columns.resize(table.m_computedColumns);
    return table;
}

ResultTable::CellRead ResultTable::read(std::size_t row, std::size_t column) const
{
    if (column < m_computedColumns) {
        const ComputedCells::Value v = m_computed->valueAt(m_keys[row], column);
        switch (v.type) {
        case Cell::Type::Empty:
            break;
        case Cell::Type::Integer:
            return {std::uint64_t(v.integer), std::uint8_t(Cell::Type::Integer), {}};
        case Cell::Type::Decimal:
            return {std::bit_cast<std::uint64_t>(v.decimal), decimalFormat(v.decimals, false), {}};
        case Cell::Type::Text:
            return {0, std::uint8_t(std::uint8_t(Cell::Type::Text) | kComputedTextBit), v.text};
        }
        return {0, std::uint8_t(Cell::Type::Empty), {}};
    }
    if (column < m_columns.size())
        return {m_columns[column].values[row], m_columns[column].formats[row], {}};
    return {0, std::uint8_t(Cell::Type::Empty), {}};
}

std::pair<std::uint64_t, std::uint8_t> ResultTable::valueAt(std::size_t row, std::size_t column) const
{
    const CellRead cell = read(row, column);
    return {cell.value, cell.format};
}

void ResultTable::willRead(std::size_t row) const
{
    // As many rows as a fetch of each keeps in the caches: a few lines a row.
    constexpr std::size_t kRowsAhead = 256;
    if (m_computed && row % kRowsAhead == 0)
        m_computed->willRead(std::span(m_keys).subspan(row, std::min(kRowsAhead, m_rowCount - row)));
}

void ResultTable::storeComputedCells()
{
    if (!m_computed)
        return;
    for (std::size_t column = 0; column < m_computedColumns; ++column) {
        Column stored;
        stored.values.resize(m_rowCount);
        stored.formats.resize(m_rowCount);
        for (std::size_t row = 0; row < m_rowCount; ++row) {
            willRead(row);
            const CellRead cell = read(row, column);
            auto [value, format, computedText] = cell;
            if (typeOf(format) == Cell::Type::Text && (format & kComputedTextBit)) {
                const auto [prefix, body] = computedText;
                std::string text(prefix);
                text += body;
                value = ownText(text);
                format = std::uint8_t(Cell::Type::Text);
            }
            stored.values[row] = value;
            stored.formats[row] = format;
        }
        m_columns[column] = std::move(stored);
    }
    m_computed.reset();
    m_computedColumns = 0;
    m_keys = {};
}

ResultTable::Column &ResultTable::columnFor(std::size_t column)
{
    while (m_columns.size() <= column) {
        Column &added = m_columns.emplace_back();
        added.values.reserve(m_columns.front().values.capacity());
        added.formats.reserve(m_columns.front().formats.capacity());
        added.values.resize(m_rowCount, 0);
        added.formats.resize(m_rowCount, std::uint8_t(Cell::Type::Empty));
    }
    return m_columns[column];
}

void ResultTable::put(std::size_t row, std::size_t column, std::uint64_t value, std::uint8_t format)
{
    if (column < m_computedColumns)
        storeComputedCells();
    Column &c = columnFor(column);
    c.values[row] = value;
    c.formats[row] = format;
}

std::size_t ResultTable::appendRow()
{
    storeComputedCells();
    for (Column &c : m_columns) {
        c.values.push_back(0);
        c.formats.push_back(std::uint8_t(Cell::Type::Empty));
    }
    return m_rowCount++;
}

void ResultTable::reserveRows(std::size_t rows)
{
    for (std::size_t column = m_computedColumns; column < m_columns.size(); ++column) {
        Column &c = m_columns[column];
        c.values.reserve(rows);
        c.formats.reserve(rows);
    }
    if (m_columns.empty()) { // the first column takes it; columnFor() passes it on
        columnFor(0).values.reserve(rows);
        m_columns[0].formats.reserve(rows);
    }
}

void ResultTable::addRow(std::initializer_list<Cell> cells)
{
    const std::size_t row = appendRow();
    std::size_t column = 0;
    for (const Cell &cell : cells)
        set(row, column++, cell);
}

void ResultTable::addRow(const std::vector<Cell> &cells)
{
    const std::size_t row = appendRow();
    for (std::size_t column = 0; column < cells.size(); ++column)
        set(row, column, cells[column]);
}

void ResultTable::set(std::size_t row, std::size_t column, const Cell &cell)
{
    switch (cell.type) {
    case Cell::Type::Empty:
        put(row, column, 0, std::uint8_t(Cell::Type::Empty));
        break;
    case Cell::Type::Integer:
        setInteger(row, column, cell.integer);
        break;
    case Cell::Type::Decimal:
        setDecimal(row, column, cell.decimal, cell.decimals, cell.tiesToEven);
        break;
    case Cell::Type::Text:
        setText(row, column, QStringView(cell.text));
        break;
    }
}

void ResultTable::setInteger(std::size_t row, std::size_t column, std::int64_t value)
{
    put(row, column, std::uint64_t(value), std::uint8_t(Cell::Type::Integer));
}

void ResultTable::setDecimal(std::size_t row, std::size_t column, double value, int places, bool tiesToEven)
{
    put(row, column, std::bit_cast<std::uint64_t>(value), decimalFormat(places, tiesToEven));
}

void ResultTable::setText(std::size_t row, std::size_t column, QStringView text)
{
    const QByteArray utf8 = text.toUtf8();
    setText(row, column, std::string_view(utf8.constData(), std::size_t(utf8.size())));
}

void ResultTable::setText(std::size_t row, std::size_t column, std::string_view utf8)
{
    put(row, column, ownText(utf8), std::uint8_t(Cell::Type::Text));
}

std::uint64_t ResultTable::ownText(std::string_view utf8)
{
    const bool isShort = utf8.size() <= kShortText;
    if (isShort && m_lastShortValue != ~std::uint64_t(0) && utf8 == m_lastShortText)
        return m_lastShortValue;
    if (isShort) {
        const QByteArray key = QByteArray::fromRawData(utf8.data(), qsizetype(utf8.size()));
        if (const auto it = m_shortTexts.constFind(key); it != m_shortTexts.cend()) {
            m_lastShortText.assign(utf8);
            m_lastShortValue = *it;
            return *it;
        }
    }
    std::uint64_t length = utf8.size();
    if (length >= kLongText) {
        m_text.append(reinterpret_cast<const char *>(&length), sizeof length);
        length = kLongText;
    }
    const std::uint64_t value = std::uint64_t(m_text.size()) << 24 | length;
    m_text.append(utf8);
    if (isShort && m_shortTexts.size() < kMaxShortTexts) {
        m_shortTexts.insert(QByteArray(utf8.data(), qsizetype(utf8.size())), value);
        m_lastShortText.assign(utf8);
        m_lastShortValue = value;
    }
    return value;
}

std::uint32_t ResultTable::prefixSlot(std::string_view prefix)
{
    if (prefix.empty())
        return 0;
    for (std::size_t i = m_prefixes.size(); i-- > 0;)
        if (m_prefixes[i] == prefix)
            return std::uint32_t(i + 1);
    if (m_prefixes.size() >= kMaxSlots - 1)
        return kMaxSlots;
    m_prefixes.emplace_back(prefix);
    return std::uint32_t(m_prefixes.size());
}

std::uint32_t ResultTable::sourceSlot(const Report &report)
{
    for (std::size_t i = m_sources.size(); i-- > 0;)
        if (m_sources[i].get() == &report)
            return std::uint32_t(i);
    std::shared_ptr<const Report> owner = report.weak_from_this().lock();
    if (!owner || m_sources.size() >= kMaxSlots)
        return ~0u;
    m_sources.push_back(std::move(owner));
    return std::uint32_t(m_sources.size() - 1);
}

void ResultTable::setReportText(std::size_t row, std::size_t column, const Report &report, StringId id, std::string_view prefix)
{
    const std::uint32_t source = sourceSlot(report);
    const std::uint32_t slot = source == ~0u ? kMaxSlots : prefixSlot(prefix);
    if (source == ~0u || slot == kMaxSlots) { // too many to name: a copy
        std::string text(prefix);
        text += report.strings.view(id);
        setText(row, column, std::string_view(text));
        return;
    }
    put(row, column, std::uint64_t(id) | std::uint64_t(slot) << 32 | std::uint64_t(source) << 48,
        std::uint8_t(std::uint8_t(Cell::Type::Text) | kReportTextBit));
}

ResultTable::TextPieces ResultTable::textPieces(const CellRead &cell) const
{
    const auto [value, format, computedText] = cell;
    if (format & kComputedTextBit)
        return computedText;
    if (format & kReportTextBit) {
        const auto slot = std::uint32_t(value >> 32 & kMaxSlots);
        const std::string_view prefix = slot ? std::string_view(m_prefixes[slot - 1]) : std::string_view();
        return {prefix, m_sources[std::size_t(value >> 48)]->strings.view(StringId(value))};
    }
    std::size_t offset = std::size_t(value >> 24);
    std::uint64_t length = value & kLongText;
    if (length == kLongText) {
        std::memcpy(&length, m_text.data() + offset - sizeof length, sizeof length);
    }
    return {{}, std::string_view(m_text).substr(offset, std::size_t(length))};
}

Cell::Type ResultTable::typeAt(std::size_t row, std::size_t column) const
{
    return typeOf(valueAt(row, column).second);
}

std::int64_t ResultTable::integerAt(std::size_t row, std::size_t column) const
{
    const auto [value, format] = valueAt(row, column);
    return typeOf(format) == Cell::Type::Integer ? std::int64_t(value) : 0;
}

double ResultTable::numberAt(std::size_t row, std::size_t column) const
{
    const auto [value, format] = valueAt(row, column);
    switch (typeOf(format)) {
    case Cell::Type::Integer:
        return double(std::int64_t(value));
    case Cell::Type::Decimal:
        return std::bit_cast<double>(value);
    default:
        return 0.0;
    }
}

Cell ResultTable::cell(std::size_t row, std::size_t column) const
{
    const CellRead read = this->read(row, column);
    const auto [value, format, computedText] = read;
    switch (typeOf(format)) {
    case Cell::Type::Empty:
        return {};
    case Cell::Type::Integer:
        return Cell::ofInteger(std::int64_t(value));
    case Cell::Type::Decimal: {
        Cell c = Cell::ofDecimal(std::bit_cast<double>(value), format >> 2 & 0x1F);
        c.tiesToEven = format & kTiesToEvenBit;
        return c;
    }
    case Cell::Type::Text: {
        const auto [prefix, body] = textPieces(read);
        QString text = QString::fromUtf8(prefix.data(), qsizetype(prefix.size()));
        text += QString::fromUtf8(body.data(), qsizetype(body.size()));
        return Cell::ofText(std::move(text));
    }
    }
    return {};
}

std::vector<Cell> ResultTable::row(std::size_t row) const
{
    std::vector<Cell> cells;
    cells.reserve(columnCount());
    for (std::size_t c = 0; c < columnCount(); ++c)
        cells.push_back(cell(row, c));
    return cells;
}

std::vector<std::vector<Cell>> ResultTable::allRows() const
{
    std::vector<std::vector<Cell>> rows;
    rows.reserve(m_rowCount);
    for (std::size_t r = 0; r < m_rowCount; ++r)
        rows.push_back(row(r));
    return rows;
}

ResultTable::TextPieces ResultTable::textAt(std::size_t row, std::size_t column) const
{
    const CellRead cell = read(row, column);
    if (typeOf(cell.format) != Cell::Type::Text)
        return {};
    return textPieces(cell);
}

int ResultTable::compareTexts(const TextPieces &a, const TextPieces &b)
{
    return compareJoined(a.first, a.second, b.first, b.second);
}

void ResultTable::sortRows(const std::function<bool(std::size_t, std::size_t)> &before)
{
    std::vector<std::uint32_t> order(m_rowCount);
    for (std::size_t i = 0; i < m_rowCount; ++i)
        order[i] = std::uint32_t(i);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return before(a, b); });
    reorderRows(order);
}

void ResultTable::reorderRows(const std::vector<std::uint32_t> &order)
{
    // Column by column: the moved copy is one column's, not the table's.
    if (m_computed) {
        std::vector<std::uint32_t> keys(m_rowCount);
        for (std::size_t i = 0; i < m_rowCount; ++i)
            keys[i] = m_keys[order[i]];
        m_keys = std::move(keys);
    }
    for (std::size_t column = m_computedColumns; column < m_columns.size(); ++column) {
        Column &c = m_columns[column];
        std::vector<std::uint64_t> values(m_rowCount);
        for (std::size_t i = 0; i < m_rowCount; ++i)
            values[i] = c.values[order[i]];
        c.values = std::move(values);
        std::vector<std::uint8_t> formats(m_rowCount);
        for (std::size_t i = 0; i < m_rowCount; ++i)
            formats[i] = c.formats[order[i]];
        c.formats = std::move(formats);
    }
}

void ResultTable::truncateRows(std::size_t count)
{
    if (count >= m_rowCount)
        return;
    m_rowCount = count;
    if (m_computed) {
        m_keys.resize(count);
        m_keys.shrink_to_fit();
    }
    for (std::size_t column = m_computedColumns; column < m_columns.size(); ++column) {
        Column &c = m_columns[column];
        c.values.resize(count);
        c.formats.resize(count);
    }
}

std::size_t ResultTable::memoryBytes() const
{
    std::size_t bytes = m_text.capacity() + m_keys.capacity() * sizeof(std::uint32_t);
    for (const Column &c : m_columns)
        bytes += c.values.capacity() * sizeof(std::uint64_t) + c.formats.capacity();
    return bytes;
}

namespace {

// Appends a field as Python csv's QUOTE_MINIMAL writes it, which nsys
// uses: quoted when it holds the delimiter, a quote or a line break, with
// the quotes inside doubled.
void appendCsvField(QString &out, const QString &field)
{
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) && !field.contains(QLatin1Char('\n'))
        && !field.contains(QLatin1Char('\r'))) {
        out += field;
        return;
    }
    QString quoted = field;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    out += QLatin1Char('"') + quoted + QLatin1Char('"');
}

// A text cell as CSV writes it (CsvCells).
QString csvText(const QString &text, CsvCells cells)
{
    return cells == CsvCells::Safe ? spreadsheetSafe(terminalSafe(text, false)) : text;
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
            out.resize(0); // keeps its capacity (clear() would free it)
        }
    };
    appendLine(headers.size(), [this, cells](qsizetype i) { return csvText(headers[i], cells); });
    // Every row has a cell per header: a column no row filled is empty, not left out.
    const std::size_t width = std::max(columnCount(), std::size_t(headers.size()));
    for (std::size_t row = 0; row < m_rowCount; ++row) {
        willRead(row);
        appendLine(qsizetype(width), [this, row, cells](qsizetype i) {
            const Cell cell = this->cell(row, std::size_t(i));
            // Only text can be a formula: a negative number stays a number.
            return cell.type == Cell::Type::Text ? csvText(cell.text, cells) : cell.display();
        });
    }
    if (!out.isEmpty())
        write(out);
}

namespace {

// The UTF-8 twin of appendCsvField() and spreadsheetSafe(), on a text's
// pieces.
void appendCsvText(QByteArray &out, std::string_view prefix, std::string_view body, CsvCells cells)
{
    const std::string_view first = prefix.empty() ? body : prefix;
    const bool formula = cells == CsvCells::Safe && !first.empty() && std::string_view("=+-@\t\r").find(first.front()) != std::string_view::npos;
    auto needsQuotes = [](std::string_view s) { return s.find_first_of(",\"\n\r") != std::string_view::npos; };
    const bool quoted = needsQuotes(prefix) || needsQuotes(body);
    if (quoted)
        out += '"';
    if (formula)
        out += '\'';
    for (const std::string_view piece : {prefix, body}) {
        if (!quoted) {
            out.append(piece.data(), qsizetype(piece.size()));
            continue;
        }
        for (const char c : piece) {
            if (c == '"')
                out += '"';
            out += c;
        }
    }
    if (quoted)
        out += '"';
}

} // namespace

bool ResultTable::writeCsv(QIODevice &device, CsvCells cells) const
{
    // Written from the columns as UTF-8: a report's strings are UTF-8
    // already, and an nvtx_sum of 10^7 rows would otherwise make a QString
    // of every cell. The text is the same as toCsv()'s.
    QByteArray out;
    constexpr qsizetype kChunk = 1 << 20;
    out.reserve(kChunk + 4096);
    bool ok = true;
    auto flushIfFull = [&](bool always) {
        if (out.size() >= kChunk || (always && !out.isEmpty())) {
            ok = ok && device.write(out) == out.size();
            out.resize(0); // keeps its capacity (clear() would free it)
        }
    };
    for (qsizetype i = 0; i < headers.size(); ++i) {
        if (i)
            out += ',';
        QString field;
        appendCsvField(field, csvText(headers[i], cells));
        out += field.toUtf8();
    }
    out += '\n';
    char number[32];
    const std::size_t width = std::max(columnCount(), std::size_t(headers.size())); // as toCsv()
    for (std::size_t row = 0; row < m_rowCount; ++row) {
        willRead(row);
        for (std::size_t c = 0; c < width; ++c) {
            if (c)
                out += ',';
            const CellRead read = this->read(row, c);
            const auto [value, format, computedText] = read;
            switch (typeOf(format)) {
            case Cell::Type::Empty:
                break;
            case Cell::Type::Integer: {
                const auto end = std::to_chars(number, number + sizeof number, std::int64_t(value)).ptr;
                out.append(number, end - number);
                break;
            }
            case Cell::Type::Decimal:
                appendRounded(out, std::bit_cast<double>(value), format >> 2 & 0x1F, format & kTiesToEvenBit);
                break;
            case Cell::Type::Text: {
                const auto [prefix, body] = textPieces(read);
                // Bytes that are not UTF-8 go as toCsv() writes them (each
                // a U+FFFD), and names with controls escaped as it escapes
                // them: through a QString.
                if (simdjson::validate_utf8(prefix.data(), prefix.size()) && simdjson::validate_utf8(body.data(), body.size())
                    && (cells == CsvCells::Raw || (!needsTerminalEscaping(prefix, false) && !needsTerminalEscaping(body, false)))) {
                    appendCsvText(out, prefix, body, cells);
                } else {
                    QString field;
                    appendCsvField(field, csvText(cell(row, c).text, cells));
                    out += field.toUtf8();
                }
                break;
            }
            }
        }
        out += '\n';
        flushIfFull(false);
    }
    flushIfFull(true);
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
    for (std::size_t row = 0; row < m_rowCount; ++row)
        for (std::size_t c = 0; c < columnCount() && c < width.size(); ++c)
            width[c] = std::max(width[c], shown(cell(row, c)).size());
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
    for (std::size_t row = 0; row < m_rowCount; ++row)
        line([&](std::size_t c) { return shown(cell(row, c)); }, [&](std::size_t c) { return cell(row, c).isNumber(); });
    return out;
}

QString ResultTable::toJson() const
{
    QJsonArray array;
    for (std::size_t row = 0; row < m_rowCount; ++row) {
        willRead(row);
        QJsonObject object;
        for (std::size_t c = 0; c < columnCount() && c < std::size_t(headers.size()); ++c) {
            const Cell cell = this->cell(row, c);
            const QString &key = headers[qsizetype(c)];
            switch (cell.type) {
            case Cell::Type::Empty:
                object.insert(key, QJsonValue::Null);
                break;
            case Cell::Type::Integer:
                object.insert(key, QJsonValue(qint64(cell.integer)));
                break;
            case Cell::Type::Decimal:
                object.insert(key, cell.display().toDouble());
                break;
            case Cell::Type::Text:
                object.insert(key, cell.text);
                break;
            }
        }
        array.append(object);
    }
    return jsonTerminalSafe(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
}

namespace {

QDataStream &operator<<(QDataStream &out, const Cell &cell)
{
    out << quint8(cell.type) << cell.decimals << cell.tiesToEven;
    switch (cell.type) {
    case Cell::Type::Empty:
        break;
    case Cell::Type::Integer:
        out << qint64(cell.integer);
        break;
    case Cell::Type::Decimal:
        out << cell.decimal;
        break;
    case Cell::Type::Text:
        out << cell.text;
        break;
    }
    return out;
}

QDataStream &operator>>(QDataStream &in, Cell &cell)
{
    quint8 type = 0, decimals = 0;
    bool tiesToEven = false;
    in >> type >> decimals >> tiesToEven;
    switch (type) {
    case quint8(Cell::Type::Empty):
        cell = Cell();
        break;
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
    default:
        in.setStatus(QDataStream::ReadCorruptData);
        break;
    }
    cell.decimals = decimals;
    cell.tiesToEven = tiesToEven;
    return in;
}

} // namespace

QDataStream &operator<<(QDataStream &out, const ResultTable &table)
{
    out << table.name << table.title << table.headers << table.notes << quint64(table.rowCount());
    for (std::size_t row = 0; row < table.rowCount(); ++row) {
        out << quint32(table.columnCount());
        for (std::size_t column = 0; column < table.columnCount(); ++column)
            out << table.cell(row, column);
    }
    return out;
}

QDataStream &operator>>(QDataStream &in, ResultTable &table)
{
    quint64 rows = 0;
    in >> table.name >> table.title >> table.headers >> table.notes >> rows;
    ResultTable read;
    read.name = std::move(table.name);
    read.title = std::move(table.title);
    read.headers = std::move(table.headers);
    read.notes = std::move(table.notes);
    table = std::move(read);
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
        table.addRow(row);
    }
    return in;
}

} // namespace rankscope
