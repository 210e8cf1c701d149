#pragma once
// How much of each pixel column a set of disjoint runs covers: what a
// collapsed group draws (collapsedbusy.h). Read from the runs' level-of-
// detail summary when the view holds many more runs than pixels.
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
void addBusyShare(const SliceTrack &runs, TimeNs sessionOffset, const TimeScale &scale, std::vector<float> &share, int clipX0 = 0, int clipX1 = -1);

} // namespace rankscope
