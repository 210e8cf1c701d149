#pragma once
// nsys' NVTX trace and projection reports, over the ranges of
// stats/nsys/nvtxranges.h: nvtx_pushpop_trace, nvtx_gpu_proj_trace,
// nvtx_gpu_proj_sum and nvtx_kern_sum (docs/statistics.md).
#include "core/report.h"
#include "stats/analysissettings.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

ResultTable nvtxPushPopTrace(const Report &report);
ResultTable nvtxGpuProjTrace(const Report &report);
ResultTable nvtxGpuProjSum(const Report &report);
ResultTable nvtxKernSum(const Report &report, KernelNaming naming);

} // namespace rankscope::stats
