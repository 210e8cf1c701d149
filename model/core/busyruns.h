#pragma once
// When any of a set of tracks is busy: the union of their events as
// disjoint runs, kept as a track of its own (so it has summaries).
// Concurrent work (a copy beside a kernel) counts once. What a collapsed
// row draws and what the GPU busy summaries (Report::gpuBusy) are built from.
#include "core/report.h"
#include "core/slicetrack.h"

#include <span>

namespace rankscope {

// `leaveOut`: events of those tracks not counted, by track, then event
// (Report::communication's kernels, for the GPU's other work).
SliceTrack busyRuns(const Report &report, std::span<const std::uint32_t> tracks, std::span<const TrackEvent> leaveOut = {});

} // namespace rankscope
