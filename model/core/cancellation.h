#pragma once
// Whether the computation on this thread was replaced by a newer request.
// The viewer sets it for each job it runs (widgets/jobs/latestjob.h); the
// statistics ask before each rank they read and give up by throwing
// OperationCancelled, so a superseded pass over hundreds of ranks stops
// within a rank instead of keeping a pool thread from the newest request.
// Without a scope (the command line, tests) nothing is ever cancelled.
#include <exception>
#include <functional>

namespace rankscope {

struct OperationCancelled : std::exception {
    const char *what() const noexcept override { return "cancelled: a newer request replaced it"; }
};

class CancellationScope {
public:
    // Until destroyed, throwIfCancelled() on this thread asks isCancelled().
    explicit CancellationScope(std::function<bool()> isCancelled);
    ~CancellationScope();
    CancellationScope(const CancellationScope &) = delete;
    CancellationScope &operator=(const CancellationScope &) = delete;

private:
    std::function<bool()> m_isCancelled;
    const std::function<bool()> *m_outer;
};

// Throws OperationCancelled when this thread's computation was replaced.
// Call it where giving up leaves nothing half-written (before a rank is
// read, not while its results are stored).
void throwIfCancelled();

} // namespace rankscope
