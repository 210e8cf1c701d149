#include "core/cancellation.h"

namespace rankscope {

namespace {

thread_local const std::function<bool()> *t_isCancelled = nullptr;

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

} // namespace rankscope
