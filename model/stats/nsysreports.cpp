#include "stats/nsysreports.h"

#include "session/residentbudget.h"
#include "stats/sqlround.h"
#include "stats/storedsummaries.h"
#include "stats/summary.h"

#include <QHash>

#include <algorithm>
#include <cstdint>
#include <span>
#include <map>

namespace rankscope::stats {

namespace {

using Row = LabelledSummary;

// Values grouped by their label columns, in first-seen order. An event
// finds its group by its report's string id (and a domain and style), in
// an array, so a label is built and looked up once per distinct name, not
// once per event: an emit_nvtx trace has a distinct NVTX text for nearly
// every range. Values go to one flat array (no vector per group: most
// groups of such a trace hold one value).
class DurationGroups {
public:
    // `a` is a small key (0, or a domain and a style bit), `name` a string
    // id of `report`: the group is found in an array indexed by the id.
    template<class MakeLabels>
    void add(const Report &report, std::uint64_t a, StringId name, MakeLabels &&makeLabels, std::int64_t value)
    {
        std::vector<std::uint32_t> &byName = m_keys[{&report, a}];
        if (byName.size() <= name)
            byName.resize(std::max<std::size_t>(report.strings.size(), std::size_t(name) + 1), kNoGroup);
        std::uint32_t &group = byName[name];
        if (group == kNoGroup)
            group = indexOf(makeLabels());
        m_groupOf.push_back(group);
        m_values.push_back(value);
    }
    // Room for `events` more values, so the arrays do not grow by doubling
    // (up to half of a grown array is slack).
    void reserve(std::size_t events)
    {
        m_groupOf.reserve(m_groupOf.size() + events);
        m_values.reserve(m_values.size() + events);
    }
    // The rows, in no particular order.
    std::vector<Row> summarize();

private:
    static constexpr std::uint32_t kNoGroup = ~std::uint32_t(0);

    std::uint32_t indexOf(QStringList labels)
    {
        auto it = m_index.constFind(labels);
        if (it != m_index.cend())
            return *it;
        const auto index = std::uint32_t(m_labels.size());
        m_index.insert(labels, index);
        m_labels.push_back(std::move(labels));
        return index;
    }

    std::map<std::pair<const Report *, std::uint64_t>, std::vector<std::uint32_t>> m_keys;
    // QHash, not std::unordered_map (core/qthash.h): an nvtx_sum of an
    // emit_nvtx export has a group per range, and the map's nodes cost
    // 0.54 GiB more at 20M ranges (stats peak 9.69 instead of 9.15 GiB).
    QHash<QStringList, std::uint32_t> m_index;
    std::vector<QStringList> m_labels;                          // per group
    // Per event, its group and value: two arrays (12 bytes an event, not a
    // padded pair's 16), as a session of hundreds of ranks has 10^8 events.
    std::vector<std::uint32_t> m_groupOf;
    std::vector<std::int64_t> m_values;
};

// The labels of a group, over its events or stored (one rule for both).
QStringList nameLabel(const Report &report, StringId name)
{
    return {report.strings.string(name)};
}
QStringList apiLabel(const Report &report, StringId name)
{
    return {apiNameWithoutVersion(report.strings.string(name))};
}
enum class NvtxStyle { PushPop, StartEnd, None };
NvtxStyle nvtxStyleOf(int eventType)
{
    if (eventType == NvtxEventType::PushPopRange || eventType == NvtxEventType::NvtxtPushPop)
        return NvtxStyle::PushPop;
    if (eventType == NvtxEventType::StartEndRange || eventType == NvtxEventType::NvtxtStartEnd)
        return NvtxStyle::StartEnd;
    return NvtxStyle::None; // marks have no duration
}
// Range is "<domain>:<message>"; the default domain has no name.
QStringList nvtxLabels(const Report &report, StringId domain, StringId name, NvtxStyle style)
{
    return {style == NvtxStyle::PushPop ? QStringLiteral("PushPop") : QStringLiteral("StartEnd"),
            report.strings.string(domain) + QLatin1Char(':') + report.strings.string(name)};
}

// The group of an event named by its slice name alone.
void addByName(DurationGroups &groups, const Report &report, StringId name, std::int64_t value)
{
    groups.add(report, 0, name, [&] { return nameLabel(report, name); }, value);
}

// Stored groups of these kinds and value, labelled by name alone.
StoredGroups storedByName(std::vector<TrackKind> kinds, GroupedValue value)
{
    return {std::move(kinds), value, [](const Report &report, const NameGroup &g) { return nameLabel(report, g.name); }};
}

// Largest total first, then fewer instances, then by label, as nsys orders.
void sortRows(std::vector<Row> &rows)
{
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        if (a.summary.total != b.summary.total)
            return a.summary.total > b.summary.total;
        if (a.summary.count != b.summary.count)
            return a.summary.count < b.summary.count;
        return a.labels < b.labels;
    });
}

std::vector<Row> DurationGroups::summarize()
{
    // Values by group, contiguous (a counting sort), then one summary each.
    std::vector<std::size_t> begin(m_labels.size() + 1, 0);
    for (const std::uint32_t group : m_groupOf)
        ++begin[group + 1];
    for (std::size_t g = 0; g < m_labels.size(); ++g)
        begin[g + 1] += begin[g];
    std::vector<std::int64_t> sorted(m_values.size());
    std::vector<std::size_t> next(begin.begin(), begin.end() - 1);
    for (std::size_t e = 0; e < m_values.size(); ++e)
        sorted[next[m_groupOf[e]]++] = m_values[e];
    m_groupOf = {};
    m_values = {};
    std::vector<Row> rows;
    rows.reserve(m_labels.size());
    for (std::size_t g = 0; g < m_labels.size(); ++g)
        rows.push_back({rankscope::summarize(std::span(sorted).subspan(begin[g], begin[g + 1] - begin[g])), std::move(m_labels[g])});
    return rows;
}

// A table's rows, largest total first: from the reports' stored groups when
// they cover the slices (whole reports opened from caches), else over the
// events (`overEvents` gives the DurationGroups).
template<class OverEvents>
std::vector<Row> rowsOf(const Slices &slices, const StoredGroups &stored, OverEvents &&overEvents)
{
    std::vector<Row> rows = storedGroupsCover(slices) ? summariesOfStoredGroups(slices, stored) : overEvents().summarize();
    sortRows(rows);
    return rows;
}

// "Time (%),Total Time (ns),<count>,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),<labels>"
ResultTable timeTable(QString name, QString title, const QString &countHeader,
                      const QStringList &labelHeaders, std::vector<Row> rows)
{
    ResultTable t;
    t.name = std::move(name);
    t.title = std::move(title);
    t.headers = QStringList{QStringLiteral("Time (%)"), QStringLiteral("Total Time (ns)"), countHeader,
                            QStringLiteral("Avg (ns)"), QStringLiteral("Med (ns)"), QStringLiteral("Min (ns)"),
                            QStringLiteral("Max (ns)"), QStringLiteral("StdDev (ns)")}
                + labelHeaders;
    std::int64_t grandTotal = 0;
    for (const Row &r : rows)
        grandTotal += r.summary.total;
    // Each row allocated once at its size: a PyTorch export's nvtx_sum has
    // 400,000 rows, and growing each by its labels was a sixth of the report.
    t.rows.reserve(rows.size());
    for (const Row &r : rows) {
        const Summary &s = r.summary;
        std::vector<Cell> &cells = t.rows.emplace_back();
        cells.reserve(8 + std::size_t(r.labels.size()));
        for (Cell cell : {Cell::ofDecimal(grandTotal ? 100.0 * double(s.total) / double(grandTotal) : 0.0, 1),
                          Cell::ofInteger(s.total), Cell::ofInteger(s.count), Cell::ofDecimal(s.average, 1),
                          Cell::ofDecimal(s.median, 1), Cell::ofInteger(s.minimum), Cell::ofInteger(s.maximum),
                          Cell::ofDecimal(s.stdDev, 1)})
            cells.push_back(std::move(cell));
        for (const QString &label : r.labels)
            cells.push_back(Cell::ofText(label));
    }
    return t;
}

// Calls visit(report, track, event) for every event of `kind` the slices
// take in. A report read through its cache's mapping gives its pages back
// once read (unless the timeline is using it): over hundreds of ranks the
// pages read would otherwise outweigh the values kept.
template<class Visit>
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
    for (const ReportSlice &slice : slices)
        for (const Track &track : slice.report->tracks)
            if (track.kind == kind && slice.acceptsTrack(track)) {
                const auto [first, last] = slice.eventsIn(track);
                events += last - first;
            }
    return events;
}

// Memcpy rows grouped as "[CUDA memcpy <kind>]", memsets as "[CUDA memset]";
// `value` picks durations or bytes.
template<class Value>
DurationGroups memoryOperationGroups(const Slices &slices, Value &&value)
{
    DurationGroups groups;
    groups.reserve(eventsOf(slices, TrackKind::Memcpy) + eventsOf(slices, TrackKind::Memset));
    for (TrackKind kind : {TrackKind::Memcpy, TrackKind::Memset})
        forEachSlice(slices, kind, [&](const Report &report, const Track &track, std::size_t i) {
            addByName(groups, report, track.slices.name(i), value(report, track, i));
        });
    return groups;
}

} // namespace

QString apiNameWithoutVersion(const QString &name)
{
    const qsizetype n = name.size();
    if (n > 6 && name[n - 6] == QLatin1Char('_') && name[n - 5] == QLatin1Char('v'))
        return name.left(n - 6);
    return name;
}

ResultTable cudaGpuKernSum(const Slices &slices)
{
    std::vector<Row> rows = rowsOf(slices, storedByName({TrackKind::Kernel}, GroupedValue::Duration), [&] {
        DurationGroups groups;
        groups.reserve(eventsOf(slices, TrackKind::Kernel));
        forEachSlice(slices, TrackKind::Kernel, [&](const Report &report, const Track &track, std::size_t i) {
            addByName(groups, report, track.slices.name(i), track.slices.duration(i));
        });
        return groups;
    });
    return timeTable(QStringLiteral("cuda_gpu_kern_sum"), QStringLiteral("CUDA GPU Kernel Summary"),
                     QStringLiteral("Instances"), {QStringLiteral("Name")}, std::move(rows));
}

ResultTable cudaGpuMemTimeSum(const Slices &slices)
{
    std::vector<Row> rows = rowsOf(slices, storedByName({TrackKind::Memcpy, TrackKind::Memset}, GroupedValue::Duration), [&] {
        return memoryOperationGroups(slices, [](const Report &, const Track &t, std::size_t i) { return t.slices.duration(i); });
    });
    return timeTable(QStringLiteral("cuda_gpu_mem_time_sum"),
                     QStringLiteral("CUDA GPU MemOps Summary (by Time)"), QStringLiteral("Count"),
                     {QStringLiteral("Operation")}, std::move(rows));
}

ResultTable cudaGpuMemSizeSum(const Slices &slices)
{
    std::vector<Row> rows = rowsOf(slices, storedByName({TrackKind::Memcpy, TrackKind::Memset}, GroupedValue::Bytes), [&] {
        return memoryOperationGroups(slices, [](const Report &report, const Track &t, std::size_t i) {
            const std::uint32_t row = t.slices.payload(i);
            return std::int64_t(t.kind == TrackKind::Memcpy ? report.memcpys[row].bytes : report.memsets[row].bytes);
        });
    });
    ResultTable t;
    t.name = QStringLiteral("cuda_gpu_mem_size_sum");
    t.title = QStringLiteral("CUDA GPU MemOps Summary (by Size)");
    t.headers = QStringList{QStringLiteral("Total (MB)"), QStringLiteral("Count"), QStringLiteral("Avg (MB)"),
                            QStringLiteral("Med (MB)"), QStringLiteral("Min (MB)"), QStringLiteral("Max (MB)"),
                            QStringLiteral("StdDev (MB)"), QStringLiteral("Operation")};
    // nsys prints decimal megabytes (10^6 B) with three decimals.
    constexpr double MB = 1e6;
    for (const Row &r : rows) {
        const Summary &s = r.summary;
        t.rows.push_back({Cell::ofDecimal(double(s.total) / MB, 3), Cell::ofInteger(s.count),
                          Cell::ofDecimal(s.average / MB, 3), Cell::ofDecimal(s.median / MB, 3),
                          Cell::ofDecimal(double(s.minimum) / MB, 3), Cell::ofDecimal(double(s.maximum) / MB, 3),
                          Cell::ofDecimal(s.stdDev / MB, 3), Cell::ofText(r.labels.value(0))});
    }
    return t;
}

ResultTable cudaApiSum(const Slices &slices)
{
    const StoredGroups stored{{TrackKind::CudaApi}, GroupedValue::Duration,
                              [](const Report &report, const NameGroup &g) { return apiLabel(report, g.name); }};
    std::vector<Row> rows = rowsOf(slices, stored, [&] {
        DurationGroups groups;
        groups.reserve(eventsOf(slices, TrackKind::CudaApi));
        forEachSlice(slices, TrackKind::CudaApi, [&](const Report &report, const Track &track, std::size_t i) {
            const StringId name = track.slices.name(i);
            groups.add(report, 0, name, [&] { return apiLabel(report, name); }, track.slices.duration(i));
        });
        return groups;
    });
    return timeTable(QStringLiteral("cuda_api_sum"), QStringLiteral("CUDA API Summary"),
                     QStringLiteral("Num Calls"), {QStringLiteral("Name")}, std::move(rows));
}

ResultTable nvtxSum(const Slices &slices)
{
    const StoredGroups stored{{TrackKind::Nvtx}, GroupedValue::Duration, [](const Report &report, const NameGroup &g) {
                                  const NvtxStyle style = nvtxStyleOf(g.nvtxEventType);
                                  return style == NvtxStyle::None ? QStringList{} : nvtxLabels(report, g.domain, g.name, style);
                              }};
    std::vector<Row> rows = rowsOf(slices, stored, [&] {
        DurationGroups groups;
        groups.reserve(eventsOf(slices, TrackKind::Nvtx));
        forEachSlice(slices, TrackKind::Nvtx, [&](const Report &report, const Track &track, std::size_t i) {
            const NvtxStyle style = nvtxStyleOf(report.nvtxRecord(track.slices.payload(i)).eventType);
            if (style == NvtxStyle::None)
                return;
            const StringId name = track.slices.name(i);
            groups.add(
                report, std::uint64_t(track.domainName) << 1 | std::uint64_t(style == NvtxStyle::PushPop), name,
                [&] { return nvtxLabels(report, track.domainName, name, style); }, track.slices.duration(i));
        });
        return groups;
    });
    return timeTable(QStringLiteral("nvtx_sum"), QStringLiteral("NVTX Range Summary"),
                     QStringLiteral("Instances"), {QStringLiteral("Style"), QStringLiteral("Range")}, std::move(rows));
}

ResultTable osrtSum(const Slices &slices)
{
    std::vector<Row> rows = rowsOf(slices, storedByName({TrackKind::OsRuntime}, GroupedValue::Duration), [&] {
        DurationGroups groups;
        groups.reserve(eventsOf(slices, TrackKind::OsRuntime));
        forEachSlice(slices, TrackKind::OsRuntime, [&](const Report &report, const Track &track, std::size_t i) {
            addByName(groups, report, track.slices.name(i), track.slices.duration(i));
        });
        return groups;
    });
    return timeTable(QStringLiteral("osrt_sum"), QStringLiteral("OS Runtime Summary"),
                     QStringLiteral("Num Calls"), {QStringLiteral("Name")}, std::move(rows));
}

} // namespace rankscope::stats
