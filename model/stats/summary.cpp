#include "stats/summary.h"

#include "core/narrowing.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace rankscope {

Summary summarize(std::span<std::int64_t> values)
{
    Summary s;
    const std::size_t n = values.size();
    if (n == 0)
        return s;
    // The median by selection (linear), not a full sort: a kernel name with
    // millions of instances is common.
    const auto middle = values.begin() + std::ptrdiff_t(n / 2);
    std::nth_element(values.begin(), middle, values.end());
    const std::int64_t upper = *middle;
    s.median = n % 2 ? double(upper) : (double(*std::max_element(values.begin(), middle)) + double(upper)) / 2.0;
    const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
    s.count = std::int64_t(n);
    s.minimum = *lowest;
    s.maximum = *highest;
    long double sum = 0;
    for (std::int64_t v : values) {
        s.total = addSaturating(s.total, v);
        sum += v;
    }
    s.average = double(s.total) / double(n);
    if (n > 1) {
        // Two passes in long double: exact enough that the printed,
        // rounded value does not depend on summation order.
        const long double mean = sum / (long double)n;
        long double squares = 0;
        for (std::int64_t v : values) {
            const long double d = (long double)v - mean;
            squares += d * d;
        }
        s.stdDev = double(std::sqrt(squares / (long double)(n - 1)));
    }
    return s;
}

} // namespace rankscope

namespace rankscope {

namespace {

// The k-th smallest (from 0) of the runs' values together: the least value
// v with more than k values at or below it, found by halving the range of
// values (each step counts with one binary search per run).
std::int64_t kthOfSortedRuns(std::span<const SortedRun> runs, std::uint64_t k, std::int64_t lowest, std::int64_t highest)
{
    std::int64_t low = lowest, high = highest; // the answer is in [low, high]
    while (low < high) {
        const std::int64_t middle = low + std::int64_t((std::uint64_t(high) - std::uint64_t(low)) / 2);
        std::uint64_t atOrBelow = 0;
        for (const SortedRun &run : runs)
            atOrBelow += std::uint64_t(std::upper_bound(run.values.begin(), run.values.end(), middle) - run.values.begin());
        if (atOrBelow > k)
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

} // namespace

Summary summarizeSortedRuns(std::span<const SortedRun> runs)
{
    Summary s;
    long double sum = 0;
    bool first = true;
    const SortedRun *only = nullptr; // the one run with values, if one
    std::size_t withValues = 0;
    for (const SortedRun &run : runs) {
        if (run.values.empty())
            continue;
        only = &run;
        ++withValues;
        s.count += std::int64_t(run.values.size());
        s.total = addSaturating(s.total, run.total);
        sum += run.total;
        s.minimum = first ? run.values.front() : std::min(s.minimum, run.values.front());
        s.maximum = first ? run.values.back() : std::max(s.maximum, run.values.back());
        first = false;
    }
    if (s.count == 0)
        return s;
    const auto n = std::uint64_t(s.count);
    s.average = double(s.total) / double(n);
    // Few values in all (a name in every rank once): selecting among copies
    // is cheaper than searching 64 times through every run.
    constexpr std::uint64_t kCopyAtMost = 4096;
    if (withValues == 1) { // sorted already: the middle one or two (most groups of an emit_nvtx trace)
        const std::span<const std::int64_t> v = only->values;
        s.median = n % 2 ? double(v[n / 2]) : (double(v[n / 2 - 1]) + double(v[n / 2])) / 2.0;
    } else if (n <= kCopyAtMost) {
        std::vector<std::int64_t> values;
        values.reserve(n);
        for (const SortedRun &run : runs)
            values.insert(values.end(), run.values.begin(), run.values.end());
        s.median = summarize(values).median;
    } else {
        const std::int64_t upper = kthOfSortedRuns(runs, n / 2, s.minimum, s.maximum);
        s.median = n % 2 ? double(upper) : (double(kthOfSortedRuns(runs, n / 2 - 1, s.minimum, upper)) + double(upper)) / 2.0;
    }
    if (n > 1) {
        const long double mean = sum / (long double)n;
        long double squares = 0;
        for (const SortedRun &run : runs) {
            if (run.values.empty())
                continue;
            const long double runMean = (long double)run.total / (long double)run.values.size();
            const long double d = runMean - mean;
            squares += (long double)run.squaredDeviations + (long double)run.values.size() * d * d;
        }
        s.stdDev = double(std::sqrt(squares / (long double)(n - 1)));
    }
    return s;
}

} // namespace rankscope
