#pragma once
// nsys' unified-memory reports over the page faults and migrations nsys
// recorded (Report::umCpuFaults, umGpuFaults, and the copies of copy kind
// 11 and 12, Unified HtoD and DtoH, with their virtual addresses): the same
// rows, columns and order as `nsys stats` prints them.
#include "core/report.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

// um_sum[:rows=N]: per virtual address, the bytes migrated each way, the
// CPU and GPU page faults and the migrations' throughput in bytes per
// second, the highest throughput first, at most `rows` rows (10 by
// default; a negative count: all).
ResultTable umSum(const Report &report, int rows);
inline constexpr int kUmSumDefaultRows = 10;

// um_total_sum: one row of totals and the lowest and highest address any
// fault or migration touched.
ResultTable umTotalSum(const Report &report);

// um_cpu_page_faults_sum: CPU page faults per faulting instruction (its
// function) and source line, the most first.
ResultTable umCpuPageFaultsSum(const Report &report);

} // namespace rankscope::stats
