#include "analysis/criticalpathsolutions.h"

#include "session/residentbudget.h"

#include <algorithm>

namespace rankscope {

using namespace stats;

CriticalPathSolutions::CriticalPathSolutions(std::shared_ptr<const Session> session, std::shared_ptr<const CollectiveMatch> match,
                                             KernelClassifier classes, CriticalPathOptions options)
    : m_session(std::move(session)), m_match(std::move(match)), m_names(*m_session, std::move(classes)), m_options(std::move(options)),
      m_steps(*m_session, *m_match, m_options, RankPages::ReleaseEachRank), m_summaries(m_steps.size())
{
}

TimeNs CriticalPathSolutions::annotatedStart(std::size_t i) const
{
    return m_steps.annotatedStart(i);
}

std::shared_ptr<const StepCriticalPath> CriticalPathSolutions::solve(std::size_t i, RankPages pages) const
{
    auto path =
        std::make_shared<const StepCriticalPath>(solveCriticalPath(*m_session, *m_match, m_names, m_options, m_steps.window(i, pages), pages));
    StepPathSummary summary = summarizePath(*m_session, *path);
    if (pages == RankPages::ReleaseEachRank) // what the summary read of each rank (names, times) goes back too
        releaseRankPages();
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
    std::shared_ptr<const StepCriticalPath> path = solve(i, RankPages::ReleaseEachRank);
    const std::lock_guard lock(m_mutex);
    m_kept.insert(m_kept.begin(), {i, path});
    if (m_kept.size() > kKeptPaths)
        m_kept.pop_back();
    return path;
}

StepPathSummary CriticalPathSolutions::summary(std::size_t i, RankPages pages) const
{
    if (std::optional<StepPathSummary> s = solvedSummary(i))
        return *std::move(s);
    solve(i, pages);
    return *solvedSummary(i);
}

void CriticalPathSolutions::releaseRankPages() const
{
    for (const RankEntry &entry : m_session->ranks())
        ResidentBudget::process().release(*entry.report);
}

std::optional<StepPathSummary> CriticalPathSolutions::solvedSummary(std::size_t i) const
{
    const std::lock_guard lock(m_mutex);
    return m_summaries[i];
}

} // namespace rankscope
