#pragma once
// The summary tables' rows over whole reports from the groups their index
// caches store (core/namesummaries.h), merged across ranks by label: a few
// groups per rank and a few of their values read, where reading the events
// again would touch every page of every rank (256 ranks x 1M events: GBs).
// Same numbers as over the events, the median exact.
#include "core/namesummaries.h"
#include "stats/statsscope.h"
#include "stats/summary.h"
#include "stats/summarygroups.h"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace rankscope::stats {

// Whether stored groups answer every slice: whole reports (or one process
// of one), each opened from a cache that holds them.
bool storedGroupsCover(std::span<const ReportSlice> slices);

// A stored group's group in the table being built; none leaves it out.
using StoredGroupOf = std::function<std::optional<std::uint32_t>(GroupIndex &, const Report &, const NameGroup &)>;

// What a table takes: the groups of these kinds and value, as grouped.
struct StoredGroups {
    std::vector<TrackKind> kinds;
    GroupedValue value = GroupedValue::Duration;
    StoredGroupOf groupOf;
};

// A group's summary, handed on as made (a table of 10^7 groups does not
// hold their summaries and its rows at once).
using SummaryOfGroup = std::function<void(std::uint32_t group, const Summary &summary)>;

// The stored groups the slices' reports hold for `what`, by their group in
// `index`: a group's summary is merged from its parts (a report's stored
// group each) when asked for, so a table of 10^7 groups keeps 8 B a part
// and 4 B a group, not their summaries. The parts' reports are kept alive
// where they are owned by a shared_ptr (a session's are).
class StoredGroupParts {
public:
    StoredGroupParts(std::span<const ReportSlice> slices, const StoredGroups &what, GroupIndex &index);

    std::size_t groupCount() const { return m_begin.size() - 1; }
    Summary summaryOf(std::uint32_t group) const;
    std::int64_t totalOf(std::uint32_t group) const; // summaryOf(group).total, without the rest
    // Fetches these groups' first parts side by side (ComputedCells::willRead).
    void willRead(std::span<const std::uint32_t> groups) const;
    // Whether every report read is kept alive by this object.
    bool keepsReportsAlive() const { return m_owners.size() == m_reports.size(); }

private:
    struct Part {
        std::uint32_t report; // in m_reports
        std::uint32_t group;  // in its byName.groups
    };
    SortedRun runOf(const Part &part) const;

    std::vector<const Report *> m_reports;
    std::vector<std::shared_ptr<const Report>> m_owners;
    std::vector<std::uint32_t> m_begin; // per group, its first part; then one past the last
    std::vector<Part> m_parts;          // by group, each group's in the slices' order
};

} // namespace rankscope::stats
