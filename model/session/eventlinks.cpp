#include "session/eventlinks.h"

#include <algorithm>
#include <map>

namespace rankscope {

std::optional<EventLocation> launchingApiCall(const Session &session, const EventLocation &gpuOp)
{
    const RankEntry &entry = session.ranks()[std::size_t(gpuOp.rank)];
    const Report &report = *entry.report;
    const Track &track = session.track(gpuOp);
    if (!isGpuTrack(track.kind) && track.kind != TrackKind::NcclKernels)
        return std::nullopt;
    const std::uint32_t id = report.correlationIdOf(track, gpuOp.event);
    const auto api = id == 0 ? std::nullopt : report.apiCallFor(Report::correlationKey(track.pid, id));
    if (!api)
        return std::nullopt;
    return EventLocation{gpuOp.rank, api->track, api->event};
}

std::vector<EventLocation> launchedGpuWork(const Session &session, const EventLocation &apiCall)
{
    const Report &report = *session.ranks()[std::size_t(apiCall.rank)].report;
    const Track &track = session.track(apiCall);
    std::vector<EventLocation> work;
    if (track.kind != TrackKind::CudaApi)
        return work;
    const std::uint32_t id = report.correlationIdOf(track, apiCall.event);
    if (id == 0)
        return work;
    for (const TrackEvent &op : report.gpuOpsFor(Report::correlationKey(track.pid, id)))
        work.push_back({apiCall.rank, op.track, op.event});
    std::sort(work.begin(), work.end(), [&](const EventLocation &a, const EventLocation &b) {
        return session.sessionTime(a).start < session.sessionTime(b).start;
    });
    return work;
}

std::optional<EventLocation> correlatedEvent(const Session &session, const EventLocation &at)
{
    if (auto api = launchingApiCall(session, at))
        return api;
    const std::vector<EventLocation> work = launchedGpuWork(session, at);
    if (!work.empty())
        return work.front();
    return std::nullopt;
}

namespace {

// Calls the CUDA API tracks of (pid, tid) made in [from, to] (report time).
template<class Visit>
void forEachApiCall(const Report &report, std::uint32_t pid, std::uint32_t tid, TimeNs from, TimeNs to, Visit &&visit)
{
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
        const Track &track = report.tracks[t];
        if (track.kind != TrackKind::CudaApi || track.pid != pid || track.tid != tid)
            continue;
        track.slices.forEachOverlapping(from, to, [&](std::uint32_t e) {
            if (track.slices.start(e) >= from) // made inside the range, not before it
                visit(t, e);
        });
    }
}

} // namespace

RangeGpuWork gpuWorkOfRange(const Session &session, const EventLocation &range, std::size_t limit)
{
    RangeGpuWork result;
    const Report &report = *session.ranks()[std::size_t(range.rank)].report;
    const Track &track = session.track(range);
    if (isGpuTrack(track.kind) || isDerivedTrack(track.kind) || track.kind == TrackKind::CudaApi)
        return result;
    const TimeNs from = track.slices.start(range.event), to = track.slices.end(range.event);
    std::vector<EventLocation> ops;
    forEachApiCall(report, track.pid, track.tid, from, to, [&](std::uint32_t t, std::uint32_t e) {
        for (const EventLocation &op : launchedGpuWork(session, {range.rank, t, e}))
            ops.push_back(op);
    });
    result.opCount = ops.size();
    std::sort(ops.begin(), ops.end(), [&](const EventLocation &a, const EventLocation &b) {
        return session.sessionTime(a).start < session.sessionTime(b).start;
    });
    if (ops.size() > limit)
        ops.resize(limit);
    result.ops = std::move(ops);
    std::map<std::uint32_t, std::size_t> byThread;
    for (const Track &other : report.tracks)
        if (other.kind == TrackKind::CudaApi && other.pid == track.pid && other.tid != track.tid)
            byThread.try_emplace(other.tid, 0);
    for (auto &[tid, count] : byThread)
        forEachApiCall(report, track.pid, tid, from, to, [&](std::uint32_t t, std::uint32_t e) {
            const std::uint32_t id = report.correlationIdOf(report.tracks[t], e);
            if (id != 0)
                count += report.gpuOpsFor(Report::correlationKey(track.pid, id)).size();
        });
    for (const auto &[tid, count] : byThread)
        if (count > result.busiestOtherOps) {
            result.busiestOtherOps = count;
            result.busiestOtherTid = tid;
        }
    return result;
}

} // namespace rankscope
