#pragma once
// Paraver's derived views of one GPU as counters, exact step functions of
// its kernels, copies and memsets (sampled only where they change; binned
// only to draw):
// - kernels in flight: how many of its kernels run at once (any stream);
// - compute during communication: 100 % while a communication kernel and
//   some other kernel run together, else 0 (Paraver's "overlap of
//   computation during communication"; over a selection, its mean is the
//   share of the window);
// - GPU useful: 100 % while a kernel other than communication runs (the
//   time spent communicating or copying is not useful work);
// - GPU gap: in each idle gap (no kernel, copy or memset), the gap's
//   length, held for the whole gap; 0 while busy.
// Built in report time for one process and device of a report.
#include "core/countertrack.h"
#include "core/report.h"
#include "stats/kernelclasses.h"

#include <optional>
#include <vector>

namespace rankscope::stats {

enum class GpuStateRow { KernelsInFlight, ComputeDuringCommunication, Useful, GapLength };
inline constexpr GpuStateRow kGpuStateRows[] = {GpuStateRow::KernelsInFlight, GpuStateRow::ComputeDuringCommunication, GpuStateRow::Useful,
                                                GpuStateRow::GapLength};

// A row's name, its values' unit ("%", "ns" a duration, "" a count) and
// what it shows, as its tooltip says it.
struct GpuStateRowText {
    const char *name, *unit, *explained;
};
const GpuStateRowText &gpuStateRowText(GpuStateRow row);

// One derived counter, with the running integral of its step function so
// that the mean over any range is two lookups: a share row (0 or 100 %)
// drawn zoomed out shows the share of each pixel's time, not the largest
// value in it.
struct GpuStateCounter {
    GpuStateRow row;
    CounterTrack counter;
    std::vector<double> integral; // [i]: value x time from the first sample to sample i
    bool drawsMean() const { return row == GpuStateRow::ComputeDuringCommunication || row == GpuStateRow::Useful; }
    // The time-weighted mean over [from, to) of the samples in force (the
    // part before the first sample does not count); none when none is.
    std::optional<double> meanIn(TimeNs from, TimeNs to) const;
};

// The counters of one GPU of `report`, in kGpuStateRows' order, each
// finalized; `tracks` are the tracks of that process and device (the
// kernel, memcpy and memset ones are read). None when they hold no GPU work.
std::vector<GpuStateCounter> gpuStateCounters(const Report &report, const std::vector<std::uint32_t> &tracks, const KernelClassifier &classes);

} // namespace rankscope::stats
