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

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
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
// and 4 B a group (none where each group has one part), not their
// summaries. The parts' reports are kept alive where they are owned by a
// shared_ptr (a session's are). Reading the groups of a table bigger than
// memory, the mapped pages read are given back once they pass the
// resident budget (session/residentbudget.h).
class StoredGroupParts {
public:
    StoredGroupParts(std::span<const ReportSlice> slices, const StoredGroups &what, GroupIndex &index);

    std::size_t groupCount() const { return m_begin.empty() ? m_parts.size() : m_begin.size() - 1; }
    Summary summaryOf(std::uint32_t group) const;
    std::int64_t totalOf(std::uint32_t group) const; // summaryOf(group).total, without the rest
    // Fetches these groups' first parts side by side (ComputedCells::willRead).
    void willRead(std::span<const std::uint32_t> groups) const;
    // Counts a read of a group (its summary, or its label's text); now and
    // then, past the resident budget, gives the reports' mapped pages back
    // (they are read in again as needed).
    void countRead() const;
    // Whether every report read is kept alive by this object.
    bool keepsReportsAlive() const { return m_owners.size() == m_reports.size(); }

private:
    struct Part {
        std::uint32_t report; // in m_reports
        std::uint32_t group;  // in its byName.groups
    };
    SortedRun runOf(const Part &part) const;
    // The first part of `group` and one past its last, in m_parts.
    std::pair<std::uint32_t, std::uint32_t> partsOf(std::uint32_t group) const
    {
        return m_begin.empty() ? std::pair(group, group + 1) : std::pair(m_begin[group], m_begin[group + 1]);
    }

    std::vector<const Report *> m_reports;
    std::vector<std::shared_ptr<const Report>> m_owners;
    std::vector<std::uint32_t> m_begin; // per group, its first part; then one past the last; empty: group g is part g
    std::vector<Part> m_parts;          // by group, each group's in the slices' order
    mutable std::atomic<std::uint64_t> m_reads{0};
};

} // namespace rankscope::stats
