#include "timeline/busyshare.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

// Pixel columns [from, to) of a share, and what of each is covered.
struct Coverage {
    int from = 0, to = 0;
    TimeNs base = 0, lo = 0, hi = 0; // track time at x = 0, at `from` and just past `to`
    double pixelsPerNs = 1;
    std::vector<double> covered; // pixels' worth covered, per column

    Coverage(TimeNs sessionOffset, const TimeScale &scale, int width, int clipX0, int clipX1)
        : from(std::clamp(clipX0, 0, width)), to(clipX1 < 0 ? width : std::clamp(clipX1, from, width)), base(scale.start - sessionOffset),
          lo(scale.time(from) - sessionOffset), hi(scale.time(to) - sessionOffset + 1), pixelsPerNs(1.0 / scale.nsPerPixel),
          covered(std::size_t(width), 0.0)
    {
    }
    bool isEmpty() const { return from >= to; }
    // Adds `weight` of [start, end) (track time) to the columns it crosses.
    void spread(TimeNs start, TimeNs end, double weight)
    {
        const double x0 = std::clamp(double(start - base) * pixelsPerNs, double(from), double(to));
        const double x1 = std::clamp(double(end - base) * pixelsPerNs, double(from), double(to));
        const int first = int(x0);
        if (first < to && double(first + 1) >= x1) { // the common case zoomed out: inside one column
            covered[std::size_t(first)] += weight * (x1 - x0);
            return;
        }
        for (int x = first; x < to && x < x1; ++x)
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

void addBusyShare(const SliceTrack &runs, TimeNs sessionOffset, const TimeScale &scale, std::vector<float> &share, int clipX0, int clipX1)
{
    Coverage c(sessionOffset, scale, int(share.size()), clipX0, clipX1);
    if (runs.isEmpty() || c.isEmpty())
        return;
    // Runs starting before the view's end; of those before its start, only
    // the last can reach into it (the runs are disjoint).
    const auto starts = runs.starts();
    std::size_t first = std::size_t(std::lower_bound(starts.begin(), starts.end(), c.lo) - starts.begin());
    const std::size_t last = std::size_t(std::lower_bound(starts.begin() + std::ptrdiff_t(first), starts.end(), c.hi) - starts.begin());
    if (first > 0 && runs.end(first - 1) > c.lo)
        --first;
    const LodSummary::Level *level = runs.lod().levelFor(scale.nsPerPixel);
    if (level && last - first > std::size_t(c.to - c.from) * 2)
        c.spreadLevel(*level);
    else
        for (std::size_t i = first; i < last; ++i)
            c.spread(runs.start(i), runs.end(i), 1.0);
    c.raise(share);
}

} // namespace rankscope
