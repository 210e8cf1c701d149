#pragma once
// Loads a PyTorch profiler (Kineto) Chrome-trace JSON file, plain or gzip,
// into a Report: CPU ops and annotations as nested ranges per thread, CUDA
// runtime and driver calls, kernels, memcpys, memsets, GPU-side
// annotations, syncs, memory counters, names and device properties.
#include "load/loadcontrol.h"

namespace rankscope {

class KinetoLoader {
public:
    // gzip, or a file whose first non-blank byte is '{' or '['.
    static bool canLoad(const QString &path);
    static LoadResult load(const QString &path, const LoadControl &control = {});
};

// Bytes per element of a PyTorch dtype name ("Float" 4, "BFloat16" 2, ...);
// 0 when unknown.
int dtypeSize(std::string_view dtype);

} // namespace rankscope
