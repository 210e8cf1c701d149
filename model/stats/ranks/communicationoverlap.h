#pragma once
// How much of each communication kernel other kernels hid: for every
// communication kernel, the time during which at least one kernel that is
// not communication ran on its GPU (any stream of its process and
// device). Nsight Systems' nccl_gpu_overlap_trace recipe, per rank of a
// session; Paraver's "overlap of computation during communication".
#include "session/session.h"
#include "stats/kernelclasses.h"
#include "stats/resulttable.h"
#include "stats/statsscope.h"

#include <vector>

namespace rankscope::stats {

struct CommunicationOverlap {
    int rankIndex = -1; // into Session::ranks()
    int deviceId = -1;
    std::uint32_t track = 0, event = 0; // the communication kernel in its rank's report
    TimeRange time;                     // session time
    TimeNs overlap = 0;                 // other kernels' union within `time`
};

// Every communication kernel (by `classes`) of the scope's ranks that
// starts in its range, by rank, then device, then start.
std::vector<CommunicationOverlap> communicationOverlaps(const Session &session, const KernelClassifier &classes, const StatsScope &scope = {});

// nccl_gpu_overlap_trace: Rank,Device,Start (ns),Duration (ns),Overlap (ns),
// Overlap (%),Name, a row per `overlaps` (communicationOverlaps); Start in
// session time; a 0 ns kernel's share is empty.
ResultTable ncclGpuOverlapTrace(const Session &session, const std::vector<CommunicationOverlap> &overlaps, const KernelClassifier &classes);

} // namespace rankscope::stats
