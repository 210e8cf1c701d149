#pragma once
// Which of P processes handles which rank file (rankscope-cli index and
// stats under MPI): the largest files first, each to the process with the
// least bytes so far, so the slowest process finishes as early as it can.
#include <cstdint>
#include <vector>

namespace rankscope {

// The process (0..parts-1) of each file, by its size in bytes. Ties go to
// the lower process; the result depends only on the sizes and their order.
std::vector<int> splitFilesBySize(const std::vector<std::int64_t> &sizes, int parts);

} // namespace rankscope
