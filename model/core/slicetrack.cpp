#include "core/slicetrack.h"

#include <algorithm>
#include <numeric>

namespace rankscope {

void SliceTrack::reserve(std::size_t n)
{
    m_start.reserve(n);
    m_end.reserve(n);
    m_name.reserve(n);
    m_payload.reserve(n);
}

void SliceTrack::append(TimeNs start, TimeNs end, StringId name, std::uint32_t payload)
{
    m_start.push_back(start);
    m_end.push_back(end);
    m_name.push_back(name);
    m_payload.push_back(payload);
}

void SliceTrack::shift(TimeNs delta)
{
    for (TimeNs &t : m_start)
        t += delta;
    for (TimeNs &t : m_end)
        t += delta;
}

namespace {

template <class T>
void applyPermutation(Column<T> &column, const std::vector<std::uint32_t> &order)
{
    Column<T> sorted(column.size(), T{});
    for (std::size_t i = 0; i < order.size(); ++i)
        sorted[i] = column[order[i]];
    column.swap(sorted);
}

} // namespace

void SliceTrack::finalize()
{
    const std::size_t n = m_start.size();
    bool sorted = true;
    for (std::size_t i = 1; i < n && sorted; ++i)
        sorted = m_start[i - 1] < m_start[i] || (m_start[i - 1] == m_start[i] && m_end[i - 1] >= m_end[i]);
    if (!sorted) {
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return m_start[a] != m_start[b] ? m_start[a] < m_start[b] : m_end[a] > m_end[b]; });
        applyPermutation(m_start, order);
        applyPermutation(m_end, order);
        applyPermutation(m_name, order);
        applyPermutation(m_payload, order);
    }

    // Depth: the number of still-open enclosing events. An event that only
    // partly overlaps an open one still goes one row down, so no two events
    // on one row ever overlap.
    m_depth.assign(n, 0);
    m_maxDepth = 0;
    std::vector<TimeNs> openEnds;
    for (std::size_t i = 0; i < n; ++i) {
        while (!openEnds.empty() && openEnds.back() <= m_start[i])
            openEnds.pop_back();
        const auto depth = static_cast<std::uint16_t>(std::min<std::size_t>(openEnds.size(), 0xffff));
        m_depth[i] = depth;
        m_maxDepth = std::max(m_maxDepth, depth);
        if (m_end[i] > m_start[i])
            openEnds.push_back(m_end[i]);
    }

    if (m_maxDepth == 0)
        m_depth = {};
    compactPayloads();

    m_extent = {0, -1};
    if (n > 0)
        m_extent = {m_start.front(), *std::max_element(m_end.begin(), m_end.end())};
    m_index.build(m_start, m_end);
    m_lod.build(m_start, m_end);
    buildDepthRows();
    m_start.shrink_to_fit();
    m_end.shrink_to_fit();
    m_name.shrink_to_fit();
    m_payload.shrink_to_fit();
}

void SliceTrack::buildDepthRows()
{
    m_depthRows.clear();
    if (m_maxDepth == 0)
        return;
    m_depthRows.resize(std::size_t(m_maxDepth) + 1);
    for (std::size_t i = 0; i < m_start.size(); ++i)
        m_depthRows[m_depth[i]].events.push_back(std::uint32_t(i));
    std::vector<TimeNs> starts, ends;
    for (DepthRow &row : m_depthRows) {
        row.events.shrink_to_fit();
        starts.clear();
        ends.clear();
        for (std::uint32_t e : row.events) {
            starts.push_back(m_start[e]);
            ends.push_back(m_end[e]);
        }
        row.lod.build(starts, ends, row.events);
    }
}

std::pair<std::size_t, std::size_t> SliceTrack::depthRowEventsIn(std::size_t row, TimeNs lo, TimeNs hi) const
{
    const Column<std::uint32_t> &events = m_depthRows[row].events;
    // On one row events do not overlap, so ends ascend with starts.
    const auto first = std::partition_point(events.begin(), events.end(), [&](std::uint32_t e) { return m_end[e] < lo; });
    const auto last = std::partition_point(first, events.end(), [&](std::uint32_t e) { return m_start[e] <= hi; });
    return {std::size_t(first - events.begin()), std::size_t(last - events.begin())};
}

void SliceTrack::compactPayloads()
{
    const std::size_t n = m_payload.size();
    if (n == 0)
        return;
    const std::uint32_t base = m_payload[0];
    const std::uint32_t step = n > 1 ? m_payload[1] - base : 0;
    if (step > 1)
        return;
    for (std::size_t i = 0; i < n; ++i)
        if (m_payload[i] != base + step * std::uint32_t(i))
            return;
    m_payload = {};
    m_payloadBase = base;
    m_payloadStep = step;
}

SliceTrack::MemoryParts SliceTrack::memoryParts() const
{
    MemoryParts parts;
    parts.times = (m_start.capacity() + m_end.capacity()) * sizeof(TimeNs);
    parts.names = m_name.capacity() * sizeof(StringId);
    parts.payloads = m_payload.capacity() * sizeof(std::uint32_t);
    parts.depths = m_depth.capacity() * sizeof(std::uint16_t);
    parts.index = m_index.memoryBytes();
    parts.lod = m_lod.memoryBytes();
    parts.depthRows = m_depthRows.capacity() * sizeof(DepthRow);
    for (const DepthRow &row : m_depthRows)
        parts.depthRows += row.events.capacity() * sizeof(std::uint32_t) + row.lod.memoryBytes();
    return parts;
}

void SliceTrack::clearPayloads()
{
    m_payload = {};
    m_payloadBase = 0;
    m_payloadStep = 0;
}

void SliceTrack::numberPayloadsFrom(std::uint32_t base)
{
    m_payload = {};
    m_payloadBase = base;
    m_payloadStep = 1;
}

std::size_t SliceTrack::memoryBytes() const
{
    return memoryParts().total();
}

} // namespace rankscope
