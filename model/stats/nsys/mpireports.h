#pragma once
// nsys' MPI reports over the calls `--trace=mpi` recorded (Report::mpiCalls):
// the same rows, columns, order and rounding as `nsys stats` prints them.
#include "core/report.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

// mpi_event_sum: the calls' durations by source table and function,
// Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Source,Name,
// the longest total first.
ResultTable mpiEventSum(const Report &report);

// mpi_event_trace: every call by its start, with its thread, tag, rank,
// peer, root and sizes in MB (10^6 bytes, three places); a value the
// export does not have is empty.
ResultTable mpiEventTrace(const Report &report);

} // namespace rankscope::stats
