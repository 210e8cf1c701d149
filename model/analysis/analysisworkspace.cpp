#include "analysis/analysisworkspace.h"

namespace rankscope {

AnalysisWorkspace::AnalysisWorkspace(std::shared_ptr<const Session> session, AnalysisSettings settings)
    : m_session(std::move(session)), m_settings(std::move(settings)),
      m_classes(stats::KernelClassifier::rankscope(m_settings.communicationPattern)),
      m_inputs(std::make_shared<Inputs>(*m_session, m_classes))
{
}

std::shared_ptr<AnalysisWorkspace> AnalysisWorkspace::withSettings(const AnalysisSettings &settings) const
{
    auto next = std::make_shared<AnalysisWorkspace>(m_session, settings);
    // The runs' alignment reads no setting.
    for (int anchor = 0; anchor < 2; ++anchor)
        next->m_runAnchorDelta[anchor].adopt(m_runAnchorDelta[anchor].ready());
    next->m_stepStretch.adopt(m_stepStretch.ready());
    // The matches and waits read the communication classes; the diagnosis
    // reads them and its thresholds.
    if (settings.communicationPattern != m_settings.communicationPattern)
        return next;
    next->m_inputs = m_inputs; // the records, and the matches made from them
    for (int clock = 0; clock < 2; ++clock)
        next->m_waits[clock].adopt(m_waits[clock].ready());
    if (settings.diagnosis == m_settings.diagnosis)
        next->m_diagnosis.adopt(m_diagnosis.ready());
    return next;
}

std::shared_ptr<const stats::CollectiveMatch> AnalysisWorkspace::collectiveMatch(MatchClock clock) const
{
    // A second asker waits for the first one's match.
    return *m_inputs->matches[int(clock)].get([&] {
        return withCollectiveInputs([&](stats::CollectiveInputs &records) {
            auto match = records.sharedMatch(clock == MatchClock::Aligned);
            // An aligned match is built on the recorded one: that is ready too.
            if (auto recorded = records.readyMatch(false); clock == MatchClock::Aligned && recorded)
                m_inputs->matches[int(MatchClock::Recorded)].adopt(std::make_shared<const std::shared_ptr<const stats::CollectiveMatch>>(std::move(recorded)));
            return match;
        });
    });
}

std::shared_ptr<const std::vector<stats::RankWait>> AnalysisWorkspace::rankWaits(MatchClock clock) const
{
    return m_waits[int(clock)].get([&] { return rankWaits(clock, {}); });
}

std::vector<stats::RankWait> AnalysisWorkspace::rankWaits(MatchClock clock, const stats::StatsScope &scope) const
{
    const auto match = collectiveMatch(clock);
    return withCollectiveInputs([&](stats::CollectiveInputs &records) { return stats::rankWaits(records, *match, scope); });
}

std::shared_ptr<const CriticalPathSolutions> AnalysisWorkspace::criticalPathSolutions(MatchClock clock, const stats::CriticalPathOptions &options) const
{
    QStringList key{QString::number(int(clock)), options.stepNames, options.step ? QString::number(*options.step) : QString()};
    key << (options.range ? QStringLiteral("%1-%2").arg(options.range->start).arg(options.range->end) : QString());
    for (const stats::WhatIf &w : options.whatIfs)
        key << w.text;
    const QString joined = key.join(QChar(0)); // no pattern holds a NUL
    {
        const std::lock_guard lock(m_pathSolutionsMutex);
        const auto it = std::find_if(m_pathSolutions.begin(), m_pathSolutions.end(), [&](const PathSolutionsEntry &e) { return e.key == joined; });
        if (it != m_pathSolutions.end()) {
            std::rotate(m_pathSolutions.begin(), it, it + 1);
            return m_pathSolutions.front().solutions;
        }
    }
    // Found outside the lock: the steps' annotations of every rank.
    auto solutions = std::make_shared<const CriticalPathSolutions>(m_session, collectiveMatch(clock), m_classes, options);
    const std::lock_guard lock(m_pathSolutionsMutex);
    const auto it = std::find_if(m_pathSolutions.begin(), m_pathSolutions.end(), [&](const PathSolutionsEntry &e) { return e.key == joined; });
    if (it != m_pathSolutions.end()) { // another thread found them meanwhile: one set of solutions
        std::rotate(m_pathSolutions.begin(), it, it + 1);
        return m_pathSolutions.front().solutions;
    }
    m_pathSolutions.insert(m_pathSolutions.begin(), {joined, std::move(solutions)});
    if (m_pathSolutions.size() > kKeptPathSolutions)
        m_pathSolutions.pop_back();
    return m_pathSolutions.front().solutions;
}

std::shared_ptr<const stats::Diagnosis> AnalysisWorkspace::diagnosis() const
{
    return m_diagnosis.get([&] {
        stats::DiagnosisInputs inputs;
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

std::optional<TimeNs> AnalysisWorkspace::runAnchorDelta(stats::RunAnchor anchor) const
{
    static_assert(int(stats::RunAnchor::Starts) == 0 && int(stats::RunAnchor::FirstStep) == 1);
    return *m_runAnchorDelta[int(anchor)].get([&] { return stats::runAnchorDelta(*m_session, anchor); });
}

std::shared_ptr<const std::vector<std::vector<stats::StretchPoint>>> AnalysisWorkspace::stepStretchPoints() const
{
    return m_stepStretch.get([&] { return stats::stepStretchPoints(*m_session); });
}

std::shared_ptr<const stats::CollectiveMatch> AnalysisWorkspace::readyCollectiveMatch(MatchClock clock) const
{
    const auto ready = m_inputs->matches[int(clock)].ready();
    return ready ? *ready : nullptr;
}

std::shared_ptr<const stats::Diagnosis> AnalysisWorkspace::readyDiagnosis() const
{
    return m_diagnosis.ready();
}

} // namespace rankscope
