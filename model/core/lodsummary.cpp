#include "core/lodsummary.h"

#include <algorithm>
#include <bit>

namespace rankscope {

std::int64_t LodSummary::bucketOf(TimeNs t, TimeNs width)
{
    // Floor division, so negative times land in the right bucket.
    std::int64_t q = t / width;
    if (t % width != 0 && t < 0)
        --q;
    return q;
}

std::pair<std::size_t, std::size_t> LodSummary::Level::bucketsIn(TimeNs lo, TimeNs hi) const
{
    const auto first = std::lower_bound(bucket.begin(), bucket.end(), bucketOf(lo, width));
    const auto last = std::upper_bound(first, bucket.end(), bucketOf(hi, width));
    return {std::size_t(first - bucket.begin()), std::size_t(last - bucket.begin())};
}

namespace {

// Adds one bucket's data, merging with the last bucket when it is the same.
void addToLevel(LodSummary::Level &level, std::int64_t b, std::uint32_t count, TimeNs busy, std::uint32_t longest, std::span<const TimeNs> starts,
                std::span<const TimeNs> ends)
{
    const TimeNs longestStart = longest == LodSummary::kNoEvent ? 0 : starts[longest];
    const TimeNs longestEnd = longest == LodSummary::kNoEvent ? 0 : ends[longest];
    if (level.bucket.empty() || level.bucket.back() != b) {
        level.bucket.push_back(b);
        level.count.push_back(count);
        level.busy.push_back(busy);
        level.longest.push_back(longest);
        level.longestStart.push_back(longestStart);
        level.longestEnd.push_back(longestEnd);
        return;
    }
    level.count.back() += count;
    level.busy.back() += busy;
    std::uint32_t &best = level.longest.back();
    if (longest != LodSummary::kNoEvent && (best == LodSummary::kNoEvent || ends[longest] - starts[longest] > ends[best] - starts[best])) {
        best = longest;
        level.longestStart.back() = longestStart;
        level.longestEnd.back() = longestEnd;
    }
}

} // namespace

void LodSummary::build(std::span<const TimeNs> starts, std::span<const TimeNs> ends, std::span<const std::uint32_t> ids)
{
    m_levels.clear();
    const std::size_t n = starts.size();
    if (n == 0)
        return;
    TimeNs lastEnd = kTimeMin;
    for (TimeNs e : ends)
        lastEnd = std::max(lastEnd, e);
    const std::uint64_t span = std::max<std::uint64_t>(std::uint64_t(lastEnd) - std::uint64_t(starts.front()), 1);
    const std::uint64_t buckets = std::max<std::uint64_t>(n / kEventsPerBaseBucket, 1);
    const TimeNs baseWidth = static_cast<TimeNs>(std::bit_ceil(std::max<std::uint64_t>(span / buckets, 1)));

    // Level 0. Counts and longest go to the start bucket. Busy time is
    // spread over the buckets that the union of events covers; merged runs
    // are disjoint, so each bucket's busy time is a plain sum, and the
    // number of entries stays below 2 * span / width.
    Level base;
    base.width = baseWidth;
    // Collect per-bucket starts first (events are sorted by start).
    struct Pending {
        std::int64_t bucket;
        std::uint32_t count;
        TimeNs busy;
        std::uint32_t longest;
    };
    std::vector<Pending> pending;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t b = bucketOf(starts[i], baseWidth);
        if (pending.empty() || pending.back().bucket != b)
            pending.push_back({b, 0, 0, kNoEvent});
        Pending &p = pending.back();
        ++p.count;
        if (p.longest == kNoEvent || ends[i] - starts[i] > ends[p.longest] - starts[p.longest])
            p.longest = static_cast<std::uint32_t>(i);
    }
    // Busy time from the union of [start, end) runs.
    std::vector<Pending> coverage;
    auto spread = [&](TimeNs s, TimeNs e) {
        for (std::int64_t b = bucketOf(s, baseWidth); s < e; ++b) {
            // The last bucket of a track near the time limit may end past
            // what int64 holds (its start, at most s, always fits).
            const TimeNs bucketStart = b * baseWidth;
            const TimeNs bucketEnd = bucketStart > kTimeMax - baseWidth ? kTimeMax : bucketStart + baseWidth;
            const TimeNs piece = std::min(e, bucketEnd) - s;
            if (!coverage.empty() && coverage.back().bucket == b)
                coverage.back().busy += piece;
            else
                coverage.push_back({b, 0, piece, kNoEvent});
            s += piece;
        }
    };
    TimeNs runStart = starts[0], runEnd = ends[0];
    for (std::size_t i = 1; i < n; ++i) {
        if (starts[i] > runEnd) {
            spread(runStart, runEnd);
            runStart = starts[i];
            runEnd = ends[i];
        } else {
            runEnd = std::max(runEnd, ends[i]);
        }
    }
    spread(runStart, runEnd);
    // Merge the two bucket-sorted lists.
    std::size_t a = 0, c = 0;
    while (a < pending.size() || c < coverage.size()) {
        const bool takeStart = c == coverage.size() || (a < pending.size() && pending[a].bucket <= coverage[c].bucket);
        const Pending &p = takeStart ? pending[a++] : coverage[c++];
        addToLevel(base, p.bucket, p.count, p.busy, p.longest, starts, ends);
    }
    m_levels.push_back(std::move(base));

    // Each further level pairs up the buckets of the one below, until one
    // bucket is as wide as the whole track. (Buckets either side of time 0
    // never merge, so the last level may hold two.)
    while (m_levels.back().size() > 1 && std::uint64_t(m_levels.back().width) < span) {
        const Level &below = m_levels.back();
        Level up;
        up.width = below.width * 2;
        for (std::size_t i = 0; i < below.size(); ++i)
            addToLevel(up, bucketOf(below.bucket[i] * below.width, up.width), below.count[i], below.busy[i], below.longest[i], starts, ends);
        m_levels.push_back(std::move(up));
    }
    if (!ids.empty())
        for (Level &level : m_levels)
            for (std::uint32_t &e : level.longest)
                if (e != kNoEvent)
                    e = ids[e];
}

const LodSummary::Level *LodSummary::levelFor(double nsPerPixel) const
{
    const Level *best = nullptr;
    for (const Level &level : m_levels) {
        if (double(level.width) > nsPerPixel)
            break;
        best = &level;
    }
    return best;
}

std::size_t LodSummary::startsAbout(TimeNs lo, TimeNs hi) const
{
    if (m_levels.empty() || hi < lo)
        return 0;
    // The coarsest level whose buckets are at most an eighth of the range:
    // a handful of buckets to add up.
    const TimeNs wanted = std::max<TimeNs>((hi - lo) / 8, 1);
    const Level *level = &m_levels.front();
    for (const Level &l : m_levels) {
        if (l.width > wanted)
            break;
        level = &l;
    }
    const auto [first, last] = level->bucketsIn(lo, hi);
    std::size_t starts = 0;
    for (std::size_t b = first; b < last; ++b)
        starts += level->count[b];
    return starts;
}

std::size_t LodSummary::memoryBytes() const
{
    std::size_t bytes = 0;
    for (const Level &l : m_levels)
        bytes += l.bucket.capacity() * (sizeof(std::int64_t) + 2 * sizeof(std::uint32_t) + 3 * sizeof(TimeNs));
    return bytes;
}

} // namespace rankscope
