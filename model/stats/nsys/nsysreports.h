#pragma once
// The `nsys stats` summary reports, computed from a loaded Report. Same
// rows, columns, order, units and rounding as nsys 2025.3 prints them with
// --format csv (see docs/statistics.md).
#include "core/report.h"
#include "stats/analysissettings.h"
#include "stats/resulttable.h"
#include "stats/statsscope.h"

namespace rankscope::stats {

// Over the events of every slice together (the viewer's panels pass a time
// range and one or all ranks); a whole report gives nsys' numbers.
using Slices = std::vector<ReportSlice>;
// The kernel summaries name kernels as `naming` says (nsys' :base, :mangled),
// after the innermost NVTX range around their launch with `nvtxPrefix`
// (nsys' :nvtx-name; stats/nsys/kernelnames.h).
ResultTable cudaGpuKernSum(const Slices &slices, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false);
ResultTable cudaGpuMemTimeSum(const Slices &slices);
ResultTable cudaGpuMemSizeSum(const Slices &slices);
// cuda_gpu_sum: kernels and memory operations together, by name, with
// their category (CUDA_KERNEL, MEMORY_OPER), as nsys prints it.
ResultTable cudaGpuSum(const Slices &slices, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false);
// cuda_api_gpu_sum: cuda_gpu_sum's rows and cuda_api_sum's (CUDA_API).
ResultTable cudaApiGpuSum(const Slices &slices, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false);
ResultTable cudaApiSum(const Slices &slices);
ResultTable nvtxSum(const Slices &slices);
// nvtx_pushpop_sum, nvtx_startend_sum: nvtx_sum's rows of one style, without
// its Style column, the Time (%) over them.
ResultTable nvtxPushPopSum(const Slices &slices);
ResultTable nvtxStartEndSum(const Slices &slices);
ResultTable osrtSum(const Slices &slices);
// cuda_lib_sum (Rankscope's; nsys has none): cuDNN and cuBLAS calls by
// name, in osrt_sum's columns.
ResultTable cudaLibrarySum(const Slices &slices);
// openacc_sum: OpenACC events by name and source place; openmp_sum:
// OpenMP events by name within their event kind (nsys' table).
ResultTable openAccSum(const Slices &slices);
ResultTable openMpSum(const Slices &slices);

inline ResultTable cudaGpuKernSum(const Report &r, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false)
{
    return cudaGpuKernSum(Slices{wholeReport(r)}, naming, nvtxPrefix);
}
inline ResultTable cudaGpuMemTimeSum(const Report &r)
{
    return cudaGpuMemTimeSum(Slices{wholeReport(r)});
}
inline ResultTable cudaGpuMemSizeSum(const Report &r)
{
    return cudaGpuMemSizeSum(Slices{wholeReport(r)});
}
inline ResultTable cudaGpuSum(const Report &r, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false)
{
    return cudaGpuSum(Slices{wholeReport(r)}, naming, nvtxPrefix);
}
inline ResultTable cudaApiGpuSum(const Report &r, KernelNaming naming = KernelNaming::Demangled, bool nvtxPrefix = false)
{
    return cudaApiGpuSum(Slices{wholeReport(r)}, naming, nvtxPrefix);
}
inline ResultTable cudaApiSum(const Report &r)
{
    return cudaApiSum(Slices{wholeReport(r)});
}
inline ResultTable nvtxSum(const Report &r)
{
    return nvtxSum(Slices{wholeReport(r)});
}
inline ResultTable nvtxPushPopSum(const Report &r)
{
    return nvtxPushPopSum(Slices{wholeReport(r)});
}
inline ResultTable nvtxStartEndSum(const Report &r)
{
    return nvtxStartEndSum(Slices{wholeReport(r)});
}
inline ResultTable cudaLibrarySum(const Report &r)
{
    return cudaLibrarySum(Slices{wholeReport(r)});
}
inline ResultTable openAccSum(const Report &r)
{
    return openAccSum(Slices{wholeReport(r)});
}
inline ResultTable openMpSum(const Report &r)
{
    return openMpSum(Slices{wholeReport(r)});
}
inline ResultTable osrtSum(const Report &r)
{
    return osrtSum(Slices{wholeReport(r)});
}

// nsys drops a 4-digit API version suffix: "cudaLaunchKernel_v7000" ->
// "cudaLaunchKernel", while "cudaLaunchKernelExC_v11060" stays.
QString apiNameWithoutVersion(const QString &name);

} // namespace rankscope::stats
