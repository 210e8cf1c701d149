#pragma once
// The one pool every load runs on. Session::load hands files to it, and each
// loader hands its tracks (and its second SQLite connection's tables) to the
// same pool, so a session of many files on a 2-core machine uses 2 worker
// threads and the caller's, not cores × files.
//
// parallelFor() blocks, and the calling thread works too. Helpers are only
// ever started on idle pool threads (tryStart never queues), so a loop
// started from inside a pool thread (a file's tracks, while the session's
// loop holds every worker) runs on its caller and cannot deadlock.
#include <QSemaphore>
#include <QThreadPool>

#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>

namespace rankscope {

QThreadPool *loadThreadPool();

// body(i) for every i in [0, n), on the load pool and the calling thread.
template <class Body>
void parallelFor(std::size_t n, Body &&body)
{
    // Shared with the helpers: a helper may still be inside release() when
    // the caller's acquire() returns.
    struct Progress {
        std::atomic<std::size_t> next{0};
        QSemaphore finished;
        std::mutex mutex;
        std::exception_ptr error; // the first thrown (std::bad_alloc on a file too big), rethrown to the caller
    };
    const auto progress = std::make_shared<Progress>();
    auto work = [progress, n, &body] {
        try {
            for (std::size_t i = progress->next++; i < n; i = progress->next++)
                body(i);
        } catch (...) {
            const std::lock_guard lock(progress->mutex);
            if (!progress->error)
                progress->error = std::current_exception();
            progress->next = n; // the others stop after their current item
        }
    };
    int helpers = 0;
    QThreadPool *pool = loadThreadPool();
    while (std::size_t(helpers) + 1 < n && pool->tryStart([work, progress] {
        work();
        progress->finished.release();
    }))
        ++helpers;
    work();
    progress->finished.acquire(helpers);
    if (progress->error)
        std::rethrow_exception(progress->error);
}

} // namespace rankscope
