#include "load/sidetableorder.h"

#include <vector>

namespace rankscope {

namespace {

template <class Record>
void storeInTrackOrder(Report &report, TrackKind kind, Column<Record> &table)
{
    // Only a table each of whose rows one slice of this kind reads: a row
    // read twice, or by nothing here, keeps the table as it is.
    std::vector<bool> read(table.size(), false);
    std::size_t reads = 0;
    for (const Track &track : report.tracks) {
        if (track.kind != kind)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const std::uint32_t row = track.slices.payload(i);
            if (row >= table.size() || read[row])
                return;
            read[row] = true;
            ++reads;
        }
    }
    if (reads != table.size())
        return;
    Column<Record> ordered;
    ordered.reserve(table.size());
    for (Track &track : report.tracks) {
        if (track.kind != kind)
            continue;
        const auto base = std::uint32_t(ordered.size());
        for (std::size_t i = 0; i < track.slices.size(); ++i)
            ordered.push_back(table[track.slices.payload(i)]);
        track.slices.numberPayloadsFrom(base);
    }
    table.swap(ordered);
}

} // namespace

void storeSideTableInTrackOrder(Report &report, TrackKind kind)
{
    switch (kind) {
    case TrackKind::Kernel:
        storeInTrackOrder(report, kind, report.kernels);
        break;
    case TrackKind::Memcpy:
        storeInTrackOrder(report, kind, report.memcpys);
        break;
    case TrackKind::Memset:
        storeInTrackOrder(report, kind, report.memsets);
        break;
    case TrackKind::Sync:
        storeInTrackOrder(report, kind, report.syncs);
        break;
    case TrackKind::CudaApi:
        storeInTrackOrder(report, kind, report.apiCalls);
        break;
    case TrackKind::NvtxGpuProjection:
        storeInTrackOrder(report, kind, report.nvtxProjections);
        break;
    default:
        break; // NVTX records are sparse (plain ranges have none); the rest have no table
    }
}

void storeSideTablesInTrackOrder(Report &report)
{
    for (const TrackKind kind :
         {TrackKind::Kernel, TrackKind::Memcpy, TrackKind::Memset, TrackKind::Sync, TrackKind::CudaApi, TrackKind::NvtxGpuProjection})
        storeSideTableInTrackOrder(report, kind);
}

} // namespace rankscope
