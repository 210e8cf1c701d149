// libFuzzer target: PyTorch profiler (Kineto) JSON, plain or gzip.
#include "fuzzload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    rankscope::fuzz::loadAndInspect(data, size, ".json", RANKSCOPE_FUZZ_KINETO_COMPANION);
    return 0;
}
