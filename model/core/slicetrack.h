#pragma once
// One track of slices (intervals) stored column by column.
//
// Events are appended in any order, then finalize() sorts them by start
// (longer first on ties, so parents precede children), assigns nesting
// depths, and builds the interval index and the level-of-detail summary.
// After finalize() the track is immutable. Per event it costs 8 (start) +
// 8 (end) + 4 (name) + 4 (payload row) + 2 (depth) + 4 (index) + ~5 (LOD)
// bytes: about 35 bytes, less where a column is implied: no depth column
// when nothing nests (GPU rows, most OS runtime and API rows), no payload
// column when the payloads run `base, base + 1, ...` (a side table in track
// order) or are all the same (no side table). `payload` is a row in a
// per-kind side table of the report (kernel launch parameters, memcpy
// sizes, ...).
#include "core/column.h"
#include "core/intervalindex.h"
#include "core/lodsummary.h"
#include "core/stringtable.h"
#include "core/timetypes.h"

#include <cstdint>
#include <span>
#include <vector>

namespace rankscope {

struct ReportCacheAccess;

class SliceTrack {
public:
    void reserve(std::size_t n);
    void append(TimeNs start, TimeNs end, StringId name, std::uint32_t payload);
    // Moves every event by `delta` ns; only before finalize().
    void shift(TimeNs delta);
    void finalize();
    // After finalize(): event i's payload becomes base + i (its side table
    // was put in this track's order: load/sidetableorder.h).
    void numberPayloadsFrom(std::uint32_t base);
    // After finalize(): every payload becomes 0 (a track with no side table).
    void clearPayloads();

    std::size_t size() const { return m_start.size(); }
    bool isEmpty() const { return m_start.empty(); }

    TimeNs start(std::size_t i) const { return m_start[i]; }
    TimeNs end(std::size_t i) const { return m_end[i]; }
    TimeNs duration(std::size_t i) const { return m_end[i] - m_start[i]; }
    StringId name(std::size_t i) const { return m_name[i]; }
    std::uint32_t payload(std::size_t i) const { return m_payload.empty() ? m_payloadBase + m_payloadStep * std::uint32_t(i) : m_payload[i]; }
    std::uint16_t depth(std::size_t i) const { return m_depth.empty() ? 0 : m_depth[i]; }
    std::uint16_t maxDepth() const { return m_maxDepth; }

    std::span<const TimeNs> starts() const { return m_start; }
    std::span<const TimeNs> ends() const { return m_end; }
    std::span<const StringId> names() const { return m_name; }

    // First start and last end; empty range when the track is empty (and
    // the events' range, when a report was opened without them:
    // Report::summariesOnly).
    TimeRange extent() const { return m_extent; }

    template <class Visit>
    void forEachOverlapping(TimeNs lo, TimeNs hi, Visit &&visit) const
    {
        m_index.forEachOverlapping(m_start, m_end, lo, hi, std::forward<Visit>(visit));
    }
    std::vector<std::uint32_t> overlapping(TimeNs lo, TimeNs hi) const { return m_index.overlapping(m_start, m_end, lo, hi); }
    const LodSummary &lod() const { return m_lod; }

    // Per nesting depth (only when events nest, else empty): the events on
    // that row in start order, which on one row is also end order (no two
    // overlap), and their own summary, so each row of a nested track looks
    // as busy as it is when zoomed out, not only the top one.
    struct DepthRow {
        Column<std::uint32_t> events;
        LodSummary lod;
    };
    const std::vector<DepthRow> &depthRows() const { return m_depthRows; }
    // The events of depth row `row` that overlap [lo, hi], as a range of
    // positions in depthRows()[row].events.
    std::pair<std::size_t, std::size_t> depthRowEventsIn(std::size_t row, TimeNs lo, TimeNs hi) const;
    std::size_t memoryBytes() const;
    // memoryBytes() by column, for `rankscope-cli info --memory`.
    struct MemoryParts {
        std::size_t times = 0, names = 0, payloads = 0, depths = 0, index = 0, lod = 0, depthRows = 0;
        std::size_t total() const { return times + names + payloads + depths + index + lod + depthRows; }
    };
    MemoryParts memoryParts() const;

    // The index cache (load/cache/) writes and maps every member.
    friend struct ReportCacheAccess;

private:
    void compactPayloads();
    void buildDepthRows();

    Column<TimeNs> m_start;
    Column<TimeNs> m_end;
    Column<StringId> m_name;
    Column<std::uint32_t> m_payload;
    Column<std::uint16_t> m_depth;   // empty after finalize() when every depth is 0
    std::uint32_t m_payloadBase = 0; // when m_payload is empty after finalize():
    std::uint32_t m_payloadStep = 0; //   payload(i) = base + step * i
    std::uint16_t m_maxDepth = 0;
    TimeRange m_extent{0, -1};
    IntervalIndex m_index;
    LodSummary m_lod;
    std::vector<DepthRow> m_depthRows;
};

} // namespace rankscope
