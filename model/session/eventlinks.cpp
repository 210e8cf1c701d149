#include "session/eventlinks.h"

#include <algorithm>

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

} // namespace rankscope
