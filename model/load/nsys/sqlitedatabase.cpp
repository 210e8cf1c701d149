#include "load/nsys/sqlitedatabase.h"

#include <QFile>
#include <QFileInfo>
#include <QUrl>
#include <sqlite3.h>

#include <algorithm>

namespace rankscope {

SqliteStatement::SqliteStatement(SqliteStatement &&other) noexcept : m_stmt(std::exchange(other.m_stmt, nullptr)), m_error(std::move(other.m_error))
{
}

SqliteStatement &SqliteStatement::operator=(SqliteStatement &&other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_error = std::move(other.m_error);
    }
    return *this;
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_stmt);
}

bool SqliteStatement::step()
{
    if (!m_stmt)
        return false;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE)
        m_error = QString::fromUtf8(sqlite3_errmsg(sqlite3_db_handle(m_stmt)));
    return false;
}

bool SqliteStatement::bindText(int index, std::string_view value)
{
    if (!m_stmt)
        return false;
    sqlite3_reset(m_stmt);
    m_error.clear();
    return sqlite3_bind_text(m_stmt, index, value.data(), int(value.size()), SQLITE_TRANSIENT) == SQLITE_OK;
}

bool SqliteStatement::rebind(int index, std::int64_t value)
{
    if (!m_stmt)
        return false;
    sqlite3_reset(m_stmt);
    m_error.clear();
    return sqlite3_bind_int64(m_stmt, index, value) == SQLITE_OK;
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::int64(int column, std::int64_t ifNull) const
{
    // SQLite reads NULL as 0: the type is only worth asking for another default.
    // (Runs once per column per row.)
    if (ifNull != 0 && isNull(column))
        return ifNull;
    return sqlite3_column_int64(m_stmt, column);
}

double SqliteStatement::real(int column, double ifNull) const
{
    return isNull(column) ? ifNull : sqlite3_column_double(m_stmt, column);
}

std::string_view SqliteStatement::text(int column) const
{
    const auto *data = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    if (!data)
        return {};
    return {data, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column))};
}

std::string_view SqliteStatement::blob(int column) const
{
    const auto *data = static_cast<const char *>(sqlite3_column_blob(m_stmt, column));
    if (!data)
        return {};
    return {data, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column))};
}

QString SqliteStatement::qtext(int column) const
{
    const std::string_view t = text(column);
    return QString::fromUtf8(t.data(), qsizetype(t.size()));
}

SqliteDatabase::~SqliteDatabase()
{
    sqlite3_close_v2(m_db);
}

bool looksLikeSqliteFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    static const char kMagic[] = "SQLite format 3";
    const QByteArray head = file.read(16);
    return head.size() == 16 && std::equal(kMagic, kMagic + 16, head.constData());
}

namespace {

// SQLite's own heap, for every connection of the process: page caches,
// sorts and a hostile file's records all come out of it. Loading 64 ranks
// at once uses a few tens of MiB.
constexpr sqlite3_int64 kSqliteHeapLimit = sqlite3_int64(1) << 30;

// How often SQLite asks whether to go on, in virtual machine steps: a few
// milliseconds of work.
constexpr int kStepsBetweenChecks = 10'000;

} // namespace

int SqliteDatabase::keepGoing(void *database)
{
    auto *self = static_cast<SqliteDatabase *>(database);
    if (self->m_cancel && self->m_cancel->load(std::memory_order_relaxed))
        return 1;
    self->m_steps += kStepsBetweenChecks;
    if (self->m_steps <= self->m_stepBudget)
        return 0;
    self->m_overBudget = true;
    return 1;
}

namespace {

} // namespace

std::int64_t SqliteDatabase::limitProcessHeap()
{
    sqlite3_hard_heap_limit64(kSqliteHeapLimit);
    return processHeapLimit();
}

std::int64_t SqliteDatabase::processHeapLimit()
{
    return sqlite3_hard_heap_limit64(-1); // a negative argument only asks
}

bool SqliteDatabase::open(const QString &path, QString *error, const std::atomic<bool> *cancel, std::uint64_t stepBudget)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        *error = QStringLiteral("no such file");
        return false;
    }
    if (!info.isFile() || !info.isReadable()) {
        *error = QStringLiteral("not a readable file");
        return false;
    }
    if (info.size() == 0) {
        *error = QStringLiteral("the file is empty");
        return false;
    }
    if (!looksLikeSqliteFile(path)) {
        *error = QStringLiteral("not an SQLite database (no SQLite header)");
        return false;
    }
    const QByteArray uri = QUrl::fromLocalFile(info.absoluteFilePath()).toEncoded() + "?mode=ro&immutable=1";
    const int rc = sqlite3_open_v2(uri.constData(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        *error = QStringLiteral("cannot open: %1").arg(lastError());
        return false;
    }
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, 64 * 1024 * 1024);
    // A loader scans each table once: a small page cache is as fast and
    // leaves no tens of megabytes behind in the heap.
    sqlite3_exec(m_db, "PRAGMA query_only=1; PRAGMA cache_size=-4096; PRAGMA cell_size_check=1; PRAGMA mmap_size=0;", nullptr, nullptr, nullptr);
    // Every statement of the connection is bounded: Cancel stops it within
    // milliseconds, and all of them together may take only so many steps
    // for a file of this size (a loader reads each table a few times, at a
    // few steps a byte; a hostile file's schema can make a read loop far
    // longer than its bytes).
    m_cancel = cancel;
    m_stepBudget = stepBudget > 0 ? stepBudget : kStepsAtLeast + kStepsPerByte * std::uint64_t(std::max<qint64>(info.size(), 0));
    sqlite3_progress_handler(m_db, kStepsBetweenChecks, &SqliteDatabase::keepGoing, this);

    QString prepareError;
    // Only tables are read: an nsys export has no views, and a view in a
    // hand-edited file could compute anything, forever.
    SqliteStatement tables = prepare("SELECT name, type FROM sqlite_master WHERE type IN ('table','view')", &prepareError);
    if (!tables.isValid()) {
        *error = QStringLiteral("corrupt or truncated SQLite file: %1").arg(prepareError);
        return false;
    }
    std::vector<std::string> tableNames;
    while (tables.step())
        if (tables.text(1) == "table")
            tableNames.emplace_back(tables.text(0));
        else
            m_views.emplace(tables.text(0));
    if (!tables.error().isEmpty()) {
        *error = QStringLiteral("corrupt or truncated SQLite file: %1").arg(tables.error());
        return false;
    }
    // A generated column is computed by an expression of the file's own as
    // it is read, and one expression can run for hours (an nsys export has
    // none): a table with one is not read at all.
    SqliteStatement columns = prepare("SELECT name, hidden FROM pragma_table_xinfo(?1)", &prepareError);
    if (!columns.isValid()) {
        *error = QStringLiteral("corrupt or truncated SQLite file: %1").arg(prepareError);
        return false;
    }
    for (std::string &table : tableNames) {
        columns.bindText(1, table);
        std::vector<std::string> names;
        std::string generated;
        while (columns.step()) {
            const std::int64_t hidden = columns.int64(1);
            if ((hidden == kGeneratedVirtual || hidden == kGeneratedStored) && generated.empty())
                generated = std::string(columns.text(0));
            names.emplace_back(columns.text(0));
        }
        if (!columns.error().isEmpty()) { // a virtual table of a module this build lacks, say
            m_refusedTables.emplace_back(table, QStringLiteral("its columns cannot be read: %1").arg(columns.error().left(200)));
            continue;
        }
        if (!generated.empty()) {
            m_refusedTables.emplace_back(table, QStringLiteral("its column %1 is generated (computed as it is read)")
                                                    .arg(QString::fromUtf8(generated.data(), qsizetype(generated.size())).left(100)));
            continue;
        }
        m_columns.emplace_back(table, std::move(names));
        m_tables.emplace(std::move(table));
    }
    return true;
}

QString SqliteDatabase::budgetError() const
{
    return m_overBudget
               ? QStringLiteral("reading it took more work than any export of its size needs (%1 SQLite steps; a hostile schema?)").arg(m_steps)
               : QString();
}

std::int64_t SqliteDatabase::maxRowid(const std::string &table)
{
    if (const auto known = m_maxRowids.find(table); known != m_maxRowids.end())
        return known->second;
    std::int64_t rows = 0;
    if (hasTable(table)) {
        QString error;
        SqliteStatement last = prepare("SELECT max(rowid) FROM \"" + table + "\"", &error);
        if (last.isValid() && last.step())
            rows = std::max<std::int64_t>(last.int64(0), 0);
    }
    m_maxRowids.emplace(table, rows);
    return rows;
}

bool SqliteDatabase::hasTable(std::string_view name) const
{
    return m_tables.find(name) != m_tables.end();
}

const std::vector<std::string> &SqliteDatabase::columns(const std::string &table)
{
    for (const auto &[name, cols] : m_columns)
        if (name == table)
            return cols;
    static const std::vector<std::string> kNone;
    return kNone; // every table's columns were read when the file was opened
}

bool SqliteDatabase::hasColumn(const std::string &table, std::string_view column)
{
    const auto &cols = columns(table);
    return std::find(cols.begin(), cols.end(), column) != cols.end();
}

SqliteStatement SqliteDatabase::prepare(const std::string &sql, QString *error)
{
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), int(sql.size()), &stmt, nullptr) != SQLITE_OK) {
        *error = lastError();
        sqlite3_finalize(stmt);
        return SqliteStatement();
    }
    return SqliteStatement(stmt);
}

std::string SqliteDatabase::selectColumns(const std::string &table, const std::vector<std::string> &wanted, const std::string &tail)
{
    std::string sql = "SELECT ";
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        if (i)
            sql += ", ";
        sql += hasColumn(table, wanted[i]) ? "\"" + wanted[i] + "\"" : std::string("NULL");
    }
    sql += " FROM \"" + table + "\"";
    if (!tail.empty())
        sql += " " + tail;
    return sql;
}

QString SqliteDatabase::lastError() const
{
    return m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("out of memory");
}

} // namespace rankscope
