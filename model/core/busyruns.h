#pragma once
// When any of a set of tracks is busy: the union of their events as
// disjoint runs, kept as a track of its own (so it has summaries).
// Concurrent work (a copy beside a kernel) counts once. What a collapsed
// row draws and what the GPU busy summaries (Report::gpuBusy) are built from.
//
// Runs that touch are one run; an event of no length that touches no other
// stays a run of no length. So the spaces between runs are exactly nsys'
// gpu_gaps of the events (their sorted starts paired with their sorted
// ends: an instant operation splits an idle gap in two), which the GPU
// gaps and the Diagnosis read from the runs instead of every operation.
#include "core/report.h"
#include "core/slicetrack.h"

#include <span>

namespace rankscope {

// `leaveOut`: events of those tracks not counted, by track, then event
// (Report::communication's kernels, for the GPU's other work).
SliceTrack busyRuns(const Report &report, std::span<const std::uint32_t> tracks, std::span<const TrackEvent> leaveOut = {});

} // namespace rankscope
