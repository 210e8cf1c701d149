#include "stats/storedsummaries.h"
#include "core/cancellation.h"
#include "core/narrowing.h"
#include "core/report.h"
#include "session/residentbudget.h"

#include <algorithm>
#include <limits>
#include <new>

namespace rankscope::stats {

bool storedGroupsCover(std::span<const ReportSlice> slices)
{
    for (const ReportSlice &slice : slices)
        if (!slice.report->byName.present || !(slice.range == TimeRange::everything()))
            return false;
    return true;
}

StoredGroupParts::StoredGroupParts(std::span<const ReportSlice> slices, const StoredGroups &what, GroupIndex &index)
{
    // Each part's group as it is found, then the parts put in group order
    // by counting (stably: a group's parts merge in the slices' order, as
    // its standard deviation's rounding depends on it). The parts of one
    // report each make a group of their own, in the order found: then
    // neither the groups of the parts nor where each group begins are kept
    // (10^8 groups: 800 MB less).
    std::vector<std::uint32_t> groupOfPart; // empty while each part made the next group
    bool onePerGroup = true, inGroupOrder = true;
    // Reserved: 10^7 groups grown by doubling would hold both copies at once.
    std::size_t parts = 0, largestSlice = 0;
    for (const ReportSlice &slice : slices) {
        std::size_t of = 0;
        for (const TrackKind kind : what.kinds)
            of += slice.report->byName.groupsOf(kind, what.value).size();
        parts += of;
        largestSlice = std::max(largestSlice, of);
    }
    m_parts.reserve(parts);
    index.reserve(largestSlice); // at least as many groups unless a process is picked
    const std::size_t groupsBefore = index.size();
    RankPass rankPass(slices.size());
    for (const ReportSlice &slice : slices) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const Report &report = *slice.report;
        auto source = std::uint32_t(std::find(m_reports.begin(), m_reports.end(), &report) - m_reports.begin());
        if (source == m_reports.size()) {
            m_reports.push_back(&report);
            if (std::shared_ptr<const Report> owner = report.weak_from_this().lock())
                m_owners.push_back(std::move(owner));
        }
        const NameSummaries &stored = report.byName;
        if (stored.groups.size() >= std::numeric_limits<std::uint32_t>::max())
            throw std::bad_alloc(); // more groups than 32-bit positions: far past what memory holds
        for (const TrackKind kind : what.kinds) {
            const std::span<const NameGroup> groups = stored.groupsOf(kind, what.value);
            const auto offset = std::size_t(groups.data() - stored.groups.data());
            for (std::size_t i = 0; i < groups.size(); ++i) {
                const NameGroup &group = groups[i];
                if (slice.pid && group.pid != *slice.pid)
                    continue;
                const std::optional<std::uint32_t> g = what.groupOf(index, report, group);
                if (!g)
                    continue;
                if (onePerGroup && *g != groupsBefore + m_parts.size()) {
                    onePerGroup = false;
                    groupOfPart.reserve(parts);
                    for (std::size_t p = 0; p < m_parts.size(); ++p)
                        groupOfPart.push_back(std::uint32_t(groupsBefore + p));
                }
                if (!onePerGroup) {
                    inGroupOrder = inGroupOrder && (groupOfPart.empty() || groupOfPart.back() <= *g);
                    groupOfPart.push_back(*g);
                }
                m_parts.push_back({source, std::uint32_t(offset + i)});
                if (m_parts.size() >= std::numeric_limits<std::uint32_t>::max())
                    throw std::bad_alloc();        // more parts than 32-bit positions: far past what memory holds
                if ((m_parts.size() & 65535) == 0) // groups read in storage order: few pages each
                    ResidentBudget::process().releaseScatteredPastBudget(m_reports);
            }
        }
    }
    if (onePerGroup && groupsBefore == 0)
        return;
    if (onePerGroup) // groups of the index before these have no parts
        for (std::size_t p = 0; p < m_parts.size(); ++p)
            groupOfPart.push_back(std::uint32_t(groupsBefore + p));
    m_begin.assign(index.size() + 1, 0);
    for (const std::uint32_t g : groupOfPart)
        ++m_begin[g + 1];
    for (std::size_t g = 0; g + 1 < m_begin.size(); ++g)
        m_begin[g + 1] += m_begin[g];
    if (inGroupOrder)
        return; // the parts lie in group order as found
    std::vector<Part> found = std::move(m_parts);
    m_parts.resize(found.size());
    std::vector<std::uint32_t> next(m_begin.begin(), m_begin.end() - 1);
    for (std::size_t i = 0; i < found.size(); ++i)
        m_parts[next[groupOfPart[i]]++] = found[i];
}

void StoredGroupParts::countRead() const
{
    // Every 1024 groups (reading /proc costs microseconds): a table read in its
    // sorted order reads each group's values at a scattered place.
    if ((m_reads.fetch_add(1, std::memory_order_relaxed) & 1023) == 1023)
        ResidentBudget::process().releaseScatteredPastBudget(m_reports);
}

SortedRun StoredGroupParts::runOf(const Part &part) const
{
    const NameSummaries &stored = m_reports[part.report]->byName;
    const NameGroup &group = stored.groups[part.group];
    return {stored.valuesOf(group), group.total, group.squaredDeviations};
}

Summary StoredGroupParts::summaryOf(std::uint32_t group) const
{
    thread_local std::vector<SortedRun> runs; // no allocation per group
    runs.clear();
    const auto [first, last] = partsOf(group);
    for (std::uint32_t p = first; p < last; ++p)
        runs.push_back(runOf(m_parts[p]));
    countRead();
    return summarizeSortedRuns(runs);
}

void StoredGroupParts::willRead(std::span<const std::uint32_t> groups) const
{
    // In stages, each a loop whose reads do not wait for one another: a
    // group's first part, its stored group, then its values.
    if (!m_begin.empty())
        for (const std::uint32_t group : groups)
            __builtin_prefetch(&m_begin[group]);
    for (const std::uint32_t group : groups)
        __builtin_prefetch(&m_parts[partsOf(group).first]);
    for (const std::uint32_t group : groups)
        if (const auto [first, last] = partsOf(group); first < last) {
            const Part &part = m_parts[first];
            __builtin_prefetch(&m_reports[part.report]->byName.groups[part.group]);
        }
    for (const std::uint32_t group : groups)
        if (const auto [first, last] = partsOf(group); first < last) {
            const Part &part = m_parts[first];
            const NameSummaries &stored = m_reports[part.report]->byName;
            __builtin_prefetch(stored.values.data() + stored.groups[part.group].first);
        }
}

std::int64_t StoredGroupParts::totalOf(std::uint32_t group) const
{
    std::int64_t total = 0;
    const auto [first, last] = partsOf(group);
    for (std::uint32_t p = first; p < last; ++p) {
        const NameGroup &g = m_reports[m_parts[p].report]->byName.groups[m_parts[p].group];
        if (g.count) // as summarizeSortedRuns() sums: empty runs left out
            total = addSaturating(total, g.total);
    }
    return total;
}

} // namespace rankscope::stats
