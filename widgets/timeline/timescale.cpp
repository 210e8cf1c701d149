#include "timeline/timescale.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

TimeScale TimeScale::fit(TimeRange visible, int widthPx)
{
    return {visible.start, std::max(1e-3, double(std::max<TimeNs>(visible.duration(), 1)) / double(std::max(widthPx, 1)))};
}

TimeNs niceStep(double minimumNs)
{
    TimeNs magnitude = 1;
    while (true) {
        for (TimeNs m : {1, 2, 5})
            if (double(m * magnitude) >= minimumNs)
                return m * magnitude;
        if (magnitude > kTimeMax / 100)
            return magnitude;
        magnitude *= 10;
    }
}

QString formatTickLabel(TimeNs relative, TimeNs step)
{
    struct Unit { TimeNs ns; const char *name; };
    static constexpr Unit units[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "µs"}, {1, "ns"}};
    // The largest unit no bigger than the step keeps labels short.
    const Unit *unit = &units[3];
    for (const Unit &u : units)
        if (step >= u.ns) {
            unit = &u;
            break;
        }
    int decimals = 0;
    for (TimeNs s = step; s % unit->ns != 0 && decimals < 9; s *= 10)
        ++decimals;
    const double value = double(relative) / double(unit->ns);
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit->name);
}

std::vector<RulerTick> rulerTicks(TimeRange visible, TimeNs zero, int widthPx, int minSpacingPx)
{
    std::vector<RulerTick> ticks;
    if (widthPx <= 0 || visible.duration() <= 0)
        return ticks;
    const double nsPerPx = double(visible.duration()) / widthPx;
    const TimeNs step = niceStep(nsPerPx * minSpacingPx);
    // First multiple of step (relative to zero) at or after the left edge.
    const TimeNs rel = visible.start - zero;
    TimeNs first = rel / step * step;
    if (first < rel)
        first += step;
    for (TimeNs t = first; t + zero <= visible.end; t += step)
        ticks.push_back({t + zero, formatTickLabel(t, step)});
    return ticks;
}

} // namespace rankscope
