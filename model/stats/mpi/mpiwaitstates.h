#pragma once
// Scalasca's MPI wait states over matched calls (mpimessages.h):
// - Late Sender: a receive, or the wait completing it, blocked before its
//   send began; the receiving rank waits, the sender is its peer.
// - Late Receiver: a send, or the wait completing it, still in progress
//   when its receive was posted (a synchronous or large message, which
//   MPI cannot buffer); the sending rank waits for the receiver.
// - Wait at Collective: a rank's time in a collective before the last rank
//   of its communicator entered it; the last rank is the peer.
#include "session/mpimessages.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

enum class MpiWaitPattern : std::uint8_t { LateSender, LateReceiver, WaitAtCollective };
QString mpiWaitPatternName(MpiWaitPattern pattern); // "Late Sender", ...

struct MpiWait {
    MpiWaitPattern pattern = MpiWaitPattern::LateSender;
    int rank = -1, peer = -1; // MPI ranks
    EventLocation waiting;    // the call that waited (a receive, send, wait or collective)
    EventLocation cause;      // the partner's call that came late
    TimeNs start = 0;         // when the waiting began, session time
    TimeNs wait = 0;          // ns
};

std::vector<MpiWait> mpiWaits(const Session &session, const MpiMatch &match);

// mpi_wait_states: Pattern,Rank,Peer,Call,Instances,Wait (ns), the waits
// summed per pattern, rank, peer and call; patterns in the order above,
// the longest wait first within each.
// Its notes say what could not be matched.
ResultTable mpiWaitStatesTable(const Session &session, const MpiMatch &match, const std::vector<MpiWait> &waits);

} // namespace rankscope::stats
