#pragma once
// The steps' critical paths of one clock and one set of options, solved
// when asked for and kept: a step's summary (stats::StepPathSummary) once
// solved, its segments only for the last few steps looked at. The
// workspace owns one per clock and options (AnalysisWorkspace::
// criticalPathSolutions), so the panel's first step costs that step, a
// range change or a return to the tab reuses what was solved, and the
// memory held grows by a summary a step, not by every step's segments.
// The steps are found with each rank's pages given back once read.
#include "stats/criticalpath/criticalpathtables.h"

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace rankscope {

class CriticalPathSolutions {
public:
    CriticalPathSolutions(std::shared_ptr<const Session> session, std::shared_ptr<const stats::CollectiveMatch> match,
                          stats::KernelClassifier classes, stats::CriticalPathOptions options);

    // The steps (or the range) to solve, in criticalPaths' order.
    std::size_t size() const { return m_steps.size(); }
    int stepOf(std::size_t i) const { return m_steps.stepOf(i); }
    RunSide sideOf(std::size_t i) const { return m_steps.sideOf(i); }
    // Where step i's annotations begin (the earliest rank's, the match's
    // clock): which steps a range holds, known before any is solved.
    TimeNs annotatedStart(std::size_t i) const;

    // Step i's path with its segments, solved now unless among the last
    // kKeptPaths asked for, one rank's pages held at a time (a step shown
    // costs its graph, not a third of every rank's cache). Safe from
    // several threads.
    static constexpr std::size_t kKeptPaths = 8;
    std::shared_ptr<const stats::StepCriticalPath> path(std::size_t i) const;
    // Step i's summary, solving it unless it was (its segments not kept):
    // a few steps (those in view) release each rank's pages as path() does;
    // every step keeps them (stats::RankPages).
    stats::StepPathSummary summary(std::size_t i, stats::RankPages pages) const;
    // Gives every rank's mapped pages back (after steps solved keeping them).
    void releaseRankPages() const;
    // The summary if step i was solved, without solving it.
    std::optional<stats::StepPathSummary> solvedSummary(std::size_t i) const;

private:
    std::shared_ptr<const stats::StepCriticalPath> solve(std::size_t i, stats::RankPages pages) const;

    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const stats::CollectiveMatch> m_match;
    stats::PathNameClasses m_names;
    stats::CriticalPathOptions m_options;
    stats::CriticalPathSteps m_steps;
    mutable std::mutex m_mutex;
    mutable std::vector<std::optional<stats::StepPathSummary>> m_summaries;
    mutable std::vector<std::pair<std::size_t, std::shared_ptr<const stats::StepCriticalPath>>> m_kept; // most recent first
};

} // namespace rankscope
