#pragma once
// Every report `rankscope-cli stats --report NAME` prints, declared once
// (reportcatalog.cpp): its name and title, what it covers, the settings it
// reads, what an MPI run gathers for it and the viewer panel that shows
// it. The command line's reports, help and MPI gather, the viewer's
// "Export statistics" and the panels' table names all read the registry.
#include "core/report.h"
#include "session/session.h"
#include "stats/analysissettings.h"
#include "stats/kernelclasses.h"
#include "stats/resulttable.h"

#include <QStringList>
#include <functional>
#include <optional>
#include <vector>

namespace rankscope::stats {

class CollectiveInputs;
struct RankBreakdownParts;
struct RankComparisonRow;

// What an MPI run gathers of each rank for a session report (each rank's
// process computes it from its own files; see SessionReportInputs).
enum class RankPart : unsigned {
    CollectiveOps = 1u << 0, // the rank's communication kernels
    OtherGpuWork = 1u << 1,  // with them, its other GPU work
    Breakdown = 1u << 2,     // rank_summary's parts
    ComparisonRow = 1u << 3, // rank_comparison's row
};
constexpr unsigned operator|(ReportSetting a, ReportSetting b)
{
    return unsigned(a) | unsigned(b);
}
constexpr unsigned operator|(unsigned a, ReportSetting b)
{
    return a | unsigned(b);
}
constexpr unsigned operator|(RankPart a, RankPart b)
{
    return unsigned(a) | unsigned(b);
}

// What a session report reads besides the session and its settings.
struct SessionReportInputs {
    // The ranks' communication records and the matches made of them: the
    // analysis workspace's (AnalysisWorkspace::withCollectiveInputs), so
    // the collectives are matched once for every report and panel; under
    // MPI, filled from the processes first.
    CollectiveInputs &records;
    // What an MPI run gathered of each rank, each for the session's ranks,
    // each optional (the reports read the rest themselves).
    const std::vector<std::optional<RankBreakdownParts>> *breakdowns = nullptr;
    const std::vector<std::optional<RankComparisonRow>> *comparisonRows = nullptr;
};

struct ReportDeclaration {
    using FileCompute = std::function<ResultTable(const Report &, const AnalysisSettings &)>;
    using SessionCompute = std::function<ResultTable(const Session &, const AnalysisSettings &, const SessionReportInputs &)>;

    QString name;          // --report NAME, the table's name, its files' names
    QString title;         // the table's title
    unsigned settings = 0; // ReportSetting flags
    unsigned gathers = 0;  // RankPart flags: session reports under MPI
    // The viewer's panel (StatsDock::panelNames) showing this table, or
    // empty: only in "Export statistics".
    QString panel;
    // Exactly one: a table per loaded file, or one for the whole session.
    FileCompute perFile;
    SessionCompute perSession;
    // Run by `stats` without --report and written by Export statistics
    // (nsys' own trace and MPI reports run only when named).
    bool byDefault = true;

    bool isSessionReport() const { return bool(perSession); }
    bool reads(ReportSetting s) const { return settings & unsigned(s); }
    bool gathersPart(RankPart p) const { return gathers & unsigned(p); }
};

// Per-file reports first, then the session-wide ones, in output order.
const std::vector<ReportDeclaration> &reportDeclarations();
// A report by its name, or by a request naming it with arguments as nsys
// takes them ("nvtx_kern_sum:base"; see reportArgumentError).
const ReportDeclaration *findReport(const QString &name);
// Why a request's arguments do not fit its report (empty: they do). The
// kernel reports (those reading ReportSetting::KernelNames) take `base` or
// `mangled`; no report takes anything else.
QString reportArgumentError(const QString &request);
// `options` with what a request's arguments set.
AnalysisSettings withReportArguments(const QString &request, AnalysisSettings options);
// An empty table carrying a declared report's name and title.
ResultTable declaredTable(const QString &name);
// The declared reports that read `setting`, e.g. for an option's help.
QStringList reportsReading(ReportSetting setting);

QStringList reportNames();
QStringList defaultReportNames();        // what `stats` runs when no report is named
QStringList fileReportNames();           // one table per loaded file
bool isKnownReport(const QString &name); // a known report, with arguments it takes
// Whether a report covers the whole session (one table for all ranks).
bool isSessionReport(const QString &name);

// The kernel classes rank_summary uses for these options (HTA's).
KernelClassifier breakdownClassesFor(const AnalysisSettings &options);
// The kernel classes the collective reports use for these options.
KernelClassifier collectiveClassesFor(const AnalysisSettings &options);

// The named report (arguments applied) of one loaded file, or of the
// whole session; nullopt for an unknown name or one of the other kind.
std::optional<ResultTable> runReport(const QString &name, const Report &report, const AnalysisSettings &options = {});
std::optional<ResultTable> runSessionReport(const QString &name, const Session &session, const AnalysisSettings &options,
                                            const SessionReportInputs &inputs);

} // namespace rankscope::stats
