#pragma once
// A statistics result: named, typed columns and rows of cells, printable as
// CSV (as `nsys stats --format csv` prints it), an aligned text table or
// JSON. Tables hold values, not text, so a GUI model can sort them.
#include <QDataStream>
#include <QIODevice>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace rankscope {

struct Cell {
    enum class Type : std::uint8_t { Empty, Integer, Decimal, Text };
    // 40 bytes: a summary table of an emit_nvtx trace has 400k rows of ten.
    QString text;
    union {
        std::int64_t integer = 0; // type Integer
        double decimal;           // type Decimal
    };
    Type type = Type::Empty;
    std::uint8_t decimals = 0;
    bool tiesToEven = false; // Python's round() instead of SQLite's

    static Cell ofInteger(std::int64_t v) { Cell c; c.type = Type::Integer; c.integer = v; return c; }
    static Cell ofDecimal(double v, int places)
    {
        Cell c;
        c.type = Type::Decimal;
        c.decimal = v;
        c.decimals = std::uint8_t(std::clamp(places, 0, 17));
        return c;
    }
    static Cell ofPythonDecimal(double v, int places) { Cell c = ofDecimal(v, places); c.tiesToEven = true; return c; }
    static Cell ofText(QString v) { Cell c; c.type = Type::Text; c.text = std::move(v); return c; }

    bool isNumber() const { return type == Type::Integer || type == Type::Decimal; }
    double toDouble() const { return type == Type::Integer ? double(integer) : decimal; }
    // The value as printed (decimals rounded as SQLite's round() does, or
    // as Python's round() does for tiesToEven).
    QString display() const;
};
static_assert(sizeof(Cell) <= 40);

// How CSV writes text cells: a name from a trace that begins with = + - @
// is a formula to a spreadsheet ("=HYPERLINK(...)"), so by default such a
// cell is written behind a ' (core/untrustedtext.h: spreadsheetSafe);
// Raw writes every cell as nsys does, for byte-for-byte comparisons.
enum class CsvCells : std::uint8_t { SpreadsheetSafe, Raw };

struct ResultTable {
    QString name;   // report name, e.g. "cuda_gpu_kern_sum"
    QString title;  // e.g. "CUDA GPU Kernel Summary"
    QStringList headers;
    std::vector<std::vector<Cell>> rows;
    // What the reader should know that the rows cannot say (how ranks were
    // matched, what is missing); the CLI prints them on stderr.
    QStringList notes;

    QString toCsv(CsvCells cells = CsvCells::SpreadsheetSafe) const;
    // The CSV text in pieces of about chunkChars characters, for writing a
    // huge table without holding its whole text.
    void writeCsv(const std::function<void(const QString &)> &write, qsizetype chunkChars = 1 << 20,
                  CsvCells cells = CsvCells::SpreadsheetSafe) const;
    // The CSV text, UTF-8, into a file or other device; false if a write failed.
    bool writeCsv(QIODevice &device, CsvCells cells = CsvCells::SpreadsheetSafe) const;
    QString toText() const;
    QString toJson() const; // an array of objects keyed by header
};

// A table as bytes and back, values exactly (the processes of an MPI run
// send their files' tables to process 0 this way). Reading damaged bytes
// leaves the stream's status set, never reads past them.
QDataStream &operator<<(QDataStream &out, const ResultTable &table);
QDataStream &operator>>(QDataStream &in, ResultTable &table);

} // namespace rankscope
