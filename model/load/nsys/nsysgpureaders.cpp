#include "core/narrowing.h"
#include "load/kernelconfigs.h"
#include "load/nsys/nsysreaders.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace rankscope::nsys {

namespace {

// Columns every GPU activity table shares, first in each query.
enum Common { Start, End, DeviceId, ContextId, StreamId, CorrelationId, GlobalPid, kCommonCount };
const std::vector<std::string> kCommonColumns{"start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid"};

std::vector<std::string> withCommon(std::initializer_list<std::string> extra)
{
    std::vector<std::string> cols = kCommonColumns;
    cols.insert(cols.end(), extra);
    return cols;
}

Track &trackFor(NsysLoadContext &ctx, TrackKind kind, const SqliteStatement &row)
{
    return ctx.gpuTrack(kind, pidOfGlobalId(row.int64(GlobalPid)), int(row.int64(DeviceId)), std::uint32_t(row.int64(StreamId)),
                        std::uint32_t(row.int64(ContextId)));
}

// Node-level graph tracing (--cuda-graph-trace=node): a graph's kernels
// keep their graph node and share their cudaGraphLaunch's correlation id.
// Each launch becomes a range on each stream it ran on, from its first
// kernel's start to its last one's end, above them, as a graph traced
// whole is.
class GraphLaunches {
public:
    void add(const SqliteStatement &row, TimeRange span, std::int64_t graphNode)
    {
        Launch &l = m_launches[{row.int64(GlobalPid), row.int64(DeviceId), row.int64(StreamId), row.int64(ContextId), row.int64(CorrelationId)}];
        if (l.span.end < l.span.start) {
            l.span = span;
            l.firstNode = graphNode;
        }
        l.span = {std::min(l.span.start, span.start), std::max(l.span.end, span.end)};
        l.firstNode = std::min(l.firstNode, graphNode);
        if (!row.isNull(GraphIdColumn))
            l.graphId = row.int64(GraphIdColumn);
    }
    void addTracks(NsysLoadContext &ctx)
    {
        for (const auto &[key, l] : m_launches) {
            const auto &[globalPid, device, stream, context, correlation] = key;
            GraphLaunchRecord g;
            g.correlationId = saturate<std::uint32_t>(correlation);
            // Exports before the kernels' graphId column name a graph by its first node.
            g.graphId = l.graphId >= 0 ? saturate<std::uint32_t>(l.graphId) : 0;
            const std::string name = l.graphId >= 0 ? "Graph " + std::to_string(l.graphId) : "Graph of node " + std::to_string(l.firstNode);
            ctx.gpuTrack(TrackKind::CudaGraph, pidOfGlobalId(globalPid), int(device), std::uint32_t(stream), std::uint32_t(context))
                .slices.append(l.span.start, l.span.end, ctx.intern(name), std::uint32_t(ctx.report.graphLaunches.size()));
            ctx.report.graphLaunches.push_back(g);
        }
    }
    static constexpr int GraphIdColumn = kCommonCount + 14; // readKernels' GraphId

private:
    struct Launch {
        TimeRange span{0, -1};
        std::int64_t firstNode = 0;
        std::int64_t graphId = -1;
    };
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>, Launch> m_launches;
};

} // namespace

void readKernels(NsysLoadContext &ctx)
{
    static const char *table = "CUPTI_ACTIVITY_KIND_KERNEL";
    if (!ctx.isReadableEventTable(table))
        return;
    ctx.reserveFor(ctx.report.kernels, table);
    enum {
        Demangled = kCommonCount,
        Short,
        Mangled,
        GridX,
        GridY,
        GridZ,
        BlockX,
        BlockY,
        BlockZ,
        Registers,
        StaticSmem,
        DynamicSmem,
        GraphNode,
        LaunchType,
        GraphId
    };
    static_assert(GraphId == GraphLaunches::GraphIdColumn);
    const std::string sql = ctx.db.selectColumns(
        table, withCommon({"demangledName", "shortName", "mangledName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread",
                           "staticSharedMemory", "dynamicSharedMemory", "graphNodeId", "launchType", "graphId"}));
    KernelConfigInterner configs(ctx.report.kernelConfigs);
    GraphLaunches graphs;
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const std::optional<TimeRange> span = ctx.checkedSpan(table, row, Start, End);
        if (!span)
            return;
        const auto [start, end] = *span;
        KernelRecord k;
        KernelConfig c;
        k.shortName = ctx.mapString(row.int64(Short));
        k.mangledName = row.isNull(Mangled) ? StringTable::kEmpty : ctx.mapString(row.int64(Mangled));
        k.correlationId = saturate<std::uint32_t>(row.int64(CorrelationId));
        c.gridX = saturate<std::uint32_t>(row.int64(GridX));
        c.gridY = saturate<std::uint32_t>(row.int64(GridY));
        c.gridZ = saturate<std::uint32_t>(row.int64(GridZ));
        c.blockX = saturate<std::uint32_t>(row.int64(BlockX));
        c.blockY = saturate<std::uint32_t>(row.int64(BlockY));
        c.blockZ = saturate<std::uint32_t>(row.int64(BlockZ));
        c.registersPerThread = saturate<std::uint32_t>(row.int64(Registers));
        c.staticSharedMemory = saturate<std::uint32_t>(row.int64(StaticSmem));
        c.dynamicSharedMemory = saturate<std::uint32_t>(row.int64(DynamicSmem));
        c.launchType = saturate<std::int32_t>(row.int64(LaunchType, -1));
        k.config = configs.intern(c);
        k.graphNodeId = row.int64(GraphNode, -1);
        // Some old exports leave demangledName empty; the short name is
        // still a name.
        StringId name = row.isNull(Demangled) ? StringTable::kEmpty : ctx.mapString(row.int64(Demangled));
        if (name == StringTable::kEmpty)
            name = k.shortName;
        trackFor(ctx, TrackKind::Kernel, row).slices.append(start, end, name, std::uint32_t(ctx.report.kernels.size()));
        ctx.report.kernels.push_back(k);
        if (k.graphNodeId >= 0)
            graphs.add(row, {start, end}, k.graphNodeId);
    });
    graphs.addTracks(ctx);
}

void readMemcpys(NsysLoadContext &ctx)
{
    static const char *table = "CUPTI_ACTIVITY_KIND_MEMCPY";
    if (!ctx.isReadableEventTable(table))
        return;
    ctx.reserveFor(ctx.report.memcpys, table);
    enum { Bytes = kCommonCount, CopyKind, SrcKind, DstKind, SrcDevice, DstDevice, CopyCount, VirtualAddress };
    const std::string sql = ctx.db.selectColumns(
        table, withCommon({"bytes", "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId", "copyCount", "virtualAddress"}));
    std::vector<StringId> nameOfKind; // "[CUDA memcpy Host-to-Device]" per copy kind id
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const std::optional<TimeRange> span = ctx.checkedSpan(table, row, Start, End);
        if (!span)
            return;
        const auto [start, end] = *span;
        MemcpyRecord m;
        m.bytes = std::uint64_t(std::max<std::int64_t>(row.int64(Bytes), 0));
        m.correlationId = saturate<std::uint32_t>(row.int64(CorrelationId));
        const std::int64_t kind = row.int64(CopyKind);
        m.copyKindId = saturate<std::uint8_t>(kind);
        m.copyKind = enumOr(kind, MemcpyKind::Unknown, kMemcpyKindCount);
        m.srcKind = enumOr(row.int64(SrcKind, 7), MemoryKind::Unknown, kMemoryKindCount);
        m.dstKind = enumOr(row.int64(DstKind, 7), MemoryKind::Unknown, kMemoryKindCount);
        m.srcDevice = saturate<std::int32_t>(row.int64(SrcDevice, -1));
        m.dstDevice = saturate<std::int32_t>(row.int64(DstDevice, -1));
        m.copyCount = saturate<std::uint32_t>(row.int64(CopyCount, 1));
        if (!row.isNull(VirtualAddress)) // an address as stored: SQLite keeps 64 bits signed
            m.virtualAddress = std::uint64_t(row.int64(VirtualAddress));
        if (nameOfKind.size() <= m.copyKindId)
            nameOfKind.resize(m.copyKindId + 1, StringTable::kEmpty);
        if (nameOfKind[m.copyKindId] == StringTable::kEmpty)
            nameOfKind[m.copyKindId] = ctx.intern(QStringLiteral("[CUDA memcpy %1]").arg(ctx.report.memcpyKindLabel(m.copyKindId)).toStdString());
        trackFor(ctx, TrackKind::Memcpy, row).slices.append(start, end, nameOfKind[m.copyKindId], std::uint32_t(ctx.report.memcpys.size()));
        ctx.report.memcpys.push_back(m);
    });
}

void readMemsets(NsysLoadContext &ctx)
{
    static const char *table = "CUPTI_ACTIVITY_KIND_MEMSET";
    if (!ctx.isReadableEventTable(table))
        return;
    ctx.reserveFor(ctx.report.memsets, table);
    enum { Value = kCommonCount, Bytes, MemKind };
    const std::string sql = ctx.db.selectColumns(table, withCommon({"value", "bytes", "memKind"}));
    const StringId name = ctx.intern("[CUDA memset]");
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const std::optional<TimeRange> span = ctx.checkedSpan(table, row, Start, End);
        if (!span)
            return;
        const auto [start, end] = *span;
        MemsetRecord m;
        m.bytes = std::uint64_t(std::max<std::int64_t>(row.int64(Bytes), 0));
        m.correlationId = saturate<std::uint32_t>(row.int64(CorrelationId));
        m.value = saturate<std::uint32_t>(row.int64(Value));
        m.memKind = enumOr(row.int64(MemKind, 7), MemoryKind::Unknown, kMemoryKindCount);
        trackFor(ctx, TrackKind::Memset, row).slices.append(start, end, name, std::uint32_t(ctx.report.memsets.size()));
        ctx.report.memsets.push_back(m);
    });
}

namespace {

// The cudaEventRecord calls of CUPTI_ACTIVITY_KIND_CUDA_EVENT: what a
// stream wait waited for. Per process and CUDA event, its records in call
// order (correlation ids grow with the calls of a process).
struct EventRecords {
    struct Record {
        std::uint32_t correlationId = 0;
        std::int32_t stream = -1;
        std::int64_t syncId = -1; // eventSyncId (schema 3.17): ties a sync to its record exactly
    };
    std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<Record>> byEvent;

    // The record a stream wait of `pid` with `eventId` (and `syncId`)
    // called `correlationId` waited for: the one its sync id names, else
    // the event's last record before the wait was called.
    const Record *awaitedBy(std::uint32_t pid, std::int64_t eventId, std::int64_t syncId, std::uint32_t correlationId) const
    {
        const auto it = byEvent.find({pid, eventId});
        if (it == byEvent.end())
            return nullptr;
        const std::vector<Record> &records = it->second;
        if (syncId >= 0)
            for (const Record &r : records)
                if (r.syncId == syncId)
                    return &r;
        auto after =
            std::lower_bound(records.begin(), records.end(), correlationId, [](const Record &r, std::uint32_t c) { return r.correlationId < c; });
        return after == records.begin() ? nullptr : &*std::prev(after);
    }
};

EventRecords readEventRecords(NsysLoadContext &ctx)
{
    static const char *table = "CUPTI_ACTIVITY_KIND_CUDA_EVENT";
    EventRecords out;
    if (!ctx.db.hasTable(table))
        return out;
    enum { Stream, Correlation, Pid, EventId, SyncId };
    const std::string sql = ctx.db.selectColumns(table, {"streamId", "correlationId", "globalPid", "eventId", "eventSyncId"});
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const std::int64_t stream = row.int64(Stream, -1);
        if (stream < 0 || stream > std::numeric_limits<std::int32_t>::max())
            return;
        out.byEvent[{pidOfGlobalId(row.int64(Pid)), row.int64(EventId, -1)}].push_back(
            {saturate<std::uint32_t>(row.int64(Correlation)), std::int32_t(stream), row.int64(SyncId, -1)});
    });
    for (auto &[event, records] : out.byEvent)
        std::sort(records.begin(), records.end(), [](const auto &a, const auto &b) { return a.correlationId < b.correlationId; });
    return out;
}

} // namespace

void readSyncs(NsysLoadContext &ctx)
{
    static const char *table = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    if (!ctx.isReadableEventTable(table))
        return;
    const EventRecords records = readEventRecords(ctx);
    ctx.reserveFor(ctx.report.syncs, table);
    enum { Type = kCommonCount, EventId, SyncId };
    // Schema 3.17 renamed the old column to deprecatedSyncType and added a
    // new syncType; both versions call the current one syncType.
    const std::string sql = ctx.db.selectColumns(table, withCommon({"syncType", "eventId", "eventSyncId"}));
    StringId names[kSyncKindCount] = {};
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const std::optional<TimeRange> span = ctx.checkedSpan(table, row, Start, End);
        if (!span)
            return;
        const auto [start, end] = *span;
        SyncRecord s;
        s.correlationId = saturate<std::uint32_t>(row.int64(CorrelationId));
        s.kind = enumOr(row.int64(Type), SyncKind::Unknown, kSyncKindCount);
        s.eventId = row.int64(EventId, -1);
        if (s.kind == SyncKind::StreamWaitEvent)
            if (const EventRecords::Record *r =
                    records.awaitedBy(pidOfGlobalId(row.int64(GlobalPid)), s.eventId, row.int64(SyncId, -1), s.correlationId)) {
                s.awaitedStream = r->stream;
                s.recordCorrelationId = r->correlationId;
            }
        StringId &name = names[int(s.kind)];
        if (name == StringTable::kEmpty)
            name = ctx.intern(builtinSyncKindLabel(int(s.kind)).toStdString());
        trackFor(ctx, TrackKind::Sync, row).slices.append(start, end, name, std::uint32_t(ctx.report.syncs.size()));
        ctx.report.syncs.push_back(s);
    });
}

void readGraphLaunches(NsysLoadContext &ctx)
{
    // Graph-level tracing (nsys' default --cuda-graph-trace=graph): one row
    // per launch of an executable graph, and no rows for its kernels.
    static const char *table = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
    if (!ctx.isReadableEventTable(table))
        return;
    ctx.reserveFor(ctx.report.graphLaunches, table);
    enum { GraphId = kCommonCount, GraphExecId };
    const std::string sql = ctx.db.selectColumns(table, withCommon({"graphId", "graphExecId"}));
    std::map<std::uint32_t, StringId> names; // "Graph 3" per graph id
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const std::optional<TimeRange> span = ctx.checkedSpan(table, row, Start, End);
        if (!span)
            return;
        GraphLaunchRecord g;
        g.correlationId = saturate<std::uint32_t>(row.int64(CorrelationId));
        g.graphId = saturate<std::uint32_t>(row.int64(GraphId));
        g.graphExecId = saturate<std::uint32_t>(row.int64(GraphExecId));
        auto name = names.find(g.graphId);
        if (name == names.end())
            name = names.emplace(g.graphId, ctx.intern("Graph " + std::to_string(g.graphId))).first;
        trackFor(ctx, TrackKind::CudaGraph, row).slices.append(span->start, span->end, name->second, std::uint32_t(ctx.report.graphLaunches.size()));
        ctx.report.graphLaunches.push_back(g);
    });
}

} // namespace rankscope::nsys
