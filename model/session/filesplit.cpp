#include "session/filesplit.h"

#include <algorithm>
#include <numeric>

namespace rankscope {

std::vector<int> splitFilesBySize(const std::vector<std::int64_t> &sizes, int parts)
{
    std::vector<int> owner(sizes.size(), 0);
    if (parts <= 1)
        return owner;
    std::vector<std::size_t> order(sizes.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
    std::vector<std::int64_t> load(std::size_t(parts), 0);
    for (const std::size_t file : order) {
        const auto least = std::size_t(std::min_element(load.begin(), load.end()) - load.begin());
        owner[file] = int(least);
        load[least] += std::max<std::int64_t>(sizes[file], 1);
    }
    return owner;
}

} // namespace rankscope
