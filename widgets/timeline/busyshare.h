#pragma once
// How busy a track is across each pixel column: what a collapsed group
// draws instead of its rows (Nsight Systems draws a collapsed row as a
// utilisation graph). Read from the level-of-detail summaries when the view
// holds many events, so the cost follows the pixels.
#include "core/busyruns.h"
#include "core/slicetrack.h"
#include "timeline/timescale.h"

#include <span>
#include <vector>

namespace rankscope {

// Raises share[x] to the share of pixel column x (0..1) that `runs` cover;
// `share` has one entry per column of the track area. Only columns
// [clipX0, clipX1) (-1: to the right edge): one piece of a stretched rank.
// `runs` are disjoint and in time order, as busyRuns() makes them and a GPU
// busy summary keeps them: a run can be placed without an interval search,
// and the cost is one step per run in view (or per summary bucket, when a
// level finer than a pixel holds fewer).
void addBusyShare(const SliceTrack &runs, TimeNs sessionOffset, const TimeScale &scale, std::vector<float> &share, int clipX0 = 0,
                  int clipX1 = -1);

} // namespace rankscope
