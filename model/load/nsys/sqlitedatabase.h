#pragma once
// A read-only SQLite connection for trace files that belong to the user.
//
// The file is opened through a `file:` URI with immutable=1 and
// SQLITE_OPEN_READONLY: SQLite then takes no locks, writes no journal and
// never changes the file. Defensive mode is on, extension loading and
// untrusted schema functions are off, query_only is set, and the page cache
// is bounded.
#include <QString>
#include <QStringList>
#include <atomic>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace rankscope {

class SqliteStatement {
public:
    SqliteStatement() = default;
    explicit SqliteStatement(sqlite3_stmt *stmt) : m_stmt(stmt) { }
    SqliteStatement(SqliteStatement &&other) noexcept;
    SqliteStatement &operator=(SqliteStatement &&other) noexcept;
    SqliteStatement(const SqliteStatement &) = delete;
    SqliteStatement &operator=(const SqliteStatement &) = delete;
    ~SqliteStatement();

    bool isValid() const { return m_stmt != nullptr; }
    // True while a row is available. On an error, returns false and
    // error() says why.
    bool step();
    // Binds parameter `index` (from 1) and makes the statement ready to
    // step again from its first row.
    bool rebind(int index, std::int64_t value);
    bool bindText(int index, std::string_view value);
    const QString &error() const { return m_error; }

    bool isNull(int column) const;
    std::int64_t int64(int column, std::int64_t ifNull = 0) const;
    double real(int column, double ifNull = 0.0) const;
    std::string_view text(int column) const;
    // The column's bytes as stored (a BLOB, or TEXT without conversion).
    std::string_view blob(int column) const;
    QString qtext(int column) const;

private:
    sqlite3_stmt *m_stmt = nullptr;
    QString m_error;
};

class SqliteDatabase {
public:
    // SQLite's hard heap limit for every connection of the process (see
    // configureProcessForUntrustedTraces(); open() leaves it alone).
    static std::int64_t limitProcessHeap();
    static std::int64_t processHeapLimit();

    SqliteDatabase() = default;
    ~SqliteDatabase();
    SqliteDatabase(const SqliteDatabase &) = delete;
    SqliteDatabase &operator=(const SqliteDatabase &) = delete;

    // Opens `path` read-only and reads the list of tables and their
    // columns. On failure returns false and sets `error` to a one-line
    // reason. A set `cancel` flag interrupts any statement of this
    // connection within milliseconds, even one inside a single long sort;
    // so does the connection's step budget running out (budgetError()).
    // `stepBudget` replaces the budget the file's size gives (tests).
    bool open(const QString &path, QString *error, const std::atomic<bool> *cancel = nullptr, std::uint64_t stepBudget = 0);

    // A table that is read: not a view, and without generated columns.
    bool hasTable(std::string_view name) const;
    // Every such table, by name (a family of tables, as OpenMP's per kind).
    const std::set<std::string, std::less<>> &tables() const { return m_tables; }
    // Tables that are not read, with why: one with a generated column,
    // whose every read runs an expression of the file's own.
    const std::vector<std::pair<std::string, QString>> &refusedTables() const { return m_refusedTables; }
    // Why statements were interrupted, when the connection ran past its
    // step budget (kStepsPerByte a byte of the file, at least
    // kStepsAtLeast); empty otherwise.
    QString budgetError() const;
    static constexpr std::uint64_t kStepsPerByte = 256;
    static constexpr std::uint64_t kStepsAtLeast = std::uint64_t(1) << 28;
    // The largest rowid of a table (0 when empty, missing or without rowid):
    // in log n, where count(*) reads every page. Exports number their rows
    // densely, so it counts them; a crafted file may claim more rows than it
    // holds, so callers bound it. Asked once per table and connection (the
    // memory check and the readers' reservations both ask).
    std::int64_t maxRowid(const std::string &table);
    // Views the file defines; they are never read (see open()).
    const std::set<std::string, std::less<>> &views() const { return m_views; }
    // Column names of a table as its schema declares them.
    const std::vector<std::string> &columns(const std::string &table);
    bool hasColumn(const std::string &table, std::string_view column);

    SqliteStatement prepare(const std::string &sql, QString *error);
    // "SELECT a, NULL, c FROM table": columns the table lacks read as NULL,
    // so older exports with fewer columns load through the same code.
    std::string selectColumns(const std::string &table, const std::vector<std::string> &wanted, const std::string &tail = {});
    QString lastError() const;

private:
    static int keepGoing(void *database);
    // PRAGMA table_xinfo's "hidden": a generated column, virtual or stored.
    static constexpr std::int64_t kGeneratedVirtual = 2, kGeneratedStored = 3;

    sqlite3 *m_db = nullptr;
    const std::atomic<bool> *m_cancel = nullptr;
    std::uint64_t m_steps = 0;
    std::uint64_t m_stepBudget = 0;
    bool m_overBudget = false;
    std::vector<std::pair<std::string, QString>> m_refusedTables;
    std::set<std::string, std::less<>> m_tables;
    std::set<std::string, std::less<>> m_views;
    std::map<std::string, std::int64_t, std::less<>> m_maxRowids;
    std::vector<std::pair<std::string, std::vector<std::string>>> m_columns;
};

// Checks the 16-byte SQLite header so a foreign file gets a plain message.
bool looksLikeSqliteFile(const QString &path);

} // namespace rankscope
