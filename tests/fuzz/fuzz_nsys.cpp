// libFuzzer target: Nsight Systems SQLite exports (seeded with real and
// mutated exports, so most inputs get past the SQLite header).
#include "fuzzload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    rankscope::fuzz::loadAndInspect(data, size, ".sqlite", RANKSCOPE_FUZZ_NSYS_COMPANION);
    return 0;
}
