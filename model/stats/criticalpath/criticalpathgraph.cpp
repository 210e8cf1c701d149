#include "stats/criticalpath/criticalpathgraph.h"

#include "core/narrowing.h"
#include "core/report.h"
#include "session/residentbudget.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace rankscope::stats {

std::uint32_t PathGraph::addNode(TimeNs time, int rankIndex)
{
    m_time.push_back(time);
    m_rank.push_back(rankIndex);
    m_binding.push_back(kNone);
    return std::uint32_t(m_time.size() - 1);
}

void PathGraph::addEdge(const PathEdge &edge, bool binding)
{
    if (binding)
        m_binding[edge.to] = std::uint32_t(m_edges.size());
    m_edges.push_back(edge);
}

std::vector<TimeNs> PathGraph::solve(bool scaled) const
{
    const std::size_t n = m_time.size();
    std::vector<std::uint32_t> firstOut(n + 1, 0), waiting(n, 0);
    for (const PathEdge &e : m_edges) {
        ++firstOut[e.from + 1];
        ++waiting[e.to];
    }
    for (std::size_t i = 0; i < n; ++i)
        firstOut[i + 1] += firstOut[i];
    std::vector<std::uint32_t> out(m_edges.size());
    {
        std::vector<std::uint32_t> cursor(firstOut.begin(), firstOut.end() - 1);
        for (std::uint32_t i = 0; i < m_edges.size(); ++i)
            out[cursor[m_edges[i].from]++] = i;
    }
    std::vector<TimeNs> t(n, kTimeMin);
    std::vector<std::uint32_t> ready;
    for (std::uint32_t i = 0; i < n; ++i)
        if (waiting[i] == 0) {
            t[i] = m_time[i];
            ready.push_back(i);
        }
    while (!ready.empty()) {
        const std::uint32_t u = ready.back();
        ready.pop_back();
        for (std::uint32_t k = firstOut[u]; k < firstOut[u + 1]; ++k) {
            const PathEdge &e = m_edges[out[k]];
            // A damaged trace's times may be anywhere in 64 bits: saturate, never wrap.
            const TimeNs w = scaled && e.factor != 1.0f ? TimeNs(std::round(std::clamp(double(e.weight) * double(e.factor), 0.0, 9.0e18))) : e.weight;
            t[e.to] = std::max(t[e.to], addSaturating(t[u], w));
            if (--waiting[e.to] == 0)
                ready.push_back(e.to);
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        if (waiting[i] != 0) // on a cycle of zero-length waits
            t[i] = m_time[i];
    return t;
}

namespace {

// In a trace that records no synchronisation: a stream that starts an op
// within this of another stream's op ending (and later than its own queue
// and launch allow) waited for that op (a cudaStreamWaitEvent).
constexpr TimeNs kStreamFollowNs = 10'000;
// How long before a step's window a stream wait is looked for: the host
// queues work that far ahead of the GPU at most.
constexpr TimeNs kWaitLookBackNs = 10'000'000'000;
constexpr std::size_t kNoOp = std::numeric_limits<std::size_t>::max();

bool isSynchronizingCall(std::string_view name)
{
    return name.find("Synchronize") != std::string_view::npos;
}

// An OS runtime call that blocks the thread until another thread (or
// process) lets it go: its time is waiting, not computing.
bool isBlockingOsCall(std::string_view name)
{
    static constexpr std::string_view kBlocking[] = {"wait",  "mutex_lock", "rwlock",       "poll",   "select",
                                                     "sleep", "futex",      "pthread_join", "accept", "recv"};
    return std::any_of(std::begin(kBlocking), std::end(kBlocking), [&](std::string_view b) { return name.find(b) != std::string_view::npos; });
}

// A thread whose range ends within this of another thread of its process
// ending an event, with nothing of its own traced in between, was woken
// by that thread (the main thread's backward scope ending once the
// autograd thread's last op did).
constexpr TimeNs kThreadWakeNs = 50'000;
// An idle thread (no event of its own for this long) that starts an event
// within kIdleWakeNs of another thread's last start or end was set going
// by that thread: the autograd thread starts backward a few hundred µs of
// Python after the main thread's last op (228 µs in the slow H100 run).
constexpr TimeNs kBlockedAtLeastNs = 100'000;
constexpr TimeNs kIdleWakeNs = 1'000'000;

std::uint64_t eventKey(std::uint32_t track, std::uint32_t event)
{
    return (std::uint64_t(track) << 32) | event;
}

struct GpuOp {
    std::uint32_t track = 0, event = 0;
    std::uint32_t node = 0; // its start; its end is node + 1
    TimeNs start = 0, end = 0;
    std::uint32_t pid = 0;
    int device = -1;
    TimeNs launchStart = kTimeMin; // its launching call's start; kTimeMin: none found
    PathKind kind = PathKind::Kernel;
};

// The cross-stream waits a rank's trace records (cudaStreamWaitEvent with
// the cudaEventRecord it waited for), by op index.
struct StreamWaits {
    bool recorded = false;                                     // the trace records synchronisation: no guessing where it records none
    std::unordered_multimap<std::size_t, std::size_t> awaited; // the first op queued after a wait -> the last op queued before its record
    std::unordered_set<std::size_t> unknownSource;             // first ops after a wait whose record the trace lacks
};

struct HostEvent {
    std::uint32_t track = 0, event = 0;
    std::uint32_t node = 0;
    TimeNs start = 0, end = 0;
};

// A host event's start or end, for the threads of its process that it may wake.
struct HostMoment {
    TimeNs time = 0;
    std::uint32_t node = 0;
    std::uint32_t tid = 0;
    EventLocation event;
};

// An event's start or end on its thread. By time; at one time the ends
// of events that took time, then the starts (an outer before an inner),
// then the ends of events that took none (a 0 µs op in a PyTorch trace:
// its end sorted before its start would leave it open for the rest of the
// step, and every gap after it named after it); among ends, an inner
// before an outer. The order's keys are written out, not looked up in
// every comparison.
struct Boundary {
    TimeNs time;
    int phase;           // 0: an end of an event that took time, 1: a start, 2: an end of one that took none
    TimeNs other;        // a start's end (later first), an end's start (later first)
    std::uint32_t event; // in its thread's events: then a start's ascending, an end's descending
    bool start;
};

bool boundaryBefore(const Boundary &a, const Boundary &b)
{
    if (a.time != b.time)
        return a.time < b.time;
    if (a.phase != b.phase)
        return a.phase < b.phase;
    if (a.other != b.other)
        return a.other > b.other;
    return a.start ? a.event < b.event : a.event > b.event; // one phase: both starts or both ends
}

// A thread's boundaries in that order. Its events come a track at a time,
// each track's by start, so each track's starts (and, where its events do
// not nest, its ends) are in order already: those runs are merged, not
// sorted (sorting every thread's boundaries every step was a third of the
// graph's time).
std::vector<Boundary> threadBoundaries(const std::vector<HostEvent> &events)
{
    std::vector<Boundary> bounds;
    bounds.reserve(events.size() * 2);
    std::vector<std::size_t> runEnds; // where each sorted run ends in `bounds`
    const auto addRun = [&](std::size_t from) {
        if (!std::is_sorted(bounds.begin() + std::ptrdiff_t(from), bounds.end(), boundaryBefore))
            std::sort(bounds.begin() + std::ptrdiff_t(from), bounds.end(), boundaryBefore);
        runEnds.push_back(bounds.size());
    };
    for (std::size_t first = 0; first < events.size();) {
        std::size_t last = first;
        while (last < events.size() && events[last].track == events[first].track)
            ++last;
        const std::size_t starts = bounds.size();
        for (std::size_t i = first; i < last; ++i)
            bounds.push_back({events[i].start, 1, events[i].end, std::uint32_t(i), true});
        addRun(starts);
        const std::size_t ends = bounds.size();
        for (std::size_t i = first; i < last; ++i)
            bounds.push_back({events[i].end, events[i].start == events[i].end ? 2 : 0, events[i].start, std::uint32_t(i), false});
        addRun(ends);
        first = last;
    }
    // Merge neighbouring runs pairwise until one is left.
    while (runEnds.size() > 1) {
        std::vector<std::size_t> merged;
        std::size_t begin = 0;
        for (std::size_t k = 0; k < runEnds.size(); k += 2) {
            if (k + 1 < runEnds.size()) {
                std::inplace_merge(bounds.begin() + std::ptrdiff_t(begin), bounds.begin() + std::ptrdiff_t(runEnds[k]),
                                   bounds.begin() + std::ptrdiff_t(runEnds[k + 1]), boundaryBefore);
                merged.push_back(runEnds[k + 1]);
            } else {
                merged.push_back(runEnds[k]);
            }
            begin = merged.back();
        }
        runEnds = std::move(merged);
    }
    return bounds;
}

// A process's threads, each with its boundaries in order: which other
// thread's moment woke one of them. Asked of each thread's boundaries in
// turn (a process has a few threads; most steps ask a few times), not of
// one list of the process's moments merged every step.
class ProcessThreads {
public:
    explicit ProcessThreads(int rank) : m_rank(rank) { }
    void addThread(std::uint32_t tid, const std::vector<HostEvent> &events, const std::vector<Boundary> &bounds)
    {
        m_threads.push_back({tid, &events, &bounds});
    }

    // The latest start or end (`endsOnly`: end) of another thread in
    // (after, at), at most `within` before `at`; none when there is none.
    // Strictly before: two threads never wake each other at one instant.
    // At one time, the later thread's (as added), its last boundary.
    std::optional<HostMoment> waking(std::uint32_t tid, TimeNs after, TimeNs at, TimeNs within, bool endsOnly) const
    {
        std::optional<HostMoment> best;
        for (const Thread &t : m_threads) {
            if (t.tid == tid)
                continue;
            const std::vector<Boundary> &bounds = *t.bounds;
            auto it = std::lower_bound(bounds.begin(), bounds.end(), at, [](const Boundary &b, TimeNs time) { return b.time < time; });
            while (it != bounds.begin()) {
                const Boundary &b = *--it;
                if (b.time <= after || at - b.time > within)
                    break;
                if (endsOnly && b.start)
                    continue;
                if (!best || b.time >= best->time) {
                    const HostEvent &e = (*t.events)[b.event];
                    best = HostMoment{b.time, e.node + (b.start ? 0u : 1u), t.tid, {m_rank, e.track, e.event}};
                }
                break;
            }
        }
        return best;
    }

private:
    struct Thread {
        std::uint32_t tid;
        const std::vector<HostEvent> *events;
        const std::vector<Boundary> *bounds;
    };
    int m_rank;
    std::vector<Thread> m_threads;
};

class StepGraphBuilder {
public:
    StepGraphBuilder(const Session &session, const CollectiveMatch &match, const PathNameClasses &names, const StepGraphInput &input)
        : m_session(session), m_match(match), m_names(names), m_input(input), m_nodes(session.ranks().size()), m_matched(session.ranks().size())
    {
        for (const CollectiveInstance &c : match.instances)
            if (c.arrivals.size() >= 2 && inWindow(c))
                for (const CollectiveArrival &a : c.arrivals)
                    if (std::size_t(a.rankIndex) < m_matched.size())
                        m_matched[std::size_t(a.rankIndex)].insert(eventKey(a.kernel.track, a.kernel.event));
    }

    StepGraph build()
    {
        m_out.stepEnd.assign(m_session.ranks().size(), PathGraph::kNone);
        for (int r = 0; r < int(m_session.ranks().size()); ++r)
            if (m_input.ranks.empty() || m_input.ranks[std::size_t(r)]) {
                buildRank(r);
                if (m_input.releaseEachRank)
                    ResidentBudget::process().release(*m_session.ranks()[std::size_t(r)].report);
            }
        addCollectives();
        if (std::all_of(m_input.stepEvents.begin(), m_input.stepEvents.end(), [](const auto &e) { return !e; }))
            m_out.lastNode = lastNodeInWindow();
        return std::move(m_out);
    }

private:
    PathGraph &graph() { return m_out.graph; }

    // Whether some rank's part of a collective overlaps the window: a
    // session's thousands of collectives, a step's few.
    bool inWindow(const CollectiveInstance &c) const { return c.firstArrival <= m_input.window.end && c.end >= m_input.window.start; }

    std::uint32_t nodeOf(int rank, std::uint32_t track, std::uint32_t event) const
    {
        const auto &nodes = m_nodes[std::size_t(rank)];
        const std::uint64_t key = eventKey(track, event);
        const auto it = std::lower_bound(nodes.begin(), nodes.end(), key, [](const EventNode &n, std::uint64_t k) { return n.key < k; });
        return it == nodes.end() || it->key != key ? PathGraph::kNone : it->node;
    }

    // Events are added by track, each track's by index, so each rank's
    // list stays sorted by key.
    std::uint32_t addEventNodes(int rank, std::uint32_t track, std::uint32_t event, TimeNs start, TimeNs end)
    {
        const std::uint32_t s = graph().addNode(start, rank);
        graph().addNode(end, rank);
        m_nodes[std::size_t(rank)].push_back({eventKey(track, event), s});
        return s;
    }

    float factorOf(const WhatIf &w, int rank, PathKind kind, std::string_view name) const
    {
        const RankEntry &entry = m_session.ranks()[std::size_t(rank)];
        switch (w.target) {
        case WhatIf::Target::Kernel:
            return (kind == PathKind::Kernel || kind == PathKind::Communication) && matchesName(w.pattern, name) ? float(w.factor) : 1.0f;
        case WhatIf::Target::Rank:
            return entry.rank == w.rank && (kind == PathKind::Cpu || kind == PathKind::Kernel || kind == PathKind::Memcpy || kind == PathKind::Memset)
                       ? float(w.factor)
                       : 1.0f;
        case WhatIf::Target::Range:
            return 1.0f; // ranges scale the host time inside them (buildThread)
        }
        return 1.0f;
    }

    float scaleOf(int rank, PathKind kind, std::string_view name) const
    {
        float f = 1.0f;
        if (m_input.whatIfs)
            for (const WhatIf &w : *m_input.whatIfs)
                f *= factorOf(w, rank, kind, name);
        return f;
    }

    void buildRank(int r);
    void addGpuEdges(int r, std::vector<GpuOp> &ops);
    StreamWaits recordedStreamWaits(int r, const std::vector<GpuOp> &ops) const;
    void buildThread(int r, std::uint32_t tid, const std::vector<HostEvent> &events, const std::vector<Boundary> &bounds,
                     const std::vector<GpuOp> &opsByEnd, const ProcessThreads &process);
    void addCollectives();
    std::uint32_t lastNodeInWindow() const;

    const Session &m_session;
    const CollectiveMatch &m_match;
    const PathNameClasses &m_names;
    const StepGraphInput &m_input;
    StepGraph m_out;
    struct EventNode {
        std::uint64_t key;  // eventKey(track, event)
        std::uint32_t node; // its start
    };
    std::vector<std::vector<EventNode>> m_nodes;              // per rank, by key
    std::vector<std::unordered_set<std::uint64_t>> m_matched; // per rank: kernels in a matched collective
};

void StepGraphBuilder::buildRank(int r)
{
    const RankEntry &entry = m_session.ranks()[std::size_t(r)];
    const Report &report = *entry.report;
    const TimeNs toMatch = entry.sessionOffset + m_match.shiftOf(r);
    const TimeNs lo = m_input.window.start - toMatch, hi = m_input.window.end - toMatch;

    std::vector<GpuOp> ops;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<HostEvent>> threads;
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
        const Track &track = report.tracks[t];
        if (!Session::ownsTrack(entry, track) || track.slices.isEmpty())
            continue;
        const bool gpu = isGpuOperation(track.kind);
        const bool host = track.kind == TrackKind::OsRuntime || track.kind == TrackKind::CudaApi || isHostRange(track.kind);
        if (!gpu && !host)
            continue;
        std::vector<std::uint32_t> events = track.slices.overlapping(lo, hi);
        std::sort(events.begin(), events.end());
        for (const std::uint32_t i : events) {
            const TimeNs start = track.slices.start(i) + toMatch, end = track.slices.end(i) + toMatch;
            const std::uint32_t node = addEventNodes(r, t, i, start, end);
            if (gpu) {
                GpuOp op{t, i, node, start, end, track.pid, track.deviceId};
                op.kind = track.kind == TrackKind::Memcpy                    ? PathKind::Memcpy
                          : track.kind == TrackKind::Memset                  ? PathKind::Memset
                          : m_names.isCommunication(r, track.slices.name(i)) ? PathKind::Communication
                                                                             : PathKind::Kernel;
                ops.push_back(op);
            } else {
                threads[{track.pid, track.tid}].push_back({t, i, node, start, end});
            }
        }
    }
    addGpuEdges(r, ops);
    std::vector<GpuOp> byEnd = ops;
    std::sort(byEnd.begin(), byEnd.end(), [](const GpuOp &a, const GpuOp &b) { return a.end < b.end; });
    std::vector<std::vector<Boundary>> bounds;
    bounds.reserve(threads.size());
    std::map<std::uint32_t, ProcessThreads> processes;
    for (const auto &[thread, events] : threads) {
        bounds.push_back(threadBoundaries(events));
        processes.try_emplace(thread.first, r).first->second.addThread(thread.second, events, bounds.back());
    }
    std::size_t k = 0;
    for (const auto &[thread, events] : threads)
        buildThread(r, thread.second, events, bounds[k++], byEnd, processes.at(thread.first));

    // Where the rank's step ends: its annotation's end, or the end of the
    // last GPU work a call inside it launched, whichever is later.
    if (std::size_t(r) < m_input.stepEvents.size() && m_input.stepEvents[std::size_t(r)]) {
        const TrackEvent step = *m_input.stepEvents[std::size_t(r)];
        const SliceTrack &annotations = report.tracks[step.track].slices;
        const TimeNs from = annotations.start(step.event) + toMatch, to = annotations.end(step.event) + toMatch;
        // The annotation itself is not in the graph when the host ran so
        // far ahead that it ended before the step's window began.
        const std::uint32_t s = nodeOf(r, step.track, step.event);
        std::uint32_t end = s == PathGraph::kNone ? PathGraph::kNone : s + 1;
        for (const GpuOp &op : ops)
            if (op.launchStart >= from && op.launchStart < to && (end == PathGraph::kNone || op.end > graph().time(end)))
                end = op.node + 1;
        m_out.stepEnd[std::size_t(r)] = end;
    }
}

void StepGraphBuilder::addGpuEdges(int r, std::vector<GpuOp> &ops)
{
    const RankEntry &entry = m_session.ranks()[std::size_t(r)];
    const Report &report = *entry.report;
    const TimeNs toMatch = entry.sessionOffset + m_match.shiftOf(r);
    std::sort(ops.begin(), ops.end(), [](const GpuOp &a, const GpuOp &b) {
        return a.track != b.track ? a.track < b.track : a.start != b.start ? a.start < b.start : a.event < b.event;
    });
    // Each op's launching call, when the trace ties one to it.
    std::vector<std::optional<TrackEvent>> launches(ops.size());
    std::size_t hint = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const Track &track = report.tracks[ops[i].track];
        if (const std::uint32_t correlation = report.correlationIdOf(track, ops[i].event))
            if ((launches[i] = report.apiCallFor(Report::correlationKey(track.pid, correlation), hint)))
                ops[i].launchStart = report.tracks[launches[i]->track].slices.start(launches[i]->event) + toMatch;
    }
    // The op before each on its stream (kernels, copies and memsets of a
    // stream are tracks of their own, one queue).
    std::vector<std::size_t> previous(ops.size(), kNoOp);
    {
        std::map<std::tuple<std::uint32_t, int, std::uint32_t>, std::vector<std::size_t>> byStream;
        for (std::size_t i = 0; i < ops.size(); ++i)
            byStream[{ops[i].pid, ops[i].device, report.tracks[ops[i].track].streamId}].push_back(i);
        for (auto &[stream, list] : byStream) {
            std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) { return ops[a].start < ops[b].start; });
            for (std::size_t k = 1; k < list.size(); ++k)
                previous[list[k]] = list[k - 1];
        }
    }
    // Per process and device, its ops by end: what another stream waited for.
    std::map<std::pair<std::uint32_t, int>, std::vector<std::size_t>> byDevice;
    for (std::size_t i = 0; i < ops.size(); ++i)
        byDevice[{ops[i].pid, ops[i].device}].push_back(i);
    for (auto &[device, list] : byDevice)
        std::sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) { return ops[a].end < ops[b].end; });
    const StreamWaits waits = recordedStreamWaits(r, ops);

    for (std::size_t i = 0; i < ops.size(); ++i) {
        GpuOp &op = ops[i];
        const Track &track = report.tracks[op.track];
        const std::string_view name = report.strings.view(track.slices.name(op.event));
        const EventLocation at{r, op.track, op.event};
        if (!(op.kind == PathKind::Communication && m_matched[std::size_t(r)].count(eventKey(op.track, op.event))))
            graph().addEdge({op.node, op.node + 1, op.end - op.start, scaleOf(r, op.kind, name), op.kind, at}, true);

        // What the op's start may have waited for: the edge's source node
        // and time, and when that dependency was met (a launch once its
        // call returned, the others at their node).
        struct Candidate {
            std::uint32_t node = PathGraph::kNone;
            TimeNs time = kTimeMin;
            TimeNs met = kTimeMin;
            PathKind kind = PathKind::Idle;
            EventLocation event;
        };
        std::vector<Candidate> candidates;
        if (previous[i] != kNoOp && ops[previous[i]].end <= op.start) {
            const GpuOp &prev = ops[previous[i]];
            candidates.push_back({prev.node + 1, prev.end, prev.end, prev.kind, {r, prev.track, prev.event}});
        }
        if (launches[i]) {
            const SliceTrack &calls = report.tracks[launches[i]->track].slices;
            const std::uint32_t callNode = nodeOf(r, launches[i]->track, launches[i]->event);
            // The edge runs from the call's start (the launch overhead
            // is the call's own time and its latency after); it bound
            // when the op before on the stream had ended by the time
            // the call returned.
            if (callNode != PathGraph::kNone && op.launchStart <= op.start)
                candidates.push_back({callNode,
                                      op.launchStart,
                                      std::min(calls.end(launches[i]->event) + toMatch, op.start),
                                      PathKind::Launch,
                                      {r, launches[i]->track, launches[i]->event}});
        }
        TimeNs explained = kTimeMin;
        for (const Candidate &c : candidates)
            explained = std::max(explained, c.met);
        const auto otherStream = [&](const GpuOp &other) {
            candidates.push_back({other.node + 1, other.end, other.end, PathKind::Sync, {r, other.track, other.event}});
        };
        // Another stream's op this one waited for: the one the trace's
        // stream wait names; else, where the trace recorded a wait but not
        // what for, the other stream's op that ended last before it
        // started; else (no synchronisation recorded at all) one that ended
        // just before, later than the queue and the launch explain.
        const std::vector<std::size_t> &sameDevice = byDevice[{op.pid, op.device}];
        auto it = std::upper_bound(sameDevice.begin(), sameDevice.end(), op.start, [&](TimeNs t, std::size_t k) { return t < ops[k].end; });
        const auto awaited = waits.awaited.equal_range(i);
        for (auto w = awaited.first; w != awaited.second; ++w)
            if (ops[w->second].end <= op.start)
                otherStream(ops[w->second]);
        if (waits.recorded && !waits.unknownSource.count(i))
            it = sameDevice.begin();
        const TimeNs within = waits.recorded ? std::numeric_limits<TimeNs>::max() : kStreamFollowNs;
        while (it != sameDevice.begin()) {
            const GpuOp &other = ops[*--it];
            if (other.end <= explained || op.start - other.end > within)
                break;
            if (report.tracks[other.track].streamId != track.streamId) {
                otherStream(other);
                break;
            }
        }
        std::size_t binding = 0;
        for (std::size_t k = 1; k < candidates.size(); ++k)
            if (candidates[k].met > candidates[binding].met)
                binding = k;
        for (std::size_t k = 0; k < candidates.size(); ++k) {
            const Candidate &c = candidates[k];
            graph().addEdge({c.node, op.node, k == binding ? op.start - c.time : 0, 1.0f, c.kind, c.event, true}, k == binding);
        }
    }
}

StreamWaits StepGraphBuilder::recordedStreamWaits(int r, const std::vector<GpuOp> &ops) const
{
    const RankEntry &entry = m_session.ranks()[std::size_t(r)];
    const Report &report = *entry.report;
    const TimeNs toMatch = entry.sessionOffset + m_match.shiftOf(r);
    StreamWaits out;
    // Per process, device and stream, its ops by launch.
    std::map<std::tuple<std::uint32_t, int, std::uint32_t>, std::vector<std::size_t>> byStream;
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i].launchStart != kTimeMin)
            byStream[{ops[i].pid, ops[i].device, report.tracks[ops[i].track].streamId}].push_back(i);
    for (auto &[stream, list] : byStream)
        std::sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) { return ops[a].launchStart < ops[b].launchStart; });
    std::size_t hint = 0;
    const auto callStart = [&](std::uint32_t pid, std::uint32_t correlation) -> std::optional<TimeNs> {
        const auto call = correlation ? report.apiCallFor(Report::correlationKey(pid, correlation), hint) : std::nullopt;
        return call ? std::optional<TimeNs>(report.tracks[call->track].slices.start(call->event) + toMatch) : std::nullopt;
    };
    const TimeNs lo = m_input.window.start - toMatch, hi = m_input.window.end - toMatch;
    for (const Track &track : report.tracks) {
        if (track.kind != TrackKind::Sync || !Session::ownsTrack(entry, track) || track.slices.isEmpty())
            continue;
        out.recorded = true;
        const auto waiting = byStream.find({track.pid, track.deviceId, track.streamId});
        // The wait call comes before the op that waits, which may start long after (the host runs ahead).
        track.slices.forEachOverlapping(addSaturating(lo, -kWaitLookBackNs), hi, [&](std::size_t k) {
            const SyncRecord &sync = report.syncs[track.slices.payload(k)];
            if (sync.kind != SyncKind::StreamWaitEvent || waiting == byStream.end())
                return;
            const TimeNs waitCall = callStart(track.pid, sync.correlationId).value_or(track.slices.start(k) + toMatch);
            // The first op queued on the waiting stream after the wait: it, and all after it, wait.
            const std::vector<std::size_t> &queued = waiting->second;
            const auto first =
                std::lower_bound(queued.begin(), queued.end(), waitCall, [&](std::size_t i, TimeNs t) { return ops[i].launchStart < t; });
            if (first == queued.end())
                return;
            const std::optional<TimeNs> record = callStart(track.pid, sync.recordCorrelationId);
            const auto recorded = byStream.find({track.pid, track.deviceId, std::uint32_t(std::max(sync.awaitedStream, 0))});
            if (!record || sync.awaitedStream < 0) {
                out.unknownSource.insert(*first);
                return;
            }
            if (recorded == byStream.end())
                return; // nothing of the recorded stream in the window: the awaited work ended before it
            // The event captures the work queued on its stream before it was recorded.
            const std::vector<std::size_t> &before = recorded->second;
            const auto last =
                std::lower_bound(before.begin(), before.end(), *record, [&](std::size_t i, TimeNs t) { return ops[i].launchStart < t; });
            if (last != before.begin())
                out.awaited.emplace(*first, *std::prev(last));
        });
    }
    return out;
}

void StepGraphBuilder::buildThread(int r, std::uint32_t tid, const std::vector<HostEvent> &events, const std::vector<Boundary> &bounds,
                                   const std::vector<GpuOp> &opsByEnd, const ProcessThreads &process)
{
    const RankEntry &entry = m_session.ranks()[std::size_t(r)];
    const Report &report = *entry.report;
    auto nodeOfBound = [&](const Boundary &b) { return events[b.event].node + (b.start ? 0u : 1u); };

    // What each host event is: its kind on the path, and the what-if scale of its time.
    struct EventInfo {
        PathKind kind = PathKind::Cpu;
        float rangeFactor = 1.0f;                 // a range what-if naming it
        std::uint32_t awaited = PathGraph::kNone; // a call's GPU work it waited for: that op's end node
        bool dataLoading = false;                 // everything inside it waits for input
    };
    std::vector<EventInfo> info(events.size());
    std::size_t hint = 0; // the thread's calls launch in rising correlation order
    const bool hasStep = std::size_t(r) < m_input.stepEvents.size() && m_input.stepEvents[std::size_t(r)].has_value();
    const TrackEvent stepEvent = hasStep ? *m_input.stepEvents[std::size_t(r)] : TrackEvent{};
    for (std::size_t i = 0; i < events.size(); ++i) {
        const HostEvent &e = events[i];
        const Track &track = report.tracks[e.track];
        const std::string_view name = report.strings.view(track.slices.name(e.event));
        EventInfo &in = info[i];
        if (m_input.whatIfs)
            for (const WhatIf &w : *m_input.whatIfs)
                if (w.target == WhatIf::Target::Range && isHostRange(track.kind) && matchesName(w.pattern, name))
                    in.rangeFactor *= float(w.factor);
        if (isHostRange(track.kind)) {
            const bool isStep = hasStep && stepEvent == TrackEvent{e.track, e.event};
            in.dataLoading = m_names.isDataLoader(r, track.slices.name(e.event));
            in.kind = isStep || in.dataLoading ? PathKind::Idle : PathKind::Cpu;
            continue;
        }
        if (track.kind == TrackKind::OsRuntime)
            in.kind = isBlockingOsCall(name) ? PathKind::Sync : PathKind::Cpu;
        if (track.kind != TrackKind::CudaApi)
            continue;
        const std::uint32_t correlation = report.correlationIdOf(track, e.event);
        const std::span<const TrackEvent> launched =
            correlation ? report.gpuOpsFor(Report::correlationKey(track.pid, correlation), hint) : std::span<const TrackEvent>{};
        TimeNs awaitedEnd = kTimeMin;
        if (isSynchronizingCall(name)) {
            // The last GPU work of the process that ended inside the call.
            auto it = std::upper_bound(opsByEnd.begin(), opsByEnd.end(), e.end, [](TimeNs t, const GpuOp &op) { return t < op.end; });
            while (it != opsByEnd.begin()) {
                const GpuOp &op = *--it;
                if (op.end < e.start)
                    break;
                if (op.pid == track.pid) {
                    in.awaited = op.node + 1;
                    break;
                }
            }
            in.kind = PathKind::Sync;
        } else {
            for (const TrackEvent &g : launched) {
                const std::uint32_t node = nodeOf(r, g.track, g.event);
                if (node == PathGraph::kNone)
                    continue;
                const TimeNs end = graph().time(node + 1);
                if (end >= e.start && end <= e.end && end > awaitedEnd) { // a copy the call waited for
                    awaitedEnd = end;
                    in.awaited = node + 1;
                }
            }
            in.kind = launched.empty() ? PathKind::Cpu : PathKind::Launch;
        }
    }

    // Another thread woke this one: an edge from its moment, the time
    // between attributed to that thread's event.
    const auto addWake = [&](const HostMoment &waker, std::uint32_t to, TimeNs at) {
        graph().addEdge({waker.node, to, at - waker.time, 1.0f, PathKind::Sync, waker.event, true}, true);
    };
    // The thread's first start in the window, after it was idle since the window began.
    if (!bounds.empty() && bounds.front().start && bounds.front().time - m_input.window.start >= kBlockedAtLeastNs)
        if (const std::optional<HostMoment> waker = process.waking(tid, m_input.window.start, bounds.front().time, kIdleWakeNs, false))
            addWake(*waker, nodeOfBound(bounds.front()), bounds.front().time);

    // The open events by start (the last is the innermost), each with what
    // holds from the outermost down to it: the product of the range
    // what-ifs' factors, how many of them scale, and the innermost data
    // loader. Pushing or popping the innermost costs O(1) however deep
    // ranges nest (a million nested ranges); only an event ending out of
    // order (ranges that overlap without nesting) recomputes what lies
    // inside it.
    struct OpenEvent {
        std::size_t event;
        float factor;         // product of rangeFactor, outermost to here
        std::size_t matching; // of them, how many are not 1
        std::size_t loader;   // innermost data loader so far (an event), or kNoLoader
    };
    constexpr std::size_t kNoLoader = std::numeric_limits<std::size_t>::max();
    std::vector<OpenEvent> open;
    const auto inside = [&](const OpenEvent *outer, std::size_t event) {
        OpenEvent o = outer ? OpenEvent{event, outer->factor, outer->matching, outer->loader} : OpenEvent{event, 1.0f, 0, kNoLoader};
        if (info[event].rangeFactor != 1.0f) {
            o.factor *= info[event].rangeFactor;
            ++o.matching;
        }
        if (info[event].dataLoading)
            o.loader = event;
        return o;
    };
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
        const Boundary &b = bounds[k];
        if (b.start) {
            open.push_back(inside(open.empty() ? nullptr : &open.back(), b.event));
        } else if (!open.empty() && open.back().event == b.event) {
            open.pop_back();
        } else {
            const auto it = std::find_if(open.rbegin(), open.rend(), [&](const OpenEvent &o) { return o.event == b.event; });
            if (it != open.rend()) {
                const auto at = std::size_t(std::distance(open.begin(), std::next(it).base()));
                open.erase(open.begin() + std::ptrdiff_t(at));
                for (std::size_t i = at; i < open.size(); ++i)
                    open[i] = inside(i > 0 ? &open[i - 1] : nullptr, open[i].event);
            }
        }
        const float openFactor = open.empty() ? 1.0f : open.back().factor;
        const std::size_t openMatching = open.empty() ? 0 : open.back().matching;
        const Boundary &next = bounds[k + 1];
        const std::uint32_t from = nodeOfBound(b), to = nodeOfBound(next);
        const TimeNs gap = next.time - b.time;
        PathEdge edge{from, to, gap, 1.0f, PathKind::Idle, {}};
        if (!open.empty()) {
            // The innermost open event, unless a data loader is open: what
            // it does inside (a poll for its workers, a copy) is input.
            const std::size_t attributed = open.back().loader != kNoLoader ? open.back().loader : open.back().event;
            const HostEvent &inner = events[attributed];
            edge.kind = info[attributed].kind;
            edge.event = {r, inner.track, inner.event};
            if (openMatching > 0)
                edge.factor = openFactor;
            else if (edge.kind == PathKind::Cpu)
                edge.factor = scaleOf(r, PathKind::Cpu, {});
        }
        // A call's end waits for the GPU work it synchronised with, when
        // that ended after the thread's last step before the end.
        const EventInfo *call = !next.start ? &info[next.event] : nullptr;
        if (call && call->awaited != PathGraph::kNone) {
            const TimeNs gpuEnd = graph().time(call->awaited);
            const HostEvent &e = events[next.event];
            const bool gpuBinds = gpuEnd >= b.time;
            graph().addEdge({call->awaited, to, gpuBinds ? next.time - gpuEnd : 0, 1.0f, PathKind::Sync, {r, e.track, e.event}, true}, gpuBinds);
            if (gpuBinds)
                edge.weight = 0;
            graph().addEdge(edge, !gpuBinds);
        } else if (const std::optional<HostMoment> waker = !next.start && !open.empty() && open.back().event == next.event && gap >= kBlockedAtLeastNs
                                                               ? process.waking(tid, b.time, next.time, kThreadWakeNs, true)
                                                               : std::nullopt) {
            // Blocked in its own time until another thread of the process ended something.
            graph().addEdge({waker->node, to, next.time - waker->time, 1.0f, PathKind::Sync, edge.event, true}, true);
            edge.weight = 0;
            graph().addEdge(edge, false);
        } else if (const std::optional<HostMoment> waker = next.start && open.empty() && gap >= kBlockedAtLeastNs
                                                               ? process.waking(tid, b.time, next.time, kIdleWakeNs, false)
                                                               : std::nullopt) {
            // Idle until another thread of the process started or ended something.
            addWake(*waker, to, next.time);
            edge.weight = 0;
            graph().addEdge(edge, false);
        } else {
            graph().addEdge(edge, true);
        }
    }
}

void StepGraphBuilder::addCollectives()
{
    for (const CollectiveInstance &c : m_match.instances) {
        if (c.arrivals.size() < 2 || !inWindow(c))
            continue;
        struct Present {
            int rank;
            EventLocation kernel;
            std::uint32_t node;
        };
        std::vector<Present> present;
        for (const CollectiveArrival &a : c.arrivals) {
            const std::uint32_t node = nodeOf(a.rankIndex, a.kernel.track, a.kernel.event);
            if (node != PathGraph::kNone)
                present.push_back({a.rankIndex, a.kernel, node});
        }
        const auto last = std::find_if(present.begin(), present.end(), [&](const Present &p) { return p.rank == c.lastRankIndex; });
        for (const Present &p : present) {
            const std::uint32_t end = p.node + 1;
            const TimeNs endTime = graph().time(end);
            const Report &report = *m_session.ranks()[std::size_t(p.rank)].report;
            const std::string_view name = report.strings.view(report.tracks[p.kernel.track].slices.name(p.kernel.event));
            const float factor = scaleOf(p.rank, PathKind::Communication, name);
            if (last != present.end() && graph().time(last->node) <= endTime) {
                // Done once the last rank is there: every arrival precedes the end by the transfer.
                const TimeNs transfer = endTime - graph().time(last->node);
                for (const Present &a : present)
                    if (graph().time(a.node) <= endTime)
                        graph().addEdge({a.node, end, transfer, factor, PathKind::Communication, p.kernel}, &a == &*last);
                continue;
            }
            // The rank that arrived last is not in the graph (not loaded,
            // or outside the window): the kernel waits for it, then transfers.
            const TimeNs startTime = graph().time(p.node);
            const TimeNs arrived = std::clamp(c.lastArrival, startTime, endTime);
            const std::uint32_t wait = graph().addNode(arrived, p.rank);
            PathEdge waitEdge{p.node, wait, arrived - startTime, 1.0f, PathKind::Wait, p.kernel};
            graph().addEdge(waitEdge, true);
            graph().addEdge({wait, end, endTime - arrived, factor, PathKind::Communication, p.kernel}, true);
        }
    }
}

std::uint32_t StepGraphBuilder::lastNodeInWindow() const
{
    std::uint32_t best = PathGraph::kNone;
    for (std::uint32_t n = 0; n < m_out.graph.nodeCount(); ++n) {
        const TimeNs t = m_out.graph.time(n);
        if (t <= m_input.window.end && (best == PathGraph::kNone || t > m_out.graph.time(best)))
            best = n;
    }
    return best;
}

} // namespace

StepGraph buildStepGraph(const Session &session, const CollectiveMatch &match, const PathNameClasses &names, const StepGraphInput &input)
{
    return StepGraphBuilder(session, match, names, input).build();
}

TimeNs stepEndTime(const Session &session, int rankIndex, const TrackEvent &stepEvent)
{
    const RankEntry &entry = session.ranks()[std::size_t(rankIndex)];
    const Report &report = *entry.report;
    const SliceTrack &steps = report.tracks[stepEvent.track].slices;
    const TimeNs from = steps.start(stepEvent.event), to = steps.end(stepEvent.event);
    TimeNs end = to;
    std::size_t hint = 0;
    for (const Track &track : report.tracks) {
        if (track.kind != TrackKind::CudaApi || !Session::ownsTrack(entry, track))
            continue;
        track.slices.forEachOverlapping(from, to, [&](std::size_t i) {
            if (track.slices.start(i) < from || track.slices.start(i) >= to) // launched inside: [from, to)
                return;
            if (const std::uint32_t correlation = report.correlationIdOf(track, i))
                for (const TrackEvent &g : report.gpuOpsFor(Report::correlationKey(track.pid, correlation), hint))
                    end = std::max(end, report.tracks[g.track].slices.end(g.event));
        });
    }
    return end + entry.sessionOffset;
}

} // namespace rankscope::stats
