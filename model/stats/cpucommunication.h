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
    int ranks = 0;              // ranks with any sign of it
    std::size_t glooThreads = 0; // threads named pt_gloo*
    std::size_t ranges = 0;     // "gloo:*" ranges
    TimeNs rangeTime = 0;       // their time, summed over ranks
    bool any() const { return ranks > 0; }
};

CpuCommunication cpuCommunicationOf(const Session &session);

// "This run communicates on the CPU (Gloo): 24 gloo:* ranges (1.234 ms) and
// 8 pt_gloo threads on 4 ranks; ..." or empty.
QString cpuCommunicationNote(const CpuCommunication &found);

} // namespace rankscope::stats
