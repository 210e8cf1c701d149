#pragma once
// MPI calls across the ranks of a session, matched as MPI delivers them:
// point-to-point messages by (communicator, sender, receiver, tag) in
// posting order (MPI's non-overtaking rule), a non-blocking call tied to
// the wait that completes its request, and collectives per communicator
// in call order. Times are session times.
#include "session/session.h"

#include <string_view>
#include <vector>

namespace rankscope {

// One MPI call of one rank, with what matching reads of it.
struct MpiCall {
    EventLocation at;
    int mpiRank = -1; // the caller's MPI rank (MPI_RANKS, else the session's rank)
    TimeNs start = 0, end = 0;
    // For a non-blocking send or receive: the wait that completed it, when
    // the trace has one (its request handle, on the same thread, after it).
    std::optional<EventLocation> completion;
    TimeNs completionStart = 0, completionEnd = 0;
};

struct MpiMessage {
    MpiCall send, receive;
    std::int64_t tag = 0, bytes = 0;
    std::uint64_t communicator = 0;
};

struct MpiCollective {
    QString name; // "MPI_Allreduce"
    std::uint64_t communicator = 0;
    std::size_t index = 0;      // its place among the communicator's collectives
    std::vector<MpiCall> calls; // one per rank that took part, by rank
};

struct MpiMatch {
    std::vector<MpiMessage> messages;
    std::vector<MpiCollective> collectives;
    std::size_t unmatchedSends = 0, unmatchedReceives = 0;
    std::size_t mismatchedCollectives = 0; // the ranks' k-th collectives on a communicator differ in name
};

MpiMatch matchMpi(const Session &session);

// By an MPI function's name: MPI_Send, MPI_Isend, MPI_Ssend, ... send;
// MPI_Recv, MPI_Irecv, MPI_Mrecv, ... receive; MPI_Sendrecv does both.
bool isMpiSend(std::string_view function);
bool isMpiReceive(std::string_view function);
// MPI_Isend, MPI_Irecv, MPI_Iallreduce, ...: completed later by a wait.
bool isMpiNonBlocking(std::string_view function);

// The calls an MPI call was matched with: a message's other end (for the
// wait that completed a non-blocking call, the other end of its message),
// the other ranks' calls of a collective. Empty for any other event.
std::vector<EventLocation> mpiPartners(const Session &session, const EventLocation &at);

} // namespace rankscope
