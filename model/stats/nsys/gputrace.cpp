#include "stats/nsys/gputrace.h"
#include "stats/nsys/kernelnames.h"
#include "stats/reportcatalog.h"

#include "stats/nsys/traceorder.h"

#include <map>
#include <vector>

namespace rankscope::stats {

namespace {

constexpr double kMB = 1e6;

// Where two operations start at once, nsys' query (kernels UNION ALL
// copies UNION ALL memsets, sorted by start) lists them in that order.
std::optional<int> tableOrder(const Track &track, std::uint32_t)
{
    switch (track.kind) {
    case TrackKind::Kernel:
        return 0;
    case TrackKind::Memcpy:
        return 1;
    case TrackKind::Memset:
        return 2;
    default:
        return std::nullopt;
    }
}

Cell megabytes(std::uint64_t bytes)
{
    return Cell::ofPythonDecimal(double(bytes) / kMB, 3);
}

// MB/s as nsys computes it: bytes x (10^9 / duration), integer division.
Cell throughput(std::uint64_t bytes, TimeNs duration)
{
    if (duration <= 0)
        return {};
    return Cell::ofPythonDecimal(double(bytes) * double(1'000'000'000 / duration) / kMB, 3);
}

} // namespace

ResultTable cudaGpuTrace(const Report &report, KernelNaming naming, bool nvtxPrefix)
{
    KernelLabels labels(naming, nvtxPrefix);
    ResultTable t = declaredTable(QStringLiteral("cuda_gpu_trace"));
    t.headers = QStringList{QStringLiteral("Start (ns)"),   QStringLiteral("Duration (ns)"),
                            QStringLiteral("CorrId"),       QStringLiteral("GrdX"),
                            QStringLiteral("GrdY"),         QStringLiteral("GrdZ"),
                            QStringLiteral("BlkX"),         QStringLiteral("BlkY"),
                            QStringLiteral("BlkZ"),         QStringLiteral("Reg/Trd"),
                            QStringLiteral("StcSMem (MB)"), QStringLiteral("DymSMem (MB)"),
                            QStringLiteral("Bytes (MB)"),   QStringLiteral("Throughput (MB/s)"),
                            QStringLiteral("SrcMemKd"),     QStringLiteral("DstMemKd"),
                            QStringLiteral("Device"),       QStringLiteral("Ctx"),
                            QStringLiteral("GreenCtx"),     QStringLiteral("Strm"),
                            QStringLiteral("Name")};
    const std::vector<TraceRow> operations = rowsInTraceOrder(report, tableOrder);
    // "NVIDIA H100 80GB HBM3 (0)", once per device.
    std::map<int, QString> deviceNames;
    auto deviceName = [&](int deviceId) -> const QString & {
        auto it = deviceNames.find(deviceId);
        if (it == deviceNames.end()) {
            const GpuInfo *gpu = report.gpu(deviceId);
            it = deviceNames.emplace(deviceId, QStringLiteral("%1 (%2)").arg(gpu ? gpu->name : QString()).arg(deviceId)).first;
        }
        return it->second;
    };
    t.reserveRows(operations.size());
    for (const TraceRow &op : operations) {
        const Track &track = report.tracks[op.at.track];
        const TimeNs duration = track.slices.duration(op.at.event);
        const std::uint32_t payload = track.slices.payload(op.at.event);
        std::vector<Cell> row(21);
        row[0] = Cell::ofInteger(op.start);
        row[1] = Cell::ofInteger(duration);
        if (track.kind == TrackKind::Kernel) {
            const KernelRecord &k = report.kernels[payload];
            const KernelConfig &c = report.launch(k);
            row[2] = Cell::ofInteger(k.correlationId);
            row[3] = Cell::ofInteger(c.gridX), row[4] = Cell::ofInteger(c.gridY), row[5] = Cell::ofInteger(c.gridZ);
            row[6] = Cell::ofInteger(c.blockX), row[7] = Cell::ofInteger(c.blockY), row[8] = Cell::ofInteger(c.blockZ);
            row[9] = Cell::ofInteger(c.registersPerThread);
            row[10] = megabytes(c.staticSharedMemory);
            row[11] = megabytes(c.dynamicSharedMemory);
        } else if (track.kind == TrackKind::Memcpy) {
            const MemcpyRecord &m = report.memcpys[payload];
            row[2] = Cell::ofInteger(m.correlationId);
            row[12] = megabytes(m.bytes);
            row[13] = throughput(m.bytes, duration);
            row[14] = Cell::ofText(report.memoryKindLabel(int(m.srcKind)));
            row[15] = Cell::ofText(report.memoryKindLabel(int(m.dstKind)));
        } else {
            const MemsetRecord &m = report.memsets[payload];
            row[2] = Cell::ofInteger(m.correlationId);
            row[12] = megabytes(m.bytes);
            row[13] = throughput(m.bytes, duration);
            row[14] = Cell::ofText(report.memoryKindLabel(int(m.memKind)));
        }
        row[16] = Cell::ofText(deviceName(track.deviceId));
        row[17] = Cell::ofInteger(track.contextId);
        row[19] = Cell::ofInteger(track.streamId);
        row[20] = Cell::ofText(track.kind == TrackKind::Kernel ? KernelLabels::text(report, labels.of(report, track, op.at.event))
                                                               : report.strings.string(track.slices.name(op.at.event)));
        t.addRow(std::move(row));
    }
    return t;
}

} // namespace rankscope::stats
