#include "analysis/resultstore.h"

#include <algorithm>
#include <array>

namespace rankscope {

namespace {

using S = stats::ReportSetting;
constexpr unsigned kPattern = unsigned(S::CommunicationPattern);

// Every kind of result the workspace keeps, once: the settings it reads
// and whether it is kept for the workspace's life.
constexpr std::array<ResultKindDeclaration, 13> kDeclarations{{
    {ResultKind::CollectiveMatch, "collective_match", kPattern, true},
    {ResultKind::RankWaits, "rank_waits", kPattern, true},
    {ResultKind::Diagnosis, "diagnosis", kPattern | unsigned(S::DiagnosisThresholds), true},
    {ResultKind::RunAnchorDelta, "run_anchor_delta", 0, true},
    {ResultKind::StepStretch, "step_stretch", 0, true},
    // Its options (step, names, what-ifs, range) are in its key.
    {ResultKind::CriticalPathSolutions, "critical_path_solutions", kPattern, false},
    {ResultKind::RankComparison, "rank_comparison", kPattern, false},
    {ResultKind::CpuSamplingByRank, "cpu_sampling_ranks", 0, false},
    {ResultKind::GpuBusyMap, "gpu_busy_map", 0, false},
    {ResultKind::GpuBusyWithoutWaitMap, "gpu_busy_without_wait_map", kPattern, false},
    {ResultKind::CollectiveWaitMap, "collective_wait_map", kPattern, false},
    {ResultKind::MemoryTransfers, "memory_transfers", 0, false},
    // Its rule is in its key; the in-loop part comes from the diagnosis' thresholds.
    {ResultKind::GpuGaps, "gpu_gaps", unsigned(S::DiagnosisThresholds), false},
}};

} // namespace

const ResultKindDeclaration &declarationOf(ResultKind kind)
{
    const auto &d = kDeclarations[std::size_t(kind)];
    return d.kind == kind ? d : throw std::logic_error("result kinds declared out of order");
}

std::vector<ResultStore::Entry>::iterator ResultStore::find(const ResultKey &key) const
{
    return std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry &e) { return e.key == key; });
}

void ResultStore::evictBeyondTheKept() const
{
    // The session's results stay; of the others, the most recent kKeptResults.
    std::vector<Entry> kept;
    kept.reserve(m_entries.size());
    std::size_t others = 0;
    for (Entry &e : m_entries)
        if (declarationOf(e.key.kind).keptForTheSession || ++others <= kKeptResults)
            kept.push_back(std::move(e));
    m_entries = std::move(kept);
}

void ResultStore::takeOver(const ResultStore &other, unsigned changedSettings)
{
    std::vector<Entry> taken;
    {
        const std::lock_guard lock(other.m_mutex);
        for (const Entry &e : other.m_entries)
            if ((declarationOf(e.key.kind).settings & changedSettings) == 0)
                taken.push_back(e);
    }
    const std::lock_guard lock(m_mutex);
    for (Entry &e : taken)
        if (find(e.key) == m_entries.end())
            m_entries.push_back(std::move(e));
    evictBeyondTheKept();
}

} // namespace rankscope
