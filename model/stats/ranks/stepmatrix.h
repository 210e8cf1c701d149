#pragma once
// Steps x ranks: every annotated step's duration on every rank, with the
// spread across ranks per step (min, median, max) and the rank that was
// slowest. Step k of a rank is its k-th step in time; a straggler rank is
// the one whose steps are the max again and again.
#include "session/session.h"
#include "stats/resulttable.h"
#include "stats/statsscope.h"

#include <QRegularExpression>

#include <optional>
#include <vector>

namespace rankscope::stats {

struct StepMatrix {
    std::vector<int> rankIndices; // columns: indices into Session::ranks()
    // [step][column]: the step in session time; none where the rank has fewer steps.
    std::vector<std::vector<std::optional<TimeRange>>> steps;

    struct Spread {
        TimeNs min = 0, median = 0, max = 0;
        int slowestColumn = -1; // the first column with the max
        int ranks = 0;          // columns that have the step
    };
    Spread spreadOf(std::size_t step) const;
};

// A rank's step ranges, report time, by start: its NVTX ranges and
// record_function scopes whose name `pattern` matches (unanchored), or
// with a built-in step name when `pattern` is null.
std::vector<TimeRange> stepRangesOf(const RankEntry &entry, const QRegularExpression *pattern);
// The same ranges as events of the entry's report (track and event), by start.
std::vector<TrackEvent> stepEventsOf(const RankEntry &entry, const QRegularExpression *pattern);

// The steps of every rank of `session`: its NVTX ranges and record_function
// scopes whose name matches `names` (unanchored; an empty pattern: the
// built-in step names, "step N", "iteration N", "ProfilerStep#N"), by
// start. In `scope`: steps starting in its range; the rank when it names one.
StepMatrix stepMatrix(const Session &session, const StatsScope &scope = {}, const QString &names = {});
// Whether `names` is a usable pattern; the error otherwise.
QString stepPatternError(const QString &names);

// Warm-up: a step over kWarmupFactor times the median step, among three
// steps or more (the first iteration's autotuning, lazy loading and
// allocator growth). The Steps panel leaves these out of its chart and the
// diagnosis out of the loop it judges; both say which.
constexpr int kWarmupFactor = 3;
inline bool isWarmupStep(TimeNs step, TimeNs medianStep, std::size_t steps)
{
    return steps > 2 && step > kWarmupFactor * medianStep;
}

// One row per step: Step, Ranks, Min (ns), Median (ns), Max (ns),
// Spread (ns) (max - min), Slowest Rank, Start (ns) (the step's first start
// across ranks, session time from its start), then "Rank N (ns)" per rank.
ResultTable stepMatrixTable(const Session &session, const StepMatrix &matrix);

} // namespace rankscope::stats
