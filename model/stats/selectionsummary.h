#pragma once
// An area selection, as Perfetto's: a time range across some timeline
// rows, summarised as the slices by name that overlap it, with their count,
// total, mean and longest duration, and the part of them inside the range.
#include "session/session.h"
#include "stats/resulttable.h"

#include <vector>

namespace rankscope::stats {

struct TrackRef {
    int rank = -1; // index into Session::ranks()
    std::uint32_t track = 0;
    bool operator==(const TrackRef &) const = default;
    auto operator<=>(const TrackRef &) const = default;
};

// Columns: Name, Count, Total (ns), Mean (ns), Max (ns), In Range (ns)
// (each slice clipped to `range`), Rows (the track kinds it was on); a row
// per name, the largest total first. A slice counts when it overlaps
// `range` (session time); a track listed twice counts once; counter tracks
// have no slices.
ResultTable selectionSummary(const Session &session, std::vector<TrackRef> tracks, TimeRange range);

} // namespace rankscope::stats
