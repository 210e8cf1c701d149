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

namespace {

struct TimeUnit {
    TimeNs ns;
    const char *name;
};
constexpr TimeUnit kUnits[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "µs"}, {1, "ns"}};

// The largest unit no bigger than `magnitude`.
const TimeUnit &unitFor(TimeNs magnitude)
{
    for (const TimeUnit &u : kUnits)
        if (magnitude >= u.ns)
            return u;
    return kUnits[3];
}

// `relative` in `unit`, with the decimals ticks `step` apart need.
QString formatIn(TimeNs relative, TimeNs step, const TimeUnit &unit)
{
    int decimals = 0;
    for (TimeNs s = step; s % unit.ns != 0 && decimals < 9; s *= 10)
        ++decimals;
    const double value = double(relative) / double(unit.ns);
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit.name);
}

} // namespace

QString formatTickLabel(TimeNs relative, TimeNs step)
{
    // The largest unit no bigger than the step keeps labels short.
    return formatIn(relative, step, unitFor(step));
}

namespace {

// "7.096 s": a base `unit` ns round, with the decimals that unit needs,
// grouped in threes as Details writes timestamps ("3600.000 00 s").
QString formatBase(TimeNs relative, TimeNs unit)
{
    int decimals = 0;
    for (TimeNs u = unit; u < 1000000000 && decimals < 9; u *= 10)
        ++decimals;
    const TimeNs whole = relative / 1000000000, part = relative % 1000000000;
    QString text = QString::number(whole);
    if (decimals > 0) {
        const QString digits = QStringLiteral("%1").arg(part < 0 ? -part : part, 9, 10, QLatin1Char('0')).left(decimals);
        text += QLatin1Char('.');
        for (int i = 0; i < digits.size(); i += 3)
            text += (i > 0 ? QStringLiteral(" ") : QString()) + digits.mid(i, 3);
    }
    if (relative < 0 && whole == 0)
        text.prepend(QLatin1Char('-'));
    return text + QStringLiteral(" s");
}

} // namespace

RulerTicks rulerTicks(TimeRange visible, TimeNs zero, int widthPx, int minSpacingPx)
{
    RulerTicks out;
    if (widthPx <= 0 || visible.duration() <= 0)
        return out;
    const double nsPerPx = double(visible.duration()) / widthPx;
    const TimeNs step = niceStep(nsPerPx * minSpacingPx);
    out.step = step;
    // First multiple of step (relative to zero) at or after the left edge.
    const TimeNs rel = visible.start - zero;
    TimeNs first = rel / step * step;
    if (first < rel)
        first += step;
    const TimeNs last = visible.end - zero;
    // A base when the labels would run to more than 1000 steps: a power of
    // ten at least 100 steps (so the offsets stay short), at or before the
    // first tick.
    const TimeNs largest = std::max(std::abs(first), std::abs(last));
    TimeNs baseUnit = 0;
    if (largest / step >= 1000) {
        baseUnit = 1;
        while (baseUnit < step * 100 && baseUnit <= kTimeMax / 10)
            baseUnit *= 10;
        TimeNs base = first / baseUnit * baseUnit;
        if (base > first)
            base -= baseUnit;
        out.hasBase = true;
        out.base = base + zero;
        out.baseLabel = formatBase(base, baseUnit);
    }
    // Offsets from the base share one unit, the largest no bigger than the
    // largest offset: "+24.2 ms" rather than "+24200 µs".
    const TimeUnit &offsetUnit = unitFor(std::max(step, last - (out.base - zero)));
    // Without a base, one unit for every label: the step's, or a larger one
    // up to the labels' own size when that writes them clearly shorter
    // ("5.5 s", not "5500 ms"; but "100 µs", not "0.1 ms").
    const TimeUnit *plainUnit = &unitFor(step);
    for (const TimeUnit &u : kUnits)
        if (u.ns > plainUnit->ns && u.ns <= largest && formatIn(largest, step, u).size() + 2 <= formatIn(largest, step, *plainUnit).size())
            plainUnit = &u;
    for (TimeNs t = first; t <= last; t += step) {
        const QString label = out.hasBase ? QStringLiteral("+") + formatIn(t + zero - out.base, step, offsetUnit) : formatIn(t, step, *plainUnit);
        out.ticks.push_back({t + zero, label});
    }
    return out;
}

} // namespace rankscope
