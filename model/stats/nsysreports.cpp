#include "stats/nsysreports.h"

#include "stats/sqlround.h"
#include "stats/summary.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace rankscope::stats {

namespace {

// Durations grouped by a label, in first-seen order. An event finds its
// group by integer keys of its report (string ids, a style bit), so a label
// is built and looked up once per distinct key, not once per event: an
// emit_nvtx trace has a distinct NVTX text for nearly every range.
class DurationGroups {
public:
    template<class MakeLabel>
    std::vector<std::int64_t> &byKey(const Report &report, std::uint64_t a, std::uint64_t b, MakeLabel &&makeLabel)
    {
        auto [it, added] = m_keys.try_emplace(Key{&report, a, b}, 0);
        if (added)
            it->second = indexOf(makeLabel());
        return m_groups[it->second].second;
    }
    std::vector<std::pair<QString, std::vector<std::int64_t>>> &groups() { return m_groups; }

private:
    struct Key {
        const Report *report;
        std::uint64_t a, b;
        bool operator==(const Key &) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key &k) const
        {
            std::uint64_t h = reinterpret_cast<std::uintptr_t>(k.report);
            h = (h ^ k.a) * 0x9E3779B97F4A7C15ULL;
            h = (h ^ k.b) * 0x9E3779B97F4A7C15ULL;
            return std::size_t(h ^ (h >> 32));
        }
    };
    std::size_t indexOf(const QString &label)
    {
        auto [it, added] = m_index.try_emplace(label, m_groups.size());
        if (added)
            m_groups.push_back({label, {}});
        return it->second;
    }

    std::unordered_map<Key, std::size_t, KeyHash> m_keys;
    std::unordered_map<QString, std::size_t> m_index;
    std::vector<std::pair<QString, std::vector<std::int64_t>>> m_groups;
};

// The group of an event named by its slice name alone.
std::vector<std::int64_t> &groupOfName(DurationGroups &groups, const Report &report, StringId name)
{
    return groups.byKey(report, name, 0, [&] { return report.strings.string(name); });
}

struct Row {
    Summary summary;
    QStringList labels; // trailing text columns
};

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

std::vector<Row> summarizeGroups(DurationGroups &groups)
{
    std::vector<Row> rows;
    for (auto &[label, values] : groups.groups())
        rows.push_back({summarize(values), label.split(QChar(0x1f))});
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
    for (const Row &r : rows) {
        const Summary &s = r.summary;
        std::vector<Cell> cells{
            Cell::ofDecimal(grandTotal ? 100.0 * double(s.total) / double(grandTotal) : 0.0, 1),
            Cell::ofInteger(s.total), Cell::ofInteger(s.count), Cell::ofDecimal(s.average, 1),
            Cell::ofDecimal(s.median, 1), Cell::ofInteger(s.minimum), Cell::ofInteger(s.maximum),
            Cell::ofDecimal(s.stdDev, 1)};
        for (const QString &label : r.labels)
            cells.push_back(Cell::ofText(label));
        t.rows.push_back(std::move(cells));
    }
    return t;
}

// Calls visit(report, track, event) for every event of `kind` the slices
// take in.
template<class Visit>
void forEachSlice(const Slices &slices, TrackKind kind, Visit &&visit)
{
    for (const ReportSlice &slice : slices)
        for (const Track &track : slice.report->tracks) {
            if (track.kind != kind || !slice.acceptsTrack(track))
                continue;
            const auto [first, last] = slice.eventsIn(track);
            for (std::size_t i = first; i < last; ++i)
                visit(*slice.report, track, i);
        }
}

// Memcpy rows grouped as "[CUDA memcpy <kind>]", memsets as "[CUDA memset]";
// `value` picks durations or bytes.
template<class Value>
DurationGroups memoryOperationGroups(const Slices &slices, Value &&value)
{
    DurationGroups groups;
    for (TrackKind kind : {TrackKind::Memcpy, TrackKind::Memset})
        forEachSlice(slices, kind, [&](const Report &report, const Track &track, std::size_t i) {
            groupOfName(groups, report, track.slices.name(i)).push_back(value(report, track, i));
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
    DurationGroups groups;
    forEachSlice(slices, TrackKind::Kernel, [&](const Report &report, const Track &track, std::size_t i) {
        groupOfName(groups, report, track.slices.name(i)).push_back(track.slices.duration(i));
    });
    return timeTable(QStringLiteral("cuda_gpu_kern_sum"), QStringLiteral("CUDA GPU Kernel Summary"),
                     QStringLiteral("Instances"), {QStringLiteral("Name")}, summarizeGroups(groups));
}

ResultTable cudaGpuMemTimeSum(const Slices &slices)
{
    DurationGroups groups = memoryOperationGroups(slices, [](const Report &, const Track &t, std::size_t i) { return t.slices.duration(i); });
    return timeTable(QStringLiteral("cuda_gpu_mem_time_sum"),
                     QStringLiteral("CUDA GPU MemOps Summary (by Time)"), QStringLiteral("Count"),
                     {QStringLiteral("Operation")}, summarizeGroups(groups));
}

ResultTable cudaGpuMemSizeSum(const Slices &slices)
{
    DurationGroups groups = memoryOperationGroups(slices, [](const Report &report, const Track &t, std::size_t i) {
        const std::uint32_t row = t.slices.payload(i);
        return std::int64_t(t.kind == TrackKind::Memcpy ? report.memcpys[row].bytes : report.memsets[row].bytes);
    });
    ResultTable t;
    t.name = QStringLiteral("cuda_gpu_mem_size_sum");
    t.title = QStringLiteral("CUDA GPU MemOps Summary (by Size)");
    t.headers = QStringList{QStringLiteral("Total (MB)"), QStringLiteral("Count"), QStringLiteral("Avg (MB)"),
                            QStringLiteral("Med (MB)"), QStringLiteral("Min (MB)"), QStringLiteral("Max (MB)"),
                            QStringLiteral("StdDev (MB)"), QStringLiteral("Operation")};
    // nsys prints decimal megabytes (10^6 B) with three decimals.
    constexpr double MB = 1e6;
    for (const Row &r : summarizeGroups(groups)) {
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
    DurationGroups groups;
    forEachSlice(slices, TrackKind::CudaApi, [&](const Report &report, const Track &track, std::size_t i) {
        const StringId name = track.slices.name(i);
        groups.byKey(report, name, 0, [&] { return apiNameWithoutVersion(report.strings.string(name)); })
            .push_back(track.slices.duration(i));
    });
    return timeTable(QStringLiteral("cuda_api_sum"), QStringLiteral("CUDA API Summary"),
                     QStringLiteral("Num Calls"), {QStringLiteral("Name")}, summarizeGroups(groups));
}

ResultTable nvtxSum(const Slices &slices)
{
    DurationGroups groups;
    forEachSlice(slices, TrackKind::Nvtx, [&](const Report &report, const Track &track, std::size_t i) {
        const int type = report.nvtx[track.slices.payload(i)].eventType;
        const bool pushPop = type == NvtxEventType::PushPopRange || type == NvtxEventType::NvtxtPushPop;
        const bool startEnd = type == NvtxEventType::StartEndRange || type == NvtxEventType::NvtxtStartEnd;
        if (!pushPop && !startEnd)
            return; // marks have no duration
        // Range is "<domain>:<message>"; the default domain has no name.
        const StringId name = track.slices.name(i);
        groups.byKey(report, std::uint64_t(track.domainName) << 1 | std::uint64_t(pushPop), name, [&] {
                  const QString style = pushPop ? QStringLiteral("PushPop") : QStringLiteral("StartEnd");
                  return style + QChar(0x1f) + report.strings.string(track.domainName) + QLatin1Char(':') + report.strings.string(name);
              }).push_back(track.slices.duration(i));
    });
    return timeTable(QStringLiteral("nvtx_sum"), QStringLiteral("NVTX Range Summary"),
                     QStringLiteral("Instances"), {QStringLiteral("Style"), QStringLiteral("Range")},
                     summarizeGroups(groups));
}

ResultTable osrtSum(const Slices &slices)
{
    DurationGroups groups;
    forEachSlice(slices, TrackKind::OsRuntime, [&](const Report &report, const Track &track, std::size_t i) {
        groupOfName(groups, report, track.slices.name(i)).push_back(track.slices.duration(i));
    });
    return timeTable(QStringLiteral("osrt_sum"), QStringLiteral("OS Runtime Summary"),
                     QStringLiteral("Num Calls"), {QStringLiteral("Name")}, summarizeGroups(groups));
}

} // namespace rankscope::stats
