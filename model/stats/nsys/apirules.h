#pragma once
// Four more `nsys analyze` rules (Nsight Systems 2025.3's Expert System),
// with their columns, filters and order: copies and memsets that block the
// host, and the API calls that wait for the GPU.
//   cuda_memcpy_async: copies from or to pageable memory issued by
//     cudaMemcpy*Async* (they block: the driver stages them);
//   cuda_memcpy_sync: copies issued by cudaMemcpy* without "async";
//   cuda_memset_sync: memsets of pinned or managed memory issued by
//     cudaMemset* without "async";
//   cuda_api_sync: cudaDeviceSynchronize* and cudaStreamSynchronize* calls.
// Like nsys, each lists the longest first and at most `rowLimit` rows
// (50 by default; negative: all). As nsys' queries do, GPU operations join
// their API calls on the correlation id alone.
#include "core/report.h"
#include "stats/resulttable.h"

namespace rankscope::stats {

constexpr int kRuleRowLimit = 50; // nsys analyze's default `rows`

ResultTable cudaMemcpyAsyncRule(const Report &report, int rowLimit = kRuleRowLimit);
ResultTable cudaMemcpySyncRule(const Report &report, int rowLimit = kRuleRowLimit);
ResultTable cudaMemsetSyncRule(const Report &report, int rowLimit = kRuleRowLimit);
ResultTable cudaApiSyncRule(const Report &report, int rowLimit = kRuleRowLimit);

} // namespace rankscope::stats
