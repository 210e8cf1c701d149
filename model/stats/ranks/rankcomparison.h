#pragma once
// One row per rank, to spot a straggler or a starving rank: span, GPU busy
// and idle shares, kernel time by class, communication hidden under
// compute, step times when steps are annotated, bytes copied per direction.
#include "core/gputimesplit.h"
#include "stats/diagnosis/memcpyanalysis.h"
#include "stats/kernelclasses.h"
#include "stats/resulttable.h"
#include "stats/statsscope.h"

#include <QDataStream>

#include <optional>

namespace rankscope::stats {

struct CollectiveMatch;

struct RankComparisonRow {
    int rankIndex = 0;
    int rank = 0;
    TimeNs span = 0; // first GPU op start to last end
    double busyPercent = 0, idlePercent = 0;
    // The span split by what the GPU did, each nanosecond counted once, in
    // the first class busy then: compute, else communication, else memory
    // (copies, memsets, memory kernels), else idle. So compute +
    // communication + memory + idle = span, however many streams overlap.
    TimeNs computeNs = 0, communicationNs = 0, memoryNs = 0, idleNs = 0;
    std::optional<double> overlapPercent; // share of communication hidden under compute
    std::size_t steps = 0;
    std::optional<TimeNs> meanStep, maxStep;
    std::uint64_t bytes[kDirectionCount] = {};
    // At collectives matched across ranks (see stats/ranks/collectives.h): the
    // others' waits where this rank arrived last, and its own waits; none
    // when the rank took part in no collective.
    std::optional<TimeNs> delayCaused, waited;
    // Collectives run on the CPU (Gloo's gloo:* ranges, stats/ranks/cpucommunication.h),
    // each nanosecond once: no GPU time, so in none of the above.
    TimeNs cpuCommunicationNs = 0;
};

using rankscope::isStepName; // core/gputimesplit.h
// A rank's annotated steps (NVTX ranges or record_function scopes with a
// step name), report time, by start.
std::vector<TimeRange> annotatedSteps(const RankEntry &entry);

// One rank's row over all its time, without the waits at collectives
// (which need every rank): what the MPI process that has the rank's file
// sends process 0.
RankComparisonRow rankComparisonRowOf(const Session &session, int rankIndex, const KernelClassifier &classes);
QDataStream &operator<<(QDataStream &out, const RankComparisonRow &row);
QDataStream &operator>>(QDataStream &in, RankComparisonRow &row);
// Per rank of a session (by index into its ranks()), its row computed
// elsewhere; a rank without one is computed from the session.
using GatheredComparisonRows = std::vector<std::optional<RankComparisonRow>>;

// `match`: the session's collectives matched under `classes` (the analysis
// workspace's, made once for every reader), from which the waits columns
// come; null leaves them empty (one rank waits for nobody).
// `gathered`: rows computed elsewhere, used when the scope is all of time.
std::vector<RankComparisonRow> compareRanks(const Session &session, const StatsScope &scope, const KernelClassifier &classes,
                                            const CollectiveMatch *match, const GatheredComparisonRows *gathered = nullptr);

// For each column of the table: true when a larger value is worse (so the
// panel can mark the slowest rank), false when smaller is worse, nullopt
// when neither (the rank column).
std::vector<std::optional<bool>> rankComparisonWorseIsHigher();

// HTA's temporal breakdown per rank, as shares of its GPU span in %:
// compute, exposed communication, exposed memory and idle, adding up to
// 100 (RankComparisonRow's split). Read from a rankComparisonTable(), in
// its row order; a rank with no GPU span has none.
struct RankTimeShares {
    int rank = 0;
    double compute = 0, communication = 0, memory = 0, idle = 0;
};
std::vector<RankTimeShares> rankTimeSharesOf(const ResultTable &rankComparison);
ResultTable rankComparisonTable(const Session &session, const StatsScope &scope, const KernelClassifier &classes, const CollectiveMatch *match,
                                const GatheredComparisonRows *gathered = nullptr);

} // namespace rankscope::stats
