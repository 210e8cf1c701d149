#pragma once
// The file a report's columns are views of, when it was opened from an
// index cache (load/cache/). The kernel reads its pages in as they are
// touched and counts them in this process's resident memory until they are
// given back: release() does that (the pages stay in the page cache; the
// views stay valid, and reading them again brings the pages back in). That
// is how the viewer keeps hundreds of ranks open under a memory budget
// (session/residentbudget.h) without ever invalidating an event.
#include <cstdint>

namespace rankscope {

class MappedPages {
public:
    virtual ~MappedPages() = default;
    virtual std::uint64_t bytes() const = 0;
    virtual void release() const = 0;
    // The pages will be read at scattered places from now on: a fault reads
    // in the page it needs, not the device's readahead window around it
    // (megabytes, mapped as 2 MiB folios on recent kernels: a pass that
    // gives its pages back every few thousand reads would map a gigabyte
    // between two releases).
    virtual void expectScatteredReads() const { }
};

} // namespace rankscope
