// CPU sampling and backtraces of an Nsight Systems export: COMPOSITE_EVENTS
// (one row per sample), SAMPLING_CALLCHAINS (its stack), CUDA_CALLCHAINS
// and OSRT_CALLCHAINS (the stacks of CUDA API and OS runtime calls, by
// their rows' callchainId). Every callchain table is (id, stackDepth)
// rows, depth 0 the innermost frame.
#include "core/narrowing.h"
#include "load/callchaininterner.h"
#include "load/nsys/nsysreaders.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

namespace rankscope::nsys {

namespace {

// Unwind methods the export names as Python's, if it names any.
std::set<std::int64_t> pythonUnwindMethods(NsysLoadContext &ctx)
{
    std::set<std::int64_t> methods;
    for (const char *table : {"ENUM_STACK_UNWIND_METHOD", "UnwindMethodType"}) {
        if (!ctx.db.hasTable(table))
            continue;
        const std::string idColumn = ctx.db.hasColumn(table, "id") ? "id" : "number";
        const std::string nameColumn = ctx.db.hasColumn(table, "name") ? "name" : "label";
        ctx.forEachRow(table, ctx.db.selectColumns(table, {idColumn, nameColumn}), [&](const SqliteStatement &row) {
            if (QString::fromUtf8(row.text(1)).contains(QLatin1String("python"), Qt::CaseInsensitive))
                methods.insert(row.int64(0, -1));
        });
    }
    return methods;
}

bool isPythonModule(std::string_view module)
{
    return module.size() >= 3 && (module.ends_with(".py") || module.ends_with(".PY"));
}

bool readCallchainRows(NsysLoadContext &ctx, CallchainInterner &interner, const char *table, const std::string &sql,
                       const std::set<std::int64_t> &pythonMethods, CallchainIds &chains, bool ordered);

// Reads one callchain table into the report's interned chains; returns the
// chain row of each of the table's ids.
CallchainIds readCallchainTable(NsysLoadContext &ctx, CallchainInterner &interner, const char *table, const std::set<std::int64_t> &pythonMethods)
{
    CallchainIds chains;
    if (!ctx.db.hasTable(table))
        return chains;
    if (!ctx.db.hasColumn(table, "id") || !ctx.db.hasColumn(table, "stackDepth") || !ctx.db.hasColumn(table, "symbol")) {
        ctx.note(Diagnostic::Severity::Warning,
                 QStringLiteral("%1 has no id, stackDepth or symbol column: its backtraces are left out").arg(QString::fromLatin1(table)));
        return chains;
    }
    // nsys writes the rows by id, then depth: read in storage order (a
    // sequential scan), and only when a row breaks that order read the
    // table again through its (id, stackDepth) key, a seek per row.
    const std::vector<std::string> columns{"id", "stackDepth", "symbol", "module", "kernelMode", "unresolved", "specialEntry", "unwindMethod"};
    CallchainIds inStorageOrder;
    if (readCallchainRows(ctx, interner, table, ctx.db.selectColumns(table, columns), pythonMethods, inStorageOrder, false))
        return inStorageOrder;
    readCallchainRows(ctx, interner, table, ctx.db.selectColumns(table, columns, "ORDER BY id, stackDepth"), pythonMethods, chains, true);
    return chains;
}

// Reads callchain rows in the order `sql` gives them; false (without
// noting anything) when `ordered` is not set and a row comes out of (id,
// depth) order.
bool readCallchainRows(NsysLoadContext &ctx, CallchainInterner &interner, const char *table, const std::string &sql,
                       const std::set<std::int64_t> &pythonMethods, CallchainIds &chains, bool ordered)
{
    std::size_t duplicates = 0, gaps = 0, truncated = 0;
    bool outOfOrder = false;
    // Frames by the export's own ids: most rows repeat a frame seen before,
    // and need no string lookup or hashing of texts.
    struct RawFrame {
        std::int64_t symbol, module, flags;
        bool operator==(const RawFrame &) const = default;
    };
    struct RawFrameHash {
        std::size_t operator()(const RawFrame &f) const
        {
            // Unsigned: a damaged export's ids can be anything, and must not overflow.
            return std::hash<std::uint64_t>()(std::uint64_t(f.symbol) * 1000003u + std::uint64_t(f.module) * 31u + std::uint64_t(f.flags));
        }
    };
    std::unordered_map<RawFrame, std::uint32_t, RawFrameHash> frameOf;
    std::vector<std::uint32_t> frames;
    std::int64_t currentId = 0, lastDepth = -1;
    bool open = false, cut = false;
    const auto close = [&] {
        if (open)
            chains.emplace(currentId, interner.chain(frames));
        frames.clear();
        lastDepth = -1;
        open = cut = false;
    };
    const bool completed = ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        if (outOfOrder)
            return;
        const std::int64_t id = row.int64(0), depth = row.int64(1, -1);
        if (!open || id != currentId) {
            if (!ordered && open && id < currentId) {
                outOfOrder = true;
                return;
            }
            close();
            currentId = id;
            open = true;
        }
        if (!ordered && depth >= 0 && depth < lastDepth) {
            outOfOrder = true;
            return;
        }
        if (depth < 0 || depth <= lastDepth) { // a negative depth, or a depth twice (a table without its key)
            ++duplicates;
            return;
        }
        if (depth != lastDepth + 1)
            ++gaps;
        lastDepth = depth;
        if (frames.size() >= CallchainInterner::kMaxFrames) {
            truncated += cut ? 0 : 1;
            cut = true;
            return;
        }
        std::uint8_t flags = 0;
        if (row.int64(4) != 0)
            flags |= CallFrame::KernelMode;
        if (row.int64(5) != 0)
            flags |= CallFrame::Unresolved;
        if (row.int64(6) != 0)
            flags |= CallFrame::SpecialEntry;
        if (!row.isNull(7) && pythonMethods.count(row.int64(7)))
            flags |= CallFrame::Python;
        const RawFrame raw{row.int64(2), row.int64(3), flags};
        auto known = frameOf.find(raw);
        if (known == frameOf.end()) {
            CallFrame frame;
            frame.function = ctx.mapString(raw.symbol);
            frame.module = ctx.mapString(raw.module);
            frame.flags = flags; // a .py module marks a Python frame too, once the strings are in (attachBacktraces)
            known = frameOf.emplace(raw, interner.frame(frame)).first;
        }
        frames.push_back(known->second);
    });
    if (outOfOrder)
        return false;
    close();
    if (!completed)
        return true; // cancelled or failed: the load stops (fatalError says why)
    const QString name = QString::fromLatin1(table);
    if (duplicates)
        ctx.note(Diagnostic::Severity::Warning,
                 QStringLiteral("%1: %2 frames repeat a depth of their callchain or have a negative depth: left out").arg(name).arg(duplicates));
    if (gaps)
        ctx.note(Diagnostic::Severity::Warning,
                 QStringLiteral("%1: %2 callchains skip a depth: the frames present are kept in order").arg(name).arg(gaps));
    if (truncated)
        ctx.note(Diagnostic::Severity::Warning, QStringLiteral("%1: %2 callchains are deeper than %3 frames: the innermost %3 are kept")
                                                    .arg(name)
                                                    .arg(truncated)
                                                    .arg(CallchainInterner::kMaxFrames));
    return true;
}

void readSamples(NsysLoadContext &ctx, const CallchainIds &sampleChains)
{
    static const char *table = "COMPOSITE_EVENTS";
    if (!ctx.db.hasTable(table))
        return;
    if (!ctx.db.hasColumn(table, "start") || !ctx.db.hasColumn(table, "globalTid")) {
        ctx.note(Diagnostic::Severity::Warning, QStringLiteral("COMPOSITE_EVENTS has no start or globalTid column: its CPU samples are left out"));
        return;
    }
    struct ThreadSample {
        std::uint32_t pid, tid;
        CpuSample sample;
    };
    std::vector<ThreadSample> read;
    read.reserve(ctx.rowsAtMost(table));
    std::size_t withoutChain = 0;
    const std::string sql = ctx.db.selectColumns(table, {"id", "start", "cpu", "threadState", "globalTid"});
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const TimeNs start = row.int64(1);
        if (!ctx.checkedStart(table, start))
            return;
        CpuSample sample;
        sample.time = start;
        if (!row.isNull(2) && row.int64(2) >= 0)
            sample.cpu = saturate<std::uint16_t>(std::min<std::int64_t>(row.int64(2), CpuSample::kUnknownCpu - 1));
        sample.threadState = std::uint8_t(std::clamp<std::int64_t>(row.int64(3), 0, 255));
        if (const auto it = sampleChains.find(row.int64(0)); it != sampleChains.end())
            sample.callchain = it->second;
        else
            ++withoutChain;
        const std::int64_t globalTid = row.int64(4);
        read.push_back({pidOfGlobalId(globalTid), tidOfGlobalId(globalTid), sample});
    });
    std::sort(read.begin(), read.end(), [](const ThreadSample &a, const ThreadSample &b) {
        return std::tie(a.pid, a.tid, a.sample.time) < std::tie(b.pid, b.tid, b.sample.time);
    });
    CpuSampling &sampling = ctx.report.sampling;
    sampling.samples.reserve(read.size());
    for (const ThreadSample &s : read) {
        if (sampling.threads.empty() || sampling.threads.back().pid != s.pid || sampling.threads.back().tid != s.tid)
            sampling.threads.push_back({s.pid, s.tid, std::uint32_t(sampling.samples.size()), 0});
        sampling.samples.push_back(s.sample);
        ++sampling.threads.back().count; // a thread's count fits: a sample file's rows are far below 2^32
    }
    if (withoutChain && !read.empty())
        ctx.note(
            Diagnostic::Severity::Info,
            QStringLiteral("%1 of %2 CPU samples have no callchain (SAMPLING_CALLCHAINS): they count in the timeline, not in the function tables")
                .arg(withoutChain)
                .arg(read.size()));
}

} // namespace

void readCpuSampling(NsysLoadContext &ctx)
{
    CallchainInterner interner(ctx.report.sampling);
    const std::set<std::int64_t> pythonMethods = pythonUnwindMethods(ctx);
    const CallchainIds sampleChains = readCallchainTable(ctx, interner, "SAMPLING_CALLCHAINS", pythonMethods);
    readSamples(ctx, sampleChains);
    ctx.cudaCallchains = readCallchainTable(ctx, interner, "CUDA_CALLCHAINS", pythonMethods);
    ctx.osrtCallchains = readCallchainTable(ctx, interner, "OSRT_CALLCHAINS", pythonMethods);
}

void attachBacktraces(Report &report, const std::vector<std::uint32_t> &apiCallchainIds, const CallchainIds &cudaChains,
                      const CallchainIds &osrtChains)
{
    CpuSampling &sampling = report.sampling;
    // Read beside the string table, the frames learn their modules' names only now.
    for (CallFrame &frame : sampling.frames)
        if (isPythonModule(report.strings.view(frame.module)))
            frame.flags |= CallFrame::Python;
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
        Track &track = report.tracks[t];
        const bool api = track.kind == TrackKind::CudaApi, osrt = track.kind == TrackKind::OsRuntime;
        if (!api && !osrt)
            continue;
        for (std::uint32_t e = 0; e < track.slices.size(); ++e) {
            // API slices: the payload is the call's row, whose callchainId was kept aside;
            // OS runtime slices: the payload is callchainId + 1 (0: none).
            const std::uint32_t payload = track.slices.payload(e);
            std::int64_t id = -1;
            if (api && payload < apiCallchainIds.size() && apiCallchainIds[payload] != kNoCallchainId)
                id = apiCallchainIds[payload];
            else if (osrt && payload != 0)
                id = std::int64_t(payload) - 1;
            if (id < 0)
                continue;
            const CallchainIds &chains = api ? cudaChains : osrtChains;
            if (const auto it = chains.find(id); it != chains.end())
                sampling.backtraces.push_back({t, e, it->second});
        }
        if (osrt)
            track.slices.clearPayloads(); // they carried the ids only until now
    }
}

} // namespace rankscope::nsys
