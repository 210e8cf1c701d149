#pragma once
// One place that every panel, overlay and command asks for the session's
// derived results, computed once with one set of settings: the collectives
// matched across ranks (as recorded, or aligned on the collectives' ends),
// the ranks' waits, the diagnosis. A workspace is immutable in its session
// and settings: changing a setting makes a new workspace, which keeps the
// results the change does not touch (withSettings). Results are computed
// on the thread that first asks (a worker, in the viewer) and shared with
// every later asker; an asker on another thread meanwhile waits for that
// one computation instead of repeating it. Every result is kept in one
// store under a typed key, by one policy (analysis/resultstore.h). Its
// core is the ranks' communication records (stats::CollectiveInputs, read
// once per rank), which the command line fills from its MPI processes.
#include "analysis/criticalpathsolutions.h"
#include "analysis/resultstore.h"
#include "stats/analysissettings.h"
#include "stats/comparison/runalignment.h"
#include "stats/diagnosis/diagnosis.h"
#include "stats/kernelclasses.h"
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/collectives.h"

#include <memory>
#include <mutex>
#include <vector>

namespace rankscope {

class AnalysisWorkspace {
public:
    AnalysisWorkspace(std::shared_ptr<const Session> session, AnalysisSettings settings);

    const std::shared_ptr<const Session> &session() const { return m_session; }
    const AnalysisSettings &settings() const { return m_settings; }
    // The communication classes the settings name, compiled once.
    const stats::KernelClassifier &classes() const { return m_classes; }

    // A workspace for the same session with other settings, keeping every
    // result those settings do not change.
    std::shared_ptr<AnalysisWorkspace> withSettings(const AnalysisSettings &settings) const;

    // The collectives matched across ranks, computed once per clock.
    std::shared_ptr<const stats::CollectiveMatch> collectiveMatch(MatchClock clock) const;
    // Each rank's waits in the collectives of the whole session (stats::rankWaits, no scope).
    std::shared_ptr<const std::vector<stats::RankWait>> rankWaits(MatchClock clock) const;
    // The same within a scope (a range, a rank), from the records already read.
    std::vector<stats::RankWait> rankWaits(MatchClock clock, const stats::StatsScope &scope) const;
    // Runs `use` on the ranks' communication records, alone: the command
    // line gives them its processes' records before anything is matched,
    // and its reports read them (they are not for several threads at once).
    template <class Use>
    decltype(auto) withCollectiveInputs(Use &&use) const
    {
        const std::lock_guard lock(m_inputs->mutex);
        return use(m_inputs->records);
    }
    // The diagnosis with the settings' thresholds and communication classes
    // (its straggler finding reads the aligned match, the Collectives'
    // one).
    std::shared_ptr<const stats::Diagnosis> diagnosis() const;

    // Two runs compared side by side (a comparison session): how far to
    // move run B to put its anchor on A's (none when a run lacks it), and
    // the points that draw B's steps over A's (stats/comparison/runalignment.h).
    std::optional<TimeNs> runAnchorDelta(stats::RunAnchor anchor) const;
    std::shared_ptr<const std::vector<std::vector<stats::StretchPoint>>> stepStretchPoints() const;

    // Any other result (a panel's, for one scope): computed once and kept
    // as its kind is declared (analysis/resultstore.h).
    template <class T, class Compute>
    std::shared_ptr<const T> result(const ResultKey &key, Compute &&compute) const
    {
        return m_results.get<T>(key, std::forward<Compute>(compute));
    }

    // The steps' critical paths on `clock` with `options`, solved as they
    // are asked for.
    std::shared_ptr<const CriticalPathSolutions> criticalPathSolutions(MatchClock clock, const stats::CriticalPathOptions &options) const;

    // Results already computed, without computing them (null otherwise);
    // they wait for no computation, so the GUI thread may ask.
    std::shared_ptr<const stats::CollectiveMatch> readyCollectiveMatch(MatchClock clock) const;
    std::shared_ptr<const stats::Diagnosis> readyDiagnosis() const;

private:
    std::shared_ptr<const Session> m_session;
    AnalysisSettings m_settings;
    stats::KernelClassifier m_classes;
    // The ranks' communication records, shared with the workspaces
    // withSettings() makes for the same classes.
    struct Inputs {
        Inputs(const Session &session, const stats::KernelClassifier &classes) : records(session, classes) { }
        std::mutex mutex; // held while the records are read or matched
        stats::CollectiveInputs records;
    };
    std::shared_ptr<Inputs> m_inputs;
    // Every result, the matches included: asking whether one is ready
    // takes only the store's short locks, never the records'.
    ResultStore m_results;
};

using WorkspacePtr = std::shared_ptr<const AnalysisWorkspace>;

} // namespace rankscope
