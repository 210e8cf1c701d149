#pragma once
// Level-of-detail summaries for one slice track, for drawing zoomed out.
//
// Level L splits time into buckets of width (baseWidth << L) ns, bucket b
// covering [b*width, (b+1)*width). For every non-empty bucket a level keeps:
// how many events start in it, how much of it is covered by at least one
// event (busy time, so a busy row looks busy at any zoom), and the longest
// event starting in it (the one worth labelling) with its times, so that a
// row drawn from its summary reads none of the track's event columns (from
// an index cache, each event read there maps its page of a column, and one
// per pixel maps them all). Only non-empty buckets are stored, sorted by
// bucket number. Level 0 is about one bucket per kEventsPerBaseBucket
// events, each level halves the count, and the last level's buckets are
// as wide as the track: about 5 bytes per event in all.
#include "core/column.h"
#include "core/timetypes.h"

#include <cstdint>
#include <span>
#include <vector>

namespace rankscope {

struct ReportCacheAccess;

class LodSummary {
public:
    static constexpr std::size_t kEventsPerBaseBucket = 16;
    static constexpr std::uint32_t kNoEvent = 0xffffffffu;

    struct Level {
        TimeNs width = 1;
        Column<std::int64_t> bucket;   // bucket number, ascending
        Column<std::uint32_t> count;   // events starting in the bucket
        Column<TimeNs> busy;           // covered ns inside the bucket
        Column<std::uint32_t> longest; // event index, or kNoEvent
        Column<TimeNs> longestStart;   // its start and end (0 for kNoEvent)
        Column<TimeNs> longestEnd;

        std::size_t size() const { return bucket.size(); }
        // Index range [first, last) of stored buckets overlapping [lo, hi].
        std::pair<std::size_t, std::size_t> bucketsIn(TimeNs lo, TimeNs hi) const;
        TimeNs longestDuration(std::size_t b) const { return longestEnd[b] - longestStart[b]; }
    };

    // `starts` sorted ascending. Events may nest or overlap. When `ids` is
    // given, event i of the spans is event ids[i] of its track (a summary of
    // a subset, such as one nesting depth), and `longest` names ids.
    void build(std::span<const TimeNs> starts, std::span<const TimeNs> ends, std::span<const std::uint32_t> ids = {});

    const std::vector<Level> &levels() const { return m_levels; }
    // The coarsest level whose buckets are no wider than `nsPerPixel`, or
    // nullptr when even level 0 is coarser (then draw the events
    // themselves: there are fewer of them than pixels).
    const Level *levelFor(double nsPerPixel) const;
    // How many events start in [lo, hi], read from a level with a few
    // buckets there: at least the true count, and more by at most the
    // events of two buckets about an eighth of the range wide.
    std::size_t startsAbout(TimeNs lo, TimeNs hi) const;
    std::size_t memoryBytes() const;

    static std::int64_t bucketOf(TimeNs t, TimeNs width);

    // The index cache (load/cache/) writes and maps every member.
    friend struct ReportCacheAccess;

private:
    std::vector<Level> m_levels;
};

} // namespace rankscope
