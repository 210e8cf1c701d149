#include "core/narrowing.h"
#include "load/nsys/nsysreaders.h"

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
}

} // namespace rankscope::nsys
