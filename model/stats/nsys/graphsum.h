#pragma once
// Rankscope's own report on CUDA graphs (nsys has none): how long each
// graph's launches ran on the GPU and how many kernels they held.
#include "core/report.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

// cuda_graph_sum: per graph (its slice name, "Graph 3"), its launches'
// GPU time as nsys' summaries write durations, Time (%),Total Time
// (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns), then
// Kernels (the kernels those launches ran on their streams: 0 where nsys
// traced graphs whole) and Name; the longest total first. A launch over
// several streams counts once per stream.
ResultTable cudaGraphSum(const Report &report);

} // namespace rankscope::stats
