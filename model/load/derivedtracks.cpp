#include "load/derivedtracks.h"
#include "load/sidetableorder.h"

#include "core/busyruns.h"
#include "core/communicationkernels.h"
#include "core/intervals.h"

#include <algorithm>
#include <cctype>
#include <map>
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

void buildCorrelations(Report &report)
{
    report.apiByCorrelation.clear();
    report.gpuByCorrelation.clear();
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
        const Track &track = report.tracks[t];
        const bool api = track.kind == TrackKind::CudaApi;
        if (!api && !isGpuTrack(track.kind))
            continue;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const std::uint32_t id = report.correlationIdOf(track, i);
            if (id == 0)
                continue;
            (api ? report.apiByCorrelation : report.gpuByCorrelation).push_back(TrackEvent{t, i});
        }
    }
    // Sorted by key; keys computed once for the sort, then dropped.
    auto sortByKey = [&](Column<TrackEvent> &events) {
        std::vector<std::pair<std::uint64_t, TrackEvent>> keyed;
        keyed.reserve(events.size());
        for (const TrackEvent &e : events)
            keyed.emplace_back(report.correlationKeyOf(e), e);
        std::stable_sort(keyed.begin(), keyed.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        // One API call per key: a repeated id (not seen in real traces) keeps its first call.
        if (&events == &report.apiByCorrelation)
            keyed.erase(std::unique(keyed.begin(), keyed.end(), [](const auto &a, const auto &b) { return a.first == b.first; }), keyed.end());
        events.clear();
        for (const auto &[key, e] : keyed)
            events.push_back(e);
    };
    sortByKey(report.apiByCorrelation);
    sortByKey(report.gpuByCorrelation);
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

const GpuBusySummary *gpuBusySummaryOf(const Report &report, std::span<const std::uint32_t> tracks)
{
    if (tracks.empty())
        return nullptr;
    const Track &first = report.tracks[tracks.front()];
    for (const GpuBusySummary &summary : report.gpuBusy)
        if (summary.pid == first.pid && summary.deviceId == first.deviceId) {
            const std::vector<std::uint32_t> own = gpuOperationTracks(report, summary.pid, summary.deviceId);
            return std::equal(own.begin(), own.end(), tracks.begin(), tracks.end()) ? &summary : nullptr;
        }
    return nullptr;
}

namespace {

// Per process and device, the union of its GPU operations but `leaveOut`.
std::vector<GpuBusySummary> gpuBusySummaries(const Report &report, std::span<const TrackEvent> leaveOut)
{
    // The same operations nsys' gpu_time_util and gpu_gaps rules look at.
    std::set<std::pair<std::uint32_t, int>> devices;
    for (const Track &track : report.tracks)
        if (isGpuOperation(track.kind))
            devices.insert({track.pid, track.deviceId});
    std::vector<GpuBusySummary> summaries;
    for (const auto &[pid, deviceId] : devices) {
        GpuBusySummary summary;
        summary.runs = busyRuns(report, gpuOperationTracks(report, pid, deviceId), leaveOut);
        const SliceTrack &runs = summary.runs;
        if (runs.isEmpty())
            continue;
        summary.pid = pid;
        summary.deviceId = deviceId;
        summary.span = {runs.start(0), runs.end(runs.size() - 1)};
        for (std::size_t i = 0; i < runs.size(); ++i)
            summary.busy += runs.end(i) - runs.start(i);
        summaries.push_back(std::move(summary));
    }
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

void buildDerivedTracks(Report &report)
{
    buildCorrelations(report);
    buildNvtxProjections(report);
    buildNcclTracks(report);
    buildGpuBusySummaries(report);
}

} // namespace rankscope
