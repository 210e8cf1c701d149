#include "core/intervalindex.h"

#include <algorithm>

namespace rankscope {

void IntervalIndex::build(std::span<const TimeNs> starts, std::span<const TimeNs> ends)
{
    const std::size_t n = starts.size();
    m_oddMaxEnd.assign(n / 2, kTimeMin);
    m_maxLevel = -1;
    if (n == 0)
        return;

    // The tree is complete over 2^(L+1)-1 slots; slots >= n are virtual and
    // empty. A virtual node's right child is virtual too, so its subtree max
    // is that of its left child: walk left until a real node (or nothing).
    auto subtreeMax = [&](std::size_t node, int level) {
        while (node >= n && level > 0) {
            node -= std::size_t(1) << (level - 1);
            --level;
        }
        return node < n ? maxEnd(ends, node) : kTimeMin;
    };

    int level = 1;
    for (; (std::size_t(1) << level) <= n; ++level) {
        const std::size_t half = std::size_t(1) << (level - 1);
        for (std::size_t i = (half << 1) - 1; i < n; i += half << 2) {
            const TimeNs leftMax = maxEnd(ends, i - half);
            const TimeNs rightMax = subtreeMax(i + half, level - 1);
            m_oddMaxEnd[i >> 1] = std::max({ends[i], leftMax, rightMax});
        }
    }
    m_maxLevel = level - 1;
}

std::vector<std::uint32_t> IntervalIndex::overlapping(std::span<const TimeNs> starts, std::span<const TimeNs> ends, TimeNs lo, TimeNs hi) const
{
    std::vector<std::uint32_t> hits;
    forEachOverlapping(starts, ends, lo, hi, [&](std::uint32_t i) { hits.push_back(i); });
    std::sort(hits.begin(), hits.end());
    return hits;
}

} // namespace rankscope
