#pragma once
// nsys' cuda_gpu_kern_gb_sum: kernels summarised by name and launch grid
// and block, as `nsys stats` prints it.
#include "core/report.h"
#include "stats/analysissettings.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

// Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),
// StdDev (ns),GridXYZ,BlockXYZ,Name: one row per kernel name, grid and
// block, the dimensions each printed "%4d" and joined by spaces; the
// largest total first, then fewer instances, then by name.
ResultTable cudaGpuKernGridBlockSum(const Report &report, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false);

// A launch's grid or block as nsys prints it: each dimension as C's "%4d",
// joined by spaces ("   1 4096    1").
QString launchDimensions(std::uint32_t x, std::uint32_t y, std::uint32_t z);

} // namespace rankscope::stats
