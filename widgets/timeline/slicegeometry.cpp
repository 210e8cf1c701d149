#include "timeline/slicegeometry.h"

#include <algorithm>
#include <vector>

namespace rankscope {

namespace {

constexpr float kMergeGap = 1.0f; // rectangles closer than this merge

// Adds a rectangle, merging it into the last one of its lane when both are
// narrow and touch.
class LaneMerger {
public:
    explicit LaneMerger(std::vector<SliceRect> &out) : m_out(out) { }

    // `duration`: of r.event, -1 for none.
    void add(SliceRect r, TimeNs duration)
    {
        if (r.lane >= m_last.size()) {
            m_last.resize(std::size_t(r.lane) + 1, kNone);
            m_lastEventDuration.resize(std::size_t(r.lane) + 1, -1);
        }
        if (m_last[r.lane] != kNone) {
            SliceRect &last = m_out[m_last[r.lane]];
            const bool narrow = r.x1 - r.x0 < kMergeGap && (last.x1 - last.x0 < kMergeGap || last.isMerged());
            if (narrow && r.x0 <= last.x1 + kMergeGap) {
                const float width = std::max(last.x1, r.x1) - last.x0;
                last.coverage = std::min(1.0f, (last.coverage * (last.x1 - last.x0) + r.coverage * (r.x1 - r.x0)) / std::max(width, 1e-3f));
                last.x1 = std::max(last.x1, r.x1);
                last.count += r.count;
                if (duration > m_lastEventDuration[r.lane]) {
                    last.event = r.event;
                    m_lastEventDuration[r.lane] = duration;
                }
                return;
            }
        }
        m_last[r.lane] = m_out.size();
        m_lastEventDuration[r.lane] = duration;
        m_out.push_back(r);
    }

private:
    std::vector<SliceRect> &m_out;
    static constexpr std::size_t kNone = ~std::size_t(0);
    std::vector<std::size_t> m_last; // per lane: its last rectangle in m_out
    // ... and the duration of that rectangle's event (-1: none), so a merge
    // reads one event's times, not two: a bucket's longest event lies far
    // from the last one's in the columns, and each read is a cache miss.
    std::vector<TimeNs> m_lastEventDuration;
};

} // namespace

namespace {

// Fills one call's rectangles: the events themselves or their summaries.
class GeometryBuilder {
public:
    GeometryBuilder(const SliceGeometryInput &input, const TimeScale &scale, int widthPx, std::vector<SliceRect> &out)
        : m_input(input), m_track(*input.track), m_scale(scale), m_widthPx(widthPx), m_merger(out)
    {
        m_clipX0 = std::clamp(input.clipX0, 0, widthPx);
        m_clipX1 = input.clipX1 < 0 ? widthPx : std::clamp(input.clipX1, m_clipX0, widthPx);
        lo = scale.time(m_clipX0) - input.sessionOffset;
        hi = scale.time(m_clipX1) - input.sessionOffset + 1;
        // At the view's edges events may overhang by 2 px (their borders
        // stay off screen); inside a stretched rank a piece ends exactly.
        m_left = m_clipX0 == 0 ? -2.0 : double(m_clipX0);
        m_right = m_clipX1 == widthPx ? double(widthPx) + 2.0 : double(m_clipX1);
    }

    TimeNs lo = 0, hi = 0; // the visible range in the track's own time
    // More events than this in view are drawn from summaries.
    std::size_t manyEvents() const { return std::size_t(m_clipX1 - m_clipX0) * 2; }

    void addEvent(std::uint32_t i, std::uint16_t lane) { addEvent(i, m_track.start(i), m_track.end(i), lane); }
    // The same with its times known (a summary keeps them): no read of the
    // track's columns.
    void addEvent(std::uint32_t i, TimeNs start, TimeNs end, std::uint16_t lane)
    {
        SliceRect r;
        r.x0 = xOf(start);
        r.x1 = xOf(end);
        r.lane = lane;
        r.event = i;
        r.count = 1;
        r.trackSlot = m_input.trackSlot;
        m_merger.add(r, end - start);
    }

    // A level's buckets in view, on one lane. A bucket where one event
    // starts draws that event as it is (it may be much wider than the
    // bucket); buckets it covers then add nothing. Reads the summary only.
    void addBuckets(const LodSummary::Level &level, std::uint16_t lane, std::uint32_t drawn = SliceRect::kNoEvent, TimeNs drawnEnd = kTimeMin)
    {
        TimeNs exactEnd = drawnEnd;
        const auto [first, last] = level.bucketsIn(lo, hi);
        for (std::size_t b = first; b < last; ++b) {
            const TimeNs bucketStart = level.bucket[b] * level.width;
            if (level.count[b] == 1 && level.longest[b] != LodSummary::kNoEvent) {
                if (level.longest[b] != drawn)
                    addEvent(level.longest[b], level.longestStart[b], level.longestEnd[b], lane);
                exactEnd = std::max(exactEnd, level.longestEnd[b]);
                continue;
            }
            if (level.count[b] == 0 && bucketStart + level.width <= exactEnd)
                continue;
            SliceRect r;
            r.x0 = xOf(bucketStart);
            r.x1 = xOf(bucketStart + level.width);
            r.lane = lane;
            r.event = level.longest[b];
            r.count = level.count[b];
            r.coverage = float(double(level.busy[b]) / double(level.width));
            r.trackSlot = m_input.trackSlot;
            // The bucket's longest event runs on past it (a long range that
            // starts among short ones): drawn as itself, with its label, and
            // the bucket stands for the others only.
            const std::uint32_t longest = level.longest[b];
            const bool runsOn =
                longest != LodSummary::kNoEvent && longest != drawn && r.count > 1 && level.longestEnd[b] > bucketStart + 2 * level.width;
            if (runsOn) {
                r.event = SliceRect::kNoEvent;
                r.count -= 1;
            }
            m_merger.add(r, r.event == SliceRect::kNoEvent ? -1 : level.longestDuration(b));
            if (runsOn) {
                addEvent(longest, level.longestStart[b], level.longestEnd[b], lane);
                exactEnd = std::max(exactEnd, level.longestEnd[b]);
            }
        }
    }

    // One depth row of a nested track: its events when few are in view,
    // else its own summary.
    void addDepthRow(std::size_t depth)
    {
        const SliceTrack::DepthRow &row = m_track.depthRows()[depth];
        const auto lane = std::uint16_t(m_input.laneOffset + int(depth));
        // A level whose buckets fit in a pixel draws the row exactly as
        // well (a bucket with one event draws that event) for at most one
        // rectangle per pixel; without one the row is sparse: its events.
        if (const LodSummary::Level *level = row.lod.levelFor(m_scale.nsPerPixel)) {
            // An event open at the left edge that started in a bucket out of
            // view: drawn as itself, not as its buckets' busy time.
            // (None before the track's first event: a view of the whole
            // track searches no event column.)
            std::uint32_t openEvent = SliceRect::kNoEvent;
            TimeNs openEnd = kTimeMin;
            const TimeNs firstBucket = LodSummary::bucketOf(lo, level->width) * level->width;
            if (lo > m_track.extent().start) {
                if (const auto [open, none] = m_track.depthRowEventsIn(depth, lo, lo); open < none && m_track.start(row.events[open]) < firstBucket) {
                    openEvent = row.events[open];
                    openEnd = m_track.end(openEvent);
                    addEvent(openEvent, lane);
                }
            }
            addBuckets(*level, lane, openEvent, openEnd);
            return;
        }
        const auto [first, last] = m_track.depthRowEventsIn(depth, lo, hi);
        for (std::size_t i = first; i < last; ++i)
            addEvent(row.events[i], lane);
    }

private:
    float xOf(TimeNs reportTime) const
    {
        return float(std::clamp(double(reportTime + m_input.sessionOffset - m_scale.start) / m_scale.nsPerPixel, m_left, m_right));
    }

    const SliceGeometryInput &m_input;
    const SliceTrack &m_track;
    const TimeScale &m_scale;
    int m_widthPx;
    int m_clipX0 = 0, m_clipX1 = 0;
    double m_left = 0, m_right = 0;
    LaneMerger m_merger;
};

} // namespace

void buildSliceGeometry(const SliceGeometryInput &input, const TimeScale &scale, int widthPx, std::vector<SliceRect> &out)
{
    const SliceTrack &track = *input.track;
    if (track.isEmpty() || widthPx <= 0)
        return;
    GeometryBuilder builder(input, scale, widthPx, out);

    // Events starting inside the range (a cheap estimate of the work, from
    // the summary: a search of the starts would map their pages).
    if (track.lod().startsAbout(builder.lo, builder.hi) > builder.manyEvents()) {
        if (!input.flatten && !track.depthRows().empty()) {
            const int first = std::max(0, input.firstLane - input.laneOffset);
            const int last = std::min(int(track.depthRows().size()) - 1, input.lastLane - input.laneOffset);
            for (int depth = first; depth <= last; ++depth)
                builder.addDepthRow(std::size_t(depth));
            return;
        }
        if (const LodSummary::Level *level = track.lod().levelFor(scale.nsPerPixel)) {
            builder.addBuckets(*level, std::uint16_t(input.laneOffset));
            return;
        }
    }
    for (std::uint32_t i : track.overlapping(builder.lo, builder.hi)) {
        const int lane = input.laneOffset + (input.flatten ? 0 : track.depth(i));
        if (lane >= input.firstLane && lane <= input.lastLane)
            builder.addEvent(i, std::uint16_t(lane));
    }
}

} // namespace rankscope
