#include "timeline/busyshare.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

// Pixel columns [from, to) of a share, and what of each is covered.
struct Coverage {
    int from = 0, to = 0;
    TimeNs base = 0, lo = 0, hi = 0; // track time at x = 0, at `from` and just past `to`
    double nsPerPixel = 1;
    std::vector<double> covered; // pixels' worth covered, per column

    Coverage(TimeNs sessionOffset, const TimeScale &scale, int width, int clipX0, int clipX1)
        : from(std::clamp(clipX0, 0, width)), to(clipX1 < 0 ? width : std::clamp(clipX1, from, width)),
          base(scale.start - sessionOffset), lo(scale.time(from) - sessionOffset), hi(scale.time(to) - sessionOffset + 1),
          nsPerPixel(scale.nsPerPixel), covered(std::size_t(width), 0.0)
    {
    }
    bool isEmpty() const { return from >= to; }
    // Adds `weight` of [start, end) (track time) to the columns it crosses.
    void spread(TimeNs start, TimeNs end, double weight)
    {
        const double x0 = std::clamp(double(start - base) / nsPerPixel, double(from), double(to));
        const double x1 = std::clamp(double(end - base) / nsPerPixel, double(from), double(to));
        for (int x = int(x0); x < to && x < x1; ++x)
            covered[std::size_t(x)] += weight * (std::min(x1, double(x + 1)) - std::max(x0, double(x)));
    }
    // Each bucket's busy time spread evenly over the bucket.
    void spreadLevel(const LodSummary::Level &level)
    {
        const auto [first, last] = level.bucketsIn(lo, hi);
        for (std::size_t b = first; b < last; ++b)
            spread(level.bucket[b] * level.width, (level.bucket[b] + 1) * level.width, double(level.busy[b]) / double(level.width));
    }
    void raise(std::vector<float> &share) const
    {
        for (int x = from; x < to; ++x)
            share[std::size_t(x)] = std::max(share[std::size_t(x)], float(std::min(1.0, covered[std::size_t(x)])));
    }
};

} // namespace

void addBusyShare(const SliceTrack &track, TimeNs sessionOffset, const TimeScale &scale, std::vector<float> &share, int clipX0, int clipX1)
{
    Coverage c(sessionOffset, scale, int(share.size()), clipX0, clipX1);
    if (track.isEmpty() || c.isEmpty())
        return;
    const auto starts = track.starts();
    const auto inView = std::upper_bound(starts.begin(), starts.end(), c.hi) - std::lower_bound(starts.begin(), starts.end(), c.lo);
    const LodSummary::Level *level = track.lod().levelFor(scale.nsPerPixel);
    const auto spread = [&c](TimeNs from, TimeNs to, double weight) { c.spread(from, to, weight); };
    if (level && std::size_t(inView) > std::size_t(c.to - c.from) * 2) {
        c.spreadLevel(*level);
    } else if (!track.depthRows().empty()) {
        // Nested: the top row covers what the children do (a child that
        // outlives its parent is the rare exception).
        const auto [first, last] = track.depthRowEventsIn(0, c.lo, c.hi);
        for (std::size_t i = first; i < last; ++i) {
            const std::uint32_t e = track.depthRows()[0].events[i];
            spread(track.start(e), track.end(e), 1.0);
        }
    } else {
        track.forEachOverlapping(c.lo, c.hi, [&](std::uint32_t e) { spread(track.start(e), track.end(e), 1.0); });
    }
    c.raise(share);
}

} // namespace rankscope
