#pragma once
// Integers read from a file, narrowed to the widths the model stores. Out of
// range values saturate instead of wrapping, so a corrupt or hostile file
// cannot turn a correlation id of 2^32 into 0 or a grid of -1 into 4 billion;
// enum values outside their enum read as its fallback.
#include <algorithm>
#include <cstdint>
#include <limits>

namespace rankscope {

template <class To>
constexpr To saturate(std::int64_t v)
{
    static_assert(std::numeric_limits<To>::is_integer && sizeof(To) < sizeof(std::int64_t));
    return To(std::clamp<std::int64_t>(v, std::numeric_limits<To>::min(), std::numeric_limits<To>::max()));
}

// A sum of values a file holds (durations each within the trace range,
// sizes each below 2^63) that saturates instead of overflowing: a few such
// values can sum past 2^63, and a total of centuries is no less telling
// clamped.
constexpr std::int64_t addSaturating(std::int64_t a, std::int64_t b)
{
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum))
        return sum;
    return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

// `count` is the number of values of E, numbered from 0.
template <class E>
constexpr E enumOr(std::int64_t v, E fallback, int count)
{
    return v >= 0 && v < count ? E(v) : fallback;
}

} // namespace rankscope
