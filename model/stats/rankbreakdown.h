#pragma once
// Holistic Trace Analysis' temporal breakdown and communication /
// computation overlap, per rank of a session (the rank_summary report).
// Definitions: docs/statistics.md, "rank_summary".
#include "session/session.h"
#include "stats/kernelclasses.h"
#include "stats/resulttable.h"

#include <optional>

namespace rankscope::stats {

struct RankBreakdown {
    int rank = 0;
    TimeNs idle = 0, compute = 0, nonCompute = 0, kernelTime = 0;
    double idlePercent = 0, computePercent = 0, nonComputePercent = 0;
    std::optional<double> commCompOverlapPercent; // none without communication
    bool stepWindow = false;                      // events limited to the profiled steps
};

// `classes`: HTA's by default, so the figures are HTA's.
std::vector<RankBreakdown> temporalBreakdown(const Session &session, const KernelClassifier &classes = KernelClassifier::hta());

// Columns: Rank,Idle Time (ns),Compute Time (ns),Non-compute Time (ns),
// Kernel Time (ns),Idle (%),Compute (%),Non-compute (%),Comm-Comp Overlap (%).
ResultTable rankSummary(const Session &session, const KernelClassifier &classes = KernelClassifier::hta());

} // namespace rankscope::stats
