#include "stats/summary.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

Summary summarize(std::span<std::int64_t> values)
{
    Summary s;
    const std::size_t n = values.size();
    if (n == 0)
        return s;
    // The median by selection (linear), not a full sort: a kernel name with
    // millions of instances is common.
    const auto middle = values.begin() + std::ptrdiff_t(n / 2);
    std::nth_element(values.begin(), middle, values.end());
    const std::int64_t upper = *middle;
    s.median = n % 2 ? double(upper) : (double(*std::max_element(values.begin(), middle)) + double(upper)) / 2.0;
    const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
    s.count = std::int64_t(n);
    s.minimum = *lowest;
    s.maximum = *highest;
    long double sum = 0;
    for (std::int64_t v : values) {
        s.total += v;
        sum += v;
    }
    s.average = double(s.total) / double(n);
    if (n > 1) {
        // Two passes in long double: exact enough that the printed,
        // rounded value does not depend on summation order.
        const long double mean = sum / (long double)n;
        long double squares = 0;
        for (std::int64_t v : values) {
            const long double d = (long double)v - mean;
            squares += d * d;
        }
        s.stdDev = double(std::sqrt(squares / (long double)(n - 1)));
    }
    return s;
}

} // namespace rankscope
