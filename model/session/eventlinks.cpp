#include "session/eventlinks.h"
#include "session/mpimessages.h"

#include <algorithm>
#include <map>
#include <unordered_map>

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
    std::sort(work.begin(), work.end(),
              [&](const EventLocation &a, const EventLocation &b) { return session.sessionTime(a).start < session.sessionTime(b).start; });
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
template <class Visit>
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

namespace {

// The CPU slice a flow point binds to: on the point's thread, the outermost
// slice starting exactly there (the op that emitted it), else the innermost
// one open there.
std::optional<EventLocation> sliceAt(const Session &session, int rank, const FlowPoint &p)
{
    const Report &r = *session.ranks()[std::size_t(rank)].report;
    std::optional<EventLocation> best;
    int bestScore = 0;
    for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
        const Track &track = r.tracks[t];
        if (!isHostRange(track.kind) || track.pid != p.pid || track.tid != p.tid)
            continue;
        track.slices.forEachOverlapping(p.time, p.time, [&](std::uint32_t e) {
            const int depth = track.slices.depth(e);
            const int score = track.slices.start(e) == p.time ? 1000000 - depth : depth + 1;
            if (score > bestScore) {
                bestScore = score;
                best = EventLocation{rank, t, e};
            }
        });
    }
    return best;
}

// What emit_nvtx says of an op's sequence number: "aten::linear, seq = 12"
// is forward op 12. Its backward op is "MmBackward0, stashed seq = 12" in
// older PyTorch, and in current PyTorch "MmBackward0, seq = 12, op_id = 40"
// (the autograd node's name, ending in Backward<k>, with the forward's number).
struct SeqMark {
    std::int64_t seq = -1;
    bool backward = false;
};

// Whether an op's name (before its first ", ") is an autograd node's:
// "MmBackward0", "autograd::engine::evaluate_function: MmBackward0".
bool isBackwardNodeName(std::string_view name)
{
    name = name.substr(0, name.find(", "));
    std::size_t digits = 0;
    while (digits < name.size() && name[name.size() - 1 - digits] >= '0' && name[name.size() - 1 - digits] <= '9')
        ++digits;
    static constexpr std::string_view kBackward = "Backward";
    return digits > 0 && name.size() >= digits + kBackward.size()
           && name.substr(name.size() - digits - kBackward.size(), kBackward.size()) == kBackward;
}

SeqMark seqMarkOf(std::string_view name)
{
    static constexpr std::string_view kSeq = "seq = ";
    const auto at = name.rfind(kSeq);
    if (at == std::string_view::npos)
        return {};
    std::int64_t value = 0;
    std::size_t i = at + kSeq.size(), digits = 0;
    for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && digits < 18; ++i, ++digits)
        value = value * 10 + (name[i] - '0');
    if (digits == 0)
        return {};
    const bool stashed = at >= 8 && name.substr(at - 8, 8) == "stashed ";
    return {value, stashed || isBackwardNodeName(name)};
}

} // namespace

std::vector<EventLocation> flowPartners(const Session &session, const EventLocation &at)
{
    std::vector<EventLocation> partners;
    const Report &r = *session.ranks()[std::size_t(at.rank)].report;
    const Track &track = session.track(at);
    if (track.kind == TrackKind::Mpi)
        return mpiPartners(session, at);
    if (!isHostRange(track.kind))
        return partners;
    for (const FlowRecord &flow : r.flows)
        for (const auto &[here, there] : {std::pair{flow.from, flow.to}, std::pair{flow.to, flow.from}}) {
            if (here.pid != track.pid || here.tid != track.tid || here.time < track.slices.start(at.event) || here.time > track.slices.end(at.event))
                continue;
            if (sliceAt(session, at.rank, here) != at)
                continue;
            if (const auto other = sliceAt(session, at.rank, there))
                partners.push_back(*other);
        }
    // emit_nvtx: the ranges of the same process, on any of its threads (the
    // backward ops run on the autograd thread), with the same "seq = N" and
    // the other direction.
    const SeqMark mark = seqMarkOf(r.strings.view(track.slices.name(at.event)));
    if (mark.seq < 0)
        return partners;
    for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
        const Track &other = r.tracks[t];
        if (!isHostRange(other.kind) || other.pid != track.pid)
            continue;
        std::unordered_map<StringId, bool> matches;
        for (std::uint32_t e = 0; e < other.slices.size(); ++e) {
            auto [it, added] = matches.try_emplace(other.slices.name(e), false);
            if (added) {
                const SeqMark m = seqMarkOf(r.strings.view(other.slices.name(e)));
                it->second = m.seq == mark.seq && m.backward != mark.backward;
            }
            if (it->second)
                partners.push_back({at.rank, t, e});
        }
    }
    return partners;
}

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
    std::sort(ops.begin(), ops.end(),
              [&](const EventLocation &a, const EventLocation &b) { return session.sessionTime(a).start < session.sessionTime(b).start; });
    if (ops.size() > limit)
        ops.resize(limit);
    result.ops = std::move(ops);
    std::map<std::uint32_t, std::size_t> byThread;
    for (const Track &other : report.tracks)
        if (other.kind == TrackKind::CudaApi && other.pid == track.pid && other.tid != track.tid)
            byThread.try_emplace(other.tid, 0);
    // A plain loop variable, not a structured binding: clang 14 cannot
    // capture a binding in a lambda.
    for (auto &entry : byThread) {
        std::size_t &count = entry.second;
        forEachApiCall(report, track.pid, entry.first, from, to, [&](std::uint32_t t, std::uint32_t e) {
            const std::uint32_t id = report.correlationIdOf(report.tracks[t], e);
            if (id != 0)
                count += report.gpuOpsFor(Report::correlationKey(track.pid, id)).size();
        });
    }
    for (const auto &[tid, count] : byThread)
        if (count > result.busiestOtherOps) {
            result.busiestOtherOps = count;
            result.busiestOtherTid = tid;
        }
    return result;
}

bool flowPointsTo(const Session &session, const EventLocation &at, const EventLocation &partner)
{
    const Track &track = session.track(partner);
    if (track.kind == TrackKind::Mpi) {
        const Report &r = *session.ranks()[std::size_t(partner.rank)].report;
        if (r.mpiCalls[track.slices.payload(partner.event)].kind == MpiCallKind::PointToPoint) // the other end of a message
            return isMpiReceive(r.strings.view(track.slices.name(partner.event)));
    }
    return session.sessionTime(partner).start > session.sessionTime(at).start;
}

} // namespace rankscope
