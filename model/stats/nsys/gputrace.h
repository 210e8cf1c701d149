#pragma once
// nsys' cuda_gpu_trace over the kernels, copies and memsets a report keeps:
// the same rows, columns, order and rounding as `nsys stats` prints them.
#include "core/report.h"
#include "stats/analysissettings.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

// cuda_gpu_trace: every kernel, memcpy and memset by its start (kernels
// first where two start at once, then copies, then memsets), with its
// launch configuration (kernels), bytes and throughput (copies and
// memsets, MB = 10^6 bytes), memory kinds, device, context, stream and
// name. Throughput is nsys': bytes x (10^9 / duration), the division an
// integer one.
ResultTable cudaGpuTrace(const Report &report, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false);

} // namespace rankscope::stats
