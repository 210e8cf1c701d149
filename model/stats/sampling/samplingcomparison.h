#pragma once
// CPU samples compared: the flat lists of several profiles side by side
// (the ranks of a run, or run A and run B), by function and module text.
// Counts differ with a run's length and sampling rate, so rows compare the
// shares: the function whose share differs most comes first, where a slow
// rank spends the samples the others do not.
#include "stats/sampling/samplingprofile.h"

namespace rankscope::stats {

struct SamplingShares {
    QString function, module;
    std::vector<FlatFunction> columns; // per profile; function rows are not comparable across them (self, total only)
    std::vector<double> selfPercent;   // per profile
    double spread() const;             // largest self share - smallest, in percentage points
};

// Every function any profile has, by largest spread of self share first.
std::vector<SamplingShares> compareSamplingProfiles(const std::vector<const SamplingProfile *> &profiles);

// The samples of one rank entry of a session, in a range (session time; none: all time).
SamplingProfile samplingProfileOfRank(const Session &session, int rankIndex, const SamplingFilter &filter = {},
                                      std::optional<TimeRange> range = std::nullopt);

// Function, Module, then per rank "Rank N Self (%)", then Spread (pp): the
// rank comparison's CPU samples (`stats --report cpu_sampling_ranks`).
// Ranks without samples are left out.
ResultTable samplingByRankTable(const Session &session, const SamplingFilter &filter = {}, std::optional<TimeRange> range = std::nullopt);
// Run A against run B (`diff --report cpu_sampling`): Function, Module,
// Self A, Self A (%), Total A (%), Self B, Self B (%), Total B (%), Delta Self (pp).
ResultTable samplingDiffTable(const SamplingProfile &a, const SamplingProfile &b);

} // namespace rankscope::stats
