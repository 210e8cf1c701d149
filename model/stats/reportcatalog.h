#pragma once
// The reports `rankscope-cli stats --report NAME` knows, by name.
#include "core/report.h"
#include "session/session.h"
#include "stats/kernelclasses.h"
#include "stats/resulttable.h"

#include <QStringList>
#include <functional>
#include <optional>

namespace rankscope::stats {

class CollectiveInputs;
struct RankBreakdownParts;
struct RankComparisonRow;

struct ReportOptions {
    double gapThresholdMs = 500.0;        // gpu_gaps
    double utilThresholdPercent = 50.0;   // gpu_time_util
    int utilChunks = 30;                  // gpu_time_util
    int mapBins = 30;                     // rank_time_map: bins across where the GPUs work
    int ruleRowLimit = 50;                // cuda_memcpy_async, _sync, cuda_memset_sync, cuda_api_sync (nsys' `rows`; -1: all)
    // rank_summary, rank_comparison, collectives, rank_wait: the user's communication kernel
    // pattern (empty: the built-in table; see stats/kernelclasses.h).
    QString communicationPattern;
    // collectives, rank_wait: times shifted so matched collectives end
    // together on every rank (see alignedOnCollectives), not as recorded.
    bool alignOnCollectives = false;
    // critical_path, critical_path_summary: only this step (its number),
    // the step names (empty: the built-in ones), what-ifs as
    // `kernel:REGEX=0.8` (stats/criticalpath.h: parseWhatIf).
    std::optional<int> step;
    QString stepNames;
    QStringList whatIfs;
};

// Per-file reports first, then the session-wide ones.
QStringList reportNames();
QStringList fileReportNames(); // one table per loaded file
bool isKnownReport(const QString &name);
// Whether a report covers the whole session (one table for all ranks).
bool isSessionReport(const QString &name);
// What an MPI run gathers of each rank for the session reports, each for
// `session`'s ranks, each optional (the reports read the rest themselves).
struct GatheredRankParts {
    // The ranks' communication kernels (collectives, rank_wait,
    // rank_time_map, rank_comparison's waits), and the match made of them.
    CollectiveInputs *collectiveOps = nullptr;
    const std::vector<std::optional<RankBreakdownParts>> *breakdowns = nullptr;   // rank_summary
    const std::vector<std::optional<RankComparisonRow>> *comparisonRows = nullptr; // rank_comparison
};
std::optional<ResultTable> runSessionReport(const QString &name, const Session &session, const ReportOptions &options = {},
                                           const GatheredRankParts &gathered = {});
// The kernel classes rank_summary uses for these options (HTA's).
KernelClassifier breakdownClassesFor(const ReportOptions &options);
// The kernel classes the collective reports use for these options.
KernelClassifier collectiveClassesFor(const ReportOptions &options);
// Whether the report reads the collectives matched across ranks, and the
// ranks' GPU work besides them.
bool readsCollectives(const QString &name);
bool readsOtherGpuWork(const QString &name);
// The named report of one loaded file; nullopt for an unknown name.
std::optional<ResultTable> runReport(const QString &name, const Report &report,
                                     const ReportOptions &options = {});

} // namespace rankscope::stats
