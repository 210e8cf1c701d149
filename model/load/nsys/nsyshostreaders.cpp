#include "core/narrowing.h"
#include "load/nsys/nsysreaders.h"

#include <map>

namespace rankscope::nsys {

void readCudaApi(NsysLoadContext &ctx)
{
    static const char *table = "CUPTI_ACTIVITY_KIND_RUNTIME";
    if (!ctx.isReadableEventTable(table))
        return;
    const std::string sql = ctx.db.selectColumns(
        table, {"start", "end", "globalTid", "correlationId", "nameId", "returnValue", "eventClass"});
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const std::optional<TimeRange> span = ctx.checkedSpan(table, row, 0, 1);
        if (!span)
            return;
        const auto [start, end] = *span;
        Track &track = ctx.hostTrack(TrackKind::CudaApi, row.int64(2));
        ApiCallRecord record;
        record.correlationId = saturate<std::uint32_t>(row.int64(3));
        record.returnValue = saturate<std::int32_t>(row.int64(5));
        record.eventClass = saturate<std::int32_t>(row.int64(6, EventClass::CudaRuntime));
        track.slices.append(start, end, ctx.mapString(row.int64(4)), std::uint32_t(ctx.report.apiCalls.size()));
        ctx.report.apiCalls.push_back(record);
    });
}

void readOsRuntime(NsysLoadContext &ctx)
{
    static const char *table = "OSRT_API";
    if (!ctx.isReadableEventTable(table))
        return;
    const std::string sql = ctx.db.selectColumns(table, {"start", "end", "globalTid", "nameId", "eventClass"});
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        // Start/finish marker rows bracket the tracing; they are not calls
        // (nsys' osrt_sum leaves them out too).
        const std::int64_t eventClass = row.int64(4, EventClass::OsRuntime);
        if (eventClass == EventClass::OsRuntimeStart || eventClass == EventClass::OsRuntimeFinish)
            return;
        const std::optional<TimeRange> span = ctx.checkedSpan(table, row, 0, 1);
        if (!span)
            return;
        const auto [start, end] = *span;
        // OS runtime slices carry no side table: payload is unused.
        ctx.hostTrack(TrackKind::OsRuntime, row.int64(2)).slices.append(start, end, ctx.mapString(row.int64(3)), 0);
    });
}

namespace {

bool isNvtxRange(int type)
{
    return type == NvtxEventType::PushPopRange || type == NvtxEventType::StartEndRange
           || type == NvtxEventType::NvtxtPushPop || type == NvtxEventType::NvtxtStartEnd;
}

// coalesce(text, StringIds(textId)): ASCII messages land in `text`,
// registered strings in `textId`.
StringId nvtxText(NsysLoadContext &ctx, const SqliteStatement &row, int textColumn, int textIdColumn)
{
    if (!row.isNull(textColumn))
        return ctx.intern(row.text(textColumn));
    return row.isNull(textIdColumn) ? StringTable::kEmpty : ctx.mapString(row.int64(textIdColumn));
}

} // namespace

void readNvtx(NsysLoadContext &ctx)
{
    static const char *table = "NVTX_EVENTS";
    if (!ctx.isReadableEventTable(table))
        return;
    enum Col { Start, End, Type, Category, Color, Text, GlobalTid, EndGlobalTid, TextId, DomainId,
               U64, I64, Dbl, U32, I32, Flt, JsonTextId, JsonText };
    const std::string sql = ctx.db.selectColumns(
        table, {"start", "end", "eventType", "category", "color", "text", "globalTid", "endGlobalTid",
                "textId", "domainId", "uint64Value", "int64Value", "doubleValue", "uint32Value",
                "int32Value", "floatValue", "jsonTextId", "jsonText"});

    // Domains and categories are named per process by their own rows; read
    // them first. Ranges still open at the end of capture end at the last
    // NVTX timestamp, as in nsys stats.
    using DomainKey = std::pair<std::uint32_t, std::int64_t>;                // pid, domainId
    std::map<DomainKey, StringId> domainNames;
    std::map<std::tuple<std::uint32_t, std::int64_t, std::int64_t>, StringId> categoryNames;
    TimeNs lastTimestamp = kTimeMin;
    const bool ok = ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const int type = int(row.int64(Type));
        for (const TimeNs t : {row.int64(Start), row.int64(End, kTimeMin)})
            if (isTraceTime(t))
                lastTimestamp = std::max(lastTimestamp, t);
        const std::uint32_t pid = pidOfGlobalId(row.int64(GlobalTid));
        if (type == NvtxEventType::DomainCreate)
            domainNames[{pid, row.int64(DomainId)}] = nvtxText(ctx, row, Text, TextId);
        else if (type == NvtxEventType::Category)
            categoryNames[{pid, row.int64(DomainId), row.int64(Category)}] = nvtxText(ctx, row, Text, TextId);
    });
    if (!ok)
        return;

    std::size_t openRanges = 0;
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const int type = int(row.int64(Type));
        if (!isNvtxRange(type) && type != NvtxEventType::Mark)
            return;
        const TimeNs start = row.int64(Start);
        NvtxRecord record;
        record.eventType = std::uint8_t(type);
        TimeNs end = start;
        const bool open = isNvtxRange(type) && (row.isNull(End) || (row.int64(End) == 0 && start != 0));
        if (isNvtxRange(type) && !open) {
            const std::optional<TimeNs> checkedEnd = ctx.checkedEnd(table, start, row, End);
            if (!checkedEnd)
                return;
            end = *checkedEnd;
        } else if (!ctx.checkedStart(table, start)) {
            return;
        } else if (open) {
            record.openAtEnd = true;
            end = std::max(start, lastTimestamp);
            ++openRanges;
        }
        const std::int64_t globalTid = row.int64(GlobalTid);
        const std::uint32_t pid = pidOfGlobalId(globalTid);
        const std::int64_t domainId = row.int64(DomainId);
        record.category = std::uint32_t(row.int64(Category));
        if (record.category != 0) {
            const auto it = categoryNames.find({pid, domainId, row.int64(Category)});
            if (it != categoryNames.end())
                record.categoryName = it->second;
        }
        // Old exports store 0 for "no colour" and "same thread"; a colour
        // with zero alpha would be invisible anyway.
        record.color = std::uint32_t(row.int64(Color));
        record.hasColor = (record.color & 0xFF000000u) != 0;
        const std::int64_t endGlobalTid = row.int64(EndGlobalTid);
        record.endTid = tidOfGlobalId(endGlobalTid != 0 ? endGlobalTid : globalTid);
        using PK = NvtxRecord::PayloadKind;
        if (!row.isNull(I64) || !row.isNull(I32)) {
            record.payloadKind = PK::Int;
            record.intPayload = row.isNull(I64) ? row.int64(I32) : row.int64(I64);
        } else if (!row.isNull(U64) || !row.isNull(U32)) {
            record.payloadKind = PK::Unsigned;
            record.intPayload = row.isNull(U64) ? row.int64(U32) : row.int64(U64);
        } else if (!row.isNull(Dbl) || !row.isNull(Flt)) {
            record.payloadKind = PK::Double;
            record.doublePayload = row.isNull(Dbl) ? row.real(Flt) : row.real(Dbl);
        } else if (!row.isNull(JsonText) || !row.isNull(JsonTextId)) {
            record.payloadKind = PK::Json;
            record.jsonPayload = nvtxText(ctx, row, JsonText, JsonTextId);
        }
        Track &track = ctx.hostTrack(TrackKind::Nvtx, globalTid, std::uint32_t(domainId));
        if (domainId != 0 && track.domainName == StringTable::kEmpty) {
            const auto it = domainNames.find({pid, domainId});
            track.domainName = it != domainNames.end() ? it->second
                                                       : ctx.intern("domain " + std::to_string(domainId));
        }
        track.slices.append(start, end, nvtxText(ctx, row, Text, TextId), std::uint32_t(ctx.report.nvtx.size()));
        ctx.report.nvtx.push_back(record);
    });
    if (openRanges)
        ctx.note(Diagnostic::Severity::Info,
                 QStringLiteral("NVTX: %1 ranges were still open when capture stopped; they end at the last NVTX timestamp")
                     .arg(openRanges));
}

} // namespace rankscope::nsys
