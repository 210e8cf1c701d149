#pragma once
// An implicit augmented interval tree over intervals sorted by start
// (the layout of lh3/cgranges' IITree): element i is a tree node whose level
// is the number of trailing one bits of i; each node knows the largest end in
// its subtree. Leaves (even i) need no extra storage, so the index costs
// 4 bytes per interval. Queries run in O(log n + k).
//
// Intervals are closed: [start, end] overlaps [lo, hi] when
// start <= hi && end >= lo, so zero-length events (marks) are found too.
#include "core/column.h"
#include "core/timetypes.h"

#include <cstdint>
#include <span>
#include <vector>

namespace rankscope {

struct ReportCacheAccess;

class IntervalIndex {
public:
    // `starts` must be sorted ascending; both spans must stay alive and
    // unchanged for as long as the index is queried with them.
    void build(std::span<const TimeNs> starts, std::span<const TimeNs> ends);

    // Calls visit(i) for every interval overlapping [lo, hi], in no
    // particular order.
    template <class Visit>
    void forEachOverlapping(std::span<const TimeNs> starts, std::span<const TimeNs> ends, TimeNs lo, TimeNs hi, Visit &&visit) const;

    std::vector<std::uint32_t> overlapping(std::span<const TimeNs> starts, std::span<const TimeNs> ends, TimeNs lo, TimeNs hi) const;

    std::size_t memoryBytes() const { return m_oddMaxEnd.capacity() * sizeof(TimeNs); }

    // The index cache (load/cache/) writes and maps every member.
    friend struct ReportCacheAccess;

private:
    TimeNs maxEnd(std::span<const TimeNs> ends, std::size_t i) const { return (i & 1) ? m_oddMaxEnd[i >> 1] : ends[i]; }

    Column<TimeNs> m_oddMaxEnd; // subtree max end of odd (inner) nodes
    int m_maxLevel = -1;
};

template <class Visit>
void IntervalIndex::forEachOverlapping(std::span<const TimeNs> starts, std::span<const TimeNs> ends, TimeNs lo, TimeNs hi, Visit &&visit) const
{
    const std::size_t n = starts.size();
    if (m_maxLevel < 0 || n == 0 || lo > hi)
        return;
    struct Frame {
        int level;
        std::size_t node;
        bool leftDone;
    };
    Frame stack[64];
    int top = 0;
    stack[top++] = {m_maxLevel, (std::size_t(1) << m_maxLevel) - 1, false};
    while (top > 0) {
        const Frame f = stack[--top];
        if (f.level <= 3) {
            // Small subtree: a linear scan beats the bookkeeping.
            const std::size_t first = f.node >> f.level << f.level;
            std::size_t last = first + (std::size_t(1) << (f.level + 1)) - 1;
            if (last > n)
                last = n;
            for (std::size_t i = first; i < last && starts[i] <= hi; ++i)
                if (ends[i] >= lo)
                    visit(static_cast<std::uint32_t>(i));
        } else if (!f.leftDone) {
            const std::size_t left = f.node - (std::size_t(1) << (f.level - 1));
            stack[top++] = {f.level, f.node, true};
            if (left >= n || maxEnd(ends, left) >= lo)
                stack[top++] = {f.level - 1, left, false};
        } else if (f.node < n && starts[f.node] <= hi) {
            if (ends[f.node] >= lo)
                visit(static_cast<std::uint32_t>(f.node));
            stack[top++] = {f.level - 1, f.node + (std::size_t(1) << (f.level - 1)), false};
        }
    }
}

} // namespace rankscope
