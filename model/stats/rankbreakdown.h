#pragma once
// Holistic Trace Analysis' temporal breakdown and communication /
// computation overlap, per rank of a session (the rank_summary report).
// Definitions: docs/statistics.md, "rank_summary".
#include "session/session.h"
#include "stats/resulttable.h"

#include <optional>
#include <string_view>

namespace rankscope::stats {

enum class KernelClass { Communication, Memory, Computation, Other };
// HTA's classes of a GPU event name, checked in this order (anchored
// matches, as Python's re.match).
KernelClass htaKernelClass(std::string_view name);

struct RankBreakdown {
    int rank = 0;
    TimeNs idle = 0, compute = 0, nonCompute = 0, kernelTime = 0;
    double idlePercent = 0, computePercent = 0, nonComputePercent = 0;
    std::optional<double> commCompOverlapPercent; // none without communication
    bool stepWindow = false;                      // events limited to the profiled steps
};

std::vector<RankBreakdown> temporalBreakdown(const Session &session);

// Columns: Rank,Idle Time (ns),Compute Time (ns),Non-compute Time (ns),
// Kernel Time (ns),Idle (%),Compute (%),Non-compute (%),Comm-Comp Overlap (%).
ResultTable rankSummary(const Session &session);

} // namespace rankscope::stats
