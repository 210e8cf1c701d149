#include "analysis/analysisworkspace.h"

namespace rankscope {

AnalysisWorkspace::AnalysisWorkspace(std::shared_ptr<const Session> session, AnalysisSettings settings)
    : m_session(std::move(session)), m_settings(std::move(settings)),
      m_classes(stats::KernelClassifier::rankscope(m_settings.communicationPattern))
{
}

std::shared_ptr<AnalysisWorkspace> AnalysisWorkspace::withSettings(const AnalysisSettings &settings) const
{
    auto next = std::make_shared<AnalysisWorkspace>(m_session, settings);
    // The matches and waits read the communication classes; the diagnosis
    // reads them and its thresholds.
    if (settings.communicationPattern != m_settings.communicationPattern)
        return next;
    for (int clock = 0; clock < 2; ++clock) {
        next->m_match[clock].adopt(m_match[clock].ready());
        next->m_waits[clock].adopt(m_waits[clock].ready());
    }
    if (settings.diagnosis == m_settings.diagnosis)
        next->m_diagnosis.adopt(m_diagnosis.ready());
    return next;
}

std::shared_ptr<const stats::CollectiveMatch> AnalysisWorkspace::collectiveMatch(MatchClock clock) const
{
    if (clock == MatchClock::Recorded)
        return m_match[0].get([&] { return stats::matchCollectives(*m_session, m_classes); });
    return m_match[1].get([&] { return stats::alignedOnCollectives(*m_session, *collectiveMatch(MatchClock::Recorded)); });
}

std::shared_ptr<const std::vector<stats::RankWait>> AnalysisWorkspace::rankWaits(MatchClock clock) const
{
    return m_waits[int(clock)].get([&] { return stats::rankWaits(*m_session, *collectiveMatch(clock), {}, m_classes); });
}

std::shared_ptr<const stats::Diagnosis> AnalysisWorkspace::diagnosis() const
{
    return m_diagnosis.get([&] {
        stats::DiagnosisInputs inputs{&m_classes, nullptr, nullptr};
        std::shared_ptr<const stats::CollectiveMatch> match;
        std::shared_ptr<const std::vector<stats::RankWait>> waits;
        if (m_session->ranks().size() > 1) {
            match = collectiveMatch(MatchClock::Aligned);
            waits = rankWaits(MatchClock::Aligned);
            inputs.alignedMatch = match.get();
            inputs.alignedWaits = waits.get();
        }
        return stats::diagnose(*m_session, m_settings.diagnosis, inputs);
    });
}

std::shared_ptr<const stats::CollectiveMatch> AnalysisWorkspace::readyCollectiveMatch(MatchClock clock) const
{
    return m_match[int(clock)].ready();
}

std::shared_ptr<const stats::Diagnosis> AnalysisWorkspace::readyDiagnosis() const
{
    return m_diagnosis.ready();
}

} // namespace rankscope
