#pragma once
// The aggregate columns of `nsys stats` reports over a set of integer values
// (durations in ns, sizes in bytes).
#include <cstdint>
#include <span>

namespace rankscope {

struct Summary {
    std::int64_t total = 0;
    std::int64_t count = 0;
    double average = 0.0;
    double median = 0.0; // mean of the two middle values for an even count
    std::int64_t minimum = 0;
    std::int64_t maximum = 0;
    double stdDev = 0.0; // sample standard deviation (n - 1); 0 for one value
};

// Reorders `values` (it selects the median in place).
Summary summarize(std::span<std::int64_t> values);

// One part of a group's values, sorted (a rank's share, stored in its index
// cache), with its total and its squared deviations from its own mean.
struct SortedRun {
    std::span<const std::int64_t> values;
    std::int64_t total = 0;
    double squaredDeviations = 0.0;
};

// What summarize() gives over all the runs' values together, reading only
// a few of them: the median is searched for in the sorted runs, the
// standard deviation combined from the runs' own (Chan et al.'s pairwise
// formula, in long double).
Summary summarizeSortedRuns(std::span<const SortedRun> runs);

} // namespace rankscope
