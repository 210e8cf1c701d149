#pragma once
// The last steps of every loader, in one order. Once a reader has put
// every event in: the string lookup goes (before the load peaks), the
// tracks are made final and sorted in the order a timeline shows them, their
// side tables follow that order, what is derived from them is built
// (derivedtracks.h), the counters are made final and the containers shrunk.
// A loader says only what its format adds between the steps.
#include "core/report.h"

#include <functional>

namespace rankscope {

struct ReportFinish {
    // The trace recorded its own NVTX projection onto the GPU (Kineto's
    // GPU annotations): not derived again.
    bool projectionRecorded = false;
    // Strings are still named after the tracks are final (NCCL's calls,
    // attached before the communication summary): the lookup stays.
    bool namesStringsLater = false;
    // Once the tracks are sorted, before their side tables follow them
    // (nsys' backtraces, which index the API and OS calls as read).
    std::function<void(Report &)> onSortedTracks;
    // Once the derived tracks are built, before the communication summary
    // reads the kernels' collectives (nsys' NCCL calls).
    std::function<void(Report &)> beforeCommunication;
};

void finishReport(Report &report, const ReportFinish &finish);

// Empty tracks dropped, each made final, then sorted: host tracks by
// process, thread, kind and domain; GPU tracks by process, device, stream
// and kind.
void finalizeTracks(Report &report);

} // namespace rankscope
