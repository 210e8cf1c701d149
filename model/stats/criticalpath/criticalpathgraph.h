#pragma once
// The dependency graph of one step across ranks (stats/criticalpath/criticalpath.h).
// A node is a point in time on one rank: an event's start or end. An edge
// says the later node could not happen before the earlier one plus the
// edge's weight. Every node that has predecessors has exactly one that
// binds (the edge through which its recorded time is explained: its
// weight is the observed delay); the others weigh 0, so solving the graph
// forward (each node at the latest of its predecessors plus their
// weights) gives back every recorded time, and with some durations scaled
// gives what the step would have taken. The edges are listed in
// docs/statistics.md, "Critical path".
#include "stats/criticalpath/criticalpath.h"

#include <cstdint>
#include <vector>

namespace rankscope::stats {

struct PathEdge {
    std::uint32_t from = 0, to = 0;
    TimeNs weight = 0;   // the observed delay when it binds, else 0
    float factor = 1.0f; // the what-ifs' scale of its weight
    PathKind kind = PathKind::Idle;
    EventLocation event; // what its time is attributed to (invalid: nothing traced)
    // Time between two events (a launch, a stream's gap, a call's return
    // after the GPU work) rather than inside `event`: never merged into
    // the event's own segment.
    bool between = false;
};

class PathGraph {
public:
    static constexpr std::uint32_t kNone = 0xffffffffu;

    std::uint32_t addNode(TimeNs time, int rankIndex);
    // Adds an edge into `edge.to`; `binding` makes it the edge that
    // explains the node's time.
    void addEdge(const PathEdge &edge, bool binding);

    std::size_t nodeCount() const { return m_time.size(); }
    std::size_t edgeCount() const { return m_edges.size(); }
    TimeNs time(std::uint32_t node) const { return m_time[node]; }
    int rankOf(std::uint32_t node) const { return m_rank[node]; }
    // The edge that explains the node's time; null for a node nothing precedes.
    const PathEdge *bindingEdge(std::uint32_t node) const { return m_binding[node] == kNone ? nullptr : &m_edges[m_binding[node]]; }

    // Every node's earliest time with each edge's weight scaled by its
    // factor (scaled = false: as recorded), a node nothing precedes at its
    // recorded time. Nodes on a cycle (zero-length events that wait on
    // each other) keep their recorded times.
    std::vector<TimeNs> solve(bool scaled) const;

private:
    std::vector<TimeNs> m_time;
    std::vector<int> m_rank;
    std::vector<std::uint32_t> m_binding;
    std::vector<PathEdge> m_edges;
};

// What one step's graph is built from: its window on the match's clock
// and, per rank index, its step annotation (none: a range, or a rank
// without the step).
struct StepGraphInput {
    TimeRange window;
    std::vector<std::optional<TrackEvent>> stepEvents;
    const std::vector<WhatIf> *whatIfs = nullptr;
    // Per rank index, whether its events are in the graph (one run of a
    // comparison); empty: every rank.
    std::vector<bool> ranks;
    bool releaseEachRank = false; // RankPages::ReleaseEachRank
};

struct StepGraph {
    PathGraph graph;
    // Per rank index, the node where its step ends: the later of its step
    // annotation's end and the end of the last GPU work launched inside it;
    // kNone where the rank has no step.
    std::vector<std::uint32_t> stepEnd;
    // With no step annotations: the node of the window's last moment.
    std::uint32_t lastNode = PathGraph::kNone;
};

StepGraph buildStepGraph(const Session &session, const CollectiveMatch &match, const PathNameClasses &names, const StepGraphInput &input);

// When a rank's step ends (see StepGraph::stepEnd) in session time, without
// building the graph: what sets a step's window before its graph is built.
TimeNs stepEndTime(const Session &session, int rankIndex, const TrackEvent &stepEvent);

} // namespace rankscope::stats
