#pragma once
// Refusing a file the machine cannot hold before reading it. Running out of
// memory half way is caught (loadTraceFile turns std::bad_alloc into a
// message), but by then the machine may have swapped for minutes; where a
// format tells its size up front (an export's row counts, a JSON text's
// length), the loader checks first.
#include "load/loadcontrol.h"

#include <cstdint>

namespace rankscope {

// A lower bound of the model's size per event: each event's slice alone
// holds its start, end, name and payload (8 + 8 + 4 + 4 B; whole models
// take 40-63 B/event on the fixtures and the bench, about 150 B on a real
// PyTorch export, docs/performance.md). A lower bound, so that a refusal
// is certain and a file that fits is never turned away.
constexpr std::uint64_t kModelBytesPerEventAtLeast = 24;

struct MemoryNeed {
    std::uint64_t bytes = 0;
    std::uint64_t events = 0; // for the message; 0: not counted
};

// What the machine can still give this load: LoadControl's figure (tests),
// else availableMemoryBytes() (core/memoryusage.h); 0 unknown.
std::uint64_t availableMemoryFor(const LoadControl &control);

// Empty when `need` fits what the machine has available (LoadControl's
// figure, else /proc's MemAvailable; unknown counts as enough), else the
// failure: "needs about 3.1 GiB of memory (50,000,000 events); 1.2 GiB is
// available".
QString memoryShortfall(const MemoryNeed &need, const LoadControl &control);

} // namespace rankscope
