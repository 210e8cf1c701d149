#pragma once
// How much memory this process holds and the machine can still give, from
// Linux's /proc (0 where it cannot be read), and giving freed memory back.
#include <cstdint>

namespace rankscope {

std::uint64_t residentBytes();        // VmRSS of this process
std::uint64_t peakResidentBytes();    // VmHWM of this process
std::uint64_t availableMemoryBytes(); // MemAvailable of the machine
// Hands the heap that big temporaries freed back to the system (glibc keeps
// it in its arenas otherwise, one per thread that allocated, so a process
// stays at its peak for good). Call after loading or a large computation.
void releaseFreedMemory();

} // namespace rankscope
