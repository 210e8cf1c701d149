#include "core/narrowing.h"
#include "load/nsys/nsysreaders.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace rankscope::nsys {

namespace {

// The optional columns of a row: NULL (or a column the table lacks) is
// MpiRecord::kNone.
std::int64_t valueOr(const SqliteStatement &row, int column)
{
    return row.isNull(column) ? MpiRecord::kNone : row.int64(column);
}

// The four tables nsys writes MPI calls to, each with the columns it has
// beyond start, end, globalTid and textId (selectColumns reads a column a
// table lacks as NULL).
struct MpiTable {
    const char *name;
    MpiCallKind kind;
};
constexpr MpiTable kMpiTables[] = {
    {"MPI_P2P_EVENTS", MpiCallKind::PointToPoint},
    {"MPI_COLLECTIVES_EVENTS", MpiCallKind::Collective},
    {"MPI_START_WAIT_EVENTS", MpiCallKind::StartWait},
    {"MPI_OTHER_EVENTS", MpiCallKind::Other},
};

// The kind of call an MPI function is, by its name: what an older export's
// NVTX ranges say of it (they carry no arguments).
MpiCallKind kindOfFunction(std::string_view name)
{
    static constexpr std::string_view kCollectives[] = {"Barrier", "Bcast",    "Reduce", "Allreduce", "Gather",  "Allgather",
                                                        "Scatter", "Alltoall", "Scan",   "Exscan",    "Neighbor"};
    static constexpr std::string_view kWaits[] = {"Wait", "Test", "Start"};
    const std::string_view call = name.substr(4); // after "MPI_"
    const auto is = [&](std::string_view part) { return call.starts_with(part) || (call.starts_with("I") && call.substr(1).starts_with(part)); };
    if (std::any_of(std::begin(kCollectives), std::end(kCollectives), is))
        return MpiCallKind::Collective;
    if (std::any_of(std::begin(kWaits), std::end(kWaits), [&](std::string_view w) { return call.starts_with(w); }))
        return MpiCallKind::StartWait;
    if (call.find("send") != std::string_view::npos || call.find("Send") != std::string_view::npos || call.find("recv") != std::string_view::npos
        || call.find("Recv") != std::string_view::npos || call.find("Probe") != std::string_view::npos)
        return MpiCallKind::PointToPoint;
    return MpiCallKind::Other;
}

// Older nsys traced MPI as NVTX ranges of a domain named "MPI", one per
// call, its function the range's name: each becomes an MPI call of its
// thread (the NVTX row keeps it too, as nvtx_sum counts it), with no
// argument the trace did not record.
void readMpiFromNvtx(NsysLoadContext &ctx)
{
    std::size_t calls = 0;
    const std::size_t trackCount = ctx.report.tracks.size(); // hostTrack may add tracks
    for (std::size_t t = 0; t < trackCount; ++t) {
        const Track &nvtx = ctx.report.tracks[t];
        if (nvtx.kind != TrackKind::Nvtx || ctx.report.strings.view(nvtx.domainName) != "MPI")
            continue;
        const std::int64_t globalTid = (std::int64_t(nvtx.pid) << 24) | std::int64_t(nvtx.tid);
        for (std::size_t i = 0; i < ctx.report.tracks[t].slices.size(); ++i) {
            const Track &range = ctx.report.tracks[t];
            const StringId name = range.slices.name(i);
            const std::string_view function = ctx.report.strings.view(name);
            if (!function.starts_with("MPI_"))
                continue;
            MpiRecord record;
            record.kind = kindOfFunction(function);
            const TimeNs start = range.slices.start(i), end = range.slices.end(i);
            ctx.hostTrack(TrackKind::Mpi, globalTid).slices.append(start, end, name, std::uint32_t(ctx.report.mpiCalls.size()));
            ctx.report.mpiCalls.push_back(record);
            ++calls;
        }
    }
    if (calls > 0)
        ctx.note(Diagnostic::Severity::Info,
                 QStringLiteral("MPI: %1 calls read from the NVTX ranges of the \"MPI\" domain (an older nsys): they carry no peers, tags, sizes "
                                "or communicators, so messages are not matched; collectives are matched in call order")
                     .arg(calls));
}

} // namespace

void readMpi(NsysLoadContext &ctx)
{
    std::unordered_map<std::int64_t, int> rankOfThread; // MPI_RANKS: globalTid -> rank
    if (ctx.db.hasTable("MPI_RANKS"))
        ctx.forEachRow("MPI_RANKS", ctx.db.selectColumns("MPI_RANKS", {"globalTid", "rank"}),
                       [&](const SqliteStatement &row) { rankOfThread[row.int64(0)] = saturate<std::int32_t>(row.int64(1)); });
    for (const MpiTable &table : kMpiTables) {
        if (!ctx.isReadableEventTable(table.name))
            continue;
        ctx.reserveFor(ctx.report.mpiCalls, table.name);
        const std::string sql = ctx.db.selectColumns(
            table.name, {"start", "end", "globalTid", "textId", "size", "recvSize", "tag", "remoteRank", "rootRank", "commHandle", "requestHandle"});
        ctx.forEachRow(table.name, sql, [&](const SqliteStatement &row) {
            const std::optional<TimeRange> span = ctx.checkedSpan(table.name, row, 0, 1);
            if (!span)
                return;
            const std::int64_t globalTid = row.int64(2);
            MpiRecord record;
            record.kind = table.kind;
            record.size = valueOr(row, 4);
            record.recvSize = valueOr(row, 5);
            record.tag = valueOr(row, 6);
            record.peer = valueOr(row, 7);
            record.root = valueOr(row, 8);
            record.communicator = std::uint64_t(row.int64(9));
            record.request = std::uint64_t(row.int64(10));
            if (const auto rank = rankOfThread.find(globalTid); rank != rankOfThread.end())
                record.rank = rank->second;
            ctx.hostTrack(TrackKind::Mpi, globalTid)
                .slices.append(span->start, span->end, ctx.mapString(row.int64(3)), std::uint32_t(ctx.report.mpiCalls.size()));
            ctx.report.mpiCalls.push_back(record);
        });
    }
    if (ctx.report.mpiCalls.empty())
        readMpiFromNvtx(ctx);
}

} // namespace rankscope::nsys
