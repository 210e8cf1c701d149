#pragma once
// Interval arithmetic shared by the statistics: the union of intervals as
// sorted disjoint runs, its length, and the overlap of two such unions.
#include "core/timetypes.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace rankscope::stats {

using Interval = std::pair<TimeNs, TimeNs>; // [first, second)

// Sorts `values` appended piece by piece, `pieceStarts` the index where
// each piece begins (ascending): when every piece is in order already (one
// track's starts, or a stream's ends), the pieces are merged, O(n log
// pieces), instead of the whole sorted, O(n log n). The same result.
template <class T>
void sortPieces(std::vector<T> &values, const std::vector<std::size_t> &pieceStarts)
{
    std::vector<std::size_t> bounds{0};
    for (const std::size_t start : pieceStarts)
        if (start > bounds.back() && start < values.size())
            bounds.push_back(start);
    bounds.push_back(values.size());
    for (std::size_t p = 0; p + 1 < bounds.size(); ++p)
        if (!std::is_sorted(values.begin() + std::ptrdiff_t(bounds[p]), values.begin() + std::ptrdiff_t(bounds[p + 1]))) {
            std::sort(values.begin(), values.end());
            return;
        }
    // Pairs of neighbouring pieces merged into one scratch buffer, the two
    // swapped, until one piece is left: one allocation, where
    // std::inplace_merge takes a buffer for every pair.
    std::vector<T> scratch;
    if (bounds.size() > 2)
        scratch.resize(values.size());
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged{0};
        std::size_t p = 0;
        const auto at = [](std::vector<T> &v, std::size_t i) { return v.begin() + std::ptrdiff_t(i); };
        for (; p + 2 < bounds.size(); p += 2) {
            std::merge(at(values, bounds[p]), at(values, bounds[p + 1]), at(values, bounds[p + 1]), at(values, bounds[p + 2]),
                       at(scratch, bounds[p]));
            merged.push_back(bounds[p + 2]);
        }
        if (p + 1 < bounds.size()) {
            std::copy(at(values, bounds[p]), at(values, bounds[p + 1]), at(scratch, bounds[p]));
            merged.push_back(bounds[p + 1]);
        }
        values.swap(scratch);
        bounds = std::move(merged);
    }
}

// The union of sorted intervals as disjoint runs.
inline std::vector<Interval> unionOfSorted(const std::vector<Interval> &sorted)
{
    std::vector<Interval> runs;
    for (const Interval &i : sorted) {
        if (!runs.empty() && i.first <= runs.back().second)
            runs.back().second = std::max(runs.back().second, i.second);
        else
            runs.push_back(i);
    }
    return runs;
}

inline std::vector<Interval> unionOf(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end());
    return unionOfSorted(intervals);
}

inline TimeNs lengthOf(const std::vector<Interval> &runs)
{
    TimeNs total = 0;
    for (const Interval &r : runs)
        total += r.second - r.first;
    return total;
}

// Time covered by both sets of sorted, disjoint runs.
inline TimeNs overlapOf(const std::vector<Interval> &a, const std::vector<Interval> &b)
{
    TimeNs total = 0;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        const TimeNs lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
        if (hi > lo)
            total += hi - lo;
        (a[i].second < b[j].second) ? ++i : ++j;
    }
    return total;
}

// Time of the sorted, disjoint runs inside [from, to).
inline TimeNs coveredIn(const std::vector<Interval> &runs, TimeNs from, TimeNs to)
{
    if (to <= from)
        return 0;
    auto it = std::upper_bound(runs.begin(), runs.end(), Interval{from, kTimeMax});
    if (it != runs.begin())
        --it;
    TimeNs total = 0;
    for (; it != runs.end() && it->first < to; ++it) {
        const TimeNs lo = std::max(from, it->first), hi = std::min(to, it->second);
        if (hi > lo)
            total += hi - lo;
    }
    return total;
}

} // namespace rankscope::stats
