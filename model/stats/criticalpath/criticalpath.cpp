#include "stats/criticalpath/criticalpath.h"

#include "load/workerpool.h"
#include "session/residentbudget.h"

#include "stats/criticalpath/criticalpathgraph.h"
#include "stats/ranks/stepmatrix.h"

#include <algorithm>

namespace rankscope::stats {

QString pathKindName(PathKind kind)
{
    switch (kind) {
    case PathKind::Cpu:
        return QStringLiteral("cpu");
    case PathKind::Launch:
        return QStringLiteral("launch");
    case PathKind::Kernel:
        return QStringLiteral("kernel");
    case PathKind::Memcpy:
        return QStringLiteral("memcpy");
    case PathKind::Memset:
        return QStringLiteral("memset");
    case PathKind::Communication:
        return QStringLiteral("communication");
    case PathKind::Wait:
        return QStringLiteral("wait");
    case PathKind::Sync:
        return QStringLiteral("sync");
    case PathKind::Idle:
        return QStringLiteral("idle");
    }
    return {};
}

std::optional<WhatIf> parseWhatIf(const QString &text, QString *error)
{
    auto fail = [&](const QString &why) -> std::optional<WhatIf> {
        if (error)
            *error = QStringLiteral("what-if \"%1\": %2").arg(text, why);
        return std::nullopt;
    };
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    const qsizetype equals = text.lastIndexOf(QLatin1Char('='));
    if (colon <= 0 || equals < colon)
        return fail(QStringLiteral("write it as kernel:REGEX=0.8, nvtx:REGEX=0.8 or rank:N=0.8"));
    const QString target = text.left(colon).trimmed().toLower();
    const QString what = text.mid(colon + 1, equals - colon - 1);
    bool ok = false;
    const double factor = text.mid(equals + 1).trimmed().toDouble(&ok);
    if (!ok || !(factor >= 0.0) || factor > 1000.0)
        return fail(QStringLiteral("the factor after = is the new duration over the old, from 0 to 1000 (0.8: 20 % faster)"));
    WhatIf w;
    w.factor = factor;
    w.text = text;
    if (target == QLatin1String("rank")) {
        w.target = WhatIf::Target::Rank;
        w.rank = what.trimmed().toInt(&ok);
        if (!ok)
            return fail(QStringLiteral("rank: takes a rank number"));
        return w;
    }
    if (target == QLatin1String("kernel"))
        w.target = WhatIf::Target::Kernel;
    else if (target == QLatin1String("nvtx") || target == QLatin1String("range"))
        w.target = WhatIf::Target::Range;
    else
        return fail(QStringLiteral("the target is kernel, nvtx or rank"));
    w.pattern = QRegularExpression(what);
    if (what.isEmpty() || !w.pattern.isValid())
        return fail(what.isEmpty() ? QStringLiteral("no name pattern") : w.pattern.errorString());
    return w;
}

std::array<TimeNs, kPathKindCount> StepCriticalPath::timeByKind() const
{
    std::array<TimeNs, kPathKindCount> byKind{};
    for (const PathSegment &s : segments)
        byKind[std::size_t(s.kind)] += s.duration();
    return byKind;
}

namespace {

// Back from `end` along the edges that bind, to the window's start: the
// segments in time order, neighbours with the same event merged.
std::vector<PathSegment> walkBack(const PathGraph &graph, std::uint32_t end, TimeNs windowStart)
{
    struct Step {
        PathSegment segment;
        bool between = false; // time between events (PathEdge::between)
    };
    std::vector<Step> reversed;
    std::uint32_t node = end;
    for (std::size_t steps = 0; steps <= graph.nodeCount(); ++steps) {
        const TimeNs t = graph.time(node);
        if (t <= windowStart)
            break;
        const PathEdge *edge = graph.bindingEdge(node);
        if (!edge) { // nothing traced explains it: idle since the window's start
            reversed.push_back({{graph.rankOf(node), PathKind::Idle, windowStart, t, {}, -1, 0}, true});
            break;
        }
        const TimeNs from = std::max(graph.time(edge->from), windowStart);
        const int rank = graph.rankOf(node), fromRank = graph.rankOf(edge->from);
        if (from < t || fromRank != rank) {
            PathSegment segment{rank, edge->kind, from, t, edge->event, -1, 0};
            if (fromRank != rank) {
                segment.fromRankIndex = fromRank;
                // A collective's end on this rank, reached from the last
                // arrival: its own kernel started at the node before.
                if (edge->kind == PathKind::Communication && node > 0)
                    segment.crossedWait = std::max<TimeNs>(0, graph.time(edge->from) - graph.time(node - 1));
            }
            reversed.push_back({segment, edge->between});
        }
        node = edge->from;
    }
    std::vector<PathSegment> segments;
    bool lastBetween = true;
    for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) {
        const PathSegment &s = it->segment;
        if (s.start >= s.end && s.fromRankIndex < 0)
            continue;
        if (!segments.empty() && !lastBetween && !it->between) {
            PathSegment &last = segments.back();
            if (last.rankIndex == s.rankIndex && last.kind == s.kind && last.event == s.event && s.fromRankIndex < 0 && last.end == s.start) {
                last.end = s.end; // one event's time split by its children's boundaries
                continue;
            }
        }
        segments.push_back(s);
        lastBetween = it->between;
    }
    // A crossing of zero length keeps its rank change on the segment after it.
    for (std::size_t i = 0; i + 1 < segments.size(); ++i)
        if (segments[i].start >= segments[i].end && segments[i + 1].fromRankIndex < 0) {
            segments[i + 1].fromRankIndex = segments[i].fromRankIndex;
            segments[i + 1].crossedWait = segments[i].crossedWait;
            segments.erase(segments.begin() + std::ptrdiff_t(i));
            --i;
        }
    if (!segments.empty() && segments.back().start >= segments.back().end)
        segments.pop_back();
    return segments;
}

// Each segment named after the event it is attributed to lies inside that
// event on its rank: time an edge attributes to an event outside it (a
// launch's latency after its call returned, a stream's gap behind the op
// that ended before it, a thread's idle time before another woke it) is
// split off, unnamed, as what it is: the GPU's gaps idle, the rest of the
// edge's kind.
std::vector<PathSegment> insideTheirEvents(const Session &session, const CollectiveMatch &match, std::vector<PathSegment> segments)
{
    std::vector<PathSegment> out;
    out.reserve(segments.size());
    const auto unnamed = [](PathSegment s, TimeNs from, TimeNs to) {
        s.start = from;
        s.end = to;
        s.event = {};
        if (s.kind == PathKind::Kernel || s.kind == PathKind::Memcpy || s.kind == PathKind::Memset || s.kind == PathKind::Communication)
            s.kind = PathKind::Idle;
        return s;
    };
    for (PathSegment &s : segments) {
        if (!s.event.isValid()) {
            out.push_back(s);
            continue;
        }
        const TimeRange recorded = session.sessionTime(s.event);
        const TimeNs shift = match.shiftOf(s.event.rank);
        const TimeNs from = std::max(s.start, recorded.start + shift), to = std::min(s.end, recorded.end + shift);
        if (from >= to) {
            out.push_back(unnamed(s, s.start, s.end));
            continue;
        }
        const std::size_t first = out.size();
        if (s.start < from)
            out.push_back(unnamed(s, s.start, from));
        PathSegment inside = s;
        inside.start = from;
        inside.end = to;
        out.push_back(inside);
        if (to < s.end)
            out.push_back(unnamed(s, to, s.end));
        for (std::size_t i = first + 1; i < out.size(); ++i) { // the crossing stays on the first piece
            out[i].fromRankIndex = -1;
            out[i].crossedWait = 0;
        }
    }
    return out;
}

StepCriticalPath solveStep(const Session &session, const CollectiveMatch &match, const PathNameClasses &names, const CriticalPathOptions &options,
                           int step, TimeRange window, std::vector<std::optional<TrackEvent>> stepEvents, RunSide side,
                           const std::vector<bool> &ranks, RankPages pages)
{
    StepCriticalPath path;
    path.step = step;
    path.side = side;
    path.window = window;
    path.clockShift.resize(session.ranks().size());
    for (std::size_t r = 0; r < session.ranks().size(); ++r)
        path.clockShift[r] = match.shiftOf(int(r));
    StepGraphInput input{window, std::move(stepEvents), &options.whatIfs, ranks, pages == RankPages::ReleaseEachRank};
    const StepGraph g = buildStepGraph(session, match, names, input);
    path.nodes = g.graph.nodeCount();
    path.edges = g.graph.edgeCount();

    std::uint32_t end = g.lastNode;
    for (std::size_t r = 0; r < g.stepEnd.size(); ++r)
        if (g.stepEnd[r] != PathGraph::kNone && (end == PathGraph::kNone || g.graph.time(g.stepEnd[r]) > g.graph.time(end)))
            end = g.stepEnd[r];
    if (end == PathGraph::kNone)
        return path;
    path.endRankIndex = g.graph.rankOf(end);
    path.window.end = g.graph.time(end);
    path.segments = insideTheirEvents(session, match, walkBack(g.graph, end, window.start));

    if (!options.whatIfs.empty()) {
        const std::vector<TimeNs> solved = g.graph.solve(true);
        TimeNs newEnd = solved[end];
        for (const std::uint32_t e : g.stepEnd)
            if (e != PathGraph::kNone)
                newEnd = std::max(newEnd, solved[e]);
        path.whatIfLength = std::max<TimeNs>(0, newEnd - window.start);
    }
    return path;
}

} // namespace

CriticalPathSteps::CriticalPathSteps(const Session &session, const CollectiveMatch &match, const CriticalPathOptions &options, RankPages pages)
    : m_session(session), m_match(match), m_options(options)
{
    if (!session.isComparison()) {
        addRun(RunSide::None, {}, pages);
        return;
    }
    // Two runs side by side: each its own steps, over its own ranks (no
    // dependency joins them: their communicators are named apart).
    for (const RunSide side : {RunSide::A, RunSide::B}) {
        std::vector<bool> ranks(session.ranks().size(), false);
        for (const int r : session.rankIndicesOf(side))
            ranks[std::size_t(r)] = true;
        addRun(side, std::move(ranks), pages);
    }
}

void CriticalPathSteps::addRun(RunSide side, std::vector<bool> ranks, RankPages pages)
{
    const std::size_t count = m_session.ranks().size();
    const auto inRun = [&](std::size_t r) { return ranks.empty() || ranks[r]; };
    auto run = std::make_shared<Run>();
    run->side = side;
    run->ranks = std::move(ranks);
    if (m_options.range) {
        m_entries.push_back({run, -1, *m_options.range});
        m_runs.push_back(std::move(run));
        return;
    }
    std::optional<QRegularExpression> pattern;
    if (!m_options.stepNames.isEmpty()) {
        pattern.emplace(m_options.stepNames);
        if (!pattern->isValid())
            return;
    }
    run->steps.resize(count);
    run->ends.resize(count);
    std::size_t most = 0;
    TimeRange extent{kTimeMax, kTimeMin};
    for (std::size_t r = 0; r < count; ++r) {
        if (!inRun(r))
            continue;
        run->steps[r] = stepEventsOf(m_session.ranks()[r], pattern ? &*pattern : nullptr);
        if (pages == RankPages::ReleaseEachRank) // its step annotations are copied out
            ResidentBudget::process().release(*m_session.ranks()[r].report);
        run->ends[r].resize(run->steps[r].size());
        most = std::max(most, run->steps[r].size());
        const TimeRange recorded = Session::recordedExtent(m_session.ranks()[r]);
        if (!recorded.isEmpty()) {
            extent.start = std::min(extent.start, recorded.start);
            extent.end = std::max(extent.end, recorded.end);
        }
    }
    if (most == 0 && !m_options.step) { // no step annotation: the whole run as one range
        if (!extent.isEmpty())
            m_entries.push_back({run, -1, extent});
        m_runs.push_back(std::move(run));
        return;
    }
    for (std::size_t k = 0; k < most; ++k)
        if (!m_options.step || std::size_t(*m_options.step) == k)
            m_entries.push_back({run, int(k), std::nullopt});
    m_runs.push_back(std::move(run));
}

StepWindow CriticalPathSteps::window(std::size_t i, RankPages pages) const
{
    const Entry &e = m_entries[i];
    const std::size_t count = m_session.ranks().size();
    StepWindow w;
    w.step = e.step;
    w.side = e.run->side;
    w.ranks = e.run->ranks;
    w.stepEvents.resize(count);
    if (e.fixed) { // a range, or the whole run
        w.window = *e.fixed;
        return w;
    }
    const std::lock_guard lock(m_mutex); // the step ends are found once, by whoever asks first
    Run &run = *e.run;
    // Where a rank's step k ends (session time), computed once each.
    const auto endOf = [&](std::size_t r, std::size_t k) {
        std::optional<TimeNs> &end = run.ends[r][k];
        if (!end)
            end = stepEndTime(m_session, int(r), run.steps[r][k]);
        return *end;
    };
    const auto k = std::size_t(e.step);
    w.window = {kTimeMax, kTimeMin};
    for (std::size_t r = 0; r < count; ++r) {
        if (k >= run.steps[r].size())
            continue;
        const TrackEvent ev = run.steps[r][k];
        w.stepEvents[r] = ev;
        const RankEntry &entry = m_session.ranks()[r];
        const TimeNs shift = m_match.shiftOf(int(r));
        // A step starts at its annotation, or when the step before it
        // ended if that was later: a host running ahead of its GPU
        // starts step k while the GPU still runs step k - 1 (or k - 40),
        // and step k's length is then from that work's end to its own.
        TimeNs start = entry.report->tracks[ev.track].slices.start(ev.event) + entry.sessionOffset;
        if (k > 0)
            start = std::max(start, endOf(r, k - 1));
        w.window.start = std::min(w.window.start, start + shift);
        w.window.end = std::max(w.window.end, endOf(r, k) + shift);
        if (pages == RankPages::ReleaseEachRank)
            ResidentBudget::process().release(*entry.report);
    }
    return w;
}

TimeNs CriticalPathSteps::annotatedStart(std::size_t i) const
{
    const Entry &e = m_entries[i];
    if (e.fixed)
        return e.fixed->start;
    TimeNs start = kTimeMax;
    for (std::size_t r = 0; r < e.run->steps.size(); ++r)
        if (std::size_t(e.step) < e.run->steps[r].size()) {
            const TrackEvent ev = e.run->steps[r][std::size_t(e.step)];
            const RankEntry &entry = m_session.ranks()[r];
            start = std::min(start, entry.report->tracks[ev.track].slices.start(ev.event) + entry.sessionOffset + m_match.shiftOf(int(r)));
        }
    return start;
}

StepCriticalPath solveCriticalPath(const Session &session, const CollectiveMatch &match, const PathNameClasses &names,
                                   const CriticalPathOptions &options, const StepWindow &window, RankPages pages)
{
    return solveStep(session, match, names, options, window.step, window.window, window.stepEvents, window.side, window.ranks, pages);
}

std::vector<StepCriticalPath> criticalPaths(const Session &session, const CollectiveMatch &match, const KernelClassifier &classes,
                                            const CriticalPathOptions &options)
{
    const CriticalPathSteps steps(session, match, options);
    const PathNameClasses names(session, classes);
    std::vector<StepCriticalPath> paths(steps.size());
    // Each step's graph is its own: solved side by side.
    parallelFor(steps.size(), [&](std::size_t i) { paths[i] = solveCriticalPath(session, match, names, options, steps.window(i)); });
    return paths;
}

} // namespace rankscope::stats
