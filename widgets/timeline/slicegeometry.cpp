#include "timeline/slicegeometry.h"

#include <algorithm>
#include <map>

namespace rankscope {

namespace {

constexpr float kMergeGap = 1.0f; // rectangles closer than this merge

// Adds a rectangle, merging it into the last one of its lane when both are
// narrow and touch.
class LaneMerger {
public:
    LaneMerger(std::vector<SliceRect> &out, const SliceTrack &track) : m_out(out), m_track(track) {}

    void add(SliceRect r)
    {
        const auto it = m_last.find(r.lane);
        if (it != m_last.end()) {
            SliceRect &last = m_out[it->second];
            const bool narrow = r.x1 - r.x0 < kMergeGap && (last.x1 - last.x0 < kMergeGap || last.isMerged());
            if (narrow && r.x0 <= last.x1 + kMergeGap) {
                const float width = std::max(last.x1, r.x1) - last.x0;
                last.coverage = std::min(1.0f, (last.coverage * (last.x1 - last.x0) + r.coverage * (r.x1 - r.x0)) / std::max(width, 1e-3f));
                last.x1 = std::max(last.x1, r.x1);
                last.count += r.count;
                if (r.event != SliceRect::kNoEvent
                    && (last.event == SliceRect::kNoEvent || m_track.duration(r.event) > m_track.duration(last.event)))
                    last.event = r.event;
                return;
            }
        }
        m_last[r.lane] = m_out.size();
        m_out.push_back(r);
    }

private:
    std::vector<SliceRect> &m_out;
    const SliceTrack &m_track;
    std::map<std::uint16_t, std::size_t> m_last;
};

} // namespace

void buildSliceGeometry(const SliceGeometryInput &input, const TimeScale &scale, int widthPx,
                        std::vector<SliceRect> &out)
{
    const SliceTrack &track = *input.track;
    if (track.isEmpty() || widthPx <= 0)
        return;
    const TimeNs lo = scale.start - input.sessionOffset;
    const TimeNs hi = lo + TimeNs(double(widthPx) * scale.nsPerPixel) + 1;
    const float left = -2.0f, right = float(widthPx) + 2.0f;
    auto xOf = [&](TimeNs reportTime) {
        return float(std::clamp(double(reportTime + input.sessionOffset - scale.start) / scale.nsPerPixel, double(left), double(right)));
    };
    LaneMerger merger(out, track);

    // Events starting inside the range (a cheap estimate of the work).
    const auto starts = track.starts();
    const auto firstIn = std::lower_bound(starts.begin(), starts.end(), lo);
    const auto lastIn = std::upper_bound(firstIn, starts.end(), hi);
    const auto inRange = std::size_t(lastIn - firstIn);
    const LodSummary::Level *level = track.lod().levelFor(scale.nsPerPixel);
    if (level && inRange > std::size_t(widthPx) * 2) {
        const auto [first, last] = level->bucketsIn(lo, hi);
        for (std::size_t b = first; b < last; ++b) {
            SliceRect r;
            r.x0 = xOf(level->bucket[b] * level->width);
            r.x1 = xOf((level->bucket[b] + 1) * level->width);
            r.lane = std::uint16_t(input.laneOffset);
            r.event = level->longest[b];
            r.count = level->count[b];
            r.coverage = float(double(level->busy[b]) / double(level->width));
            r.trackSlot = input.trackSlot;
            merger.add(r);
        }
        return;
    }
    std::vector<std::uint32_t> hits = track.overlapping(lo, hi);
    for (std::uint32_t i : hits) {
        SliceRect r;
        r.x0 = xOf(track.start(i));
        r.x1 = xOf(track.end(i));
        r.lane = std::uint16_t(input.laneOffset + (input.flatten ? 0 : track.depth(i)));
        r.event = i;
        r.count = 1;
        r.trackSlot = input.trackSlot;
        merger.add(r);
    }
}

} // namespace rankscope
