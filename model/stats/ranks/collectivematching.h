#pragma once
// The steps of matching collectives across ranks (matchCollectives in
// stats/ranks/collectives.h), each with its own tests: group each rank's
// communication operations by communicator, order them for matching (by
// the trace's sequence numbers, else by end time with a tolerance and a
// per-rank clock shift), take instances greedily, and say what was done.
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/collectives.h"

#include <map>
#include <vector>

namespace rankscope::stats {

// Per communicator, per rank index, its operations in time order.
using OpsPerRank = std::map<int, std::vector<CollectiveOp>>;

// Every rank's operations by communicator. The two runs of a comparison
// share communicator names but no collective: each run's communicators are
// named apart ("run A: ...").
struct CommunicatorGroups {
    std::map<QString, OpsPerRank> communicators;
    bool keyedByGroup = false; // some trace named a process group
    QStringList ranksWithout;  // ranks (their numbers) with no communication kernel
};
CommunicatorGroups groupByCommunicator(CollectiveInputs &inputs);

// How one communicator's operations are lined up: by the trace's sequence
// numbers where every operation has one (exact, whatever the clocks; sends
// and receives number apart, so never them), else by end time within a
// tolerance, each rank's ends shifted onto the first rank's clock.
struct MatchingOrder {
    bool bySequence = false;
    TimeNs tolerance = 0;
    std::map<int, TimeNs> shift; // by rank index
    // What the greedy pass orders by: the number, else the shifted end.
    TimeNs keyOf(int rankIndex, const CollectiveOp &op) const;
};
// Sorts each rank's operations by sequence when matching by it.
MatchingOrder orderForMatching(OpsPerRank &perRank);

// Half the usual time between a rank's consecutive operation ends.
TimeNs matchingTolerance(const OpsPerRank &perRank);
// The shift that lines a rank's operation ends up with the reference's most.
TimeNs matchingShift(const std::vector<CollectiveOp> &reference, const std::vector<CollectiveOp> &ops, TimeNs tolerance);

// One communicator's instances (each with its arrivals measured) and the
// ranks that fell out of step on it.
struct CommunicatorMatch {
    std::vector<CollectiveInstance> instances; // in order of the matching key
    std::vector<CommunicatorDesync> desyncs;
};
CommunicatorMatch matchCommunicator(const QString &communicator, const OpsPerRank &perRank, const MatchingOrder &order);

// First and last arrival, the last rank (the first such on ties), the end.
void measureInstance(CollectiveInstance &instance);

// The note of one desync, in the ranks' own numbers.
QString desyncNote(const Session &session, const CommunicatorDesync &desync);

} // namespace rankscope::stats
