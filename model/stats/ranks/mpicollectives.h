#pragma once
// MPI's collectives beside NCCL's (collectives.h): each collective call
// matched across ranks (session/mpimessages.h) an instance on its
// communicator, each rank's call an arrival, measured as NCCL's are: skew,
// last arrival, who waited.
#include "session/mpimessages.h"
#include "stats/ranks/collectives.h"

#include <vector>

namespace rankscope::stats {

std::vector<CollectiveInstance> mpiCollectiveInstances(const Session &session, const MpiMatch &match);

// Whether a communicator of the collectives panel is MPI's.
bool isMpiCommunicator(const QString &communicator);

} // namespace rankscope::stats
