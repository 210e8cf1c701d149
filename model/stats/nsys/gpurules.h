#pragma once
// The two `nsys analyze` rules Rankscope reproduces: gpu_gaps and
// gpu_time_util. Both look at every kernel, memcpy and memset of one
// (process, device), over the span from its first op's start to its last
// op's end.
#include "core/report.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

struct GpuGap {
    std::uint32_t pid = 0;
    int deviceId = 0;
    std::uint32_t contextId = 0;
    TimeNs start = 0;
    TimeNs duration = 0;
};

// Every idle range of at least `minimumNs` on each (process, device),
// largest first. Starts are paired with ends in sorted order, so an op on
// one stream that overlaps an op on another keeps the GPU busy.
std::vector<GpuGap> findGpuGaps(const Report &report, TimeNs minimumNs);

// Columns Row#,Duration (ns),Start (ns),PID,Device ID,Context ID.
ResultTable gpuGaps(const Report &report, double thresholdMs = 500.0);

// 30 equal chunks per (process, device); chunks whose in-use percentage is
// under the threshold, merged into runs. Columns
// Row#,In-Use (%),Duration (ns),Start (ns),PID,Device ID,Context ID.
ResultTable gpuTimeUtil(const Report &report, double thresholdPercent = 50.0, int chunks = 30);

} // namespace rankscope::stats
