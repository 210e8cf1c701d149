#include "stats/ranks/pipelinebubbles.h"

#include "core/cancellation.h"
#include "core/intervals.h"
#include "stats/ranks/stepmatrix.h"
#include "stats/reportcatalog.h"

#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace rankscope::stats {

namespace {

// A link between two ranks: their first point-to-point instance (by end),
// and who arrived last at it (the sender: a receive is posted ahead).
struct Link {
    TimeNs firstEnd = kTimeMax;
    int firstSender = -1;
    bool directional = false; // some instance is a send or a receive, not a grouped exchange
};

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

} // namespace

std::vector<std::vector<int>> pipelineStages(const Session &session, const CollectiveMatch &match, QStringList &notes)
{
    std::map<std::pair<int, int>, Link> links;
    for (const CollectiveInstance &c : match.instances) {
        if (!isPointToPoint(c.kind) || c.arrivals.size() != 2 || c.arrivals[0].rankIndex == c.arrivals[1].rankIndex)
            continue;
        const auto key = std::minmax(c.arrivals[0].rankIndex, c.arrivals[1].rankIndex);
        Link &link = links[{key.first, key.second}];
        if (c.end < link.firstEnd) {
            link.firstEnd = c.end;
            link.firstSender = c.lastRankIndex;
        }
        link.directional = link.directional || c.kind == CollectiveKind::Send || c.kind == CollectiveKind::Recv;
    }
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
        pipelines.push_back(walk(start, second, neighbours));
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

} // namespace

PipelineBubbles pipelineBubbles(const Session &session, const CollectiveMatch &match, const KernelClassifier &classes, const QString &stepNames)
{
    PipelineBubbles out;
    out.pipelines = pipelineStages(session, match, out.notes);
    if (out.pipelines.empty()) {
        if (out.notes.isEmpty())
            out.notes << QStringLiteral("pipeline: no point-to-point sends and receives between ranks, so no pipeline stages");
        return out;
    }
    std::optional<QRegularExpression> pattern;
    if (!stepNames.isEmpty())
        pattern.emplace(stepNames);
    for (std::size_t p = 0; p < out.pipelines.size(); ++p) {
        const std::vector<int> &stages = out.pipelines[p];
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
                out.rows.push_back({int(k), int(s), int(p), stages[s], window, busy[s]});
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
