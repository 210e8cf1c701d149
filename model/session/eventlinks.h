#pragma once
// Links between events of a session: the CUDA API call that launched a GPU
// op, and the GPU work an API call launched (by correlation id, within the
// same process).
#include "session/session.h"

#include <optional>
#include <vector>

namespace rankscope {

std::optional<EventLocation> launchingApiCall(const Session &session, const EventLocation &gpuOp);
std::vector<EventLocation> launchedGpuWork(const Session &session, const EventLocation &apiCall);
// Either direction: the API call of a GPU op, or the first GPU op of a call.
std::optional<EventLocation> correlatedEvent(const Session &session, const EventLocation &at);

// The other end of the flow arrows an event has: a forward op's backward op
// and back, from Kineto's "fwdbwd" flows or, in an nsys export of a run
// under torch.autograd.profiler.emit_nvtx, from the NVTX ranges' "seq = N":
// the backward op of forward op N is "…, stashed seq = N" (older PyTorch)
// or an autograd node "…Backward<k>, seq = N" (current), on any thread of
// the process.
std::vector<EventLocation> flowPartners(const Session &session, const EventLocation &at);
// Whether the arrow between `at` and one of its flow partners points at the
// partner: an MPI message's at its receive, whichever end was clicked; any
// other flow's at the later event.
bool flowPointsTo(const Session &session, const EventLocation &at, const EventLocation &partner);

// The GPU work a CPU range (NVTX, or a Kineto CPU op) launched: the kernels,
// copies and memsets of the CUDA calls its thread made inside it, in GPU
// time order; and the other thread of the same process that launched the
// most while it was open (PyTorch runs backward on pt_autograd_0, not on
// the thread whose "backward" range encloses it).
struct RangeGpuWork {
    std::vector<EventLocation> ops; // at most `limit`
    std::size_t opCount = 0;        // all of them
    std::uint32_t busiestOtherTid = 0;
    std::size_t busiestOtherOps = 0; // 0: no other thread launched any
};
RangeGpuWork gpuWorkOfRange(const Session &session, const EventLocation &range, std::size_t limit);

} // namespace rankscope
