#pragma once
// A minimal parallel for over [0, n) on std::threads; the model layer does
// not link QtConcurrent. Work items are handed out one at a time, so uneven
// items (one huge track, many small ones) still balance.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace rankscope {

template<class Body>
void parallelFor(std::size_t n, Body &&body, unsigned maxThreads = 0)
{
    unsigned threads = maxThreads ? maxThreads : std::max(1u, std::thread::hardware_concurrency());
    threads = unsigned(std::min<std::size_t>(threads, n));
    if (threads <= 1) {
        for (std::size_t i = 0; i < n; ++i)
            body(i);
        return;
    }
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i = next++; i < n; i = next++)
            body(i);
    };
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
}

} // namespace rankscope
