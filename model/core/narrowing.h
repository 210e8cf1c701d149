#pragma once
// Integers read from a file, narrowed to the widths the model stores. Out of
// range values saturate instead of wrapping, so a corrupt or hostile file
// cannot turn a correlation id of 2^32 into 0 or a grid of -1 into 4 billion;
// enum values outside their enum read as its fallback.
#include <algorithm>
#include <cstdint>
#include <limits>

namespace rankscope {

template<class To>
constexpr To saturate(std::int64_t v)
{
    static_assert(std::numeric_limits<To>::is_integer && sizeof(To) < sizeof(std::int64_t));
    return To(std::clamp<std::int64_t>(v, std::numeric_limits<To>::min(), std::numeric_limits<To>::max()));
}

// `count` is the number of values of E, numbered from 0.
template<class E>
constexpr E enumOr(std::int64_t v, E fallback, int count)
{
    return v >= 0 && v < count ? E(v) : fallback;
}

} // namespace rankscope
