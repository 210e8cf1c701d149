#pragma once
// Holistic Trace Analysis' temporal breakdown and communication /
// computation overlap, per rank of a session (the rank_summary report).
// Definitions: docs/statistics.md, "rank_summary".
#include "session/session.h"
#include "stats/kernelclasses.h"
#include "stats/resulttable.h"

#include <QDataStream>
#include <QStringList>

#include <optional>

namespace rankscope::stats {

struct RankBreakdown {
    int rank = 0;
    TimeNs idle = 0, compute = 0, nonCompute = 0, kernelTime = 0;
    double idlePercent = 0, computePercent = 0, nonComputePercent = 0;
    std::optional<double> commCompOverlapPercent; // none without communication
    bool stepWindow = false;                      // events limited to the profiled steps
};

// One rank's breakdown as the MPI process that has its file computes it,
// before the whole session decides on HTA's step window (which needs two
// step names across all ranks): the rank's ProfilerStep names, its
// breakdown over all its GPU work, and over its step window when it has a
// step (a rank without one keeps nothing in a window: an empty breakdown).
struct RankBreakdownParts {
    QStringList stepNames;
    RankBreakdown whole;
    std::optional<RankBreakdown> windowed;
};
RankBreakdownParts rankBreakdownParts(const Session &session, int rankIndex, const KernelClassifier &classes);
QDataStream &operator<<(QDataStream &out, const RankBreakdownParts &parts);
QDataStream &operator>>(QDataStream &in, RankBreakdownParts &parts);
// Per rank of a session (by index into its ranks()), the parts computed
// elsewhere; a rank without them is computed from the session.
using GatheredBreakdowns = std::vector<std::optional<RankBreakdownParts>>;

// `classes`: HTA's by default, so the figures are HTA's.
std::vector<RankBreakdown> temporalBreakdown(const Session &session, const KernelClassifier &classes, const GatheredBreakdowns *gathered = nullptr);

// Columns: Rank,Idle Time (ns),Compute Time (ns),Non-compute Time (ns),
// Kernel Time (ns),Idle (%),Compute (%),Non-compute (%),Comm-Comp Overlap (%).
ResultTable rankSummary(const Session &session, const KernelClassifier &classes, const GatheredBreakdowns *gathered = nullptr);

} // namespace rankscope::stats
