#pragma once
// A statistics result: named, typed columns and rows of cells, printable as
// CSV (as `nsys stats --format csv` prints it), an aligned text table or
// JSON. Tables hold values, not text, so a GUI model can sort them.
#include <QDataStream>
#include <QHash>
#include <QIODevice>
#include <QString>
#include <QStringList>

#include "core/stringtable.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope {

struct Report;

struct Cell {
    enum class Type : std::uint8_t { Empty, Integer, Decimal, Text };
    // A cell as a ResultTable gives it (it stores columns, not Cells).
    QString text;
    union {
        std::int64_t integer = 0; // type Integer
        double decimal;           // type Decimal
    };
    Type type = Type::Empty;
    std::uint8_t decimals = 0;
    bool tiesToEven = false; // Python's round() instead of SQLite's

    static Cell ofInteger(std::int64_t v)
    {
        Cell c;
        c.type = Type::Integer;
        c.integer = v;
        return c;
    }
    static Cell ofDecimal(double v, int places)
    {
        Cell c;
        c.type = Type::Decimal;
        c.decimal = v;
        c.decimals = std::uint8_t(std::clamp(places, 0, 17));
        return c;
    }
    static Cell ofPythonDecimal(double v, int places)
    {
        Cell c = ofDecimal(v, places);
        c.tiesToEven = true;
        return c;
    }
    static Cell ofText(QString v)
    {
        Cell c;
        c.type = Type::Text;
        c.text = std::move(v);
        return c;
    }

    bool isNumber() const { return type == Type::Integer || type == Type::Decimal; }
    double toDouble() const { return type == Type::Integer ? double(integer) : decimal; }
    // The value as printed (decimals rounded as SQLite's round() does, or
    // as Python's round() does for tiesToEven).
    QString display() const;
};
static_assert(sizeof(Cell) <= 40);

// How CSV writes text cells. By default (Safe) a name from a trace is made
// inert wherever the CSV goes: control characters a terminal would act on
// (ESC ] 52 sets the clipboard, ESC [ 2J clears the screen, a line break
// fakes a row) are written as \xNN (core/untrustedtext.h: terminalSafe),
// and a cell a spreadsheet would take as a formula (= + - @ first,
// "=HYPERLINK(...)") is written behind a ' (spreadsheetSafe). Raw writes
// every cell as nsys does, for byte-for-byte comparisons (--csv-raw).
enum class CsvCells : std::uint8_t { Safe, Raw };

// Cells a table computes when they are read instead of storing them, from
// a key per row: a summary over mapped index caches has a row per stored
// group (an nvtx_sum of an emit_nvtx export: 10^7 and more), and its numbers
// are in the mapped groups already; stored, its cells cost ~90 B a row.
class ComputedCells {
public:
    using TextPieces = std::pair<std::string_view, std::string_view>;
    struct Value {
        Cell::Type type = Cell::Type::Empty;
        std::uint8_t decimals = 0; // a decimal's places
        std::int64_t integer = 0;
        double decimal = 0.0;
        TextPieces text; // a prefix (possibly empty) and the rest, UTF-8, valid while this object lives
    };
    virtual ~ComputedCells() = default;
    // The columns computed: the table's first ones.
    virtual std::size_t columnCount() const = 0;
    virtual Value valueAt(std::uint32_t key, std::size_t column) const = 0;
    // These rows are read next, in this order: a chance to fetch what they
    // read side by side, as reading them one by one waits for each in turn
    // (rows in sorted order read their groups at random).
    virtual void willRead(std::span<const std::uint32_t> keys) const { (void)keys; }
};

// A table of results, stored by column: each cell is a 64-bit value and a
// byte saying what it is, and a text is either a string of a report (its
// id, with an optional prefix such as an NVTX domain: no copy) or UTF-8 in
// the table's own buffer. An nvtx_sum of an emit_nvtx export has a row per
// range (10^7 rows); as rows of Cells it cost ~650 B a row, as columns
// ~100 B. Cells are made on request (cell(), row()), formatted only when
// written or shown.
class ResultTable {
public:
    QString name;  // report name, e.g. "cuda_gpu_kern_sum"
    QString title; // e.g. "CUDA GPU Kernel Summary"
    QStringList headers;
    // What the reader should know that the rows cannot say (how ranks were
    // matched, what is missing); the CLI prints them on stderr.
    QStringList notes;

    std::size_t rowCount() const { return m_rowCount; }
    // Columns that hold cells (a table without rows has none).
    std::size_t columnCount() const { return m_columns.size(); } // computed ones included
    Cell cell(std::size_t row, std::size_t column) const;
    std::vector<Cell> row(std::size_t row) const;
    // Every row as cells: for small tables (tests, a few ranks' rows).
    std::vector<std::vector<Cell>> allRows() const;
    Cell::Type typeAt(std::size_t row, std::size_t column) const;
    std::int64_t integerAt(std::size_t row, std::size_t column) const; // 0 unless an integer
    double numberAt(std::size_t row, std::size_t column) const;        // 0 unless a number
    // A text cell as its two UTF-8 pieces (a prefix, possibly empty, and
    // the rest), valid while the table lives; for a cell that is no text,
    // two empty pieces. compareTexts() orders them by their joined UTF-8
    // bytes (SQLite's BINARY collation).
    using TextPieces = std::pair<std::string_view, std::string_view>;
    TextPieces textAt(std::size_t row, std::size_t column) const;
    static int compareTexts(const TextPieces &a, const TextPieces &b);

    // A table whose first cells->columnCount() columns are computed, a row
    // per key (in this order); columns after them are stored. Any setter
    // writing a computed column, and appendRow(), store the computed cells
    // first.
    static ResultTable computed(std::shared_ptr<const ComputedCells> cells, std::vector<std::uint32_t> keys);
    bool isComputed() const { return m_computed != nullptr; }

    // Appends a row (missing cells are empty).
    void addRow(std::initializer_list<Cell> cells);
    void addRow(const std::vector<Cell> &cells);
    // Building a big table a cell at a time: appendRow() adds an empty row
    // and gives its index, the setters fill it.
    std::size_t appendRow();
    void reserveRows(std::size_t rows);
    void set(std::size_t row, std::size_t column, const Cell &cell);
    void setInteger(std::size_t row, std::size_t column, std::int64_t value);
    void setDecimal(std::size_t row, std::size_t column, double value, int places, bool tiesToEven = false);
    void setText(std::size_t row, std::size_t column, QStringView text);
    void setText(std::size_t row, std::size_t column, std::string_view utf8);
    // A string of `report` by its id, behind `prefix` (UTF-8): the table
    // keeps the report alive instead of copying the text (a report not
    // owned by a shared_ptr, as in some tests, has its text copied).
    void setReportText(std::size_t row, std::size_t column, const Report &report, StringId id, std::string_view prefix = {});

    // Puts the rows in the order `before` gives (stably); keeps the first
    // `count`.
    void sortRows(const std::function<bool(std::size_t, std::size_t)> &before);
    // Puts row order[i] at i (`order` a permutation of the rows).
    void reorderRows(const std::vector<std::uint32_t> &order);
    void truncateRows(std::size_t count);
    std::size_t memoryBytes() const;

    QString toCsv(CsvCells cells = CsvCells::Safe) const;
    // The CSV text in pieces of about chunkChars characters, for writing a
    // huge table without holding its whole text.
    void writeCsv(const std::function<void(const QString &)> &write, qsizetype chunkChars = 1 << 20, CsvCells cells = CsvCells::Safe) const;
    // The CSV text, UTF-8, into a file or other device; false if a write failed.
    bool writeCsv(QIODevice &device, CsvCells cells = CsvCells::Safe) const;
    QString toText() const;
    QString toJson() const; // an array of objects keyed by header

private:
    struct Column {
        std::vector<std::uint64_t> values;
        std::vector<std::uint8_t> formats; // see resulttable.cpp: Format
    };
    Column &columnFor(std::size_t column);
    // A cell as read, stored or computed: its value and format byte, and a
    // computed text's pieces (read with the cell, not looked up again).
    struct CellRead {
        std::uint64_t value = 0;
        std::uint8_t format = 0;
        TextPieces computedText;
    };
    CellRead read(std::size_t row, std::size_t column) const;
    std::pair<std::uint64_t, std::uint8_t> valueAt(std::size_t row, std::size_t column) const;
    // Called for each row read in order: every so many rows, announces the
    // next ones to the computed cells (ComputedCells::willRead).
    void willRead(std::size_t row) const;
    // Stores the computed cells (a table changed after it was computed).
    void storeComputedCells();
    void put(std::size_t row, std::size_t column, std::uint64_t value, std::uint8_t format);
    // A text cell's two UTF-8 pieces: its prefix and its body.
    TextPieces textPieces(const CellRead &cell) const;
    std::uint64_t ownText(std::string_view utf8);
    std::uint32_t prefixSlot(std::string_view prefix); // 0: none
    std::uint32_t sourceSlot(const Report &report);    // ~0u: cannot refer to it

    std::vector<Column> m_columns; // a computed column's is empty
    std::size_t m_rowCount = 0;
    std::shared_ptr<const ComputedCells> m_computed;
    std::size_t m_computedColumns = 0;
    std::vector<std::uint32_t> m_keys;                    // per row, for the computed columns
    std::string m_text;                                   // owned texts, back to back
    std::vector<std::string> m_prefixes;                  // slot - 1
    std::vector<std::shared_ptr<const Report>> m_sources; // reports whose strings cells name
    QHash<QByteArray, std::uint64_t> m_shortTexts;        // owned short texts, each once
    // The short text owned last: a column of one repeated word ("PushPop"
    // on every row) is told apart without hashing it on every row.
    std::string m_lastShortText;
    std::uint64_t m_lastShortValue = ~std::uint64_t(0);
};

// A table as bytes and back, values exactly (the processes of an MPI run
// send their files' tables to process 0 this way). Reading damaged bytes
// leaves the stream's status set, never reads past them.
QDataStream &operator<<(QDataStream &out, const ResultTable &table);
QDataStream &operator>>(QDataStream &in, ResultTable &table);

} // namespace rankscope
