#include "stats/summary.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

Summary summarize(std::vector<std::int64_t> &values)
{
    Summary s;
    const std::size_t n = values.size();
    if (n == 0)
        return s;
    std::sort(values.begin(), values.end());
    s.count = std::int64_t(n);
    s.minimum = values.front();
    s.maximum = values.back();
    long double sum = 0;
    for (std::int64_t v : values) {
        s.total += v;
        sum += v;
    }
    s.average = double(s.total) / double(n);
    s.median = n % 2 ? double(values[n / 2]) : (double(values[n / 2 - 1]) + double(values[n / 2])) / 2.0;
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
