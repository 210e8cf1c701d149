#pragma once
// The `nsys stats` summary reports, computed from a loaded Report. Same
// rows, columns, order, units and rounding as nsys 2025.3 prints them with
// --format csv (see docs/statistics.md).
#include "report.h"
#include "resulttable.h"

namespace rankscope::stats {

ResultTable cudaGpuKernSum(const Report &report);
ResultTable cudaGpuMemTimeSum(const Report &report);
ResultTable cudaGpuMemSizeSum(const Report &report);
ResultTable cudaApiSum(const Report &report);
ResultTable nvtxSum(const Report &report);
ResultTable osrtSum(const Report &report);

// nsys drops a 4-digit API version suffix: "cudaLaunchKernel_v7000" ->
// "cudaLaunchKernel", while "cudaLaunchKernelExC_v11060" stays.
QString apiNameWithoutVersion(const QString &name);

} // namespace rankscope::stats
