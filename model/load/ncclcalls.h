#pragma once
// NCCL's own account of its calls, where the trace has it (the NVTX
// payloads NCCL attaches to its ranges under nsys): communicator, message
// size, peer or root, the size of the communicator. Attached to the NCCL
// kernels the calls launched as their CollectiveRecord, so the collective
// analysis and the Details dock read them as they read Kineto's arguments.
#include "core/report.h"

#include <optional>
#include <vector>

namespace rankscope {

struct NcclCall {
    std::uint32_t pid = 0, tid = 0;
    TimeNs start = 0, end = 0;
    StringId name = 0; // the function: "ncclAllReduce", "ncclSend", "ncclCommInitRank"
    std::optional<std::uint64_t> communicator;
    std::optional<std::int64_t> bytes, peer, root, ranks, rank;
};

// NCCL's labels for its payload fields (src/include/nvtx_payload_schemas.h).
namespace ncclfield {
inline constexpr const char *kCommunicator = "NCCL communicator ID";
inline constexpr const char *kBytes = "Message size [bytes]";
inline constexpr const char *kPeer = "Peer rank";
inline constexpr const char *kRoot = "Root";
inline constexpr const char *kRanks = "No. of ranks";
inline constexpr const char *kRank = "Rank";
} // namespace ncclfield

// For each NCCL kernel launched by a CUDA API call, the NCCL calls its
// launching thread made after the previous NCCL launch and up to this one
// (one call, or the sends and receives of an ncclGroupStart/End, whose
// kernel ncclGroupEnd launches). Needs the correlation maps; kernels that
// already have a record (Kineto's) keep it.
void attachNcclCalls(Report &report, std::vector<NcclCall> calls);

} // namespace rankscope
