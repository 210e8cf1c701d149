#include "core/narrowing.h"
#include "load/nsys/nsysreaders.h"
#include "load/nsys/nvtxpayloadschemas.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <tuple>

namespace rankscope::nsys {

void readCudaApi(NsysLoadContext &ctx)
{
    static const char *table = "CUPTI_ACTIVITY_KIND_RUNTIME";
    if (!ctx.isReadableEventTable(table))
        return;
    ctx.reserveFor(ctx.report.apiCalls, table);
    const std::string sql =
        ctx.db.selectColumns(table, {"start", "end", "globalTid", "correlationId", "nameId", "returnValue", "eventClass", "callchainId"});
    const bool backtraces = ctx.db.hasColumn(table, "callchainId");
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
        if (backtraces)
            ctx.apiCallchainIds.push_back(row.isNull(7) || row.int64(7) < 0
                                              ? kNoCallchainId
                                              : saturate<std::uint32_t>(std::min<std::int64_t>(row.int64(7), kNoCallchainId - 1)));
    });
}

void readOsRuntime(NsysLoadContext &ctx)
{
    static const char *table = "OSRT_API";
    if (!ctx.isReadableEventTable(table))
        return;
    const std::string sql = ctx.db.selectColumns(table, {"start", "end", "globalTid", "nameId", "eventClass", "callchainId"});
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
        // OS runtime slices carry no side table: until nsys::attachBacktraces
        // binds it, the payload is the row's callchainId + 1 (0: none).
        const std::uint32_t callchain = row.isNull(5) || row.int64(5) < 0 ? 0 : std::uint32_t(std::min<std::int64_t>(row.int64(5), 0xFFFFFFFEll) + 1);
        ctx.hostTrack(TrackKind::OsRuntime, row.int64(2)).slices.append(start, end, ctx.mapString(row.int64(3)), callchain);
    });
}

void readCudaLibraries(NsysLoadContext &ctx)
{
    // Both tables hold one row per library call on its thread; the calls'
    // names (cudnnConvolutionForward, cublasGemmEx, ...) say which library.
    for (const char *table : {"CUDNN_EVENTS", "CUBLAS_EVENTS"}) {
        if (!ctx.isReadableEventTable(table))
            continue;
        const std::string sql = ctx.db.selectColumns(table, {"start", "end", "globalTid", "nameId"});
        ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
            const std::optional<TimeRange> span = ctx.checkedSpan(table, row, 0, 1);
            if (!span)
                return;
            ctx.hostTrack(TrackKind::CudaLibrary, row.int64(2)).slices.append(span->start, span->end, ctx.mapString(row.int64(3)), 0);
        });
    }
}

void readOpenAcc(NsysLoadContext &ctx)
{
    // nsys names an OpenACC event by its kind and, where the runtime said,
    // its source: "acc_enqueue_launch@saxpy.c:42" (openacc_sum groups by
    // that text).
    for (const char *table : {"CUPTI_ACTIVITY_KIND_OPENACC_DATA", "CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH", "CUPTI_ACTIVITY_KIND_OPENACC_OTHER"}) {
        if (!ctx.isReadableEventTable(table))
            continue;
        std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, StringId> names; // (nameId, srcFile, lineNo)
        const std::string sql = ctx.db.selectColumns(table, {"start", "end", "globalTid", "nameId", "srcFile", "lineNo"});
        ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
            const std::optional<TimeRange> span = ctx.checkedSpan(table, row, 0, 1);
            if (!span)
                return;
            const std::int64_t file = row.isNull(4) ? -1 : row.int64(4);
            auto name = names.find({row.int64(3), file, row.int64(5)});
            if (name == names.end()) {
                std::string text(ctx.report.strings.view(ctx.mapString(row.int64(3))));
                if (file >= 0)
                    text += '@' + std::string(ctx.report.strings.view(ctx.mapString(file))) + ':' + std::to_string(row.int64(5));
                name = names.emplace(std::tuple(row.int64(3), file, row.int64(5)), ctx.intern(text)).first;
            }
            ctx.hostTrack(TrackKind::OpenAcc, row.int64(2)).slices.append(span->start, span->end, name->second, 0);
        });
    }
}

void readOpenMp(NsysLoadContext &ctx)
{
    // One table per OpenMP event kind (OPENMP_EVENT_KIND_PARALLEL, ..._TASK,
    // ...): a track per thread and table, the table its domain, as
    // openmp_sum groups per table.
    static constexpr std::string_view kPrefix = "OPENMP_EVENT_KIND_";
    std::vector<std::string> tables;
    for (const std::string &table : ctx.db.tables())
        if (table.starts_with(kPrefix))
            tables.push_back(table);
    for (std::uint32_t kind = 0; kind < tables.size(); ++kind) {
        const char *table = tables[kind].c_str();
        if (!ctx.isReadableEventTable(table))
            continue;
        std::string kindName = tables[kind].substr(kPrefix.size()); // "SYNC_REGION_WAIT" -> "sync region wait"
        for (char &c : kindName)
            c = c == '_' ? ' ' : char(std::tolower(static_cast<unsigned char>(c)));
        const StringId domain = ctx.intern(kindName);
        const std::string sql = ctx.db.selectColumns(table, {"start", "end", "globalTid", "nameId"});
        ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
            const std::optional<TimeRange> span = ctx.checkedSpan(table, row, 0, 1);
            if (!span)
                return;
            Track &track = ctx.hostTrack(TrackKind::OpenMp, row.int64(2), kind + 1);
            track.domainName = domain;
            track.slices.append(span->start, span->end, ctx.mapString(row.int64(3)), 0);
        });
    }
}

namespace {

bool isNvtxRange(int type)
{
    return type == NvtxEventType::PushPopRange || type == NvtxEventType::StartEndRange || type == NvtxEventType::NvtxtPushPop
           || type == NvtxEventType::NvtxtStartEnd;
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

namespace {

// The columns of a row as the readers below index them: the pass over the
// table selects those up to DomainId and then HasPayload; a row's payload
// is read by its rowid, selecting all of them (HasPayload is rowid there).
enum NvtxColumn {
    Start,
    End,
    Type,
    Category,
    Color,
    Text,
    GlobalTid,
    EndGlobalTid,
    TextId,
    DomainId,
    U64,
    I64,
    Dbl,
    U32,
    I32,
    Flt,
    JsonTextId,
    JsonText,
    BinaryData
};
constexpr int HasPayload = U64, RowId = U64 + 1;
const std::vector<std::string> kNvtxColumns = {"start", "end",       "eventType",    "category", "color",
                                               "text",  "globalTid", "endGlobalTid", "textId",   "domainId"};
const std::vector<std::string> kNvtxPayloadColumns = {"uint64Value", "int64Value", "doubleValue", "uint32Value", "int32Value",
                                                      "floatValue",  "jsonTextId", "jsonText",    "binaryData"};

// binaryData as bytes: stored as a BLOB, or as hex text.
std::string payloadBytes(std::string_view stored)
{
    const bool hexText = !stored.empty() && stored.size() % 2 == 0
                         && std::all_of(stored.begin(), stored.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
    if (!hexText)
        return std::string(stored);
    std::string bytes(stored.size() / 2, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = char(std::stoi(std::string(stored.substr(2 * i, 2)), nullptr, 16));
    return bytes;
}

// An extended payload: its fields as the record's text, and NCCL's calls
// kept for attachNcclCalls.
void decodeSchemaPayload(NsysLoadContext &ctx, const NvtxPayloadSchemas &schemas, const SqliteStatement &row, std::int64_t globalTid, TimeRange span,
                         StringId name, NvtxRecord &record)
{
    if (schemas.isEmpty() || row.isNull(BinaryData))
        return;
    const std::vector<PayloadField> fields = schemas.decode(row.int64(DomainId), payloadBytes(row.blob(BinaryData)), ctx.report.strings.view(name));
    if (fields.empty())
        return;
    record.payloadKind = NvtxRecord::PayloadKind::Fields;
    record.jsonPayload = ctx.intern(formatPayloadFields(fields));
    const auto communicator = payloadValue(fields, ncclfield::kCommunicator);
    if (!communicator)
        return;
    NcclCall call;
    call.pid = pidOfGlobalId(globalTid);
    call.tid = tidOfGlobalId(globalTid);
    call.start = span.start;
    call.end = span.end;
    call.name = name;
    call.communicator = std::uint64_t(*communicator);
    call.bytes = payloadValue(fields, ncclfield::kBytes);
    call.peer = payloadValue(fields, ncclfield::kPeer);
    call.root = payloadValue(fields, ncclfield::kRoot);
    call.ranks = payloadValue(fields, ncclfield::kRanks);
    call.rank = payloadValue(fields, ncclfield::kRank);
    ctx.ncclCalls.push_back(call);
}

// The classic payload columns: at most one of them is set per row.
void decodeNvtxPayload(NsysLoadContext &ctx, const SqliteStatement &row, NvtxRecord &record)
{
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
}

// What one pass over NVTX_EVENTS learns only by its end: domain and
// category names (their rows may follow the ranges that use them), the
// last timestamp (where ranges still open at the end of capture end, as in
// nsys stats), and the rows waiting for them.
struct NvtxPass {
    using DomainKey = std::pair<std::uint32_t, std::int64_t>;                  // pid, domainId
    using CategoryKey = std::tuple<std::uint32_t, std::int64_t, std::int64_t>; // pid, domainId, category
    std::map<DomainKey, StringId> domainNames;
    std::map<CategoryKey, StringId> categoryNames;
    std::vector<std::pair<std::size_t, CategoryKey>> categorised; // NVTX record, its category
    struct OpenRange {
        std::int64_t globalTid;
        std::uint32_t domainId;
        TimeNs start;
        StringId name;
        std::uint32_t record;
    };
    std::vector<OpenRange> open;
    TimeNs lastTimestamp = kTimeMin;
};

} // namespace

void readNvtx(NsysLoadContext &ctx)
{
    static const char *table = "NVTX_EVENTS";
    if (!ctx.isReadableEventTable(table))
        return;
    // Most ranges carry no payload (emit_nvtx writes none), and SQLite reads
    // every selected column of every row: the pass selects whether a row
    // has one, and only such a row's payload columns are read, by rowid.
    std::string anyPayload;
    for (const std::string &column : kNvtxPayloadColumns)
        if (ctx.db.hasColumn(table, column))
            anyPayload += (anyPayload.empty() ? "\"" : ", \"") + column + "\"";
    std::string sql = ctx.db.selectColumns(table, kNvtxColumns);
    SqliteStatement payloadRow;
    if (!anyPayload.empty()) {
        const std::string hasPayload = "coalesce(" + anyPayload + ", NULL) IS NOT NULL";
        sql.insert(sql.find(" FROM "), ", " + hasPayload + ", rowid");
        std::vector<std::string> allColumns = kNvtxColumns;
        allColumns.insert(allColumns.end(), kNvtxPayloadColumns.begin(), kNvtxPayloadColumns.end());
        QString error;
        payloadRow = ctx.db.prepare(ctx.db.selectColumns(table, allColumns, "WHERE rowid = ?"), &error);
        if (!payloadRow.isValid()) // a table without rowids: read every column in the pass
            sql = ctx.db.selectColumns(table, allColumns);
    }
    NvtxPayloadSchemas schemas;
    schemas.read(ctx.db);
    NvtxPass pass;
    std::size_t unreadPayloads = 0;
    Column<NvtxRecord> &records = ctx.report.nvtx;
    const bool ok = ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const int type = int(row.int64(Type));
        const TimeNs start = row.int64(Start);
        for (const TimeNs t : {start, row.int64(End, kTimeMin)})
            if (isTraceTime(t))
                pass.lastTimestamp = std::max(pass.lastTimestamp, t);
        const std::int64_t globalTid = row.int64(GlobalTid);
        const std::uint32_t pid = pidOfGlobalId(globalTid);
        const std::int64_t domainId = row.int64(DomainId);
        if (type == NvtxEventType::DomainCreate) {
            pass.domainNames[{pid, domainId}] = nvtxText(ctx, row, Text, TextId);
            return;
        }
        if (type == NvtxEventType::Category) {
            pass.categoryNames[{pid, domainId, row.int64(Category)}] = nvtxText(ctx, row, Text, TextId);
            return;
        }
        const bool range = isNvtxRange(type);
        if (!range && type != NvtxEventType::Mark)
            return;
        NvtxRecord record;
        record.eventType = std::uint8_t(type);
        TimeNs end = start;
        const bool open = range && (row.isNull(End) || (row.int64(End) == 0 && start != 0));
        if (range && !open) {
            const std::optional<TimeNs> checkedEnd = ctx.checkedEnd(table, start, row, End);
            if (!checkedEnd)
                return;
            end = *checkedEnd;
        } else if (!ctx.checkedStart(table, start)) {
            return;
        }
        record.openAtEnd = open;
        record.category = saturate<std::uint32_t>(row.int64(Category));
        if (record.category != 0)
            pass.categorised.push_back({records.size(), {pid, domainId, row.int64(Category)}});
        // Old exports store 0 for "no colour" and "same thread"; a colour
        // with zero alpha would be invisible anyway.
        record.color = std::uint32_t(row.int64(Color));
        record.hasColor = (record.color & 0xFF000000u) != 0;
        const std::int64_t endGlobalTid = row.int64(EndGlobalTid);
        if (endGlobalTid != 0 && tidOfGlobalId(endGlobalTid) != tidOfGlobalId(globalTid))
            record.endTid = tidOfGlobalId(endGlobalTid);
        const StringId name = nvtxText(ctx, row, Text, TextId);
        const SqliteStatement *payload = &row;
        if (payloadRow.isValid()) {
            payload = nullptr;
            if (row.int64(HasPayload) != 0) {
                if (payloadRow.rebind(1, row.int64(RowId)) && payloadRow.step())
                    payload = &payloadRow;
                else
                    ++unreadPayloads;
            }
        }
        if (payload) {
            decodeNvtxPayload(ctx, *payload, record);
            decodeSchemaPayload(ctx, schemas, *payload, globalTid, {start, end}, name, record);
        }
        const bool plain = record.isDefault();
        const auto recordIndex = plain ? NvtxRecord::kNoRecord : std::uint32_t(records.size());
        if (open) // its end is the last timestamp, known after the pass
            pass.open.push_back({globalTid, std::uint32_t(domainId), start, name, recordIndex});
        else
            ctx.hostTrack(TrackKind::Nvtx, globalTid, std::uint32_t(domainId)).slices.append(start, end, name, recordIndex);
        if (!plain)
            records.push_back(record);
    });
    if (!ok)
        return;
    if (unreadPayloads > 0)
        ctx.note(Diagnostic::Severity::Warning, QStringLiteral("NVTX: the payloads of %1 ranges could not be read (%2); they show without them")
                                                    .arg(unreadPayloads)
                                                    .arg(payloadRow.error().isEmpty() ? QStringLiteral("row not found") : payloadRow.error()));

    for (const NvtxPass::OpenRange &r : pass.open)
        ctx.hostTrack(TrackKind::Nvtx, r.globalTid, r.domainId).slices.append(r.start, std::max(r.start, pass.lastTimestamp), r.name, r.record);
    for (const auto &[record, key] : pass.categorised)
        if (const auto it = pass.categoryNames.find(key); it != pass.categoryNames.end())
            records[record].categoryName = it->second;
    for (Track &track : ctx.report.tracks)
        if (track.kind == TrackKind::Nvtx && track.domainId != 0 && track.domainName == StringTable::kEmpty) {
            const auto it = pass.domainNames.find({track.pid, std::int64_t(track.domainId)});
            track.domainName = it != pass.domainNames.end() ? it->second : ctx.intern("domain " + std::to_string(track.domainId));
        }
    if (!pass.open.empty())
        ctx.note(Diagnostic::Severity::Info,
                 QStringLiteral("NVTX: %1 ranges were still open when capture stopped; they end at the last NVTX timestamp").arg(pass.open.size()));
}

} // namespace rankscope::nsys
