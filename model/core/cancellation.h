#pragma once
// Whether the computation on this thread was replaced by a newer request.
// The viewer sets it for each job it runs (widgets/jobs/latestjob.h); the
// statistics ask before each rank they read and give up by throwing
// OperationCancelled, so a superseded pass over hundreds of ranks stops
// within a rank instead of keeping a pool thread from the newest request.
// Without a scope (the command line, tests) nothing is ever cancelled.
#include <atomic>
#include <cstddef>
#include <cstdint>
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

// Where a job is: the rank its current pass reads, of how many (a
// computation may make several passes). Written by the worker, read by
// whoever shows the job's progress.
struct JobProgress {
    std::atomic<std::uint32_t> rank{0};  // from 1
    std::atomic<std::uint32_t> ranks{0}; // 0: no pass yet
};

class ProgressScope {
public:
    // Until destroyed, the rank passes on this thread record their place in `progress`.
    explicit ProgressScope(JobProgress *progress);
    ~ProgressScope();
    ProgressScope(const ProgressScope &) = delete;
    ProgressScope &operator=(const ProgressScope &) = delete;

private:
    JobProgress *m_outer;
};

// A pass over `ranks` ranks: next() before each rank gives up when the
// job was replaced (throwIfCancelled) and records which rank it reads.
class RankPass {
public:
    explicit RankPass(std::size_t ranks) : m_ranks(ranks) { }
    void next();

private:
    std::size_t m_ranks;
    std::size_t m_done = 0;
};

} // namespace rankscope
