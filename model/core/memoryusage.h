#pragma once
// How much memory this process holds and the machine can still give, from
// Linux's /proc (0 where it cannot be read), and giving freed memory back.
#include <cstdint>

namespace rankscope {

std::uint64_t residentBytes();     // VmRSS of this process
std::uint64_t peakResidentBytes(); // VmHWM of this process
// RssFile of this process: its resident pages of mapped files (index
// caches), which the kernel reads in as they are touched.
std::uint64_t residentFileBytes();
// Starts peakResidentBytes() again from the resident size now (Linux's
// /proc/self/clear_refs "5"), to measure one phase's peak; false if the
// kernel refuses.
bool resetPeakResidentBytes();
// What this process can still get: the machine's MemAvailable, no more
// than its address-space limit (RLIMIT_AS, `ulimit -v`) leaves beside what
// it maps now, nor than its cgroup's memory.max (and its ancestors') leaves.
std::uint64_t availableMemoryBytes();
// Hands the heap that big temporaries freed back to the system (glibc keeps
// it in its arenas otherwise, one per thread that allocated, so a process
// stays at its peak for good). Call after loading or a large computation.
void releaseFreedMemory();

} // namespace rankscope
