#include "load/cache/cachechecks.h"

#include "core/communicationkernels.h"
#include "core/narrowing.h"
#include "load/cache/reportfields.h"
#include "load/workerpool.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <vector>

namespace rankscope {

namespace {

// How many rows the side table an event's payload names has; nothing when
// its payload is not a row (kTrackKinds says which).
std::optional<std::size_t> payloadRows(const Report &r, TrackKind kind)
{
    std::optional<std::size_t> rows;
    forEachSideTable(r, [&](const auto &table, std::initializer_list<TrackKind> readers) {
        if (std::find(readers.begin(), readers.end(), kind) != readers.end())
            rows = table.size();
    });
    return rows;
}

const char *lodProblem(const LodSummary &lod, const SliceTrack &track)
{
    const std::size_t events = track.size();
    for (const LodSummary::Level &level : lod.levels()) {
        const std::size_t n = level.bucket.size();
        if (level.width < 1 || level.width > 2 * kTraceTimeLimit)
            return "a summary level has no width, or one wider than any trace";
        if (level.count.size() != n || level.busy.size() != n || level.longest.size() != n || level.longestStart.size() != n
            || level.longestEnd.size() != n)
            return "a summary level's columns differ in length";
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t e = level.longest[i];
            if (e != LodSummary::kNoEvent && e >= events)
                return "a summary names an event its track does not have";
            // What the timeline draws of it zoomed out, in place of its event's times.
            const bool sameTimes = e == LodSummary::kNoEvent ? level.longestStart[i] == 0 && level.longestEnd[i] == 0
                                                             : level.longestStart[i] == track.start(e) && level.longestEnd[i] == track.end(e);
            if (!sameTimes)
                return "a summary's longest event has other times than the event";
        }
        // Buckets ascend (lookups search them) and start at a time that fits
        // (readers multiply bucket by width); none is busier than it is wide.
        for (std::size_t i = 0; i < n; ++i)
            if ((i > 0 && level.bucket[i] <= level.bucket[i - 1]) || level.bucket[i] < kTimeMin / level.width
                || level.bucket[i] > kTimeMax / level.width - 1 || level.busy[i] < 0 || level.busy[i] > level.width)
                return "a summary level's buckets are out of order or range";
    }
    return nullptr;
}

// What every slice track needs, a recorded one or a summary's runs.
const char *slicesProblem(const Report &r, const SliceTrack &s)
{
    if (const char *problem = ReportCacheAccess::sliceTrackShapeProblem(s))
        return problem;
    const std::size_t n = s.size();
    // What every loader guarantees and statistics rely on: times within the
    // trace range, no event ending before it starts, starts in order.
    TimeNs lastEnd = kTimeMin;
    for (std::size_t i = 0; i < n; ++i) {
        if (!isTraceTime(s.start(i)) || !isTraceTime(s.end(i)) || s.end(i) < s.start(i) || (i > 0 && s.start(i) < s.start(i - 1)))
            return "a track's times are out of order or range";
        lastEnd = std::max(lastEnd, s.end(i));
    }
    // The session's time axis is the union of these ranges.
    const TimeRange extent = s.extent();
    if (n == 0 ? !extent.isEmpty() : (extent.start != s.start(0) || extent.end != lastEnd))
        return "a track's range is not its events'";
    // Statistics index arrays by string id: every id names a string.
    const std::size_t strings = r.strings.size();
    for (const StringId name : s.names())
        if (name >= strings)
            return "an event names a string that is not there";
    if (const char *problem = lodProblem(s.lod(), s))
        return problem;
    for (const SliceTrack::DepthRow &row : s.depthRows()) {
        for (const std::uint32_t e : row.events)
            if (e >= n)
                return "a depth row names an event its track does not have";
        if (const char *problem = lodProblem(row.lod, s))
            return problem;
    }
    return nullptr;
}

// What a track says of itself, with or without its events.
const char *trackLabelProblem(const Report &r, const Track &t)
{
    if (!isKnownTrackKind(std::uint8_t(t.kind)))
        return "a track of an unknown kind";
    if (t.domainName >= r.strings.size())
        return "a track names a string that is not there";
    return nullptr;
}

const char *sliceTrackProblem(const Report &r, const Track &t)
{
    if (const char *problem = trackLabelProblem(r, t))
        return problem;
    const SliceTrack &s = t.slices;
    if (const char *problem = slicesProblem(r, s))
        return problem;
    const bool noRecordAllowed = trackKindInfo(t.kind).payload == SlicePayload::OptionalRow;
    if (const std::optional<std::size_t> rows = payloadRows(r, t.kind))
        for (std::size_t i = 0; i < s.size(); ++i) {
            const std::uint32_t row = s.payload(i);
            if (row >= *rows && !(noRecordAllowed && row == NvtxRecord::kNoRecord))
                return "an event's record is outside its table";
        }
    return nullptr;
}

// A bool stored in a mapped record is read as a byte first: a byte other
// than 0 or 1 would be undefined behaviour to read as bool.
bool isFlag(const void *at)
{
    std::uint8_t byte = 0;
    std::memcpy(&byte, at, 1);
    return byte <= 1;
}

const char *counterProblem(const CounterTrack &c)
{
    if (const char *problem = ReportCacheAccess::counterShapeProblem(c))
        return problem;
    for (std::size_t i = 0; i < c.time.size(); ++i)
        if (!isTraceTime(c.time[i]) || (i > 0 && c.time[i] < c.time[i - 1]) || !std::isfinite(c.value[i]))
            return "a counter's samples are out of order or range";
    return nullptr;
}

const char *outlineProblem(const Report &r)
{
    if (r.meta.source != TraceSource::NsysSqlite && r.meta.source != TraceSource::Kineto)
        return "a trace of an unknown format";
    for (const Diagnostic &d : r.diagnostics)
        if (d.severity > Diagnostic::Severity::Error)
            return "a note of an unknown severity";
    return nullptr;
}

const char *busyProblem(const Report &r, const std::vector<BusySummary> &summaries)
{
    for (const BusySummary &g : summaries) {
        if (!isTraceTime(g.span.start) || !isTraceTime(g.span.end) || g.span.end < g.span.start || g.busy < 0 || g.busy > g.span.duration())
            return "a busy summary outside its span";
        if (const char *problem = slicesProblem(r, g.runs))
            return problem;
    }
    return nullptr;
}

// A process's summary is found by its pid (hostBusySummaryOf), one each.
const char *hostBusyProblem(const Report &r)
{
    for (std::size_t i = 0; i < r.hostBusy.size(); ++i)
        if (r.hostBusy[i].deviceId != -1 || (i > 0 && r.hostBusy[i - 1].pid >= r.hostBusy[i].pid))
            return "a process's busy summary out of order or on a GPU";
    return busyProblem(r, r.hostBusy);
}

const char *recordProblem(const Report &r)
{
    const std::size_t strings = r.strings.size();
    for (const KernelRecord &k : r.kernels)
        if (k.config >= r.kernelConfigs.size() || (k.collective != KernelRecord::kNoCollective && k.collective >= r.collectives.size())
            || k.shortName >= strings || k.mangledName >= strings)
            return "a kernel names a launch, collective or string that is not there";
    for (const CollectiveRecord &c : r.collectives)
        if (c.name >= strings || c.dtype >= strings || c.processGroupName >= strings || c.processGroupRanks >= strings || c.peers >= strings)
            return "a collective names a string that is not there";
    constexpr auto kMaxBytes = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    for (const MemcpyRecord &m : r.memcpys)
        if (m.bytes > kMaxBytes || std::uint8_t(m.copyKind) >= kMemcpyKindCount || std::uint8_t(m.srcKind) >= kMemoryKindCount
            || std::uint8_t(m.dstKind) >= kMemoryKindCount)
            return "a copy of an unknown kind";
    for (const MemsetRecord &m : r.memsets)
        if (m.bytes > kMaxBytes || std::uint8_t(m.memKind) >= kMemoryKindCount)
            return "a memset of an unknown memory kind";
    for (const SyncRecord &s : r.syncs)
        if (std::uint8_t(s.kind) >= kSyncKindCount)
            return "a synchronisation of an unknown kind";
    for (const MpiRecord &m : r.mpiCalls)
        if (std::uint8_t(m.kind) >= kMpiCallKindCount)
            return "an MPI call of an unknown kind";
    for (const UmCpuFaultRecord &f : r.umCpuFaults)
        if (f.instruction >= strings || f.module >= strings || f.sourceFile >= strings)
            return "a page fault names a string that is not there";
    for (const NvtxRecord &n : r.nvtx)
        if (n.categoryName >= strings || n.jsonPayload >= strings)
            return "an NVTX record names a string that is not there";
    for (const NvtxRecord &n : r.nvtx)
        if (!isFlag(&n.hasColor) || !isFlag(&n.openAtEnd) || std::uint8_t(n.payloadKind) > std::uint8_t(NvtxRecord::PayloadKind::Fields))
            return "an NVTX record with an unknown flag or payload kind";
    for (const NvtxProjectionRecord &p : r.nvtxProjections)
        if (p.nvtxRow != NvtxRecord::kNoRecord && p.nvtxRow >= r.nvtx.size())
            return "a projected range names an NVTX record that is not there";
    for (const auto *summaries : {&r.gpuBusy, &r.communication.otherGpuBusy})
        if (const char *problem = busyProblem(r, *summaries))
            return problem;
    if (const char *problem = hostBusyProblem(r))
        return problem;
    for (const auto *byCorrelation : {&r.apiByCorrelation, &r.gpuByCorrelation})
        for (const TrackEvent &e : *byCorrelation)
            if (e.track >= r.tracks.size() || e.event >= r.tracks[e.track].slices.size())
                return "a correlation names an event that is not there";
    return nullptr;
}

// Read after every track passed its checks: callchains that name frames
// and strings that are there, samples in order within their threads, and
// backtraces on calls that are there.
const char *samplingProblem(const Report &r)
{
    const CpuSampling &s = r.sampling;
    const std::size_t strings = r.strings.size();
    for (const CallFrame &f : s.frames)
        if (f.function >= strings || f.module >= strings)
            return "a callchain frame names a string that is not there";
    if (!s.chainStarts.empty() && (s.chainStarts[0] != 0 || s.chainStarts.back() != s.chainFrames.size()))
        return "the callchains do not cover their frames";
    if (s.chainStarts.empty() && !s.chainFrames.empty())
        return "callchain frames without callchains";
    for (std::size_t i = 1; i < s.chainStarts.size(); ++i)
        if (s.chainStarts[i] < s.chainStarts[i - 1])
            return "a callchain ends before it begins";
    for (const std::uint32_t frame : s.chainFrames)
        if (frame >= s.frames.size())
            return "a callchain names a frame that is not there";
    const std::size_t chains = s.chainCount();
    std::uint64_t covered = 0;
    for (std::size_t t = 0; t < s.threads.size(); ++t) {
        const SampledThread &thread = s.threads[t];
        if (thread.first != covered || thread.count == 0)
            return "a sampled thread's samples do not follow the previous thread's";
        covered += thread.count;
        if (covered > s.samples.size())
            return "a sampled thread has more samples than there are";
        if (t > 0 && std::tie(s.threads[t - 1].pid, s.threads[t - 1].tid) >= std::tie(thread.pid, thread.tid))
            return "sampled threads out of order";
        for (std::uint64_t i = thread.first; i < covered; ++i) {
            const CpuSample &sample = s.samples[i];
            if (i > thread.first && sample.time < s.samples[i - 1].time)
                return "a thread's samples out of time order";
            if (sample.callchain != CpuSample::kNoCallchain && sample.callchain >= chains)
                return "a sample names a callchain that is not there";
        }
    }
    if (covered != s.samples.size())
        return "CPU samples that belong to no thread";
    for (std::size_t i = 0; i < s.backtraces.size(); ++i) {
        const EventBacktrace &b = s.backtraces[i];
        if (b.track >= r.tracks.size() || b.event >= r.tracks[b.track].slices.size() || b.callchain >= chains)
            return "a backtrace names a call or callchain that is not there";
        if (i > 0 && std::tie(s.backtraces[i - 1].track, s.backtraces[i - 1].event) >= std::tie(b.track, b.event))
            return "backtraces out of order";
    }
    return nullptr;
}

// Read after every track passed its checks (their names and payloads are
// then in range).
const char *communicationProblem(const Report &r)
{
    // Communication kernels: kernels that are there, in order, with their
    // own kernel record's collective and a launch time a trace can have.
    const CommunicationSummary &c = r.communication;
    if (!isFlag(&c.present) || (!c.present && (!c.kernels.empty() || !c.otherGpuBusy.empty())))
        return "communication kernels without being marked built";
    for (std::size_t i = 0; i < c.kernels.size(); ++i) {
        const CommunicationKernel &k = c.kernels[i];
        if (k.track >= r.tracks.size() || r.tracks[k.track].kind != TrackKind::Kernel || k.event >= r.tracks[k.track].slices.size())
            return "a communication kernel that is not a kernel";
        if (i > 0 && std::pair(c.kernels[i - 1].track, c.kernels[i - 1].event) >= std::pair(k.track, k.event))
            return "communication kernels out of order";
        const SliceTrack &slices = r.tracks[k.track].slices;
        if (k.collective != r.kernels[slices.payload(k.event)].collective || k.name != slices.name(k.event) || k.start != slices.start(k.event)
            || k.end != slices.end(k.event) || (k.launch != CommunicationKernel::kNoLaunch && !isTraceTime(k.launch)))
            return "a communication kernel unlike its kernel record";
    }
    // Every kernel the built-in patterns name is listed, and only those:
    // the collective reports read the list instead of the kernels.
    if (c.present) {
        std::vector<std::int8_t> named(r.strings.size(), -1);
        auto isCommunication = [&](StringId name) {
            if (name >= named.size())
                return false;
            if (named[name] < 0)
                named[name] = std::int8_t(isBuiltInCommunicationKernel(r.strings.view(name)));
            return named[name] != 0;
        };
        for (const CommunicationKernel &k : c.kernels)
            if (!isCommunication(k.name))
                return "a communication kernel the patterns do not name";
        std::size_t listed = 0;
        for (const Track &t : r.tracks)
            if (t.kind == TrackKind::Kernel)
                for (const StringId name : t.slices.names())
                    listed += isCommunication(name);
        if (listed != c.kernels.size())
            return "communication kernels left out of their list";
    }
    return nullptr;
}

// The rank comparison shows these as they are: parts that fit in their
// whole, and one per process exactly when the tracks name several.
const char *timeSplitsProblem(const Report &r)
{
    const std::vector<GpuTimeSplit> &splits = r.timeSplits;
    for (const GpuTimeSplit &s : splits) {
        const bool inRange = s.span >= 0 && s.span <= 2 * kTraceTimeLimit && s.busy >= 0 && s.busy <= s.span && s.compute >= 0
                             && s.hiddenCommunication >= 0 && s.hiddenCommunication <= s.communication && s.communication <= s.busy
                             && s.compute <= s.busy - s.exposedCommunication() && s.stepTotal >= 0 && s.longestStep >= 0
                             && s.longestStep <= s.stepTotal && (s.steps > 0 || s.stepTotal == 0) && (s.gpuOperations > 0 || s.busy == 0);
        if (!inRange)
            return "a GPU time split whose parts do not fit in it";
    }
    if (splits.empty())
        return nullptr;
    std::set<std::uint32_t> pids;
    for (const Track &t : r.tracks)
        pids.insert(t.pid);
    const std::size_t perProcess = pids.size() > 1 ? pids.size() : 0;
    if (splits.size() != 1 + perProcess)
        return "GPU time splits for other processes than the tracks name";
    auto pid = pids.begin();
    for (std::size_t i = 1; i < splits.size(); ++i, ++pid)
        if (splits[i].pid != *pid)
            return "GPU time splits for other processes than the tracks name";
    return nullptr;
}

// Statistics merge the groups by their values' ranges and search the values
// for medians: every range inside the values, every group's values sorted.
const char *nameSummariesProblem(const Report &r)
{
    const NameSummaries &s = r.byName;
    if (!isFlag(&s.present) || (!s.present && (!s.groups.empty() || !s.values.empty())))
        return "events grouped by name without being marked built";
    const std::size_t strings = r.strings.size();
    std::uint64_t covered = 0;
    // Values per kind and value: [kind][Duration], [kind][Bytes].
    std::uint64_t valuesOfKind[kTrackKindCount][2] = {};
    if (!std::is_sorted(s.groups.begin(), s.groups.end(), NameSummaries::inOrder))
        return "groups of events out of order";
    for (const NameGroup &g : s.groups) {
        if (!isKnownTrackKind(std::uint8_t(g.kind)) || std::uint8_t(g.value) > std::uint8_t(GroupedValue::Bytes) || g.name >= strings
            || g.domain >= strings)
            return "a group of events of an unknown kind or name";
        if (g.count == 0 || g.first != covered || g.count > s.values.size() - g.first)
            return "a group of events whose values are not where the groups say";
        covered += g.count;
        const std::span<const std::int64_t> values = s.valuesOf(g);
        if (!std::is_sorted(values.begin(), values.end()) || !std::isfinite(g.squaredDeviations) || g.squaredDeviations < 0)
            return "a group of events whose values are out of order";
        // What the events could hold: a duration within twice the trace
        // range, a size of at most 2^63 - 1 bytes (summaries add them up).
        const std::int64_t highest = g.value == GroupedValue::Duration ? 2 * kTraceTimeLimit : std::numeric_limits<std::int64_t>::max();
        if (values.front() < 0 || values.back() > highest)
            return "a group of events with a value no event could have";
        std::int64_t total = 0;
        for (const std::int64_t v : values)
            total = addSaturating(total, v);
        if (total != g.total)
            return "a group of events whose total is not the sum of its values";
        valuesOfKind[std::size_t(g.kind)][std::size_t(g.value)] += g.count;
    }
    if (covered != s.values.size())
        return "grouped values no group holds";
    // As many durations of each kind summarised as its events, and as many
    // sizes of copies and memsets; none of any other kind.
    if (s.present) {
        std::uint64_t eventsOfKind[kTrackKindCount] = {};
        for (const Track &t : r.tracks)
            if (isKnownTrackKind(std::uint8_t(t.kind)))
                eventsOfKind[std::size_t(t.kind)] += t.slices.size();
        for (std::size_t k = 0; k < kTrackKindCount; ++k) {
            const auto kind = TrackKind(k);
            const std::uint64_t durations = NameSummaries::summarizes(kind) ? eventsOfKind[k] : 0;
            const std::uint64_t sizes = NameSummaries::summarizes(kind) && NameSummaries::hasSizes(kind) ? eventsOfKind[k] : 0;
            if (valuesOfKind[k][0] != durations || valuesOfKind[k][1] != sizes)
                return "groups of events that do not hold as many values as the tracks have events";
        }
    }
    return nullptr;
}

} // namespace

QString checkCachedSummaries(const Report &r)
{
    if (const char *problem = outlineProblem(r))
        return QString::fromLatin1(problem);
    for (const Track &t : r.tracks) {
        if (const char *problem = trackLabelProblem(r, t))
            return QString::fromLatin1(problem);
        // No events kept, the range they cover kept (reportfields.h, dropEvents).
        const TimeRange extent = t.slices.extent();
        if (!t.slices.isEmpty() || (!extent.isEmpty() && (!isTraceTime(extent.start) || !isTraceTime(extent.end))))
            return QStringLiteral("a track's range is out of range");
    }
    if (const char *problem = busyProblem(r, r.gpuBusy))
        return QString::fromLatin1(problem);
    if (const char *problem = timeSplitsProblem(r))
        return QString::fromLatin1(problem);
    return {};
}

QString checkCachedReport(const Report &r)
{
    if (const char *problem = outlineProblem(r))
        return QString::fromLatin1(problem);
    // One job per track, per counter and for the side tables, on the load
    // pool: the checks read every index column once, which is most of what
    // opening a cache costs after its checksum.
    const std::size_t jobs = r.tracks.size() + r.counters.size() + 2;
    std::vector<const char *> problems(jobs, nullptr);
    parallelFor(jobs, [&](std::size_t job) {
        if (job < r.tracks.size()) {
            problems[job] = sliceTrackProblem(r, r.tracks[job]);
        } else if (job < r.tracks.size() + r.counters.size()) {
            problems[job] = counterProblem(r.counters[job - r.tracks.size()]);
        } else if (job == jobs - 1) {
            problems[job] = nameSummariesProblem(r);
        } else {
            problems[job] = recordProblem(r);
        }
    });
    for (const char *problem : problems)
        if (problem)
            return QString::fromLatin1(problem);
    if (const char *problem = communicationProblem(r))
        return QString::fromLatin1(problem);
    if (const char *problem = samplingProblem(r))
        return QString::fromLatin1(problem);
    if (const char *problem = timeSplitsProblem(r))
        return QString::fromLatin1(problem);
    return {};
}

} // namespace rankscope

#include "load/cache/cachestreams.h"

namespace rankscope {

void CacheReader::checkStrings(const Column<std::uint64_t> &offsets, const Column<char> &texts, const Column<std::uint32_t> &slotTable) const
{
    if (!m_checkStrings)
        return;
    verified(offsets.data(), offsets.size() * sizeof(std::uint64_t));
    verified(texts.data(), texts.size());
    verified(slotTable.data(), slotTable.size() * sizeof(std::uint32_t));
    if (offsets.size() < 2 || offsets[0] != 0 || offsets.back() != texts.size())
        throw CacheDamaged("the string table's offsets do not cover its texts");
    const std::size_t count = offsets.size() - 1;
    for (std::size_t id = 0; id < count; ++id)
        if (offsets[id + 1] <= offsets[id] || offsets[id + 1] > texts.size() || texts[offsets[id + 1] - 1] != '\0')
            throw CacheDamaged("a string does not end where the next begins");
    // Lookups probe until an empty slot: at least half must be empty.
    if (slotTable.size() < 2 * count || (slotTable.size() & (slotTable.size() - 1)) != 0)
        throw CacheDamaged("the string table has too few lookup slots");
    std::size_t used = 0;
    for (const std::uint32_t entry : slotTable) {
        if (entry > count)
            throw CacheDamaged("a string slot names a string that is not there");
        used += entry != 0;
    }
    if (used > count)
        throw CacheDamaged("the string table has more lookup slots in use than strings");
}

} // namespace rankscope
