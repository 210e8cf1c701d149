#pragma once
// When any of a set of tracks is busy: the union of their events as
// disjoint runs, kept as a track of its own (so it has summaries).
// Concurrent work (a copy beside a kernel) counts once. What a collapsed
// row draws and what the GPU busy summaries (Report::gpuBusy) are built from.
#include "core/report.h"
#include "core/slicetrack.h"

#include <span>

namespace rankscope {

SliceTrack busyRuns(const Report &report, std::span<const std::uint32_t> tracks);

} // namespace rankscope
