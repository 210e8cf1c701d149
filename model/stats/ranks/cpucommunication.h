#pragma once
// Whether a run communicates on the CPU: PyTorch's Gloo backend runs its
// collectives on "pt_gloo*" threads and names them in the trace
// ("gloo:all_reduce" annotations, "c10d::allreduce_" ops), with no GPU
// kernel to match. What the Collectives panel and the rank comparison say
// instead of "no communication".
#include "session/session.h"

#include <QString>

namespace rankscope::stats {

struct CpuCommunication {
    int ranks = 0;               // ranks with any sign of it
    std::size_t glooThreads = 0; // threads named pt_gloo*
    std::size_t ranges = 0;      // "gloo:*" ranges
    TimeNs rangeTime = 0;        // their time, summed over ranks
    // What a Gloo run's export holds without its ranges: the pt_gloo
    // threads' CUDA synchronisations, where Gloo waits for the copies of
    // GPU tensors it reduces on the CPU.
    std::size_t glooSyncCalls = 0;
    TimeNs glooSyncTime = 0;
    bool any() const { return ranks > 0; }
};

CpuCommunication cpuCommunicationOf(const Session &session);
// PyTorch's Gloo threads: "pt_gloo_runloop" and the like.
bool isGlooThreadName(const QString &threadName);

// A rank's collectives on the CPU: its "gloo:*" ranges (record_function
// scopes PyTorch's Gloo backend opens around each collective, e.g.
// "gloo:all_reduce"), report time, by start. Matched across ranks as
// communication kernels are when a rank has none (stats/ranks/collectiveinputs.h).
struct CpuCollectiveRange {
    std::uint32_t track = 0, event = 0;
    TimeNs start = 0, end = 0; // report time
    StringId name = 0;
};
std::vector<CpuCollectiveRange> cpuCollectivesOfRank(const RankEntry &entry);
// The communicator the ranges named `rangeName` are matched in: "gloo:all_reduce (CPU)".
QString cpuCommunicatorOf(const QString &rangeName);
bool isCpuCommunicator(const QString &communicator);
// The time a rank spent in them within `reportRange` (report time), each
// nanosecond once: the rank comparison's "CPU Comm (ns)".
TimeNs cpuCommunicationTime(const RankEntry &entry, TimeRange reportRange);

// "This run communicates on the CPU (Gloo): 24 gloo:* ranges (1.234 ms) and
// 8 pt_gloo threads on 4 ranks; ..." or empty. Without gloo:* ranges it says
// that the collectives cannot be timed, what the pt_gloo threads show, and
// how to record the ranges.
QString cpuCommunicationNote(const CpuCommunication &found);

} // namespace rankscope::stats
