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

} // namespace rankscope::stats
