#include "load/derivedtracks.h"
#include "load/sidetableorder.h"

#include "core/busyruns.h"
#include "core/communicationkernels.h"
#include "core/intervals.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace rankscope {

namespace {

bool isCompleteRange(const NvtxRecord &n, std::uint32_t tid)
{
    if (n.openAtEnd)
        return false;
    if (n.eventType == NvtxEventType::PushPopRange || n.eventType == NvtxEventType::NvtxtPushPop)
        return true;
    return (n.eventType == NvtxEventType::StartEndRange || n.eventType == NvtxEventType::NvtxtStartEnd) && (n.endTid == 0 || n.endTid == tid);
}

bool startsWithNoCase(std::string_view s, std::string_view prefix)
{
    if (s.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i])
            return false;
    return true;
}

} // namespace

bool isNcclKernelName(std::string_view name)
{
    return startsWithNoCase(name, "nccl") || name.find("ncclKernel") != std::string_view::npos
           || name.find("ncclDevKernel") != std::string_view::npos;
}

namespace {

// The events of `tracks` that carry a correlation id, by correlation key;
// equal keys in track order, then event order (as a stable sort of the
// tracks' events one after another). A CUDA runtime numbers a process's
// calls as they are made, and a stream runs its work in launch order, so
// each track is already in key order: the tracks are merged, without a
// copy of the events with their keys (16 B each). False, and `out` left
// partly filled, when a track is not in key order.
bool mergeTracksByCorrelation(const Report &report, const std::vector<std::uint32_t> &tracks, Column<TrackEvent> &out)
{
    struct Head {
        std::uint64_t key;
        std::uint32_t run, event;
    };
    const auto later = [](const Head &a, const Head &b) { return a.key != b.key ? a.key > b.key : a.run > b.run; };
    const auto nextOf = [&](std::uint32_t run, std::uint32_t from) -> std::optional<Head> {
        const Track &track = report.tracks[tracks[run]];
        for (std::uint32_t i = from; i < track.slices.size(); ++i)
            if (const std::uint32_t id = report.correlationIdOf(track, i); id != 0)
                return Head{Report::correlationKey(track.pid, id), run, i};
        return std::nullopt;
    };
    std::vector<Head> heap;
    for (std::uint32_t run = 0; run < tracks.size(); ++run)
        if (const std::optional<Head> first = nextOf(run, 0))
            heap.push_back(*first);
    std::make_heap(heap.begin(), heap.end(), later);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        const Head head = heap.back();
        heap.pop_back();
        out.push_back(TrackEvent{tracks[head.run], head.event});
        if (const std::optional<Head> next = nextOf(head.run, head.event + 1)) {
            if (next->key < head.key)
                return false;
            heap.push_back(*next);
            std::push_heap(heap.begin(), heap.end(), later);
        }
    }
    return true;
}

// The same by sorting a keyed copy: for a track out of key order.
void sortTracksByCorrelation(const Report &report, const std::vector<std::uint32_t> &tracks, Column<TrackEvent> &out)
{
    std::vector<std::pair<std::uint64_t, TrackEvent>> keyed;
    keyed.reserve(out.capacity());
    for (const std::uint32_t t : tracks) {
        const Track &track = report.tracks[t];
        for (std::uint32_t i = 0; i < track.slices.size(); ++i)
            if (const std::uint32_t id = report.correlationIdOf(track, i); id != 0)
                keyed.emplace_back(Report::correlationKey(track.pid, id), TrackEvent{t, i});
    }
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    out.clear();
    for (const auto &[key, e] : keyed)
        out.push_back(e);
}

void fillByCorrelation(const Report &report, const std::vector<std::uint32_t> &tracks, Column<TrackEvent> &out)
{
    std::size_t events = 0;
    for (const std::uint32_t t : tracks)
        for (std::uint32_t i = 0; i < report.tracks[t].slices.size(); ++i)
            events += report.correlationIdOf(report.tracks[t], i) != 0;
    out.clear();
    out.reserve(events);
    if (!mergeTracksByCorrelation(report, tracks, out))
        sortTracksByCorrelation(report, tracks, out);
}

} // namespace

void buildCorrelations(Report &report)
{
    std::vector<std::uint32_t> apiTracks, gpuTracks;
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
        if (report.tracks[t].kind == TrackKind::CudaApi)
            apiTracks.push_back(t);
        else if (isGpuTrack(report.tracks[t].kind) && report.tracks[t].kind != TrackKind::UmGpuPageFault) // a fault has no launch
            gpuTracks.push_back(t);
    }
    fillByCorrelation(report, apiTracks, report.apiByCorrelation);
    fillByCorrelation(report, gpuTracks, report.gpuByCorrelation);
    // One API call per key: a repeated id (not seen in real traces) keeps its first call.
    Column<TrackEvent> &api = report.apiByCorrelation;
    api.erase(std::unique(api.begin(), api.end(),
                          [&](const TrackEvent &a, const TrackEvent &b) { return report.correlationKeyOf(a) == report.correlationKeyOf(b); }),
              api.end());
    report.apiByCorrelation.shrink_to_fit();
    report.gpuByCorrelation.shrink_to_fit();
}

void buildNvtxProjections(Report &report)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> apiTrackOf; // (pid, tid)
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t)
        if (report.tracks[t].kind == TrackKind::CudaApi)
            apiTrackOf[{report.tracks[t].pid, report.tracks[t].tid}] = t;

    std::map<std::pair<std::uint32_t, int>, Track> projected; // (pid, device)
    const std::size_t trackCount = report.tracks.size();
    for (std::size_t t = 0; t < trackCount; ++t) {
        const Track &nvtx = report.tracks[t];
        if (nvtx.kind != TrackKind::Nvtx)
            continue;
        const auto api = apiTrackOf.find({nvtx.pid, nvtx.tid});
        if (api == apiTrackOf.end())
            continue;
        const SliceTrack &calls = report.tracks[api->second].slices;
        // Reused for every range: most ranges launch nothing or one op, so
        // a map or vector per range would be all the cost.
        std::vector<std::tuple<int, TimeNs, TimeNs>> ops; // device, start, end
        std::vector<stats::Interval> deviceOps;
        for (std::size_t r = 0; r < nvtx.slices.size(); ++r) {
            const NvtxRecord &n = report.nvtxRecord(nvtx.slices.payload(r));
            if (!isCompleteRange(n, nvtx.tid))
                continue;
            const TimeNs lo = nvtx.slices.start(r), hi = nvtx.slices.end(r);
            ops.clear();
            // The calls wholly inside the range: a run of the start-sorted
            // calls, found by one binary search (cheaper than the interval
            // tree for 400k nested ranges; ends are checked one by one).
            const auto callStarts = calls.starts();
            for (auto at = std::lower_bound(callStarts.begin(), callStarts.end(), lo); at != callStarts.end() && *at <= hi; ++at) {
                const auto c = std::size_t(at - callStarts.begin());
                if (calls.end(c) > hi)
                    continue;
                const std::uint32_t id = report.apiCalls[calls.payload(c)].correlationId;
                for (const TrackEvent &op : report.gpuOpsFor(Report::correlationKey(nvtx.pid, id))) {
                    const Track &gpu = report.tracks[op.track];
                    if (gpu.kind == TrackKind::Sync)
                        continue;
                    ops.emplace_back(gpu.deviceId, gpu.slices.start(op.event), gpu.slices.end(op.event));
                }
            }
            std::sort(ops.begin(), ops.end());
            for (std::size_t first = 0, next = 0; first < ops.size(); first = next) {
                const int device = std::get<0>(ops[first]);
                deviceOps.clear();
                for (next = first; next < ops.size() && std::get<0>(ops[next]) == device; ++next)
                    deviceOps.emplace_back(std::get<1>(ops[next]), std::get<2>(ops[next]));
                NvtxProjectionRecord record;
                record.nvtxRow = nvtx.slices.payload(r);
                record.cpuDuration = hi - lo;
                record.gpuOps = std::uint32_t(deviceOps.size());
                TimeNs begin = kTimeMax, end = kTimeMin;
                for (const auto &[s, e] : deviceOps) {
                    begin = std::min(begin, s);
                    end = std::max(end, e);
                }
                record.gpuBusyNs = stats::lengthOf(stats::unionOf(deviceOps));
                Track &target = projected[{nvtx.pid, device}];
                target.kind = TrackKind::NvtxGpuProjection;
                target.pid = nvtx.pid;
                target.deviceId = device;
                target.slices.append(begin, end, nvtx.slices.name(r), std::uint32_t(report.nvtxProjections.size()));
                report.nvtxProjections.push_back(record);
            }
        }
    }
    for (auto &[key, track] : projected) {
        track.slices.finalize();
        report.tracks.push_back(std::move(track));
    }
    storeSideTableInTrackOrder(report, TrackKind::NvtxGpuProjection);
}

void buildNcclTracks(Report &report)
{
    std::map<std::pair<std::uint32_t, int>, Track> nccl;
    const std::size_t trackCount = report.tracks.size();
    for (std::size_t t = 0; t < trackCount; ++t) {
        const Track &kernels = report.tracks[t];
        if (kernels.kind != TrackKind::Kernel)
            continue;
        for (std::size_t i = 0; i < kernels.slices.size(); ++i) {
            const KernelRecord &k = report.kernels[kernels.slices.payload(i)];
            if (!isNcclKernelName(report.strings.view(k.shortName)) && !isNcclKernelName(report.strings.view(kernels.slices.name(i))))
                continue;
            Track &target = nccl[{kernels.pid, kernels.deviceId}];
            target.kind = TrackKind::NcclKernels;
            target.pid = kernels.pid;
            target.deviceId = kernels.deviceId;
            target.contextId = kernels.contextId;
            target.slices.append(kernels.slices.start(i), kernels.slices.end(i), kernels.slices.name(i), kernels.slices.payload(i));
        }
    }
    for (auto &[key, track] : nccl) {
        track.slices.finalize();
        report.tracks.push_back(std::move(track));
    }
}

std::vector<std::uint32_t> gpuOperationTracks(const Report &report, std::uint32_t pid, int deviceId)
{
    std::vector<std::uint32_t> tracks;
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
        const Track &track = report.tracks[t];
        if (isGpuOperation(track.kind) && track.pid == pid && track.deviceId == deviceId)
            tracks.push_back(t);
    }
    return tracks;
}

const BusySummary *gpuBusySummaryOf(const Report &report, std::span<const std::uint32_t> tracks)
{
    if (tracks.empty())
        return nullptr;
    const Track &first = report.tracks[tracks.front()];
    for (const BusySummary &summary : report.gpuBusy)
        if (summary.pid == first.pid && summary.deviceId == first.deviceId) {
            const std::vector<std::uint32_t> own = gpuOperationTracks(report, summary.pid, summary.deviceId);
            return std::equal(own.begin(), own.end(), tracks.begin(), tracks.end()) ? &summary : nullptr;
        }
    return nullptr;
}

namespace {

// The summary of `runs` (not empty), busy runs of `pid` on `deviceId`.
BusySummary summaryOfRuns(SliceTrack runs, std::uint32_t pid, int deviceId)
{
    BusySummary summary;
    summary.pid = pid;
    summary.deviceId = deviceId;
    summary.span = {runs.start(0), runs.end(runs.size() - 1)};
    for (std::size_t i = 0; i < runs.size(); ++i)
        summary.busy += runs.end(i) - runs.start(i);
    summary.runs = std::move(runs);
    return summary;
}

} // namespace

std::vector<std::uint32_t> hostTracksOf(const Report &report, std::uint32_t pid)
{
    std::vector<std::uint32_t> tracks;
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
        const Track &track = report.tracks[t];
        if (track.pid == pid && isHostTrack(track.kind))
            tracks.push_back(t);
    }
    return tracks;
}

std::vector<BusySummary> hostBusySummaries(const Report &report)
{
    std::set<std::uint32_t> pids;
    for (const Track &track : report.tracks)
        if (isHostTrack(track.kind))
            pids.insert(track.pid);
    std::vector<BusySummary> summaries;
    for (const std::uint32_t pid : pids)
        if (SliceTrack runs = busyRuns(report, hostTracksOf(report, pid)); !runs.isEmpty())
            summaries.push_back(summaryOfRuns(std::move(runs), pid, -1));
    return summaries;
}

const BusySummary *hostBusySummaryOf(const Report &report, std::span<const std::uint32_t> tracks)
{
    if (tracks.empty())
        return nullptr;
    const std::uint32_t pid = report.tracks[tracks.front()].pid;
    const auto summary =
        std::lower_bound(report.hostBusy.begin(), report.hostBusy.end(), pid, [](const BusySummary &s, std::uint32_t p) { return s.pid < p; });
    if (summary == report.hostBusy.end() || summary->pid != pid)
        return nullptr;
    const std::vector<std::uint32_t> own = hostTracksOf(report, pid);
    return std::equal(own.begin(), own.end(), tracks.begin(), tracks.end()) ? &*summary : nullptr;
}

namespace {

// Per process and device, the union of its GPU operations but `leaveOut`.
std::vector<BusySummary> gpuBusySummaries(const Report &report, std::span<const TrackEvent> leaveOut)
{
    // The same operations nsys' gpu_time_util and gpu_gaps rules look at.
    std::set<std::pair<std::uint32_t, int>> devices;
    for (const Track &track : report.tracks)
        if (isGpuOperation(track.kind))
            devices.insert({track.pid, track.deviceId});
    std::vector<BusySummary> summaries;
    for (const auto &[pid, deviceId] : devices)
        if (SliceTrack runs = busyRuns(report, gpuOperationTracks(report, pid, deviceId), leaveOut); !runs.isEmpty())
            summaries.push_back(summaryOfRuns(std::move(runs), pid, deviceId));
    return summaries;
}

} // namespace

void buildGpuBusySummaries(Report &report)
{
    report.gpuBusy = gpuBusySummaries(report, {});
}

void buildCommunicationSummary(Report &report)
{
    CommunicationSummary &communication = report.communication;
    communication = {};
    // A run repeats a few dozen kernel names a million times: each name is
    // matched once.
    std::vector<std::int8_t> isCommunication(report.strings.size(), -1);
    std::vector<TrackEvent> kernels;
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
        const Track &track = report.tracks[t];
        if (track.kind != TrackKind::Kernel)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const StringId name = track.slices.name(i);
            if (name >= isCommunication.size())
                continue; // not in the table: a loader never writes one
            if (isCommunication[name] < 0)
                isCommunication[name] = std::int8_t(isBuiltInCommunicationKernel(report.strings.view(name)));
            if (!isCommunication[name])
                continue;
            kernels.push_back({t, std::uint32_t(i)});
            CommunicationKernel kernel;
            kernel.track = t;
            kernel.event = std::uint32_t(i);
            kernel.collective = report.kernels[track.slices.payload(i)].collective;
            kernel.name = name;
            kernel.start = track.slices.start(i);
            kernel.end = track.slices.end(i);
            const std::uint32_t correlation = report.correlationIdOf(track, i);
            if (const auto call = correlation == 0 ? std::nullopt : report.apiCallFor(Report::correlationKey(track.pid, correlation)))
                kernel.launch = report.tracks[call->track].slices.start(call->event);
            communication.kernels.push_back(kernel);
        }
    }
    communication.kernels.shrink_to_fit();
    communication.otherGpuBusy = gpuBusySummaries(report, kernels);
    communication.present = true;
}

} // namespace rankscope
