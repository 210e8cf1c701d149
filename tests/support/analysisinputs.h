#pragma once
// What the analysis workspace hands the reports it runs, made apart from a
// workspace for tests that call a report or the diagnosis alone: the ranks'
// communication records with their matches, and the diagnosis's aligned
// match and waits.
#include "stats/diagnosis/diagnosis.h"
#include "stats/kernelclasses.h"
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/collectives.h"
#include "stats/reportcatalog.h"

namespace rankscope::test {

// The diagnosis of a session as the workspace makes it: its straggler
// finding reads the collectives matched and aligned once, with each
// rank's waits in them.
inline stats::Diagnosis diagnosed(const Session &session, const stats::DiagnosisThresholds &thresholds = {},
                                  const stats::KernelClassifier &classes = stats::KernelClassifier::rankscope())
{
    stats::CollectiveInputs records(session, classes);
    const stats::CollectiveMatch &aligned = records.match(true);
    const std::vector<stats::RankWait> waits = stats::rankWaits(records, aligned);
    return stats::diagnose(session, thresholds, {&aligned, &waits});
}

// A session report on records of its own, read with the classes `options` name.
inline std::optional<ResultTable> sessionReport(const QString &name, const Session &session, const AnalysisSettings &options = {})
{
    stats::CollectiveInputs records(session, stats::collectiveClassesFor(options));
    return stats::runSessionReport(name, session, options, {records});
}

} // namespace rankscope::test
