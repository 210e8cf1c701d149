#include "stats/nsys/nsysreports.h"
#include "stats/reportcatalog.h"

#include "stats/nsys/kernelnames.h"

#include "core/cancellation.h"
#include "session/residentbudget.h"
#include "stats/sqlround.h"
#include "stats/storedsummaries.h"
#include "stats/storedtimetable.h"
#include "stats/summary.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>

namespace rankscope::stats {

namespace {

// Values by group, in first-seen order: an event finds its group through
// the GroupIndex (by its name's string id), and its value goes to one flat
// array (no vector per group: most groups of an emit_nvtx trace hold one).
class DurationGroups {
public:
    explicit DurationGroups(GroupIndex &index) : m_index(index) { }
    // `key` is a small key (0, or a domain and a style bit), `name` a string
    // id of `report`; makeLabel() gives a new group's label.
    template <class MakeLabel>
    void add(const Report &report, std::uint64_t key, StringId name, MakeLabel &&makeLabel, std::int64_t value)
    {
        m_groupOf.push_back(m_index.groupOf(report, key, name, std::forward<MakeLabel>(makeLabel)));
        m_values.push_back(value);
    }
    // Room for `events` more values, so the arrays do not grow by doubling
    // (up to half of a grown array is slack).
    void reserve(std::size_t events)
    {
        m_groupOf.reserve(m_groupOf.size() + events);
        m_values.reserve(m_values.size() + events);
    }
    // Hands on the summary of each group of the index, in group order.
    void summarize(const SummaryOfGroup &summaryOf);

private:
    GroupIndex &m_index;
    // Per event, its group and value: two arrays (12 bytes an event, not a
    // padded pair's 16), as a session of hundreds of ranks has 10^8 events.
    std::vector<std::uint32_t> m_groupOf;
    std::vector<std::int64_t> m_values;
};

// The labels of a group, over its events or stored (one rule for both).
GroupLabel nameLabel(const Report &report, StringId name)
{
    return {&report, name};
}
GroupLabel apiLabel(GroupIndex &index, const Report &report, StringId name)
{
    return index.built(apiNameWithoutVersion(report.strings.string(name)));
}
NvtxStyle nvtxStyleOf(int eventType)
{
    if (eventType == NvtxEventType::PushPopRange || eventType == NvtxEventType::NvtxtPushPop)
        return NvtxStyle::PushPop;
    if (eventType == NvtxEventType::StartEndRange || eventType == NvtxEventType::NvtxtStartEnd)
        return NvtxStyle::StartEnd;
    return NvtxStyle::None; // marks have no duration
}
// An NVTX range's group key: its domain and style.
std::uint64_t nvtxKey(StringId domain, NvtxStyle style)
{
    return std::uint64_t(domain) << 1 | std::uint64_t(style == NvtxStyle::PushPop);
}
GroupLabel nvtxLabel(const Report &report, StringId domain, StringId name, NvtxStyle style)
{
    return {&report, name, domain, style};
}

// The group of an event named by its slice name alone.
void addByName(DurationGroups &groups, const Report &report, StringId name, std::int64_t value)
{
    groups.add(
        report, 0, name, [&] { return nameLabel(report, name); }, value);
}

// Stored groups of these kinds and value, labelled by name alone.
StoredGroups storedByName(std::vector<TrackKind> kinds, GroupedValue value)
{
    return {std::move(kinds), value, [](GroupIndex &index, const Report &report, const NameGroup &g) {
                return std::optional(index.groupOf(report, 0, g.name, [&] { return nameLabel(report, g.name); }));
            }};
}

void DurationGroups::summarize(const SummaryOfGroup &summaryOf)
{
    // Values by group, contiguous (a counting sort), then one summary each.
    const std::size_t groups = m_index.size();
    std::vector<std::size_t> begin(groups + 1, 0);
    for (const std::uint32_t group : m_groupOf)
        ++begin[group + 1];
    for (std::size_t g = 0; g < groups; ++g)
        begin[g + 1] += begin[g];
    std::vector<std::int64_t> sorted(m_values.size());
    {
        std::vector<std::size_t> next(begin.begin(), begin.end() - 1);
        for (std::size_t e = 0; e < m_values.size(); ++e)
            sorted[next[m_groupOf[e]]++] = m_values[e];
    }
    m_groupOf = {};
    m_values = {};
    for (std::size_t g = 0; g < groups; ++g)
        summaryOf(std::uint32_t(g), rankscope::summarize(std::span(sorted).subspan(begin[g], begin[g + 1] - begin[g])));
}

// Whether the slices read more than one report (their groups then merge by
// label text).
bool acrossReports(const Slices &slices)
{
    for (const ReportSlice &slice : slices)
        if (slice.report != slices.front().report)
            return true;
    return false;
}

// What fills a table: the groups' summaries over the events, or the stored
// groups' parts that give them.
struct Summaries {
    std::function<void(const SummaryOfGroup &summaryOf)> overEvents; // calls summaryOf(group, summary) for every group
    std::function<std::shared_ptr<const StoredGroupParts>()> storedParts;

    // Calls summaryOf(group, summary) for every group, in group order
    // (from `parts` when they were taken already).
    void operator()(const SummaryOfGroup &summaryOf, std::shared_ptr<const StoredGroupParts> parts = {}) const
    {
        if (!storedParts) {
            overEvents(summaryOf);
            return;
        }
        if (!parts)
            parts = storedParts();
        for (std::uint32_t group = 0; group < parts->groupCount(); ++group)
            summaryOf(group, parts->summaryOf(group));
    }
};

// The summaries of the groups of `index`: from the reports' stored groups
// when they cover the slices (whole reports opened from caches), else over
// the events (`overEvents` fills the DurationGroups). Made as the table
// takes them: a table of 10^7 groups does not hold their summaries too.
template <class OverEvents>
Summaries summariesOf(const Slices &slices, StoredGroups stored, GroupIndex &index, OverEvents overEvents)
{
    if (storedGroupsCover(slices))
        return {{}, [&slices, stored = std::move(stored), &index] { return std::make_shared<const StoredGroupParts>(slices, stored, index); }};
    return {[&index, overEvents = std::move(overEvents)](const SummaryOfGroup &summaryOf) {
                DurationGroups groups(index);
                overEvents(groups);
                groups.summarize(summaryOf);
            },
            {}};
}

// "Time (%),Total Time (ns),<count>,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),<labels>",
// largest total first. Over stored groups its cells are computed as read
// (stats/storedtimetable.h), the index's labels moved into it.
ResultTable timeTable(const QString &reportName, const QString &countHeader, const QStringList &labelHeaders, GroupIndex &index,
                      const Summaries &summaries, bool withStyle = true)
{
    std::shared_ptr<const StoredGroupParts> parts = summaries.storedParts ? summaries.storedParts() : nullptr;
    if (parts && parts->keepsReportsAlive()) {
        ResultTable computed = storedTimeTable(std::move(parts), index.takeLabels(), std::size_t(labelHeaders.size()), withStyle);
        const ResultTable declared = declaredTable(reportName);
        computed.name = declared.name;
        computed.title = declared.title;
        computed.headers = timeSummaryHeaders(countHeader, labelHeaders);
        sortSummaryRows(computed, 1, 2, 8);
        return computed;
    }
    ResultTable t = declaredTable(reportName);
    t.headers = timeSummaryHeaders(countHeader, labelHeaders);
    std::int64_t grandTotal = 0;
    summaries(
        [&](std::uint32_t group, const Summary &s) {
            grandTotal += s.total;
            if (t.rowCount() == 0) // the groups are known by the first summary: no column grows by doubling
                t.reserveRows(index.size());
            const std::size_t row = t.appendRow();
            writeSummaryCells(t, row, s);
            index.writeLabel(t, row, 8, group, withStyle);
        },
        parts);
    fillTimeShares(t, grandTotal);
    sortSummaryRows(t, 1, 2, 8);
    return t;
}

// Calls visit(report, track, event) for every event of `kind` the slices
// take in. A report read through its cache's mapping gives its pages back
// once read (unless the timeline is using it): over hundreds of ranks the
// pages read would otherwise outweigh the values kept.
template <class Visit>
void forEachSlice(const Slices &slices, TrackKind kind, Visit &&visit)
{
    for (std::size_t s = 0; s < slices.size(); ++s) {
        const ReportSlice &slice = slices[s];
        for (const Track &track : slice.report->tracks) {
            if (track.kind != kind || !slice.acceptsTrack(track))
                continue;
            const auto [first, last] = slice.eventsIn(track);
            for (std::size_t i = first; i < last; ++i)
                visit(*slice.report, track, i);
        }
        const bool reportReadAgainNext = s + 1 < slices.size() && slices[s + 1].report == slice.report;
        if (!reportReadAgainNext)
            ResidentBudget::process().doneReading(*slice.report);
    }
}

// How many events of `kind` the slices take in (what forEachSlice visits).
std::size_t eventsOf(const Slices &slices, TrackKind kind)
{
    std::size_t events = 0;
    RankPass rankPass(slices.size());
    for (const ReportSlice &slice : slices) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        for (const Track &track : slice.report->tracks)
            if (track.kind == kind && slice.acceptsTrack(track)) {
                const auto [first, last] = slice.eventsIn(track);
                events += last - first;
            }
    }
    return events;
}

// Memcpy rows grouped as "[CUDA memcpy <kind>]", memsets as "[CUDA memset]";
// `value` picks durations or bytes.
template <class Value>
void addMemoryOperations(DurationGroups &groups, const Slices &slices, Value &&value)
{
    groups.reserve(eventsOf(slices, TrackKind::Memcpy) + eventsOf(slices, TrackKind::Memset));
    for (TrackKind kind : {TrackKind::Memcpy, TrackKind::Memset})
        forEachSlice(slices, kind, [&](const Report &report, const Track &track, std::size_t i) {
            addByName(groups, report, track.slices.name(i), value(report, track, i));
        });
}

// Events of `kind` grouped by name, their durations.
void addDurationsByName(DurationGroups &groups, const Slices &slices, TrackKind kind)
{
    groups.reserve(eventsOf(slices, kind));
    forEachSlice(slices, kind, [&](const Report &report, const Track &track, std::size_t i) {
        addByName(groups, report, track.slices.name(i), track.slices.duration(i));
    });
}

// Kernels by name: the demangled one from the stored groups where they
// cover the slices, the base or mangled one (nsys' :base, :mangled) over
// the events, as the stored groups hold only the first.
Summaries kernelSummaries(const Slices &slices, GroupIndex &index, KernelNaming naming, bool nvtxPrefix)
{
    if (naming == KernelNaming::Demangled && !nvtxPrefix)
        return summariesOf(slices, storedByName({TrackKind::Kernel}, GroupedValue::Duration), index,
                           [&slices](DurationGroups &groups) { addDurationsByName(groups, slices, TrackKind::Kernel); });
    return Summaries{[&slices, &index, naming, nvtxPrefix](const SummaryOfGroup &summaryOf) {
                         DurationGroups groups(index);
                         groups.reserve(eventsOf(slices, TrackKind::Kernel));
                         KernelLabels labels(naming, nvtxPrefix);
                         forEachSlice(slices, TrackKind::Kernel, [&](const Report &report, const Track &track, std::size_t i) {
                             const KernelLabel label = labels.of(report, track, i);
                             if (label.range == KernelLabel::kNoRange) {
                                 addByName(groups, report, label.name, track.slices.duration(i));
                                 return;
                             }
                             // Grouped by range and name: the range's string id is the key.
                             groups.add(
                                 report, std::uint64_t(label.range) + 1, label.name, [&] { return index.built(KernelLabels::text(report, label)); },
                                 track.slices.duration(i));
                         });
                         groups.summarize(summaryOf);
                     },
                     {}};
}

} // namespace

QString apiNameWithoutVersion(const QString &name)
{
    const qsizetype n = name.size();
    if (n > 6 && name[n - 6] == QLatin1Char('_') && name[n - 5] == QLatin1Char('v'))
        return name.left(n - 6);
    return name;
}

namespace {

// CUDA API calls by function name, without its _vNNNN suffix.
Summaries apiSummaries(const Slices &slices, GroupIndex &index)
{
    const StoredGroups stored{{TrackKind::CudaApi}, GroupedValue::Duration, [](GroupIndex &index, const Report &report, const NameGroup &g) {
                                  return std::optional(index.groupOf(report, 0, g.name, [&] { return apiLabel(index, report, g.name); }));
                              }};
    return summariesOf(slices, stored, index, [&](DurationGroups &groups) {
        groups.reserve(eventsOf(slices, TrackKind::CudaApi));
        forEachSlice(slices, TrackKind::CudaApi, [&](const Report &report, const Track &track, std::size_t i) {
            const StringId name = track.slices.name(i);
            groups.add(
                report, 0, name, [&] { return apiLabel(index, report, name); }, track.slices.duration(i));
        });
    });
}

} // namespace

ResultTable cudaGpuKernSum(const Slices &slices, KernelNaming naming, bool nvtxPrefix)
{
    GroupIndex index(acrossReports(slices));
    return timeTable(QStringLiteral("cuda_gpu_kern_sum"), QStringLiteral("Instances"), {QStringLiteral("Name")}, index,
                     kernelSummaries(slices, index, naming, nvtxPrefix));
}

ResultTable cudaGpuMemTimeSum(const Slices &slices)
{
    GroupIndex index(acrossReports(slices));
    const Summaries summaries =
        summariesOf(slices, storedByName({TrackKind::Memcpy, TrackKind::Memset}, GroupedValue::Duration), index, [&](DurationGroups &groups) {
            addMemoryOperations(groups, slices, [](const Report &, const Track &t, std::size_t i) { return t.slices.duration(i); });
        });
    return timeTable(QStringLiteral("cuda_gpu_mem_time_sum"), QStringLiteral("Count"), {QStringLiteral("Operation")}, index, summaries);
}

namespace {

// Kernels and memory operations (and, for cuda_api_gpu_sum, CUDA API
// calls) summarised by name in one table: no kernel is named
// "[CUDA memcpy ...]" or like an API function, so its rows are those of
// the reports it joins, each with its category, their shares of the sum.
ResultTable gpuSummary(const Slices &slices, const QString &reportName, bool withApiCalls, KernelNaming naming, bool nvtxPrefix)
{
    ResultTable t = declaredTable(reportName);
    t.headers = timeSummaryHeaders(QStringLiteral("Instances"), {QStringLiteral("Category"), QStringLiteral("Operation")});
    std::int64_t grandTotal = 0;
    const auto addRows = [&](const char *category, const GroupIndex &index, const Summaries &summaries) {
        summaries([&](std::uint32_t group, const Summary &s) {
            grandTotal += s.total;
            const std::size_t row = t.appendRow();
            writeSummaryCells(t, row, s);
            t.setText(row, 8, std::string_view(category));
            index.writeLabel(t, row, 9, group);
        });
    };
    GroupIndex api(acrossReports(slices));
    if (withApiCalls)
        addRows("CUDA_API", api, apiSummaries(slices, api));
    GroupIndex kernels(acrossReports(slices));
    addRows("CUDA_KERNEL", kernels, kernelSummaries(slices, kernels, naming, nvtxPrefix));
    GroupIndex memory(acrossReports(slices));
    addRows("MEMORY_OPER", memory,
            summariesOf(slices, storedByName({TrackKind::Memcpy, TrackKind::Memset}, GroupedValue::Duration), memory, [&](DurationGroups &groups) {
                addMemoryOperations(groups, slices, [](const Report &, const Track &tr, std::size_t i) { return tr.slices.duration(i); });
            }));
    fillTimeShares(t, grandTotal);
    sortSummaryRows(t, 1, 2, 8);
    return t;
}

} // namespace

ResultTable cudaGpuSum(const Slices &slices, KernelNaming naming, bool nvtxPrefix)
{
    return gpuSummary(slices, QStringLiteral("cuda_gpu_sum"), false, naming, nvtxPrefix);
}

ResultTable cudaApiGpuSum(const Slices &slices, KernelNaming naming, bool nvtxPrefix)
{
    return gpuSummary(slices, QStringLiteral("cuda_api_gpu_sum"), true, naming, nvtxPrefix);
}

ResultTable cudaGpuMemSizeSum(const Slices &slices)
{
    GroupIndex index(acrossReports(slices));
    const Summaries summaries =
        summariesOf(slices, storedByName({TrackKind::Memcpy, TrackKind::Memset}, GroupedValue::Bytes), index, [&](DurationGroups &groups) {
            addMemoryOperations(groups, slices, [](const Report &report, const Track &t, std::size_t i) {
                const std::uint32_t row = t.slices.payload(i);
                return std::int64_t(t.kind == TrackKind::Memcpy ? report.memcpys[row].bytes : report.memsets[row].bytes);
            });
        });
    ResultTable t = declaredTable(QStringLiteral("cuda_gpu_mem_size_sum"));
    t.headers = QStringList{QStringLiteral("Total (MB)"), QStringLiteral("Count"),    QStringLiteral("Avg (MB)"),    QStringLiteral("Med (MB)"),
                            QStringLiteral("Min (MB)"),   QStringLiteral("Max (MB)"), QStringLiteral("StdDev (MB)"), QStringLiteral("Operation")};
    // nsys prints decimal megabytes (10^6 B) with three decimals.
    constexpr double MB = 1e6;
    summaries([&](std::uint32_t group, const Summary &s) {
        const std::size_t row = t.appendRow();
        t.setDecimal(row, 0, double(s.total) / MB, 3);
        t.setInteger(row, 1, s.count);
        t.setDecimal(row, 2, s.average / MB, 3);
        t.setDecimal(row, 3, s.median / MB, 3);
        t.setDecimal(row, 4, double(s.minimum) / MB, 3);
        t.setDecimal(row, 5, double(s.maximum) / MB, 3);
        t.setDecimal(row, 6, s.stdDev / MB, 3);
        index.writeLabel(t, row, 7, group);
    });
    sortSummaryRows(t, 0, 1, 7);
    return t;
}

ResultTable cudaApiSum(const Slices &slices)
{
    GroupIndex index(acrossReports(slices));
    return timeTable(QStringLiteral("cuda_api_sum"), QStringLiteral("Num Calls"), {QStringLiteral("Name")}, index, apiSummaries(slices, index));
}

namespace {

// NVTX ranges summarised by domain, style and name: every style (nvtx_sum,
// with a Style column), or one (nvtx_pushpop_sum, nvtx_startend_sum).
ResultTable nvtxSummary(const Slices &slices, const QString &reportName, std::optional<NvtxStyle> only)
{
    const auto counted = [only](NvtxStyle style) { return style != NvtxStyle::None && (!only || style == *only); };
    const StoredGroups stored{{TrackKind::Nvtx, TrackKind::CpuOp},
                              GroupedValue::Duration,
                              [counted](GroupIndex &index, const Report &report, const NameGroup &g) -> std::optional<std::uint32_t> {
                                  const NvtxStyle style = nvtxStyleOf(g.nvtxEventType);
                                  if (!counted(style))
                                      return std::nullopt;
                                  return index.groupOf(report, nvtxKey(g.domain, style), g.name,
                                                       [&] { return nvtxLabel(report, g.domain, g.name, style); });
                              }};
    GroupIndex index(acrossReports(slices));
    const Summaries summaries = summariesOf(slices, stored, index, [&](DurationGroups &groups) {
        // Kineto's CPU scopes count as the NVTX ranges PyTorch's emit_nvtx
        // would have recorded for them, named by category.
        for (const TrackKind kind : {TrackKind::Nvtx, TrackKind::CpuOp}) {
            groups.reserve(eventsOf(slices, kind));
            forEachSlice(slices, kind, [&](const Report &report, const Track &track, std::size_t i) {
                const NvtxStyle style = nvtxStyleOf(hostRangeEventType(report, track, i));
                if (!counted(style))
                    return;
                const StringId name = track.slices.name(i);
                groups.add(
                    report, nvtxKey(track.domainName, style), name, [&] { return nvtxLabel(report, track.domainName, name, style); },
                    track.slices.duration(i));
            });
        }
    });
    if (!only)
        return timeTable(reportName, QStringLiteral("Instances"), {QStringLiteral("Style"), QStringLiteral("Range")}, index, summaries);
    return timeTable(reportName, QStringLiteral("Instances"), {QStringLiteral("Range")}, index, summaries, /*withStyle=*/false);
}

} // namespace

ResultTable nvtxSum(const Slices &slices)
{
    return nvtxSummary(slices, QStringLiteral("nvtx_sum"), std::nullopt);
}

ResultTable nvtxPushPopSum(const Slices &slices)
{
    return nvtxSummary(slices, QStringLiteral("nvtx_pushpop_sum"), NvtxStyle::PushPop);
}

ResultTable nvtxStartEndSum(const Slices &slices)
{
    return nvtxSummary(slices, QStringLiteral("nvtx_startend_sum"), NvtxStyle::StartEnd);
}

ResultTable cudaLibrarySum(const Slices &slices)
{
    GroupIndex index(acrossReports(slices));
    const Summaries summaries = summariesOf(slices, storedByName({TrackKind::CudaLibrary}, GroupedValue::Duration), index,
                                            [&](DurationGroups &groups) { addDurationsByName(groups, slices, TrackKind::CudaLibrary); });
    return timeTable(QStringLiteral("cuda_lib_sum"), QStringLiteral("Num Calls"), {QStringLiteral("Name")}, index, summaries);
}

ResultTable openAccSum(const Slices &slices)
{
    // Events by "name@file:line" (the loader's slice name), over nsys'
    // three OpenACC tables together.
    GroupIndex index(acrossReports(slices));
    const Summaries summaries = summariesOf(slices, storedByName({TrackKind::OpenAcc}, GroupedValue::Duration), index,
                                            [&](DurationGroups &groups) { addDurationsByName(groups, slices, TrackKind::OpenAcc); });
    return timeTable(QStringLiteral("openacc_sum"), QStringLiteral("Num Calls"), {QStringLiteral("Name")}, index, summaries);
}

ResultTable openMpSum(const Slices &slices)
{
    // Events by name within each event kind's table, as nsys sums each
    // table apart: the group key is the table (the track's domain).
    const StoredGroups stored{{TrackKind::OpenMp}, GroupedValue::Duration, [](GroupIndex &index, const Report &report, const NameGroup &g) {
                                  return std::optional(index.groupOf(report, g.domain, g.name, [&] { return nameLabel(report, g.name); }));
                              }};
    GroupIndex index(acrossReports(slices));
    const Summaries summaries = summariesOf(slices, stored, index, [&](DurationGroups &groups) {
        groups.reserve(eventsOf(slices, TrackKind::OpenMp));
        forEachSlice(slices, TrackKind::OpenMp, [&](const Report &report, const Track &track, std::size_t i) {
            const StringId name = track.slices.name(i);
            groups.add(
                report, track.domainName, name, [&] { return nameLabel(report, name); }, track.slices.duration(i));
        });
    });
    return timeTable(QStringLiteral("openmp_sum"), QStringLiteral("Count"), {QStringLiteral("Name")}, index, summaries);
}

ResultTable osrtSum(const Slices &slices)
{
    GroupIndex index(acrossReports(slices));
    const Summaries summaries = summariesOf(slices, storedByName({TrackKind::OsRuntime}, GroupedValue::Duration), index,
                                            [&](DurationGroups &groups) { addDurationsByName(groups, slices, TrackKind::OsRuntime); });
    return timeTable(QStringLiteral("osrt_sum"), QStringLiteral("Num Calls"), {QStringLiteral("Name")}, index, summaries);
}

} // namespace rankscope::stats
