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

} // namespace rankscope
