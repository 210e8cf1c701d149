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

std::size_t CounterTrack::firstBlockAfter(TimeNs t, bool orAt, std::size_t from) const
{
    const auto isAfter = [&](TimeNs start) { return orAt ? start >= t : start > t; };
    const std::size_t blocks = m_blockStart.size();
    // Steps of 1, 2, 4, ... from `from` until a block starts after `t`,
    // then a binary search in the last step.
    std::size_t low = std::min(from, blocks), high = low;
    for (std::size_t step = 1; high < blocks && !isAfter(m_blockStart[high]); step *= 2) {
        low = high + 1;
        high = std::min(blocks, low + step);
    }
    const auto begin = m_blockStart.begin() + std::ptrdiff_t(low), end = m_blockStart.begin() + std::ptrdiff_t(high);
    return std::size_t((orAt ? std::lower_bound(begin, end, t) : std::upper_bound(begin, end, t)) - m_blockStart.begin());
}

std::size_t CounterTrack::firstSampleAfter(TimeNs t, bool orAt, std::size_t block) const
{
    // Blocks before `block` start before (or at) `t`, so the sample is in
    // block - 1 or is the block's first. Kept within the times whatever
    // the block starts say.
    if (block == 0)
        return 0;
    const std::size_t first = std::min((block - 1) * kBlock, time.size());
    const std::size_t last = std::min(block * kBlock, time.size());
    const auto begin = time.begin() + std::ptrdiff_t(first), end = time.begin() + std::ptrdiff_t(last);
    return std::size_t((orAt ? std::lower_bound(begin, end, t) : std::upper_bound(begin, end, t)) - time.begin());
}

std::size_t CounterTrack::firstSampleAfter(TimeNs t, bool orAt) const
{
    if (!isFinalized())
        return std::size_t((orAt ? std::lower_bound(time.begin(), time.end(), t) : std::upper_bound(time.begin(), time.end(), t)) - time.begin());
    const auto begin = m_blockStart.begin(), end = m_blockStart.end();
    const auto block = std::size_t((orAt ? std::lower_bound(begin, end, t) : std::upper_bound(begin, end, t)) - begin);
    return firstSampleAfter(t, orAt, block);
}

std::optional<double> CounterTrack::largestBetween(std::size_t afterFrom, std::size_t atOrAfterTo) const
{
    // The sample in force at `from` is the last one at or before it.
    const std::size_t first = afterFrom == 0 ? 0 : afterFrom - 1;
    const std::size_t last = std::max(afterFrom, atOrAfterTo);
    if (!isFinalized()) // read the samples
        return *std::max_element(value.begin() + std::ptrdiff_t(first), value.begin() + std::ptrdiff_t(last));
    return largestOfSamples(first, last);
}

std::optional<double> CounterTrack::largestIn(TimeNs from, TimeNs to) const
{
    if (to <= from || time.empty() || time.front() >= to)
        return std::nullopt;
    return largestBetween(firstSampleAfter(from, false), firstSampleAfter(to, true));
}

std::optional<double> CounterTrack::ForwardReader::largestIn(TimeNs from, TimeNs to)
{
    const CounterTrack &c = m_track;
    if (!c.isFinalized())
        return c.largestIn(from, to);
    if (to <= from || c.time.empty() || c.time.front() >= to)
        return std::nullopt;
    if (m_block > 0 && c.m_blockStart[m_block - 1] > from)
        m_block = 0; // an earlier range than the last: searched afresh
    // Blocks before the first that starts after `from` start before `to` too.
    m_block = c.firstBlockAfter(from, false, m_block);
    const std::size_t toBlock = c.firstBlockAfter(to, true, m_block);
    return c.largestBetween(c.firstSampleAfter(from, false, m_block), c.firstSampleAfter(to, true, toBlock));
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
