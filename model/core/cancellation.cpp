#include "core/cancellation.h"

#include <algorithm>

namespace rankscope {

namespace {

thread_local const std::function<bool()> *t_isCancelled = nullptr;
thread_local JobProgress *t_progress = nullptr;

} // namespace

CancellationScope::CancellationScope(std::function<bool()> isCancelled) : m_isCancelled(std::move(isCancelled)), m_outer(t_isCancelled)
{
    t_isCancelled = &m_isCancelled;
}

CancellationScope::~CancellationScope()
{
    t_isCancelled = m_outer;
}

void throwIfCancelled()
{
    if (t_isCancelled && (*t_isCancelled)())
        throw OperationCancelled();
}

ProgressScope::ProgressScope(JobProgress *progress) : m_outer(t_progress)
{
    t_progress = progress;
}

ProgressScope::~ProgressScope()
{
    t_progress = m_outer;
}

void RankPass::next()
{
    throwIfCancelled();
    ++m_done;
    if (t_progress) {
        t_progress->ranks.store(std::uint32_t(m_ranks), std::memory_order_relaxed);
        t_progress->rank.store(std::uint32_t(std::min(m_done, m_ranks)), std::memory_order_relaxed);
    }
}

} // namespace rankscope
