#pragma once
// Pure time <-> pixel mapping and ruler ticks. Pixel maths runs in double,
// relative to the left edge of the visible range, so it stays exact for
// traces of hours at nanosecond zoom.
#include "core/timetypes.h"

#include <QString>
#include <vector>

namespace rankscope {

struct TimeScale {
    TimeNs start = 0; // session time at x = 0
    double nsPerPixel = 1.0;

    static TimeScale fit(TimeRange visible, int widthPx);
    double x(TimeNs t) const { return double(t - start) / nsPerPixel; }
    TimeNs time(double x) const { return start + TimeNs(x * nsPerPixel); }
};

struct RulerTick {
    TimeNs time = 0; // session time
    QString label;   // "2.5 s" from the session start, or "+50 µs" from the base
};

// The ticks of one view. Zoomed in far from the start, "7096050 µs" says
// little: the ticks then count from a labelled round base ("7.096 s"),
// "+50 µs", "+60 µs", as Perfetto and Nsight Systems do.
struct RulerTicks {
    std::vector<RulerTick> ticks;
    TimeNs step = 0;
    bool hasBase = false;
    TimeNs base = 0;   // session time the "+" labels count from
    QString baseLabel; // relative to the session start
};

// The smallest 1, 2 or 5 × 10^k ns step of at least `minimumNs`.
TimeNs niceStep(double minimumNs);
// Ticks across [visible.start, visible.end] at least `minSpacingPx` apart,
// labelled relative to `zero`, or to a base when that would need more than
// three digits beyond the step's.
RulerTicks rulerTicks(TimeRange visible, TimeNs zero, int widthPx, int minSpacingPx = 100);
// "1.5 ms", "250 µs", "3 s": just enough decimals for ticks `step` apart.
QString formatTickLabel(TimeNs relative, TimeNs step);

} // namespace rankscope
