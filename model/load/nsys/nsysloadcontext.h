#pragma once
// State shared by the parts of the Nsight Systems SQLite loader while one
// file loads: the database, the report being built, the StringIds mapping,
// the track lookup and the tally of oddities for the diagnostics list.
#include "core/report.h"
#include "load/loadcontrol.h"
#include "load/ncclcalls.h"
#include "load/nsys/sqlitedatabase.h"
#include "load/trackregistry.h"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace rankscope {

// globalTid / globalPid layout: hw:8 | vm:8 | pid:24 | tid:24 (uint64).
inline std::uint32_t pidOfGlobalId(std::int64_t g)
{
    return std::uint32_t((std::uint64_t(g) >> 24) & 0xFFFFFF);
}
inline std::uint32_t tidOfGlobalId(std::int64_t g)
{
    return std::uint32_t(std::uint64_t(g) & 0xFFFFFF);
}

// How far the reading of a file's event tables has come, shared by the
// contexts that read them on two connections: the load's progress moves
// with the rows read against the rows the tables hold (their largest
// rowids), from `from` to `to` of the whole load.
class TableProgress {
public:
    TableProgress(const LoadControl &control, std::uint64_t expectedRows, double from, double to)
        : m_control(control), m_expected(std::max<std::uint64_t>(expectedRows, 1)), m_from(from), m_to(to)
    {
    }
    void addRows(std::uint64_t rows);

private:
    const LoadControl &m_control;
    std::uint64_t m_expected;
    double m_from, m_to;
    std::atomic<std::uint64_t> m_read{0};
    std::mutex m_reporting;
    int m_reportedPermille = -1; // never backwards, whichever thread reports
};

using CallchainIds = std::unordered_map<std::int64_t, std::uint32_t>;
constexpr std::uint32_t kNoCallchainId = 0xFFFFFFFFu;

class NsysLoadContext {
public:
    NsysLoadContext(SqliteDatabase &db, Report &report, const LoadControl &control) : db(db), report(report), control(control) { }

    SqliteDatabase &db;
    Report &report;
    const LoadControl &control;
    QString filePath;   // the export being read
    QString fatalError; // set once; loading stops
    // NCCL's annotated calls (NVTX payloads), attached to its kernels once
    // the correlation maps exist (attachNcclCalls).
    std::vector<NcclCall> ncclCalls;
    // Set while the event tables are read: forEachRow counts their rows.
    TableProgress *tableProgress = nullptr;
    // Backtraces, until the tracks are final (nsys::attachBacktraces): the
    // callchainId of each CUDA API row (kNoCallchainId: none), and each
    // callchain table's ids as rows of the report's interned chains.
    std::vector<std::uint32_t> apiCallchainIds;
    CallchainIds cudaCallchains, osrtCallchains;

    void readStringIds();
    // Reuses another context's StringIds mapping (read-only from here on),
    // so a second connection can read tables in parallel.
    void shareStringsFrom(const NsysLoadContext &other);
    // The report's string for a StringIds id; an id the table does not hold
    // gives the empty string and is counted for the diagnostics.
    StringId mapString(std::int64_t nsysId);
    StringId intern(std::string_view text) { return report.strings.intern(text); }

    Track &hostTrack(TrackKind kind, std::int64_t globalTid, std::uint32_t domainId = 0);
    Track &gpuTrack(TrackKind kind, std::uint32_t pid, int deviceId, std::uint32_t streamId, std::uint32_t contextId);

    // Rows a table holds at most, from its largest rowid, bounded by what
    // the file's bytes could hold (an SQLite cell of a few NULLs: 4 B).
    std::size_t rowsAtMost(const std::string &table);
    static std::uint64_t rowsFileCanHold(qint64 fileBytes) { return std::uint64_t(std::max<qint64>(fileBytes, 0)) / 4; }
    // Reserves room in a per-kind table for the rows `table` holds, so it
    // grows once instead of doubling (copies, page faults, slack).
    template <class Records>
    void reserveFor(Records &records, const std::string &table)
    {
        records.reserve(records.size() + rowsAtMost(table));
    }

    // Whether an event table exists and has the columns every event needs
    // (start, end); a table without them is noted and left out.
    bool isReadableEventTable(const char *table);

    // Runs `sql` and calls onRow(stmt) per row. Returns false when loading
    // must stop (cancel or a read error, which becomes fatalError).
    template <class OnRow>
    bool forEachRow(const char *table, const std::string &sql, OnRow &&onRow);

    // A missing end (NULL, or 0 after a non-zero start) or an end before the
    // start: returns a usable end and counts the oddity. Times outside
    // kTraceTimeLimit: nullopt (the row is dropped) and counted.
    std::optional<TimeNs> checkedEnd(const char *table, TimeNs start, const SqliteStatement &row, int endColumn);
    // The row's [start, end] under the same rules: what every event table's reader asks first.
    std::optional<TimeRange> checkedSpan(const char *table, const SqliteStatement &row, int startColumn, int endColumn)
    {
        const TimeNs start = row.int64(startColumn);
        const std::optional<TimeNs> end = checkedEnd(table, start, row, endColumn);
        return end ? std::optional<TimeRange>(TimeRange{start, *end}) : std::nullopt;
    }
    // For rows without an end: whether `start` is usable (counted if not).
    bool checkedStart(const char *table, TimeNs start);
    void note(Diagnostic::Severity severity, QString text);
    void flushOddities();

private:
    TrackRegistry m_tracks{report};
    std::vector<StringId> m_denseStrings;
    std::unordered_map<std::int64_t, StringId> m_sparseStrings;
    struct TimeOddities {
        std::size_t missingEnd = 0, reversed = 0, outOfRange = 0, negative = 0;
    };
    std::map<std::string, TimeOddities> m_badTimes; // by table
    std::size_t m_unknownStrings = 0;
    std::optional<qint64> m_fileBytes; // read once, for rowsAtMost()
};

template <class OnRow>
bool NsysLoadContext::forEachRow(const char *table, const std::string &sql, OnRow &&onRow)
{
    if (!fatalError.isEmpty())
        return false;
    QString error;
    control.noteStatement(filePath, sql);
    SqliteStatement stmt = db.prepare(sql, &error);
    if (!stmt.isValid()) {
        fatalError = QStringLiteral("cannot read table %1: %2").arg(QString::fromLatin1(table), error);
        return false;
    }
    std::size_t rows = 0;
    constexpr std::size_t kCheckEvery = 0x1000;
    while (stmt.step()) {
        onRow(stmt);
        if ((++rows & (kCheckEvery - 1)) == 0) {
            if (control.isCancelled())
                return false;
            if (tableProgress)
                tableProgress->addRows(kCheckEvery);
        }
    }
    if (!stmt.error().isEmpty()) {
        fatalError = QStringLiteral("corrupt or truncated file: reading %1: %2").arg(QString::fromLatin1(table), stmt.error());
        return false;
    }
    return !control.isCancelled();
}

} // namespace rankscope
