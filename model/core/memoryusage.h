#pragma once
// How much memory this process holds and the machine can still give, from
// Linux's /proc; 0 where it cannot be read.
#include <cstdint>

namespace rankscope {

std::uint64_t residentBytes();        // VmRSS of this process
std::uint64_t availableMemoryBytes(); // MemAvailable of the machine

} // namespace rankscope
