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
    explicit SqliteStatement(sqlite3_stmt *stmt) : m_stmt(stmt) {}
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

    // Opens `path` read-only and reads the list of tables. On failure
    // returns false and sets `error` to a one-line reason. A set `cancel`
    // flag interrupts any statement of this connection within milliseconds,
    // even one inside a single long sort.
    bool open(const QString &path, QString *error, const std::atomic<bool> *cancel = nullptr);

    bool hasTable(std::string_view name) const;
    // The largest rowid of a table (0 when empty, missing or without rowid):
    // in log n, where count(*) reads every page. Exports number their rows
    // densely, so it counts them; a crafted file may claim more rows than it
    // holds, so callers bound it. Asked once per table and connection (the
    // memory check and the readers' reservations both ask).
    std::int64_t maxRowid(const std::string &table);
    // Views the file defines; they are never read (see open()).
    const std::set<std::string, std::less<>> &views() const { return m_views; }
    // Column names of a table as its schema declares them (cached).
    const std::vector<std::string> &columns(const std::string &table);
    bool hasColumn(const std::string &table, std::string_view column);

    SqliteStatement prepare(const std::string &sql, QString *error);
    // "SELECT a, NULL, c FROM table": columns the table lacks read as NULL,
    // so older exports with fewer columns load through the same code.
    std::string selectColumns(const std::string &table, const std::vector<std::string> &wanted,
                              const std::string &tail = {});
    QString lastError() const;

private:
    sqlite3 *m_db = nullptr;
    std::set<std::string, std::less<>> m_tables;
    std::set<std::string, std::less<>> m_views;
    std::map<std::string, std::int64_t, std::less<>> m_maxRowids;
    std::vector<std::pair<std::string, std::vector<std::string>>> m_columns;
};

// Checks the 16-byte SQLite header so a foreign file gets a plain message.
bool looksLikeSqliteFile(const QString &path);

} // namespace rankscope
