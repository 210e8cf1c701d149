#include "stats/nsys/kernexec.h"
#include "stats/nsys/kernelnames.h"
#include "stats/reportcatalog.h"

#include "stats/nsys/kerngridsum.h"
#include "stats/nsys/nsysreports.h"

#include "stats/summary.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

namespace rankscope::stats {

namespace {

// A kernel and the CUDA API call that launched it (same process, same
// correlation id).
struct Launch {
    TimeNs apiStart = 0, apiEnd = 0;
    TimeNs kernelStart = 0, kernelEnd = 0;
    TrackEvent api, kernel;
    bool queued() const { return kernelStart >= apiEnd; }
    TimeNs total() const { return std::max(apiEnd, kernelEnd) - apiStart; }
};

// Every launch the export has, by the call's start.
std::vector<Launch> launchesOf(const Report &report)
{
    std::vector<Launch> launches;
    std::size_t hint = 0;
    for (std::uint32_t tr = 0; tr < report.tracks.size(); ++tr) {
        const Track &track = report.tracks[tr];
        if (track.kind != TrackKind::Kernel)
            continue;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const std::uint32_t correlation = report.kernels[track.slices.payload(i)].correlationId;
            const std::optional<TrackEvent> api = report.apiCallFor(Report::correlationKey(track.pid, correlation), hint);
            if (!api || report.tracks[api->track].kind != TrackKind::CudaApi)
                continue;
            const Track &apiTrack = report.tracks[api->track];
            launches.push_back(
                {apiTrack.slices.start(api->event), apiTrack.slices.end(api->event), track.slices.start(i), track.slices.end(i), *api, {tr, i}});
        }
    }
    std::sort(launches.begin(), launches.end(), [](const Launch &a, const Launch &b) {
        return std::tie(a.apiStart, a.kernelStart, a.kernel.track, a.kernel.event)
               < std::tie(b.apiStart, b.kernelStart, b.kernel.track, b.kernel.event);
    });
    return launches;
}

} // namespace

ResultTable cudaKernExecTrace(const Report &report, KernelNaming naming, bool nvtxPrefix)
{
    KernelLabels labels(naming, nvtxPrefix);
    ResultTable t = declaredTable(QStringLiteral("cuda_kern_exec_trace"));
    t.headers = QStringList{QStringLiteral("API Start (ns)"),
                            QStringLiteral("API Dur (ns)"),
                            QStringLiteral("Queue Start (ns)"),
                            QStringLiteral("Queue Dur (ns)"),
                            QStringLiteral("Kernel Start (ns)"),
                            QStringLiteral("Kernel Dur (ns)"),
                            QStringLiteral("Total Dur (ns)"),
                            QStringLiteral("PID"),
                            QStringLiteral("TID"),
                            QStringLiteral("DevId"),
                            QStringLiteral("API Function"),
                            QStringLiteral("GridXYZ"),
                            QStringLiteral("BlockXYZ"),
                            QStringLiteral("Kernel Name")};
    const std::vector<Launch> launches = launchesOf(report);
    t.reserveRows(launches.size());
    for (const Launch &l : launches) {
        const Track &apiTrack = report.tracks[l.api.track];
        const Track &kernelTrack = report.tracks[l.kernel.track];
        const TimeNs apiEnd = l.apiEnd, kernelEnd = l.kernelEnd;
        const KernelConfig &c = report.launch(report.kernels[kernelTrack.slices.payload(l.kernel.event)]);
        const bool queued = l.queued();
        t.addRow({Cell::ofInteger(l.apiStart), Cell::ofInteger(apiEnd - l.apiStart), queued ? Cell::ofInteger(apiEnd) : Cell{},
                  queued ? Cell::ofInteger(l.kernelStart - apiEnd) : Cell{}, Cell::ofInteger(l.kernelStart),
                  Cell::ofInteger(kernelEnd - l.kernelStart), Cell::ofInteger(std::max(apiEnd, kernelEnd) - l.apiStart),
                  Cell::ofInteger(apiTrack.pid), Cell::ofInteger(apiTrack.tid), Cell::ofInteger(kernelTrack.deviceId),
                  Cell::ofText(apiNameWithoutVersion(report.strings.string(apiTrack.slices.name(l.api.event)))),
                  Cell::ofText(launchDimensions(c.gridX, c.gridY, c.gridZ)), Cell::ofText(launchDimensions(c.blockX, c.blockY, c.blockZ)),
                  Cell::ofText(KernelLabels::text(report, labels.of(report, kernelTrack, l.kernel.event)))});
    }
    return t;
}

ResultTable cudaKernExecSum(const Report &report, KernelNaming naming, bool nvtxPrefix)
{
    KernelLabels labels(naming, nvtxPrefix);
    ResultTable t = declaredTable(QStringLiteral("cuda_kern_exec_sum"));
    t.headers = QStringList{QStringLiteral("PID"), QStringLiteral("TID"), QStringLiteral("DevId"), QStringLiteral("Count"), QStringLiteral("QCount")};
    for (const char *phase : {"T", "A", "Q", "K"})
        for (const char *measure : {"Avg", "Med", "Min", "Max", "StdDev"})
            t.headers << QStringLiteral("%1%2 (ns)").arg(QLatin1String(phase), QLatin1String(measure));
    t.headers << QStringLiteral("API Name") << QStringLiteral("Kernel Name");
    // Per caller, device, call name and kernel name: each phase's times.
    struct Group {
        std::vector<std::int64_t> total, api, queue, kernel;
    };
    std::map<std::tuple<std::uint32_t, std::uint32_t, int, QString, KernelLabel>, Group> groups;
    std::map<StringId, QString> callNames; // without the _vNNNN suffix, once per name
    for (const Launch &l : launchesOf(report)) {
        const Track &apiTrack = report.tracks[l.api.track];
        const Track &kernelTrack = report.tracks[l.kernel.track];
        const StringId call = apiTrack.slices.name(l.api.event);
        auto name = callNames.find(call);
        if (name == callNames.end())
            name = callNames.emplace(call, apiNameWithoutVersion(report.strings.string(call))).first;
        Group &g = groups[{apiTrack.pid, apiTrack.tid, kernelTrack.deviceId, name->second, labels.of(report, kernelTrack, l.kernel.event)}];
        g.total.push_back(l.total());
        g.api.push_back(l.apiEnd - l.apiStart);
        if (l.queued())
            g.queue.push_back(l.kernelStart - l.apiEnd);
        g.kernel.push_back(l.kernelEnd - l.kernelStart);
    }
    struct Row {
        std::vector<Cell> cells;
        double totalAverage;
    };
    std::vector<Row> rows;
    for (auto &[key, g] : groups) {
        const auto &[pid, tid, device, call, kernel] = key;
        std::vector<Cell> cells{Cell::ofInteger(pid), Cell::ofInteger(tid), Cell::ofInteger(device), Cell::ofInteger(std::int64_t(g.total.size())),
                                Cell::ofInteger(std::int64_t(g.queue.size()))};
        double totalAverage = 0;
        for (std::vector<std::int64_t> *values : {&g.total, &g.api, &g.queue, &g.kernel}) {
            if (values->empty()) { // no launch was queued: SQL's aggregates of nothing
                cells.insert(cells.end(), 5, Cell{});
                continue;
            }
            const Summary s = summarize(*values);
            if (values == &g.total)
                totalAverage = s.average;
            cells.insert(cells.end(), {Cell::ofDecimal(s.average, 1), Cell::ofDecimal(s.median, 1), Cell::ofInteger(s.minimum),
                                       Cell::ofInteger(s.maximum), Cell::ofDecimal(s.stdDev, 1)});
        }
        cells.push_back(Cell::ofText(call));
        cells.push_back(Cell::ofText(KernelLabels::text(report, kernel)));
        rows.push_back({std::move(cells), totalAverage});
    }
    // ORDER BY the average total, longest first (ties in the groups' order).
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) { return a.totalAverage > b.totalAverage; });
    t.reserveRows(rows.size());
    for (const Row &r : rows)
        t.addRow(r.cells);
    return t;
}

} // namespace rankscope::stats
