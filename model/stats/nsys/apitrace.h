#pragma once
// nsys' cuda_api_trace: every CUDA API call, as `nsys stats` prints it.
#include "core/report.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

// Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,T-Pri,Thread Name:
// every call of the export's CUDA runtime and driver table by its start,
// its name without the _vNNNN suffix, its return value and correlation id,
// and its thread's priority and name (empty where nsys recorded none).
ResultTable cudaApiTrace(const Report &report);

} // namespace rankscope::stats
