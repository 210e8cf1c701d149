#pragma once
// What a report read back from an index cache must satisfy before anything
// indexes with it: every index in range (an event's payload in its kind's
// table, a depth row's events and a summary's longest event in their track,
// a kernel's launch configuration and collective), every column of a track
// as long as its starts, the interval index and level-of-detail summaries
// shaped for their track, enums and flags within their values. The
// checksum already rules out damage; these rule out a cache crafted to
// pass it, with what loaders guarantee besides: times in range and in
// order, sizes that fit a signed 64-bit sum, finite counter values. The
// interval index's subtree maxima and a counter's block maxima and block
// starts are not re-derived: a lie there can hide events or samples from a
// query, never read out of bounds.
#include "core/report.h"

#include <QString>

namespace rankscope {

// Empty when sound; otherwise the first problem found.
QString checkCachedReport(const Report &report);
// The same for a report opened with its summaries only (Report::summariesOnly):
// its tracks, GPU busy summaries and time splits.
QString checkCachedSummaries(const Report &report);

} // namespace rankscope
