#include "analysis/analysisworkspace.h"

namespace rankscope {

AnalysisWorkspace::AnalysisWorkspace(std::shared_ptr<const Session> session, AnalysisSettings settings)
    : m_session(std::move(session)), m_settings(std::move(settings)), m_classes(stats::KernelClassifier::rankscope(m_settings.communicationPattern)),
      m_inputs(std::make_shared<Inputs>(*m_session, m_classes))
{
}

namespace {

ResultKey matchKey(MatchClock clock)
{
    return {ResultKind::CollectiveMatch, {}, clock};
}

} // namespace

std::shared_ptr<AnalysisWorkspace> AnalysisWorkspace::withSettings(const AnalysisSettings &settings) const
{
    auto next = std::make_shared<AnalysisWorkspace>(m_session, settings);
    const unsigned changed = settingsThatDiffer(m_settings, settings);
    if (!(changed & unsigned(stats::ReportSetting::CommunicationPattern)))
        next->m_inputs = m_inputs; // the records, read with the same classes
    next->m_results.takeOver(m_results, changed);
    return next;
}

std::shared_ptr<const stats::CollectiveMatch> AnalysisWorkspace::collectiveMatch(MatchClock clock) const
{
    // A second asker waits for the first one's match.
    return *m_results.get<std::shared_ptr<const stats::CollectiveMatch>>(matchKey(clock), [&] {
        return withCollectiveInputs([&](stats::CollectiveInputs &records) {
            auto match = records.sharedMatch(clock == MatchClock::Aligned);
            // An aligned match is built on the recorded one: that is ready too.
            if (auto recorded = records.readyMatch(false); clock == MatchClock::Aligned && recorded)
                m_results.adopt(matchKey(MatchClock::Recorded),
                                std::make_shared<const std::shared_ptr<const stats::CollectiveMatch>>(std::move(recorded)));
            return match;
        });
    });
}

std::shared_ptr<const std::vector<stats::RankWait>> AnalysisWorkspace::rankWaits(MatchClock clock) const
{
    return m_results.get<std::vector<stats::RankWait>>({ResultKind::RankWaits, {}, clock}, [&] { return rankWaits(clock, {}); });
}

std::vector<stats::RankWait> AnalysisWorkspace::rankWaits(MatchClock clock, const stats::StatsScope &scope) const
{
    const auto match = collectiveMatch(clock);
    return withCollectiveInputs([&](stats::CollectiveInputs &records) { return stats::rankWaits(records, *match, scope); });
}

std::shared_ptr<const CriticalPathSolutions> AnalysisWorkspace::criticalPathSolutions(MatchClock clock,
                                                                                      const stats::CriticalPathOptions &options) const
{
    ResultKey key{ResultKind::CriticalPathSolutions, {}, clock};
    key.numbers = {options.step.value_or(-1), options.step.has_value(), options.range.has_value(), options.range ? options.range->start : 0,
                   options.range ? options.range->end : 0};
    key.texts << options.stepNames;
    for (const stats::WhatIf &w : options.whatIfs)
        key.texts << w.text;
    return *m_results.get<std::shared_ptr<const CriticalPathSolutions>>(key, [&] {
        // Found when first asked: the steps' annotations of every rank.
        return std::make_shared<const CriticalPathSolutions>(m_session, collectiveMatch(clock), m_classes, options);
    });
}

std::shared_ptr<const stats::Diagnosis> AnalysisWorkspace::diagnosis() const
{
    return m_results.get<stats::Diagnosis>({ResultKind::Diagnosis}, [&] {
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
    ResultKey key{ResultKind::RunAnchorDelta};
    key.numbers = {std::int64_t(anchor)};
    return *m_results.get<std::optional<TimeNs>>(key, [&] { return stats::runAnchorDelta(*m_session, anchor); });
}

std::shared_ptr<const std::vector<std::vector<stats::StretchPoint>>> AnalysisWorkspace::stepStretchPoints() const
{
    return m_results.get<std::vector<std::vector<stats::StretchPoint>>>({ResultKind::StepStretch},
                                                                        [&] { return stats::stepStretchPoints(*m_session); });
}

std::shared_ptr<const stats::CollectiveMatch> AnalysisWorkspace::readyCollectiveMatch(MatchClock clock) const
{
    const auto ready = m_results.ready<std::shared_ptr<const stats::CollectiveMatch>>(matchKey(clock));
    return ready ? *ready : nullptr;
}

std::shared_ptr<const stats::Diagnosis> AnalysisWorkspace::readyDiagnosis() const
{
    return m_results.ready<stats::Diagnosis>({ResultKind::Diagnosis});
}

} // namespace rankscope
