#pragma once
// nsys' cuda_kern_exec_trace and cuda_kern_exec_sum: each kernel with the
// API call that launched it, split into API, queue and kernel time, as
// `nsys stats` prints them.
#include "core/report.h"
#include "stats/analysissettings.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

// API Start (ns),API Dur (ns),Queue Start (ns),Queue Dur (ns),Kernel Start (ns),
// Kernel Dur (ns),Total Dur (ns),PID,TID,DevId,API Function,GridXYZ,BlockXYZ,
// Kernel Name: one row per kernel whose launching call (same process and
// correlation id) the export has, by the call's start. The queue runs from
// the call's end to the kernel's start, empty when the kernel began first;
// the total from the call's start to the later of the two ends.
ResultTable cudaKernExecTrace(const Report &report, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false);

// PID,TID,DevId,Count,QCount, then average, median, minimum, maximum and
// standard deviation of the total (T), API (A), queue (Q) and kernel (K)
// times, API Name, Kernel Name: the launches above grouped by caller,
// device, call and kernel, the longest average total first. The queue's
// statistics are over the QCount launches that had one (empty for none).
ResultTable cudaKernExecSum(const Report &report, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false);

} // namespace rankscope::stats
