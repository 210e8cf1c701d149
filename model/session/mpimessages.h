#pragma once
// MPI calls across the ranks of a session, matched as MPI delivers them:
// point-to-point messages by (communicator, sender, receiver, tag) in
// posting order (MPI's non-overtaking rule), a non-blocking call tied to
// the wait that completes its request, and collectives per communicator
// in call order. Times are session times.
#include "session/session.h"

#include <memory>
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

// Communicator handles are each process's own numbers: MPICH's predefined
// ones are the same on every rank, Open MPI's are addresses that differ
// with each process's layout. A handle more than one rank uses is one
// communicator; each rank's other handles are numbered in order of first
// use, and the k-th of every rank taken as one (a program on
// MPI_COMM_WORLD and its duplicates matches under either library).
using MpiCommunicator = std::uint64_t; // the shared handle, or kByFirstUse | k
constexpr MpiCommunicator kByFirstUse = MpiCommunicator(1) << 63;
QString mpiCommunicatorName(MpiCommunicator communicator); // "MPI comm 0x44000000", "MPI comm #1", "MPI comm (not recorded)"

struct MpiMessage {
    MpiCall send, receive;
    std::int64_t tag = 0, bytes = 0;
    MpiCommunicator communicator = 0;
};

struct MpiCollective {
    QString name;                 // "MPI_Allreduce"
    RunSide side = RunSide::None; // of a comparison's two runs
    MpiCommunicator communicator = 0;
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
// The same, computed once for a session's ranks (their reports, processes,
// offsets and sides) and shared by every asker until another session asks:
// a click's arrows and Details, the collectives, the waits and the
// Diagnosis all read one match.
std::shared_ptr<const MpiMatch> sharedMpiMatch(const Session &session);
// The match with each rank's times moved by its entry of `shift` (per
// rank index; a missing entry moves nothing): on clocks aligned by the
// collectives (stats::alignedOnCollectives).
void shiftMpiClocks(MpiMatch &match, const std::vector<TimeNs> &shift);

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
