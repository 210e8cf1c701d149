#pragma once
// Time in Rankscope is int64 nanoseconds on the report's own timeline.
#include <cstdint>
#include <limits>

namespace rankscope {

using TimeNs = std::int64_t;
constexpr TimeNs kTimeMin = std::numeric_limits<TimeNs>::min();
constexpr TimeNs kTimeMax = std::numeric_limits<TimeNs>::max();

// The times a trace may hold: within ±2^61 ns (±73 years) of its origin,
// which takes epoch nanoseconds (Kineto) and leaves headroom so that
// differences, sums and bucket edges of two such times never overflow.
// Loaders drop rows outside it (with a diagnostic).
constexpr TimeNs kTraceTimeLimit = TimeNs(1) << 61;
constexpr bool isTraceTime(TimeNs t)
{
    return t >= -kTraceTimeLimit && t <= kTraceTimeLimit;
}
// Absolute (UTC) starts a file may claim: ns since 1970, up to 2^62 (the
// year 2116). Within it, differences of two starts and a start plus a trace
// time cannot overflow; a start outside it is not used for alignment.
constexpr TimeNs kUtcLimit = TimeNs(1) << 62;
constexpr bool isUtcTime(TimeNs t)
{
    return t > 0 && t <= kUtcLimit;
}

// A closed range [start, end]; events touching either edge overlap it.
struct TimeRange {
    TimeNs start = 0;
    TimeNs end = 0;

    TimeNs duration() const { return end - start; }
    bool isEmpty() const { return end < start; }
    bool overlaps(TimeNs s, TimeNs e) const { return s <= end && e >= start; }
    static TimeRange everything() { return {kTimeMin, kTimeMax}; }
    bool operator==(const TimeRange &) const = default;
};

} // namespace rankscope
