#include "core/countertrack.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace rankscope {

void CounterTrack::sortByTime()
{
    if (std::is_sorted(time.begin(), time.end()))
        return;
    std::vector<std::size_t> order(time.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return time[a] < time[b]; });
    Column<TimeNs> sortedTime(order.size(), 0);
    Column<double> sortedValue(order.size(), 0.0);
    for (std::size_t i = 0; i < order.size(); ++i) {
        sortedTime[i] = time[order[i]];
        sortedValue[i] = value[order[i]];
    }
    time.swap(sortedTime);
    value.swap(sortedValue);
}

void CounterTrack::dropRepeatedValues()
{
    std::size_t kept = 0;
    for (std::size_t i = 0; i < time.size(); ++i)
        if (kept == 0 || value[i] != value[kept - 1]) {
            time[kept] = time[i];
            value[kept] = value[i];
            ++kept;
        }
    time.resize(kept);
    value.resize(kept);
}

namespace {

Column<TimeNs> blockStarts(const Column<TimeNs> &times, std::size_t block)
{
    Column<TimeNs> out;
    out.reserve((times.size() + block - 1) / block);
    for (std::size_t i = 0; i < times.size(); i += block)
        out.push_back(times[i]);
    return out;
}

Column<double> blockMaxima(const Column<double> &values, std::size_t block)
{
    Column<double> out((values.size() + block - 1) / block, -std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < values.size(); ++i)
        out[i / block] = std::max(out[i / block], values[i]);
    return out;
}

} // namespace

void CounterTrack::finalize()
{
    sortByTime();
    time.shrink_to_fit();
    value.shrink_to_fit();
    m_blockStart = blockStarts(time, kBlock);
    m_blockLargest = blockMaxima(value, kBlock);
    m_superBlockLargest = blockMaxima(m_blockLargest, kBlock);
    if (value.empty()) {
        m_largest = m_smallest = 0.0;
        return;
    }
    const auto [smallest, largest] = std::minmax_element(value.begin(), value.end());
    m_smallest = *smallest;
    m_largest = *largest;
}

double CounterTrack::largestOfSamples(std::size_t first, std::size_t last) const
{
    double m = -std::numeric_limits<double>::infinity();
    // Single samples up to a block boundary at either end, then whole
    // blocks up to a super-block boundary, then super-blocks.
    while (first < last && first % kBlock != 0)
        m = std::max(m, value[first++]);
    while (last > first && last % kBlock != 0)
        m = std::max(m, value[--last]);
    std::size_t b0 = first / kBlock, b1 = last / kBlock;
    while (b0 < b1 && b0 % kBlock != 0)
        m = std::max(m, m_blockLargest[b0++]);
    while (b1 > b0 && b1 % kBlock != 0)
        m = std::max(m, m_blockLargest[--b1]);
    for (std::size_t s = b0 / kBlock; s < b1 / kBlock; ++s)
        m = std::max(m, m_superBlockLargest[s]);
    return m;
}

std::size_t CounterTrack::firstSampleAfter(TimeNs t, bool orAt) const
{
    const auto after = [&](auto begin, auto end) { return orAt ? std::lower_bound(begin, end, t) : std::upper_bound(begin, end, t); };
    if (m_blockStart.size() != (time.size() + kBlock - 1) / kBlock) // not finalized
        return std::size_t(after(time.begin(), time.end()) - time.begin());
    // Blocks before `b` start before (or at) `t`, so the sample is in block
    // b - 1 or is block b's first. Kept within the times whatever the
    // block starts say.
    const std::size_t b = std::size_t(after(m_blockStart.begin(), m_blockStart.end()) - m_blockStart.begin());
    if (b == 0)
        return 0;
    const std::size_t first = std::min((b - 1) * kBlock, time.size());
    const std::size_t last = std::min(b * kBlock, time.size());
    return std::size_t(after(time.begin() + std::ptrdiff_t(first), time.begin() + std::ptrdiff_t(last)) - time.begin());
}

std::optional<double> CounterTrack::largestIn(TimeNs from, TimeNs to) const
{
    if (to <= from || time.empty() || time.front() >= to)
        return std::nullopt;
    // The sample in force at `from` is the last one at or before it.
    const std::size_t afterFrom = firstSampleAfter(from, false);
    const std::size_t first = afterFrom == 0 ? 0 : afterFrom - 1;
    const std::size_t last = std::max(afterFrom, firstSampleAfter(to, true));
    if (m_blockLargest.size() != (value.size() + kBlock - 1) / kBlock) // not finalized: read the samples
        return *std::max_element(value.begin() + std::ptrdiff_t(first), value.begin() + std::ptrdiff_t(last));
    return largestOfSamples(first, last);
}

std::size_t CounterTrack::memoryBytes() const
{
    return sizeof(CounterTrack) + time.capacity() * sizeof(TimeNs) + value.capacity() * sizeof(double)
           + (m_blockLargest.capacity() + m_superBlockLargest.capacity()) * sizeof(double) + m_blockStart.capacity() * sizeof(TimeNs);
}

std::optional<double> CounterTrack::valueAt(TimeNs t) const
{
    const std::size_t after = firstSampleAfter(t, false);
    if (after == 0)
        return std::nullopt;
    return value[after - 1];
}

std::optional<CounterTrack::RangeSummary> CounterTrack::summaryIn(TimeNs from, TimeNs to) const
{
    if (to <= from)
        return std::nullopt;
    std::size_t i = firstSampleAfter(from, false);
    // The sample in force at `from`, if any, else the first inside.
    TimeNs at = from;
    if (i == 0) {
        if (time.empty() || time.front() >= to)
            return std::nullopt;
        at = time.front();
    } else {
        --i;
    }
    RangeSummary summary{value[i], 0, value[i]};
    long double weighted = 0;
    const TimeNs counted = to - at;
    for (; i < time.size(); ++i) {
        const TimeNs begin = std::max(time[i], at);
        if (begin >= to)
            break;
        const TimeNs end = i + 1 < time.size() ? std::min(time[i + 1], to) : to;
        summary.smallest = std::min(summary.smallest, value[i]);
        summary.largest = std::max(summary.largest, value[i]);
        weighted += (long double)(value[i]) * (long double)(end - begin);
    }
    summary.mean = double(weighted / (long double)(counted));
    return summary;
}

} // namespace rankscope
