#pragma once
// Across ranks: each collective operation matched on every rank that took
// part, when each rank arrived (its kernel started), who came last, how
// long the others waited, and why the late ranks were late. The measures
// and their definitions are in docs/statistics.md, "Collectives".
#include "session/session.h"
#include "stats/kernelclasses.h"
#include "stats/resulttable.h"
#include "stats/statsscope.h"

#include <optional>
#include <string_view>
#include <vector>

namespace rankscope::stats {

enum class CollectiveKind { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv, Send, Recv, Other };
QString collectiveKindName(CollectiveKind kind);
// From the trace's collective name (Kineto's "Collective name": "allreduce",
// "_allgather_base", "send"), else from the kernel name
// ("ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ncclKernel_SendRecv_...").
CollectiveKind collectiveKindOf(std::string_view collectiveName, std::string_view kernelName);
// nccl-tests' bus bandwidth factor for n ranks: 2(n-1)/n for all-reduce,
// (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 otherwise.
double busBandwidthFactor(CollectiveKind kind, int ranks);
// Sends and receives (numbered apart from collectives, matched by pair).
bool isPointToPoint(CollectiveKind kind);

class CollectiveInputs;

// One rank's part in a collective: its communication kernel.
struct CollectiveArrival {
    int rankIndex = -1; // index into Session::ranks()
    EventLocation kernel;
    TimeNs start = 0, end = 0;    // session time
    std::optional<TimeNs> launch; // the launching API call's start, session time
};

struct CollectiveInstance {
    QString communicator;     // the process group's name, or "stream #k" when the trace has none
    std::size_t sequence = 0; // its place among the communicator's operations, from 0
    CollectiveKind kind = CollectiveKind::Other;
    QString name;                            // as the trace names it ("allreduce"), else the kind's name
    std::int64_t bytes = -1;                 // message size as nccl-tests counts it; -1 unknown
    int groupSize = 0;                       // ranks in the communicator (the trace's, else those matched)
    std::vector<CollectiveArrival> arrivals; // in rank order
    TimeNs firstArrival = 0, lastArrival = 0;
    TimeNs end = 0;         // the latest end: when every rank is done
    int lastRankIndex = -1; // who arrived last (the first such on ties)
    // Whether every rank's part ends together (so the ends can anchor
    // the clocks): NCCL's kernels do; an MPI broadcast's root or a
    // non-blocking call may return before the others.
    bool endsTogether = true;

    TimeNs skew() const { return lastArrival - firstArrival; }
    // Time from the last arrival to the end: the data moving once all are there.
    TimeNs transfer() const { return end - lastArrival; }
    TimeNs waitOf(const CollectiveArrival &a) const { return lastArrival - a.start; }
    // GB/s (1e9 bytes), bytes over the transfer part, as nccl-tests define them.
    std::optional<double> algorithmBandwidth() const;
    std::optional<double> busBandwidth() const;
};

// A communicator on which some rank has fewer operations than another: it
// skipped or has not yet reached them (a desync), or the capture cut it.
struct CommunicatorDesync {
    QString communicator;
    int rankIndex = -1;         // the rank that is behind
    std::size_t operations = 0; // what it has
    std::size_t expected = 0;   // the most any rank has
    // The instances it is absent from while it has later operations (it
    // skipped them), and the first of them; none when it only has fewer at
    // the end (behind, or the capture cut it).
    std::size_t skipped = 0;
    std::optional<std::size_t> firstMissing;
};

struct CollectiveMatch {
    std::vector<CollectiveInstance> instances; // by first arrival
    std::vector<CommunicatorDesync> desyncs;
    // What the user should know: how the matching keyed the operations,
    // ranks without communication kernels, why nothing was matched, which
    // clock alignment the times use.
    QStringList notes;
    // Per rank index, what was added to its recorded session times (see
    // alignedOnCollectives); empty: times as recorded.
    std::vector<TimeNs> clockShift;
    TimeNs shiftOf(int rankIndex) const { return std::size_t(rankIndex) < clockShift.size() ? clockShift[std::size_t(rankIndex)] : 0; }
};

CollectiveMatch matchCollectives(const Session &session, const KernelClassifier &classes);
// The same from each rank's operations as `inputs` gives them (read from
// its session, or gathered from the processes that read them).
CollectiveMatch matchCollectives(CollectiveInputs &inputs);

// One rank over a scope (instances whose first arrival is in the range).
struct RankWait {
    int rankIndex = -1;
    int rank = 0;
    std::size_t collectives = 0;
    std::size_t timesLast = 0;
    TimeNs delayCaused = 0; // over the instances it arrived last at: the others' waits
    TimeNs waited = 0;      // its own waits
    // Its late time (own arrival - first arrival, summed) split by what its
    // own timeline held then: GPU busy with other work; GPU idle before the
    // launching call began (the host was elsewhere: data loading, other
    // code); GPU idle from the launching call on (the launch itself).
    TimeNs late = 0, lateCompute = 0, lateIdle = 0, lateHost = 0;
};
std::vector<RankWait> rankWaits(const Session &session, const CollectiveMatch &match, const StatsScope &scope, const KernelClassifier &classes);
std::vector<RankWait> rankWaits(CollectiveInputs &inputs, const CollectiveMatch &match, const StatsScope &scope = {});

// Per rank, the shift that best lines up the ends of matched collectives
// that complete together (NCCL's, MPI's blocking all-to-all ones) with the first rank's: the median difference,
// and the median distance left after it (near zero when the clocks agree).
struct ClockEstimate {
    std::optional<TimeNs> offset; // add to the rank's session time; none: no shared collective
    std::optional<TimeNs> residual;
    std::size_t collectives = 0; // shared with the reference rank
    bool sameClock = false;      // in the reference rank's export: offset 0 by construction
};
std::vector<ClockEstimate> alignOnCollectives(const Session &session, const CollectiveMatch &match);
// What aligning on collectives would do, for a match shown as recorded:
// the largest offsets the collectives suggest (at most eight ranks named,
// the rest counted), that the clocks already agree when every offset is
// zero, or that the ranks share one export's clock; empty when nothing was
// estimated.
QString suggestedOffsetsNote(const Session &session, const std::vector<ClockEstimate> &clocks);
// The match with each rank's times shifted by its estimated offset (ranks
// without one stay as recorded), every instance measured again; a note
// gives the offsets and residuals, or says the clocks already agree.
CollectiveMatch alignedOnCollectives(const Session &session, const CollectiveMatch &match);

// The instance a communication kernel belongs to, selected on its stream's
// row or on the NCCL lane (the same kernel record); null if none.
const CollectiveInstance *instanceOfKernel(const Session &session, const CollectiveMatch &match, const EventLocation &kernel);

// Whether an instance is in a scope: its first arrival inside the range.
bool isInScope(const CollectiveInstance &c, const StatsScope &scope);

// `rankscope-cli stats --report collectives` and `--report rank_wait`.
ResultTable collectivesTable(const Session &session, const CollectiveMatch &match, const StatsScope &scope = {});
// Per communicator and collective name: count, bytes, skew (mean, median,
// p99), the waits, mean bus bandwidth (the Collectives panel).
ResultTable collectiveKindsTable(const CollectiveMatch &match, const StatsScope &scope = {});
ResultTable rankWaitTable(const Session &session, const CollectiveMatch &match, const StatsScope &scope, const KernelClassifier &classes);
ResultTable rankWaitTable(CollectiveInputs &inputs, const CollectiveMatch &match, const StatsScope &scope = {});
// The same table from waits already computed: a row per wait, in their order.
ResultTable rankWaitTable(const std::vector<RankWait> &waits);

} // namespace rankscope::stats
