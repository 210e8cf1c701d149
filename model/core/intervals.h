#pragma once
// Interval arithmetic shared by the statistics: the union of intervals as
// sorted disjoint runs, its length, and the overlap of two such unions.
#include "core/timetypes.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace rankscope::stats {

using Interval = std::pair<TimeNs, TimeNs>; // [first, second)

inline std::vector<Interval> unionOf(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end());
    std::vector<Interval> runs;
    for (const Interval &i : intervals) {
        if (!runs.empty() && i.first <= runs.back().second)
            runs.back().second = std::max(runs.back().second, i.second);
        else
            runs.push_back(i);
    }
    return runs;
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
