#include "stats/ranks/pipelinebubbles.h"

#include "core/cancellation.h"
#include "core/intervals.h"
#include "session/mpimessages.h"
#include "stats/ranks/stepmatrix.h"
#include "stats/reportcatalog.h"

#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace rankscope::stats {

namespace {

// A link between two ranks: their first point-to-point transfer (by its
// receive's end) and who sent it.
struct Link {
    TimeNs firstEnd = kTimeMax;
    int firstSender = -1;
    bool directional = false; // some transfer is a send or a receive, not a grouped exchange
};

// What one rank sent another: when it first began sending, and when the
// other first finished receiving.
struct Direction {
    TimeNs firstSendStart = kTimeMax, firstReceiveEnd = kTimeMax;
};

// The point-to-point traffic between ranks, on the match's clocks.
struct Traffic {
    std::map<std::pair<int, int>, Link> links;           // by (lower, higher) rank index
    std::map<std::pair<int, int>, Direction> directions; // by (sender, receiver)

    void add(int sender, int receiver, TimeNs sendStart, TimeNs receiveEnd, bool directional)
    {
        Link &link = links[std::minmax(sender, receiver)];
        if (receiveEnd < link.firstEnd) {
            link.firstEnd = receiveEnd;
            link.firstSender = sender;
        }
        link.directional = link.directional || directional;
        Direction &d = directions[{sender, receiver}];
        d.firstSendStart = std::min(d.firstSendStart, sendStart);
        d.firstReceiveEnd = std::min(d.firstReceiveEnd, receiveEnd);
    }
};

// NCCL's sends and receives (one instance per matched pair): a send's
// or receive's instance names its direction by the kind of its first
// arrival; a grouped send and receive goes both ways.
void addNcclTraffic(const CollectiveMatch &match, Traffic &traffic)
{
    for (const CollectiveInstance &c : match.instances) {
        if (!isPointToPoint(c.kind) || c.arrivals.size() != 2 || c.arrivals[0].rankIndex == c.arrivals[1].rankIndex)
            continue;
        const CollectiveArrival &a = c.arrivals[0], &b = c.arrivals[1];
        const auto add = [&](const CollectiveArrival &from, const CollectiveArrival &to, bool directional) {
            traffic.add(from.rankIndex, to.rankIndex, from.start + match.shiftOf(from.rankIndex), to.end + match.shiftOf(to.rankIndex), directional);
        };
        if (c.kind == CollectiveKind::Send) {
            add(a, b, true);
        } else if (c.kind == CollectiveKind::Recv) {
            add(b, a, true);
        } else { // both ways; the one who arrived last taken as the first sender
            const bool bLast = c.lastRankIndex == b.rankIndex;
            add(bLast ? b : a, bLast ? a : b, false);
            add(bLast ? a : b, bLast ? b : a, false);
        }
    }
}

// MPI's messages: the sender is known; a receive ends when it completes
// (a non-blocking one at its wait). MPI_Sendrecv goes both ways at once.
void addMpiTraffic(const Session &session, const CollectiveMatch &match, Traffic &traffic)
{
    const std::shared_ptr<const MpiMatch> mpi = sharedMpiMatch(session);
    const auto bothWays = [&](const EventLocation &at) {
        const Report &r = *session.ranks()[std::size_t(at.rank)].report;
        return r.strings.view(r.tracks[at.track].slices.name(at.event)).find("Sendrecv") != std::string_view::npos;
    };
    for (const MpiMessage &m : mpi->messages) {
        const int from = m.send.at.rank, to = m.receive.at.rank;
        if (from == to)
            continue;
        const TimeNs received = m.receive.completion ? m.receive.completionEnd : m.receive.end;
        traffic.add(from, to, m.send.start + match.shiftOf(from), received + match.shiftOf(to), !bothWays(m.send.at));
    }
}

QString rankList(const Session &session, const std::vector<int> &rankIndices)
{
    QStringList names;
    for (const int i : rankIndices) {
        const RankEntry &entry = session.ranks()[std::size_t(i)];
        names << (session.isComparison() ? entry.displayName() : QString::number(entry.rank)); // "B · rank 3"
    }
    return names.join(QStringLiteral(", "));
}

// The component's ranks walked from `start`, each next the neighbour not
// yet walked (a chain from an end, or a ring).
std::vector<int> walk(int start, int second, const std::map<int, std::set<int>> &neighbours)
{
    std::vector<int> order{start};
    std::set<int> seen{start};
    for (int at = second; at >= 0 && seen.insert(at).second;) {
        order.push_back(at);
        int next = -1;
        for (const int n : neighbours.at(at))
            if (!seen.count(n)) {
                next = n;
                break;
            }
        at = next;
    }
    return order;
}

// A pipeline's stages pass on what they received: each stage after the
// first sends nothing (on to the next or back to the one before) until its
// first input from the stage before has arrived. Neighbours that exchange
// at once (a halo exchange, a ring shift) send first.
bool sendsFollowInputs(const std::vector<int> &stages, const std::map<std::pair<int, int>, Direction> &directions)
{
    for (std::size_t s = 1; s < stages.size(); ++s) {
        const auto input = directions.find({stages[s - 1], stages[s]});
        if (input == directions.end())
            return false;
        for (const auto &[pair, direction] : directions)
            if (pair.first == stages[s] && direction.firstSendStart < input->second.firstReceiveEnd)
                return false;
    }
    return true;
}

} // namespace

std::vector<std::vector<int>> pipelineStages(const Session &session, const CollectiveMatch &match, QStringList &notes)
{
    Traffic traffic;
    addNcclTraffic(match, traffic);
    addMpiTraffic(session, match, traffic);
    const std::map<std::pair<int, int>, Link> &links = traffic.links;
    std::map<int, std::set<int>> neighbours;
    for (const auto &[pair, link] : links) {
        neighbours[pair.first].insert(pair.second);
        neighbours[pair.second].insert(pair.first);
    }
    const auto linkOf = [&](int a, int b) -> const Link & { return links.at({std::min(a, b), std::max(a, b)}); };
    std::vector<std::vector<int>> pipelines;
    std::set<int> placed;
    for (const auto &[first, unused] : neighbours) {
        if (placed.count(first))
            continue;
        // The component, and its first link.
        std::vector<int> members;
        std::vector<int> frontier{first};
        std::set<int> inComponent{first};
        while (!frontier.empty()) {
            const int at = frontier.back();
            frontier.pop_back();
            members.push_back(at);
            for (const int n : neighbours[at])
                if (inComponent.insert(n).second)
                    frontier.push_back(n);
        }
        placed.insert(members.begin(), members.end());
        std::sort(members.begin(), members.end());
        std::vector<int> ends;
        bool chainOrRing = true;
        std::pair<int, int> earliest{-1, -1};
        TimeNs earliestEnd = kTimeMax;
        for (const int m : members) {
            const std::size_t degree = neighbours[m].size();
            chainOrRing = chainOrRing && degree <= 2;
            if (degree == 1)
                ends.push_back(m);
            for (const int n : neighbours[m])
                if (linkOf(m, n).firstEnd < earliestEnd) {
                    earliestEnd = linkOf(m, n).firstEnd;
                    earliest = {m, n};
                }
        }
        // Two ranks that only exchange both ways at once (grouped send and
        // receive kernels) are as likely an all-to-all of two (NCCL runs one
        // as grouped sends and receives) as a pipeline: not taken as one.
        if (members.size() == 2 && !linkOf(members[0], members[1]).directional) {
            notes << QStringLiteral("pipeline: ranks %1 only exchange data both ways at once (grouped send/receive kernels, as an all-to-all "
                                    "of two ranks runs), so they are not taken as pipeline stages")
                         .arg(rankList(session, members));
            continue;
        }
        if (!chainOrRing || !(ends.size() == 2 || ends.empty())) {
            notes << QStringLiteral("pipeline: the point-to-point traffic of ranks %1 is neither a chain nor a ring; their stages are not found")
                         .arg(rankList(session, members));
            continue;
        }
        const Link &firstLink = linkOf(earliest.first, earliest.second);
        int start = firstLink.firstSender;
        if (ends.size() == 2 && members.size() > 2) // a chain: the end whose link finished first
            start =
                linkOf(ends[0], *neighbours[ends[0]].begin()).firstEnd <= linkOf(ends[1], *neighbours[ends[1]].begin()).firstEnd ? ends[0] : ends[1];
        const int second = start == earliest.first ? earliest.second : start == earliest.second ? earliest.first : *neighbours[start].begin();
        std::vector<int> stages = walk(start, second, neighbours);
        if (!sendsFollowInputs(stages, traffic.directions)) {
            notes << QStringLiteral("pipeline: ranks %1 send to their neighbours before their first data from them arrived (an exchange "
                                    "between neighbours, as a halo exchange or a ring shift runs), so they are not taken as pipeline stages")
                         .arg(rankList(session, stages));
            continue;
        }
        pipelines.push_back(std::move(stages));
    }
    return pipelines;
}

namespace {

// One rank's compute kernels (session time, the match's clock) per step,
// a kernel in the step its launch is in; launches outside every step
// belong to none.
std::vector<std::vector<Interval>> computePerStep(const Session &session, int rankIndex, const std::vector<TimeRange> &steps,
                                                  const KernelClassifier &classes, TimeNs shift)
{
    const RankEntry &entry = session.ranks()[std::size_t(rankIndex)];
    const Report &r = *entry.report;
    std::vector<std::vector<Interval>> perStep(steps.size());
    KernelClassCache classOf(r.strings, classes);
    for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
        const Track &track = r.tracks[t];
        if (track.kind != TrackKind::Kernel || !Session::ownsTrack(entry, track))
            continue;
        throwIfCancelled();
        std::size_t hint = 0;
        const SliceTrack &s = track.slices;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (classOf.of(s.name(i)) == KernelClass::Communication)
                continue;
            TimeNs launch = s.start(i);
            if (const std::uint32_t id = r.correlationIdOf(track, i))
                if (const std::optional<TrackEvent> call = r.apiCallFor(Report::correlationKey(track.pid, id), hint))
                    launch = r.tracks[call->track].slices.start(call->event);
            auto it = std::upper_bound(steps.begin(), steps.end(), launch, [](TimeNs at, const TimeRange &step) { return at < step.start; });
            if (it == steps.begin() || launch >= std::prev(it)->end)
                continue;
            const TimeNs offset = entry.sessionOffset + shift;
            perStep[std::size_t(std::prev(it) - steps.begin())].emplace_back(s.start(i) + offset, s.end(i) + offset);
        }
    }
    return perStep;
}

// Whether the stages compute in turn, as a pipeline's do: in most steps
// with compute, each stage's first kernel starts once the stage before
// has finished its first (the input it needs comes from there). Ranks
// that compute side by side and also pass messages do not.
bool computesInTurn(const std::vector<std::vector<std::vector<Interval>>> &compute, std::size_t steps)
{
    std::size_t counted = 0, inTurn = 0;
    for (std::size_t k = 0; k < steps; ++k) {
        bool ordered = true, any = false;
        for (std::size_t s = 1; s < compute.size() && ordered; ++s) {
            const std::vector<Interval> &before = compute[s - 1][k], &at = compute[s][k];
            if (before.empty() || at.empty())
                continue;
            any = true;
            const Interval first = *std::min_element(before.begin(), before.end());
            const TimeNs start = std::min_element(at.begin(), at.end())->first;
            ordered = start >= first.second;
        }
        if (any) {
            ++counted;
            inTurn += ordered ? 1 : 0;
        }
    }
    return counted == 0 || 2 * inTurn > counted;
}

} // namespace

PipelineBubbles pipelineBubbles(const Session &session, const CollectiveMatch &match, const KernelClassifier &classes, const QString &stepNames)
{
    PipelineBubbles out;
    out.pipelines = pipelineStages(session, match, out.notes);
    if (out.pipelines.empty()) {
        if (out.notes.isEmpty())
            out.notes << QStringLiteral("pipeline: no point-to-point sends and receives between ranks (NCCL or MPI), so no pipeline stages");
        return out;
    }
    std::optional<QRegularExpression> pattern;
    if (!stepNames.isEmpty())
        pattern.emplace(stepNames);
    std::vector<std::vector<int>> found = std::move(out.pipelines);
    out.pipelines.clear();
    for (std::vector<int> &stages : found) {
        std::vector<std::vector<std::vector<Interval>>> compute; // [stage][step]
        std::size_t steps = SIZE_MAX;
        bool wholeRecording = false;
        for (const int rankIndex : stages) {
            const RankEntry &entry = session.ranks()[std::size_t(rankIndex)];
            std::vector<TimeRange> ranges = stepRangesOf(entry, pattern ? &*pattern : nullptr);
            if (ranges.empty()) {
                ranges = {{kTimeMin, kTimeMax}};
                wholeRecording = true;
            }
            compute.push_back(computePerStep(session, rankIndex, ranges, classes, match.shiftOf(rankIndex)));
            steps = std::min(steps, ranges.size());
        }
        if (!computesInTurn(compute, steps)) {
            out.notes << QStringLiteral("pipeline: ranks %1 pass messages along a chain, but in most steps each starts computing before the "
                                        "one before it finished its first kernel (ranks that compute side by side, not pipeline stages)")
                             .arg(rankList(session, stages));
            continue;
        }
        const int p = int(out.pipelines.size());
        out.pipelines.push_back(stages);
        if (wholeRecording)
            out.notes << QStringLiteral(
                             "pipeline of ranks %1: a stage has no step ranges (ProfilerStep#N, \"step N\"): its whole recording is one step")
                             .arg(rankList(session, stages));
        TimeNs stepTime = 0, bubble = 0;
        for (std::size_t k = 0; k < steps; ++k) {
            TimeRange window{kTimeMax, kTimeMin};
            std::vector<TimeNs> busy(stages.size(), 0);
            for (std::size_t s = 0; s < stages.size(); ++s) {
                const std::vector<Interval> runs = unionOf(std::move(compute[s][k]));
                if (runs.empty())
                    continue;
                window.start = std::min(window.start, runs.front().first);
                window.end = std::max(window.end, runs.back().second);
                busy[s] = lengthOf(runs);
            }
            if (window.end < window.start)
                continue; // no compute in this step
            for (std::size_t s = 0; s < stages.size(); ++s) {
                out.rows.push_back({int(k), int(s), p, stages[s], window, busy[s]});
                stepTime += window.duration();
                bubble += window.duration() - busy[s];
            }
        }
        out.notes << QStringLiteral("pipeline of ranks %1 (stage 0 first), steps: %2; bubble %3% of the stages' step time")
                         .arg(rankList(session, stages))
                         .arg(steps)
                         .arg(stepTime > 0 ? 100.0 * double(bubble) / double(stepTime) : 0.0, 0, 'f', 1);
    }
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const PipelineStageStep &a, const PipelineStageStep &b) {
        return std::tie(a.step, a.stage, a.pipeline) < std::tie(b.step, b.stage, b.pipeline);
    });
    return out;
}

ResultTable pipelineBubblesTable(const Session &session, const PipelineBubbles &bubbles)
{
    ResultTable t = declaredTable(QStringLiteral("pipeline_bubbles"));
    t.headers = QStringList{QStringLiteral("Step"),      QStringLiteral("Stage"),       QStringLiteral("Rank"),      QStringLiteral("Step Time (ns)"),
                            QStringLiteral("Busy (ns)"), QStringLiteral("Bubble (ns)"), QStringLiteral("Bubble (%)")};
    const bool comparison = session.isComparison(); // two runs side by side: which run each row is
    if (comparison)
        t.headers << QStringLiteral("Run");
    for (const PipelineStageStep &row : bubbles.rows) {
        const TimeNs step = row.window.duration();
        const RankEntry &entry = session.ranks()[std::size_t(row.rankIndex)];
        std::vector<Cell> cells{Cell::ofInteger(row.step),
                                Cell::ofInteger(row.stage),
                                Cell::ofInteger(entry.rank),
                                Cell::ofInteger(step),
                                Cell::ofInteger(row.busy),
                                Cell::ofInteger(row.bubble()),
                                step > 0 ? Cell::ofDecimal(100.0 * double(row.bubble()) / double(step), 2) : Cell{}};
        if (comparison)
            cells.push_back(Cell::ofText(runSideName(entry.side)));
        t.addRow(cells);
    }
    t.notes = bubbles.notes;
    return t;
}

} // namespace rankscope::stats
