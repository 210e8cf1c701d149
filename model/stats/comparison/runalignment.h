#pragma once
// Where two runs compared side by side line up on the timeline: their first
// events, their first training steps, or one event and its counterpart in
// the other run (the same name, the same occurrence).
#include "session/session.h"

#include <optional>

namespace rankscope::stats {

enum class RunAnchor : std::uint8_t { Starts, FirstStep };

// How far to move run B (add to its ranks' session times) so that its
// anchor lies on run A's: the first event of each run, or the start of
// the first annotated step (ProfilerStep#, NVTX "step N") of each run's
// first rank that has steps. None when a run lacks the anchor.
std::optional<TimeNs> runAnchorDelta(const Session &comparison, RunAnchor anchor);

// The same event in the other run of a comparison: on the rank at the same
// place in that run, the event of the same kind of row and the same name
// that is the same occurrence of that name (the 3rd "ProfilerStep#…" is not
// a match for another name; the 40th ncclAllReduce kernel matches the 40th).
std::optional<EventLocation> counterpartEvent(const Session &comparison, const EventLocation &event);

// The comparison with one run's ranks all moved by `delta`.
Session movedRun(const Session &comparison, RunSide side, TimeNs delta);

// For showing step k of B over step k of A (View > Align Runs > Stretch
// Steps): per rank index, the points where its session time is pinned to
// its counterpart's, (time in this rank, time in the A rank at the same
// place): each step's start and end, for the steps both have. Between two
// points a rank is drawn stretched linearly; before the first and after the
// last, as it is. Empty for the ranks of A, ranks without steps, and
// outside a comparison. Display only: every number stays in recorded time.
struct StretchPoint {
    TimeNs own = 0, shown = 0;
};
std::vector<std::vector<StretchPoint>> stepStretchPoints(const Session &comparison);

} // namespace rankscope::stats
