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
    // NVTX records are sparse (plain ranges have none): only a table each
    // of whose slices names a row can be put in track order.
    if (trackKindInfo(kind).payload != SlicePayload::Row)
        return;
    forEachSideTable(report, [&](auto &table, std::initializer_list<TrackKind> readers) {
        if (*readers.begin() == kind)
            storeInTrackOrder(report, kind, table);
    });
}

void storeSideTablesInTrackOrder(Report &report)
{
    forEachSideTable(report, [&](auto &, std::initializer_list<TrackKind> readers) { storeSideTableInTrackOrder(report, *readers.begin()); });
}

} // namespace rankscope
