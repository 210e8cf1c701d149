#include "session/mpimessages.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

namespace rankscope {

namespace {

bool contains(std::string_view name, std::string_view part)
{
    return name.find(part) != std::string_view::npos;
}

// A send or receive waiting for its partner: (communicator, sender,
// receiver, tag), the calls in posting order.
// The two runs of a comparison are matched apart: each its own side.
using Channel = std::tuple<RunSide, MpiCommunicator, std::int64_t, std::int64_t, std::int64_t>;

struct Posted {
    MpiCall call;
    std::int64_t bytes = 0;
};

// Per rank index, its handles as communicators (see MpiCommunicator).
std::vector<std::map<std::uint64_t, MpiCommunicator>> communicatorsOf(const Session &session)
{
    std::vector<std::vector<std::pair<TimeNs, std::uint64_t>>> firstUse(session.ranks().size());
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        const RankEntry &entry = session.ranks()[ri];
        std::map<std::uint64_t, TimeNs> first;
        for (const Track &track : entry.report->tracks) {
            if (track.kind != TrackKind::Mpi || !Session::ownsTrack(entry, track))
                continue;
            for (std::uint32_t e = 0; e < track.slices.size(); ++e) {
                const MpiRecord &m = entry.report->mpiCalls[track.slices.payload(e)];
                if (m.kind != MpiCallKind::PointToPoint && m.kind != MpiCallKind::Collective)
                    continue;
                const auto [it, added] = first.try_emplace(m.communicator, track.slices.start(e));
                if (!added)
                    it->second = std::min(it->second, track.slices.start(e));
            }
        }
        for (const auto &[handle, start] : first)
            firstUse[ri].emplace_back(start, handle);
        std::sort(firstUse[ri].begin(), firstUse[ri].end());
    }
    std::map<std::pair<RunSide, std::uint64_t>, int> ranksUsing;
    for (std::size_t ri = 0; ri < firstUse.size(); ++ri)
        for (const auto &[start, handle] : firstUse[ri])
            ++ranksUsing[{session.ranks()[ri].side, handle}];
    std::vector<std::map<std::uint64_t, MpiCommunicator>> out(session.ranks().size());
    for (std::size_t ri = 0; ri < firstUse.size(); ++ri) {
        std::uint64_t unshared = 0;
        for (const auto &[start, handle] : firstUse[ri])
            out[ri][handle] = ranksUsing[{session.ranks()[ri].side, handle}] > 1 ? handle : kByFirstUse | unshared++;
    }
    return out;
}

} // namespace

QString mpiCommunicatorName(MpiCommunicator communicator)
{
    if (communicator & kByFirstUse)
        return QStringLiteral("MPI comm #%1").arg(communicator & ~kByFirstUse);
    if (communicator == 0) // an older export's NVTX ranges record none
        return QStringLiteral("MPI comm (not recorded)");
    return QStringLiteral("MPI comm 0x%1").arg(communicator, 0, 16);
}

// MPI_Sendrecv is both: nsys writes a row for each direction when they
// differ, one row when they do not.
bool isMpiSend(std::string_view function)
{
    return contains(function, "send") || contains(function, "Send");
}

bool isMpiReceive(std::string_view function)
{
    return contains(function, "recv") || contains(function, "Recv");
}

bool isMpiNonBlocking(std::string_view function)
{
    return function.starts_with("MPI_I");
}

MpiMatch matchMpi(const Session &session)
{
    MpiMatch match;
    std::map<Channel, std::vector<Posted>> sends, receives;
    std::map<std::tuple<RunSide, MpiCommunicator, int>, std::vector<std::pair<MpiCall, QString>>>
        collectivesOf; // (side, communicator, rank) -> calls
    const auto communicators = communicatorsOf(session);
    for (int entryIndex = 0; entryIndex < int(session.ranks().size()); ++entryIndex) {
        const RankEntry &entry = session.ranks()[std::size_t(entryIndex)];
        const std::map<std::uint64_t, MpiCommunicator> &communicatorOf = communicators[std::size_t(entryIndex)];
        const Report &r = *entry.report;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
            const Track &track = r.tracks[t];
            if (track.kind != TrackKind::Mpi || !Session::ownsTrack(entry, track))
                continue;
            // Waits on this thread by request handle, in time order: a
            // non-blocking call is completed by the first one after it.
            std::map<std::uint64_t, std::vector<std::uint32_t>> waits;
            for (std::uint32_t e = 0; e < track.slices.size(); ++e) {
                const MpiRecord &m = r.mpiCalls[track.slices.payload(e)];
                if (m.kind == MpiCallKind::StartWait && m.request != 0)
                    waits[m.request].push_back(e);
            }
            for (std::uint32_t e = 0; e < track.slices.size(); ++e) {
                const MpiRecord &m = r.mpiCalls[track.slices.payload(e)];
                const std::string_view name = r.strings.view(track.slices.name(e));
                MpiCall call;
                call.at = {entryIndex, t, e};
                call.mpiRank = m.rank >= 0 ? m.rank : entry.rank;
                call.start = track.slices.start(e) + entry.sessionOffset;
                call.end = track.slices.end(e) + entry.sessionOffset;
                if (m.kind == MpiCallKind::Collective) {
                    collectivesOf[{entry.side, communicatorOf.at(m.communicator), call.mpiRank}].push_back(
                        {call, QString::fromUtf8(name.data(), qsizetype(name.size()))});
                    continue;
                }
                if (m.kind != MpiCallKind::PointToPoint || m.peer == MpiRecord::kNone || m.peer < 0)
                    continue;
                if (isMpiNonBlocking(name) && m.request != 0)
                    if (const auto w = waits.find(m.request); w != waits.end()) {
                        const auto after = std::find_if(w->second.begin(), w->second.end(),
                                                        [&](std::uint32_t wait) { return track.slices.start(wait) >= track.slices.start(e); });
                        if (after != w->second.end()) {
                            call.completion = EventLocation{entryIndex, t, *after};
                            call.completionStart = track.slices.start(*after) + entry.sessionOffset;
                            call.completionEnd = track.slices.end(*after) + entry.sessionOffset;
                        }
                    }
                const std::int64_t tag = m.tag == MpiRecord::kNone ? 0 : m.tag;
                const std::int64_t bytes = m.size == MpiRecord::kNone ? 0 : m.size;
                const MpiCommunicator communicator = communicatorOf.at(m.communicator);
                if (isMpiSend(name))
                    sends[{entry.side, communicator, call.mpiRank, m.peer, tag}].push_back({call, bytes});
                if (isMpiReceive(name))
                    receives[{entry.side, communicator, m.peer, call.mpiRank, tag}].push_back({call, bytes});
            }
        }
    }
    // Non-overtaking: the n-th send on a channel is the n-th receive's.
    const auto byStart = [](const Posted &a, const Posted &b) { return a.call.start < b.call.start; };
    for (auto &[channel, posted] : sends) {
        std::stable_sort(posted.begin(), posted.end(), byStart);
        auto it = receives.find(channel);
        std::vector<Posted> none;
        std::vector<Posted> &received = it == receives.end() ? none : it->second;
        std::stable_sort(received.begin(), received.end(), byStart);
        const std::size_t n = std::min(posted.size(), received.size());
        for (std::size_t i = 0; i < n; ++i)
            match.messages.push_back({posted[i].call, received[i].call, std::get<4>(channel), posted[i].bytes, std::get<1>(channel)});
        match.unmatchedSends += posted.size() - n;
        match.unmatchedReceives += received.size() - n;
        if (it != receives.end())
            receives.erase(it);
    }
    for (const auto &[channel, received] : receives)
        match.unmatchedReceives += received.size();
    std::sort(match.messages.begin(), match.messages.end(), [](const MpiMessage &a, const MpiMessage &b) { return a.send.start < b.send.start; });

    // Collectives: the k-th call of every rank on a communicator.
    std::map<std::pair<RunSide, MpiCommunicator>, std::vector<std::pair<int, std::vector<std::pair<MpiCall, QString>> *>>> byCommunicator;
    for (auto &[key, calls] : collectivesOf) {
        std::stable_sort(calls.begin(), calls.end(), [](const auto &a, const auto &b) { return a.first.start < b.first.start; });
        byCommunicator[{std::get<0>(key), std::get<1>(key)}].push_back({std::get<2>(key), &calls});
    }
    for (const auto &[sideAndCommunicator, ranks] : byCommunicator) {
        const auto &[side, communicator] = sideAndCommunicator;
        std::size_t longest = 0;
        for (const auto &[rank, calls] : ranks)
            longest = std::max(longest, calls->size());
        for (std::size_t k = 0; k < longest; ++k) {
            MpiCollective c;
            c.side = side;
            c.communicator = communicator;
            c.index = k;
            for (const auto &[rank, calls] : ranks) {
                if (k >= calls->size())
                    continue;
                if (c.name.isEmpty())
                    c.name = (*calls)[k].second;
                else if (c.name != (*calls)[k].second) {
                    ++match.mismatchedCollectives;
                    continue;
                }
                c.calls.push_back((*calls)[k].first);
            }
            match.collectives.push_back(std::move(c));
        }
    }
    std::sort(match.collectives.begin(), match.collectives.end(),
              [](const MpiCollective &a, const MpiCollective &b) { return a.calls.front().start < b.calls.front().start; });
    return match;
}

namespace {

// What a session's match depends on, per rank: its report (not kept
// alive: an expired one matches nothing), process, offset and side.
struct RankKey {
    std::weak_ptr<const Report> report;
    std::optional<std::uint32_t> pid;
    TimeNs sessionOffset = 0;
    RunSide side = RunSide::None;
    int rank = 0;

    bool isOf(const RankEntry &entry) const
    {
        const ReportPtr kept = report.lock();
        return kept && kept == entry.report && pid == entry.pid && sessionOffset == entry.sessionOffset && side == entry.side && rank == entry.rank;
    }
};

struct CachedMatch {
    std::vector<RankKey> ranks;
    std::shared_ptr<const MpiMatch> match;

    bool isOf(const Session &session) const
    {
        if (ranks.size() != session.ranks().size())
            return false;
        for (std::size_t i = 0; i < ranks.size(); ++i)
            if (!ranks[i].isOf(session.ranks()[i]))
                return false;
        return true;
    }
};

} // namespace

std::shared_ptr<const MpiMatch> sharedMpiMatch(const Session &session)
{
    // One session's: the viewer's, or the one a command reads.
    static std::mutex mutex;
    static CachedMatch cached;
    {
        const std::lock_guard lock(mutex);
        if (cached.match && cached.isOf(session))
            return cached.match;
    }
    auto match = std::make_shared<const MpiMatch>(matchMpi(session)); // outside the lock: others may ask meanwhile
    CachedMatch fresh;
    for (const RankEntry &entry : session.ranks())
        fresh.ranks.push_back({entry.report, entry.pid, entry.sessionOffset, entry.side, entry.rank});
    fresh.match = match;
    const std::lock_guard lock(mutex);
    cached = std::move(fresh);
    return match;
}

void shiftMpiClocks(MpiMatch &match, const std::vector<TimeNs> &shift)
{
    const auto move = [&](MpiCall &call) {
        const TimeNs by = std::size_t(call.at.rank) < shift.size() ? shift[std::size_t(call.at.rank)] : 0;
        call.start += by;
        call.end += by;
        call.completionStart += by;
        call.completionEnd += by;
    };
    for (MpiMessage &m : match.messages) {
        move(m.send);
        move(m.receive);
    }
    for (MpiCollective &c : match.collectives)
        for (MpiCall &call : c.calls)
            move(call);
}

std::vector<EventLocation> mpiPartners(const Session &session, const EventLocation &at)
{
    std::vector<EventLocation> partners;
    if (!at.isValid() || session.track(at).kind != TrackKind::Mpi)
        return partners;
    const MpiMatch &match = *sharedMpiMatch(session);
    const auto is = [&](const MpiCall &call) { return call.at == at || call.completion == at; };
    for (const MpiMessage &m : match.messages) {
        if (is(m.send))
            partners.push_back(m.receive.at);
        else if (is(m.receive))
            partners.push_back(m.send.at);
    }
    for (const MpiCollective &c : match.collectives)
        if (std::any_of(c.calls.begin(), c.calls.end(), is))
            for (const MpiCall &call : c.calls)
                if (!is(call))
                    partners.push_back(call.at);
    return partners;
}

} // namespace rankscope
