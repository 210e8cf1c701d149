#include "analysis/criticalpathsolutions.h"

#include "session/residentbudget.h"

#include <algorithm>

namespace rankscope {

using namespace stats;

CriticalPathSolutions::CriticalPathSolutions(std::shared_ptr<const Session> session, std::shared_ptr<const CollectiveMatch> match,
                                             KernelClassifier classes, CriticalPathOptions options)
    : m_session(std::move(session)), m_match(std::move(match)), m_classes(std::move(classes)), m_options(std::move(options)),
      m_steps(*m_session, *m_match, m_options), m_summaries(m_steps.size())
{
}

TimeNs CriticalPathSolutions::annotatedStart(std::size_t i) const
{
    return m_steps.annotatedStart(i);
}

std::shared_ptr<const StepCriticalPath> CriticalPathSolutions::solve(std::size_t i) const
{
    auto path = std::make_shared<const StepCriticalPath>(solveCriticalPath(*m_session, *m_match, m_classes, m_options, m_steps.window(i)));
    StepPathSummary summary = summarizePath(*m_session, *path);
    // A step reads every rank's events in its window: their pages go back
    // (unless the timeline reads them too), so solving step after step
    // holds one step's pages, not the whole session's.
    for (const RankEntry &entry : m_session->ranks())
        ResidentBudget::process().doneReading(*entry.report);
    const std::lock_guard lock(m_mutex);
    m_summaries[i] = std::move(summary);
    return path;
}

std::shared_ptr<const StepCriticalPath> CriticalPathSolutions::path(std::size_t i) const
{
    {
        const std::lock_guard lock(m_mutex);
        const auto it = std::find_if(m_kept.begin(), m_kept.end(), [&](const auto &k) { return k.first == i; });
        if (it != m_kept.end()) {
            std::rotate(m_kept.begin(), it, it + 1);
            return m_kept.front().second;
        }
    }
    std::shared_ptr<const StepCriticalPath> path = solve(i);
    const std::lock_guard lock(m_mutex);
    m_kept.insert(m_kept.begin(), {i, path});
    if (m_kept.size() > kKeptPaths)
        m_kept.pop_back();
    return path;
}

StepPathSummary CriticalPathSolutions::summary(std::size_t i) const
{
    if (std::optional<StepPathSummary> s = solvedSummary(i))
        return *std::move(s);
    solve(i);
    return *solvedSummary(i);
}

std::optional<StepPathSummary> CriticalPathSolutions::solvedSummary(std::size_t i) const
{
    const std::lock_guard lock(m_mutex);
    return m_summaries[i];
}

} // namespace rankscope
