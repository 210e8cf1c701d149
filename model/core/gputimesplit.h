#pragma once
// A process's GPU time split by what the GPU did (compute, communication,
// memory, idle), its annotated steps and the bytes it copied: what a row of
// the rank comparison shows (stats/ranks/rankcomparison.h). The statistics
// compute it over any range and with any kernel classes; an index cache
// keeps it over all of a report's time with the built-in classes
// (Report::timeSplits), so comparing hundreds of ranks opened from caches
// reads a few hundred bytes a rank instead of every GPU operation.
#include "core/cudaenums.h"
#include "core/stringtable.h"
#include "core/timetypes.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace rankscope {

struct Report;
struct Track;

enum class GpuWorkClass : std::uint8_t { Compute, Communication, Memory };

// Each nanosecond of the span is counted once, in the first class busy
// then: compute, else communication, else memory, else idle.
struct GpuTimeSplit {
    std::uint32_t pid = 0;           // the process; not read for the whole report's
    std::uint64_t gpuOperations = 0; // kernels, copies and memsets counted
    TimeNs span = 0;                 // first GPU operation's start to the last one's end
    TimeNs busy = 0;                 // the union of every GPU operation
    TimeNs compute = 0;              // the union of compute kernels
    TimeNs communication = 0;        // the union of communication kernels
    TimeNs hiddenCommunication = 0;  // of which under compute
    std::uint64_t steps = 0;         // NVTX ranges with a step name
    TimeNs stepTotal = 0, longestStep = 0;
    std::uint64_t bytesByCopyKind[kMemcpyKindCount] = {};

    TimeNs exposedCommunication() const { return communication - hiddenCommunication; }
    TimeNs memory() const { return busy - compute - exposedCommunication(); }
    TimeNs idle() const { return span - busy; }
    bool operator==(const GpuTimeSplit &) const = default;
};

// "step 3", "iteration 12", "ProfilerStep#7" (NVTX or record_function).
bool isStepName(std::string_view name);
// A kernel that moves memory by HTA's names (Memcpy*, Memset*, dma*).
bool isMemoryKernelName(std::string_view name);
// The same, as the expression HTA writes (anchored at the name's start).
const char *memoryKernelPattern();

struct TimeSplitInputs {
    std::function<bool(const Track &)> acceptsTrack;
    // First and one-past-last event of a track to count.
    std::function<std::pair<std::size_t, std::size_t>(const Track &)> eventsIn;
    std::function<GpuWorkClass(StringId kernelName)> classOfKernel;
};
GpuTimeSplit gpuTimeSplitOf(const Report &report, const TimeSplitInputs &inputs);

// Over all of a report's time with the built-in classes
// (core/communicationkernels.h and HTA's memory names): the whole report
// first, then each process by pid when its tracks name more than one, as a
// session may split a report into ranks by process.
std::vector<GpuTimeSplit> builtInTimeSplits(const Report &report);
// The one kept for the whole report (no pid) or one process, when the
// report keeps them.
const GpuTimeSplit *keptTimeSplit(const Report &report, std::optional<std::uint32_t> pid);

} // namespace rankscope
