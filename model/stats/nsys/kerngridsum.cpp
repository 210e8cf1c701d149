#include "stats/nsys/kerngridsum.h"
#include "stats/nsys/kernelnames.h"
#include "stats/reportcatalog.h"

#include "stats/summary.h"
#include "stats/summarygroups.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

namespace rankscope::stats {

namespace {

// A kernel's name and its launch's grid and block.
using GridBlockKey = std::tuple<KernelLabel, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;

} // namespace

QString launchDimensions(std::uint32_t x, std::uint32_t y, std::uint32_t z)
{
    return QStringLiteral("%1 %2 %3").arg(x, 4).arg(y, 4).arg(z, 4);
}

ResultTable cudaGpuKernGridBlockSum(const Report &report, KernelNaming naming, bool nvtxPrefix)
{
    KernelLabels labels(naming, nvtxPrefix);
    ResultTable t = declaredTable(QStringLiteral("cuda_gpu_kern_gb_sum"));
    t.headers = timeSummaryHeaders(QStringLiteral("Instances"), {QStringLiteral("GridXYZ"), QStringLiteral("BlockXYZ"), QStringLiteral("Name")});
    std::map<GridBlockKey, std::vector<std::int64_t>> durations;
    for (const Track &track : report.tracks) {
        if (track.kind != TrackKind::Kernel)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const KernelConfig &c = report.launch(report.kernels[track.slices.payload(i)]);
            durations[{labels.of(report, track, i), c.gridX, c.gridY, c.gridZ, c.blockX, c.blockY, c.blockZ}].push_back(track.slices.duration(i));
        }
    }
    struct Row {
        Summary summary;
        QString name;
        const GridBlockKey *key;
    };
    std::vector<Row> rows;
    rows.reserve(durations.size());
    std::int64_t grandTotal = 0;
    for (auto &[key, values] : durations) {
        rows.push_back({summarize(values), KernelLabels::text(report, std::get<0>(key)), &key});
        grandTotal += rows.back().summary.total;
    }
    // nsys: ORDER BY total DESC, instances, name (then the dimensions, for
    // one order where nsys leaves ties to SQLite).
    std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        if (a.summary.total != b.summary.total)
            return a.summary.total > b.summary.total;
        if (a.summary.count != b.summary.count)
            return a.summary.count < b.summary.count;
        if (a.name != b.name)
            return a.name < b.name;
        return *a.key < *b.key;
    });
    t.reserveRows(rows.size());
    for (const Row &r : rows) {
        const std::size_t row = t.appendRow();
        writeSummaryCells(t, row, r.summary);
        const auto &[name, gx, gy, gz, bx, by, bz] = *r.key;
        t.setText(row, 8, launchDimensions(gx, gy, gz));
        t.setText(row, 9, launchDimensions(bx, by, bz));
        t.setText(row, 10, r.name);
    }
    fillTimeShares(t, grandTotal);
    return t;
}

} // namespace rankscope::stats
