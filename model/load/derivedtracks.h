#pragma once
// What a loader derives from the recorded tracks once they are final:
// the API <-> GPU correlation maps, NVTX ranges projected onto the GPU, and
// one NCCL kernel track per process and device, per process and device
// when its GPU is busy, and what matching collectives reads. Every loader
// builds them in one order (reportfinish.h).
#include "core/report.h"

#include <span>

namespace rankscope {

// Fills Report::apiByCorrelation and Report::gpuByCorrelation.
void buildCorrelations(Report &report);

// As nsys' nvtx_gpu_proj recipe: a complete NVTX range (push/pop, or
// start/end ending on its own thread) projects onto each device as
// [first start, last end] of the GPU ops launched by the CUDA API calls that
// lie wholly inside it on the same thread. Nested ranges nest.
void buildNvtxProjections(Report &report);

// NCCL kernels (names starting with "nccl", or holding ncclKernel /
// ncclDevKernel) of all streams of a process and device, for the NCCL lane.
void buildNcclTracks(Report &report);
bool isNcclKernelName(std::string_view name);

// Report::gpuBusy: per process and device, the union of its kernel,
// memcpy and memset tracks, summarised.
void buildGpuBusySummaries(Report &report);
// The tracks a process and device's GPU busy summary is the union of.
std::vector<std::uint32_t> gpuOperationTracks(const Report &report, std::uint32_t pid, int deviceId);
// The summary that is the union of exactly `tracks` (ascending), or null.
const BusySummary *gpuBusySummaryOf(const Report &report, std::span<const std::uint32_t> tracks);

// A process's host tracks (ascending): those of `pid` on no GPU and not
// derived, the tracks the timeline draws under its process row.
std::vector<std::uint32_t> hostTracksOf(const Report &report, std::uint32_t pid);
// Per process with host events, the union of its host tracks, by pid: what
// Report::hostBusy holds once a cache is written.
std::vector<BusySummary> hostBusySummaries(const Report &report);
// The summary of Report::hostBusy that is the union of exactly `tracks`
// (ascending), or null.
const BusySummary *hostBusySummaryOf(const Report &report, std::span<const std::uint32_t> tracks);

// Report::communication: the kernels the built-in communication patterns
// name, and per process and device when its GPU runs anything else. Needs
// the correlations, and the kernels' collectives attached: a loader's last step.
void buildCommunicationSummary(Report &report);

} // namespace rankscope
