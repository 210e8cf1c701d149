#pragma once
// Loading, indexing and matching make millions of small objects and large
// columns: glibc's malloc hands them out from memory the kernel maps a 4 KiB
// page at a time, each page a fault when first written. Where the kernel
// gives huge pages (2 MiB) only to memory that asks for them (transparent
// huge pages in "madvise" mode, Debian's default), glibc asks for them when
// told to by its tunable glibc.malloc.hugetlb=1 (glibc 2.35 on), which is
// read once, before main; with glibc.malloc.arena_max=1 every thread's
// blocks come from the heap that gets them (heappages.cpp). On this 2-core
// VM that takes `diagnose` of 256 ranks from 586,000 page faults to 20,000
// and 13.7-16.9 s to 6.5-7.7 s, the viewer's Diagnosis panel at 256 ranks
// from 25.6 s to 9.7 s, with at most 5 % more resident memory
// (docs/performance.md, "Huge pages for the heap").
namespace rankscope {

// Runs this executable again, with the same arguments, with the tunables
// added to GLIBC_TUNABLES (the arena count only if the user set none),
// when it would help: the kernel is in madvise mode, glibc has the
// tunable, malloc is glibc's (not a sanitizer's), glibc.malloc.hugetlb is
// not set already (by the user, or by the run before the re-run: so it
// happens at most once) and RANKSCOPE_HUGE_PAGES is not "off". Returns when it does not (or when exec fails: the process goes on
// as it is). Call first in main, before threads or MPI start.
void rerunWithHugePageHeap(char **argv);

// Whether this build's malloc is a sanitizer's (ASan, TSan, MSan), which
// the tunable does not reach.
bool sanitizerOwnsMalloc();

} // namespace rankscope
