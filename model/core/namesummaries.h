#pragma once
// A report's events grouped by what names them (track kind, process, NVTX
// domain and type, name), each group's values sorted, with the sums its
// summary row needs. An index cache stores them (load/cache/), so the
// summary tables over hundreds of ranks merge a few groups per rank
// (stats/storedsummaries.h) instead of reading every event again: the
// sorted values give the exact median of the merged groups by searching,
// not by reading them all.
#include "core/column.h"
#include "core/stringtable.h"

#include <cstdint>
#include <span>

namespace rankscope {

struct Report;
enum class TrackKind : std::uint8_t;

enum class GroupedValue : std::uint8_t {
    Duration, // end - start, ns
    Bytes,    // a copy's or memset's size
};

struct NameGroup {
    std::uint32_t pid = 0;
    TrackKind kind{};
    GroupedValue value = GroupedValue::Duration;
    std::uint8_t nvtxEventType = 0; // NVTX groups: NvtxEventType; 0 otherwise
    std::uint8_t reserved = 0;      // written as 0: a cache's bytes depend only on the report
    StringId domain = 0;            // NVTX and OpenMP groups: the track's domain name (OpenMP: its event kind)
    StringId name = 0;              // the events' slice name
    std::uint64_t first = 0;        // its values: NameSummaries::values[first, first + count)
    std::uint64_t count = 0;
    std::int64_t total = 0;
    double squaredDeviations = 0.0; // sum of (value - mean)^2, for the standard deviation
};
static_assert(sizeof(NameGroup) == 48, "no padding: a cache's bytes are the report's");

struct NameSummaries {
    bool present = false; // built (a report parsed now, not opened from a cache, has none)
    // By kind, then value (a table reads only its own: a trace with a
    // distinct NVTX text per range has as many NVTX groups as ranges), their
    // values in the same order.
    Column<NameGroup> groups;
    Column<std::int64_t> values; // each group's, ascending

    std::span<const NameGroup> groupsOf(TrackKind kind, GroupedValue value) const;
    // The kinds grouped (their durations), and those whose sizes are too.
    static bool summarizes(TrackKind kind);
    static bool hasSizes(TrackKind kind);
    static bool inOrder(const NameGroup &a, const NameGroup &b) { return a.kind != b.kind ? a.kind < b.kind : a.value < b.value; }

    std::span<const std::int64_t> valuesOf(const NameGroup &group) const
    {
        return std::span(values.data(), values.size()).subspan(group.first, group.count);
    }
    std::size_t memoryBytes() const { return groups.capacity() * sizeof(NameGroup) + values.capacity() * sizeof(std::int64_t); }
};

// Groups the kinds summarizes() names.
NameSummaries summarizeByName(const Report &report);

} // namespace rankscope
