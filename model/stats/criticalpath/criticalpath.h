#pragma once
// The critical path of a training step across ranks: what set the step's
// length, as a chain of segments back from the step's end on the rank
// that finished last to the step's start, each an event (or the time
// between two) on one rank, contiguous in time, crossing ranks only at a
// collective (from the rank that arrived last). And what-if: the step's
// length re-solved over the same dependencies with some durations scaled.
// The graph, its edges and why each binds are in docs/statistics.md,
// "Critical path"; stats/criticalpath/criticalpathgraph.h builds and solves it.
#include "session/session.h"
#include "stats/criticalpath/criticalpathnames.h"
#include "stats/kernelclasses.h"
#include "stats/ranks/collectives.h"

#include <QRegularExpression>

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace rankscope::stats {

// What a segment of the path spent its time on.
enum class PathKind : std::uint8_t {
    Cpu,    // a CPU op, an NVTX range, an OS runtime or CUDA API call that is neither below
    Launch, // from a launching call's start to its GPU work's start (its latency after the call returned unnamed)
    Kernel, // a compute kernel on the GPU (and a queued op's gap behind it on its stream)
    Memcpy,
    Memset,
    Communication, // a collective's kernel once every rank was there (the transfer)
    Wait,          // in a collective's kernel, waiting for a rank whose arrival the session lacks
    Sync,          // a synchronising call returning after the GPU work it waited for; a stream waiting for another
    Idle,          // no traced event (untraced host work, data loading, the step annotation's own time)
};
constexpr int kPathKindCount = int(PathKind::Idle) + 1;
QString pathKindName(PathKind kind); // "cpu", "launch", ... as the critical_path report writes it

struct PathSegment {
    int rankIndex = -1; // index into Session::ranks()
    PathKind kind = PathKind::Idle;
    TimeNs start = 0, end = 0; // the match's clock (session time plus the rank's clock shift)
    // What it is attributed to, whose recorded time holds the segment (on
    // its rank, the match's clock); invalid for time no event covers: idle
    // time between events, a launch's latency after its call returned, a
    // stream's gap behind the op before it, a wait for another thread.
    EventLocation event;
    // A segment the path reached by crossing ranks: the rank it came from
    // (the collective's last arrival), else -1; and how long this rank had
    // been waiting in the collective for it.
    int fromRankIndex = -1;
    TimeNs crossedWait = 0;
    TimeNs duration() const { return end - start; }
};

// "If this were N % faster": durations of a kernel name, an NVTX range
// (or CPU op) name, or everything a rank computes, scaled by `factor`.
struct WhatIf {
    enum class Target : std::uint8_t { Kernel, Range, Rank };
    Target target = Target::Kernel;
    QRegularExpression pattern; // Kernel, Range: over names, unanchored
    int rank = -1;              // Rank: its number (RankEntry::rank)
    double factor = 1.0;        // new duration / old
    QString text;               // as the user wrote it
};
// "kernel:REGEX=0.8", "nvtx:REGEX=0.5" (or "range:"), "rank:3=0.9";
// nullopt and `error` set when it is not one.
std::optional<WhatIf> parseWhatIf(const QString &text, QString *error = nullptr);

struct StepCriticalPath {
    int step = -1;                     // its number among the ranks' steps; -1: a range, not a step
    RunSide side = RunSide::None;      // in a comparison, the run whose ranks it follows (each run's steps apart)
    TimeRange window;                  // the match's clock: the earliest rank's start to the last rank's end
    int endRankIndex = -1;             // the rank that finished last, where the path ends
    std::vector<PathSegment> segments; // by time, contiguous, covering the window
    std::vector<TimeNs> clockShift;    // per rank index, as in CollectiveMatch::shiftOf
    // With every what-if applied, the step's length solved again over the
    // same graph; none without what-ifs.
    std::optional<TimeNs> whatIfLength;
    // The graph's size, for benchmarks and the panel's note.
    std::size_t nodes = 0, edges = 0;

    TimeNs length() const { return window.duration(); }
    std::array<TimeNs, kPathKindCount> timeByKind() const;
    TimeNs shiftOf(int rankIndex) const { return std::size_t(rankIndex) < clockShift.size() ? clockShift[std::size_t(rankIndex)] : 0; }
};

struct CriticalPathOptions {
    // Step names (as the Steps panel reads them: an unanchored pattern;
    // empty: the built-in step names).
    QString stepNames;
    std::optional<int> step;        // only this step (its number)
    std::optional<TimeRange> range; // instead of the steps: this range of session time, as one
    std::vector<WhatIf> whatIfs;
};

// Whether a pass gives each rank's mapped pages back as soon as it is done
// reading it (session/residentbudget.h). A step's interval and correlation
// lookups page in megabytes of every rank (a third of 64 ranks' caches);
// the viewer solving the steps it shows holds one rank's pages at a time,
// at the cost of reading them in again for the next step (0.2 s a step of
// 64 ranks here, against 3 ms): a pass over every step keeps them.
enum class RankPages : std::uint8_t { Keep, ReleaseEachRank };

// The path of every step (each step number that some rank has), or of
// `options.range`; in a comparison, run A's steps then run B's, each over
// its own run's ranks. Times on `match`'s clock (as recorded, or aligned
// on the collectives). `classes` names the communication kernels.
std::vector<StepCriticalPath> criticalPaths(const Session &session, const CollectiveMatch &match, const KernelClassifier &classes,
                                            const CriticalPathOptions &options = {});

// What solving one step needs: its window on the match's clock and each
// rank's step annotation (none for a range).
struct StepWindow {
    int step = -1;
    RunSide side = RunSide::None;
    TimeRange window;
    std::vector<std::optional<TrackEvent>> stepEvents; // per rank index
    std::vector<bool> ranks;                           // the run's ranks; empty: all
};

// The paths criticalPaths gives, as a list to solve one at a time: found
// from the step annotations alone; a window's ends (the steps' GPU tails,
// which read the calls inside the step and the work they launched) are
// found when it is asked for, so the first step shown costs that step, not
// every step. Safe to ask from several threads; lives no longer than the
// session and match it reads.
class CriticalPathSteps {
public:
    CriticalPathSteps(const Session &session, const CollectiveMatch &match, const CriticalPathOptions &options, RankPages pages = RankPages::Keep);
    std::size_t size() const { return m_entries.size(); }
    int stepOf(std::size_t i) const { return m_entries[i].step; }
    RunSide sideOf(std::size_t i) const { return m_entries[i].run->side; }
    StepWindow window(std::size_t i, RankPages pages = RankPages::Keep) const;
    // Where entry i's step annotations begin (the earliest rank's, on the
    // match's clock), without finding its ends; a range's start.
    TimeNs annotatedStart(std::size_t i) const;

private:
    struct Run {
        RunSide side = RunSide::None;
        std::vector<bool> ranks;
        std::vector<std::vector<TrackEvent>> steps;           // per rank: its step annotations
        std::vector<std::vector<std::optional<TimeNs>>> ends; // per rank and step: where it ends (session time), once found
    };
    struct Entry {
        std::shared_ptr<Run> run;
        int step = -1;
        std::optional<TimeRange> fixed; // a range or the whole run, instead of a step
    };
    void addRun(RunSide side, std::vector<bool> ranks, RankPages pages);

    const Session &m_session;
    const CollectiveMatch &m_match;
    CriticalPathOptions m_options;
    std::vector<std::shared_ptr<Run>> m_runs;
    std::vector<Entry> m_entries;
    mutable std::mutex m_mutex;
};

// Step `window`'s path, as criticalPaths gives it; `names` (the
// communication kernels, the data loaders) made once for all the steps.
StepCriticalPath solveCriticalPath(const Session &session, const CollectiveMatch &match, const PathNameClasses &names,
                                   const CriticalPathOptions &options, const StepWindow &window, RankPages pages = RankPages::Keep);

} // namespace rankscope::stats
