#pragma once
// nsys' cuda_gpu_kern_gb_sum: kernels summarised by name and launch grid
// and block, as `nsys stats` prints it.
#include "core/report.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

// Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),
// StdDev (ns),GridXYZ,BlockXYZ,Name: one row per kernel name, grid and
// block, the dimensions each printed "%4d" and joined by spaces; the
// largest total first, then fewer instances, then by name.
ResultTable cudaGpuKernGridBlockSum(const Report &report);

} // namespace rankscope::stats
