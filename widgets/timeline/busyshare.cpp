#include "timeline/busyshare.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

void addBusyShare(const SliceTrack &track, TimeNs sessionOffset, const TimeScale &scale, std::vector<float> &share, int clipX0, int clipX1)
{
    const int width = int(share.size());
    const int from0 = std::clamp(clipX0, 0, width), to0 = clipX1 < 0 ? width : std::clamp(clipX1, from0, width);
    if (track.isEmpty() || from0 >= to0)
        return;
    const TimeNs base = scale.start - sessionOffset; // track time at x = 0
    const TimeNs lo = scale.time(from0) - sessionOffset;
    const TimeNs hi = scale.time(to0) - sessionOffset + 1;
    std::vector<double> covered(std::size_t(width), 0.0); // pixels' worth covered
    // Adds `weight` of [from, to) (track time) to the columns it crosses.
    auto spread = [&](TimeNs from, TimeNs to, double weight) {
        const double x0 = std::clamp(double(from - base) / scale.nsPerPixel, double(from0), double(to0));
        const double x1 = std::clamp(double(to - base) / scale.nsPerPixel, double(from0), double(to0));
        for (int x = int(x0); x < to0 && x < x1; ++x)
            covered[std::size_t(x)] += weight * (std::min(x1, double(x + 1)) - std::max(x0, double(x)));
    };
    const auto starts = track.starts();
    const auto inView = std::upper_bound(starts.begin(), starts.end(), hi) - std::lower_bound(starts.begin(), starts.end(), lo);
    const LodSummary::Level *level = track.lod().levelFor(scale.nsPerPixel);
    if (level && std::size_t(inView) > std::size_t(to0 - from0) * 2) {
        const auto [first, last] = level->bucketsIn(lo, hi);
        for (std::size_t b = first; b < last; ++b)
            spread(level->bucket[b] * level->width, (level->bucket[b] + 1) * level->width,
                   double(level->busy[b]) / double(level->width));
    } else if (!track.depthRows().empty()) {
        // Nested: the top row covers what the children do (a child that
        // outlives its parent is the rare exception).
        const auto [first, last] = track.depthRowEventsIn(0, lo, hi);
        for (std::size_t i = first; i < last; ++i) {
            const std::uint32_t e = track.depthRows()[0].events[i];
            spread(track.start(e), track.end(e), 1.0);
        }
    } else {
        track.forEachOverlapping(lo, hi, [&](std::uint32_t e) { spread(track.start(e), track.end(e), 1.0); });
    }
    for (int x = from0; x < to0; ++x)
        share[std::size_t(x)] = std::max(share[std::size_t(x)], float(std::min(1.0, covered[std::size_t(x)])));
}

} // namespace rankscope
