#pragma once
// One place that every panel, overlay and command asks for the session's
// derived results, computed once with one set of settings: the collectives
// matched across ranks (as recorded, or aligned on the collectives' ends),
// the ranks' waits, the diagnosis. A workspace is immutable in its session
// and settings: changing a setting makes a new workspace, which keeps the
// results the change does not touch (withSettings). Results are computed
// on the thread that first asks (a worker, in the viewer) and shared with
// every later asker; an asker on another thread meanwhile waits for that
// one computation instead of repeating it. Its core is the ranks'
// communication records (stats::CollectiveInputs, read once per rank),
// which the command line fills from its MPI processes.
#include "analysis/criticalpathsolutions.h"
#include "analysis/sharedresult.h"
#include "stats/analysissettings.h"
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/collectives.h"
#include "stats/diagnosis/diagnosis.h"
#include "stats/kernelclasses.h"
#include "stats/comparison/runalignment.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <typeindex>
#include <vector>

namespace rankscope {

// Which clocks a collective match is on.
enum class MatchClock {
    Recorded, // as the traces recorded them
    Aligned,  // each rank shifted where the collectives' ends say its clock is off (stats::alignedOnCollectives)
};

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
    template<class Use>
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

    // A result for one scope (a range, a rank): computed once while it is
    // among the last kKeptScopedResults asked for, so going back to a
    // scope or a tab costs nothing. `what` names the result and every
    // input besides the scope and the settings ("gpu_gaps|500ms").
    static constexpr std::size_t kKeptScopedResults = 16;
    template<class T, class Compute>
    std::shared_ptr<const T> scoped(const QString &what, const stats::StatsScope &scope, Compute &&compute) const
    {
        std::shared_ptr<SharedResult<T>> slot;
        {
            const std::lock_guard lock(m_scopedMutex);
            const std::type_index type(typeid(T));
            const auto it = std::find_if(m_scoped.begin(), m_scoped.end(),
                                         [&](const ScopedEntry &e) { return e.type == type && e.scope == scope && e.what == what; });
            if (it != m_scoped.end()) {
                std::rotate(m_scoped.begin(), it, it + 1); // the most recent first
            } else {
                m_scoped.insert(m_scoped.begin(), ScopedEntry{what, type, scope, std::make_shared<SharedResult<T>>()});
                if (m_scoped.size() > kKeptScopedResults)
                    m_scoped.pop_back();
            }
            slot = std::static_pointer_cast<SharedResult<T>>(m_scoped.front().slot);
        }
        return slot->get(std::forward<Compute>(compute));
    }

    // The steps' critical paths on `clock` with `options`, solved as they
    // are asked for and kept while among the last kKeptPathSolutions.
    static constexpr std::size_t kKeptPathSolutions = 4;
    std::shared_ptr<const CriticalPathSolutions> criticalPathSolutions(MatchClock clock, const stats::CriticalPathOptions &options) const;

    // Results already computed, without computing them (null otherwise);
    // they wait for no computation, so the GUI thread may ask.
    std::shared_ptr<const stats::CollectiveMatch> readyCollectiveMatch(MatchClock clock) const;
    std::shared_ptr<const stats::Diagnosis> readyDiagnosis() const;

private:
    std::shared_ptr<const Session> m_session;
    AnalysisSettings m_settings;
    stats::KernelClassifier m_classes;
    // Shared with the workspaces withSettings() makes for the same classes.
    struct Inputs {
        Inputs(const Session &session, const stats::KernelClassifier &classes) : records(session, classes) {}
        std::mutex mutex; // held while the records are read or matched
        stats::CollectiveInputs records;
        // The matches made from them, per MatchClock: asking whether one
        // is ready takes only these short locks, never `mutex`.
        SharedResult<std::shared_ptr<const stats::CollectiveMatch>> matches[2];
    };
    std::shared_ptr<Inputs> m_inputs;
    SharedResult<std::vector<stats::RankWait>> m_waits[2];       // per MatchClock
    SharedResult<stats::Diagnosis> m_diagnosis;
    SharedResult<std::optional<TimeNs>> m_runAnchorDelta[2]; // per RunAnchor
    SharedResult<std::vector<std::vector<stats::StretchPoint>>> m_stepStretch;
    struct ScopedEntry {
        QString what;
        std::type_index type;
        stats::StatsScope scope;
        std::shared_ptr<void> slot; // a SharedResult<T> of `type`
    };
    struct PathSolutionsEntry {
        QString key; // the clock and options
        std::shared_ptr<const CriticalPathSolutions> solutions;
    };
    mutable std::mutex m_pathSolutionsMutex;
    mutable std::vector<PathSolutionsEntry> m_pathSolutions; // the most recently asked first
    mutable std::mutex m_scopedMutex;
    mutable std::vector<ScopedEntry> m_scoped; // the most recently asked first
};

using WorkspacePtr = std::shared_ptr<const AnalysisWorkspace>;

} // namespace rankscope
