#include "stats/reportcatalog.h"

#include "load/workerpool.h"
#include "stats/criticalpath/criticalpathtables.h"
#include "stats/mpi/mpiwaitstates.h"
#include "stats/nsys/apirules.h"
#include "stats/nsys/apitrace.h"
#include "stats/nsys/gpurules.h"
#include "stats/nsys/gputrace.h"
#include "stats/nsys/graphsum.h"
#include "stats/nsys/kernexec.h"
#include "stats/nsys/kerngridsum.h"
#include "stats/nsys/mpireports.h"
#include "stats/nsys/nsysreports.h"
#include "stats/nsys/nvtxreports.h"
#include "stats/nsys/umreports.h"
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/communicationoverlap.h"
#include "stats/ranks/durationhistogram.h"
#include "stats/ranks/pipelinebubbles.h"
#include "stats/ranks/rankbreakdown.h"
#include "stats/ranks/rankcomparison.h"
#include "stats/ranks/ranktimemap.h"
#include "stats/sampling/samplingcomparison.h"
#include "stats/sampling/samplingprofile.h"

#include <algorithm>

namespace rankscope::stats {

namespace {

using S = ReportSetting;
using P = RankPart;

using Inputs = SessionReportInputs;

// A session report that reads the collectives matched across ranks:
// `compute(records, match)` with the match's notes added to its table.
template <class Compute>
ResultTable onCollectives(const AnalysisSettings &o, const Inputs &inputs, Compute &&compute)
{
    const CollectiveMatch &match = inputs.records.match(o.alignOnCollectives);
    ResultTable t = compute(inputs.records, match);
    t.notes = match.notes + t.notes;
    return t;
}

CriticalPathOptions criticalPathOptions(const AnalysisSettings &o)
{
    CriticalPathOptions path;
    path.step = o.step;
    path.stepNames = o.stepNames;
    for (const QString &text : o.whatIfs)
        if (const std::optional<WhatIf> w = parseWhatIf(text))
            path.whatIfs.push_back(*w);
    return path;
}

// Says when the steps asked for are not there.
void addStepNotes(ResultTable &t, const CriticalPathSteps &steps, const AnalysisSettings &o)
{
    if (steps.size() == 0)
        t.notes << QStringLiteral("critical path: no step %1 among the ranks' step annotations").arg(o.step.value_or(0));
    else if (steps.stepOf(0) < 0)
        t.notes << QStringLiteral(
            "critical path: no step annotation (ProfilerStep#N, an NVTX \"step N\" range): the whole session is one range, step -1");
}

ResultTable criticalPathReport(const Session &session, const AnalysisSettings &o, const Inputs &inputs)
{
    return onCollectives(o, inputs, [&](CollectiveInputs &, const CollectiveMatch &match) {
        const CriticalPathOptions path = criticalPathOptions(o);
        ResultTable t = criticalPathTable(session, criticalPaths(session, match, collectiveClassesFor(o), path));
        addStepNotes(t, CriticalPathSteps(session, match, path), o);
        return t;
    });
}

// A step's summary, its segments let go once it is summed up; steps are
// independent, so solved side by side.
ResultTable criticalPathSummaryReport(const Session &session, const AnalysisSettings &o, const Inputs &inputs)
{
    return onCollectives(o, inputs, [&](CollectiveInputs &, const CollectiveMatch &match) {
        const CriticalPathOptions path = criticalPathOptions(o);
        const CriticalPathSteps steps(session, match, path);
        const PathNameClasses names(session, collectiveClassesFor(o));
        std::vector<StepPathSummary> summaries(steps.size());
        parallelFor(steps.size(),
                    [&](std::size_t i) { summaries[i] = summarizePath(session, solveCriticalPath(session, match, names, path, steps.window(i))); });
        ResultTable t = criticalPathSummaryTable(session, summaries);
        addStepNotes(t, steps, o);
        return t;
    });
}

ReportDeclaration fileReport(const char *name, const char *title, unsigned settings, const char *panel, ReportDeclaration::FileCompute compute)
{
    ReportDeclaration d;
    d.name = QLatin1String(name);
    d.title = QLatin1String(title);
    d.settings = settings;
    d.panel = QLatin1String(panel);
    d.perFile = std::move(compute);
    return d;
}

ReportDeclaration sessionReport(const char *name, const char *title, unsigned settings, unsigned gathers, const char *panel,
                                ReportDeclaration::SessionCompute compute)
{
    ReportDeclaration d;
    d.name = QLatin1String(name);
    d.title = QLatin1String(title);
    d.settings = settings;
    d.gathers = gathers;
    d.panel = QLatin1String(panel);
    d.perSession = std::move(compute);
    return d;
}

// A report run only when named.
ReportDeclaration onRequest(ReportDeclaration d)
{
    d.byDefault = false;
    return d;
}

constexpr unsigned kNone = 0;
// The kernel reports nsys gives :base, :mangled and :nvtx-name (nvtx_kern_sum takes the first two).
constexpr unsigned kKernelNames = S::KernelNames | S::KernelNvtxNames;
constexpr unsigned kMatched = S::CommunicationPattern | S::Alignment; // the reports on matched collectives
constexpr unsigned kOnPath = kMatched | S::Step | S::StepNames | S::WhatIf;

std::vector<ReportDeclaration> declareReports()
{
    using R = const Report &;
    using O = const AnalysisSettings &;
    using N = const Session &;
    using G = const Inputs &;
    return {
        fileReport("cuda_gpu_kern_sum", "CUDA GPU Kernel Summary", kKernelNames, "summaries",
                   [](R r, O o) { return cudaGpuKernSum(r, o.kernelNames, o.kernelNvtxPrefix); }),
        fileReport("cuda_gpu_mem_time_sum", "CUDA GPU MemOps Summary (by Time)", kNone, "memcpy", [](R r, O) { return cudaGpuMemTimeSum(r); }),
        fileReport("cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)", kNone, "memcpy", [](R r, O) { return cudaGpuMemSizeSum(r); }),
        fileReport("cuda_api_sum", "CUDA API Summary", kNone, "summaries", [](R r, O) { return cudaApiSum(r); }),
        fileReport("nvtx_sum", "NVTX Range Summary", kNone, "summaries", [](R r, O) { return nvtxSum(r); }),
        fileReport("osrt_sum", "OS Runtime Summary", kNone, "summaries", [](R r, O) { return osrtSum(r); }),
        fileReport("cuda_lib_sum", "cuDNN and cuBLAS Summary", kNone, "summaries", [](R r, O) { return cudaLibrarySum(r); }),
        fileReport("gpu_gaps", "GPU Gaps", unsigned(S::GapThreshold), "gaps", [](R r, O o) { return gpuGaps(r, o.gapThresholdMs); }),
        fileReport("gpu_time_util", "GPU Time Utilization", unsigned(S::UtilThreshold), "",
                   [](R r, O o) { return gpuTimeUtil(r, o.utilThresholdPercent, o.utilChunks); }),
        fileReport("cuda_memcpy_async", "CUDA Async Memcpy with Pageable Memory", unsigned(S::RuleRows), "",
                   [](R r, O o) { return cudaMemcpyAsyncRule(r, o.ruleRowLimit); }),
        fileReport("cuda_memcpy_sync", "CUDA Synchronous Memcpy", unsigned(S::RuleRows), "",
                   [](R r, O o) { return cudaMemcpySyncRule(r, o.ruleRowLimit); }),
        fileReport("cuda_memset_sync", "CUDA Synchronous Memset", unsigned(S::RuleRows), "",
                   [](R r, O o) { return cudaMemsetSyncRule(r, o.ruleRowLimit); }),
        fileReport("cuda_api_sync", "CUDA Synchronization APIs", unsigned(S::RuleRows), "",
                   [](R r, O o) { return cudaApiSyncRule(r, o.ruleRowLimit); }),
        fileReport("cpu_sampling_flat", "CPU Sampling: Flat", kNone, "cpu", [](R r, O) { return samplingFlatTable(samplingProfile(r)); }),
        fileReport("cpu_sampling_top_down", "CPU Sampling: Top-Down", kNone, "cpu", [](R r, O) { return samplingTopDownTable(samplingProfile(r)); }),
        onRequest(fileReport("nvtx_pushpop_sum", "NVTX Push/Pop Range Summary", kNone, "", [](R r, O) { return nvtxPushPopSum(r); })),
        onRequest(fileReport("nvtx_startend_sum", "NVTX Start/End Range Summary", kNone, "", [](R r, O) { return nvtxStartEndSum(r); })),
        onRequest(fileReport("cuda_gpu_kern_gb_sum", "CUDA GPU Kernel/Grid/Block Summary", kKernelNames, "",
                             [](R r, O o) { return cudaGpuKernGridBlockSum(r, o.kernelNames, o.kernelNvtxPrefix); })),
        onRequest(fileReport("cuda_api_trace", "CUDA API Trace", kNone, "", [](R r, O) { return cudaApiTrace(r); })),
        onRequest(fileReport("cuda_kern_exec_sum", "CUDA Kernel Launch & Exec Time Summary", kKernelNames, "",
                             [](R r, O o) { return cudaKernExecSum(r, o.kernelNames, o.kernelNvtxPrefix); })),
        onRequest(fileReport("cuda_kern_exec_trace", "CUDA Kernel Launch & Exec Time Trace", kKernelNames, "",
                             [](R r, O o) { return cudaKernExecTrace(r, o.kernelNames, o.kernelNvtxPrefix); })),
        onRequest(fileReport("cuda_gpu_sum", "CUDA GPU Summary (Kernels/MemOps)", kKernelNames, "",
                             [](R r, O o) { return cudaGpuSum(r, o.kernelNames, o.kernelNvtxPrefix); })),
        onRequest(fileReport("cuda_gpu_trace", "CUDA GPU Trace", kKernelNames, "",
                             [](R r, O o) { return cudaGpuTrace(r, o.kernelNames, o.kernelNvtxPrefix); })),
        onRequest(fileReport("openacc_sum", "OpenACC Summary", kNone, "", [](R r, O) { return openAccSum(r); })),
        onRequest(fileReport("openmp_sum", "OpenMP Summary", kNone, "", [](R r, O) { return openMpSum(r); })),
        onRequest(fileReport("cuda_api_gpu_sum", "CUDA Summary (API/Kernels/MemOps)", kKernelNames, "",
                             [](R r, O o) { return cudaApiGpuSum(r, o.kernelNames, o.kernelNvtxPrefix); })),
        onRequest(fileReport("nvtx_pushpop_trace", "NVTX Push/Pop Range Trace", kNone, "", [](R r, O) { return nvtxPushPopTrace(r); })),
        onRequest(fileReport("nvtx_gpu_proj_trace", "NVTX GPU Projection Trace", kNone, "", [](R r, O) { return nvtxGpuProjTrace(r); })),
        onRequest(fileReport("nvtx_gpu_proj_sum", "NVTX GPU Projection Summary", kNone, "", [](R r, O) { return nvtxGpuProjSum(r); })),
        onRequest(fileReport("nvtx_kern_sum", "NVTX Range Kernel Summary", unsigned(S::KernelNames), "",
                             [](R r, O o) { return nvtxKernSum(r, o.kernelNames); })),
        onRequest(fileReport("um_sum", "Unified Memory Analysis Summary", unsigned(S::Rows), "",
                             [](R r, O o) { return umSum(r, o.rows.value_or(kUmSumDefaultRows)); })),
        onRequest(fileReport("um_total_sum", "Unified Memory Totals Summary", kNone, "", [](R r, O) { return umTotalSum(r); })),
        onRequest(
            fileReport("um_cpu_page_faults_sum", "Unified Memory CPU Page Faults Summary", kNone, "", [](R r, O) { return umCpuPageFaultsSum(r); })),
        onRequest(fileReport("cuda_graph_sum", "CUDA Graph Summary", kNone, "", [](R r, O) { return cudaGraphSum(r); })),
        onRequest(fileReport("mpi_event_sum", "MPI Event Summary", kNone, "", [](R r, O) { return mpiEventSum(r); })),
        onRequest(fileReport("mpi_event_trace", "MPI Event Trace", kNone, "", [](R r, O) { return mpiEventTrace(r); })),

        sessionReport("rank_summary", "Rank Summary (temporal breakdown and communication overlap, as HTA)", unsigned(S::CommunicationPattern),
                      unsigned(P::Breakdown), "ranks", [](N s, O o, G g) { return rankSummary(s, breakdownClassesFor(o), g.breakdowns); }),
        sessionReport("rank_comparison", "Rank Comparison", unsigned(S::CommunicationPattern), P::CollectiveOps | P::ComparisonRow, "ranks",
                      [](N s, O o, G g) { // its waits columns read the recorded match
                          return rankComparisonTable(s, {}, collectiveClassesFor(o), &g.records.match(false), g.comparisonRows);
                      }),
        sessionReport(
            "collectives", "Collectives Across Ranks", kMatched, unsigned(P::CollectiveOps), "collectives",
            [](N s, O o, G g) { return onCollectives(o, g, [&](CollectiveInputs &, const CollectiveMatch &m) { return collectivesTable(s, m); }); }),
        sessionReport("rank_wait", "Waits at Collectives per Rank", kMatched, P::CollectiveOps | P::OtherGpuWork, "collectives",
                      [](N, O o, G g) {
                          return onCollectives(o, g, [&](CollectiveInputs &inputs, const CollectiveMatch &m) { return rankWaitTable(inputs, m); });
                      }),
        sessionReport("rank_time_map", "Rank x Time Map", kMatched | S::MapBins, unsigned(P::CollectiveOps), "ranks",
                      [](N s, O o, G g) {
                          return onCollectives(o, g, [&](CollectiveInputs &, const CollectiveMatch &m) { return rankTimeMapTable(s, m, o.mapBins); });
                      }),
        sessionReport("nccl_gpu_overlap_trace", "Communication Kernels Overlapped by Other Kernels", unsigned(S::CommunicationPattern), kNone,
                      "collectives",
                      [](N s, O o, G) {
                          const KernelClassifier classes = collectiveClassesFor(o);
                          return ncclGpuOverlapTrace(s, communicationOverlaps(s, classes), classes);
                      }),
        sessionReport("kernel_duration_histogram", "Kernel Durations per Rank (power-of-two bins)", unsigned(S::NamePattern) | unsigned(S::PerThread),
                      kNone, "histogram",
                      [](N s, O o, G) { return kernelDurationHistogram(s, o.namePattern, o.perThread, collectiveClassesFor(o)); }),
        sessionReport("pipeline_bubbles", "Pipeline Bubbles per Step and Stage", kMatched | S::StepNames, unsigned(P::CollectiveOps), "steps",
                      [](N s, O o, G g) {
                          return onCollectives(o, g, [&](CollectiveInputs &, const CollectiveMatch &m) {
                              return pipelineBubblesTable(s, pipelineBubbles(s, m, collectiveClassesFor(o), o.stepNames));
                          });
                      }),
        sessionReport("cpu_sampling_ranks", "CPU Sampling by Rank", kNone, kNone, "ranks", [](N s, O, G) { return samplingByRankTable(s); }),
        sessionReport("critical_path", "Critical Path", kOnPath, unsigned(P::CollectiveOps), "critical", criticalPathReport),
        sessionReport("critical_path_summary", "Critical Path Summary", kOnPath, unsigned(P::CollectiveOps), "critical", criticalPathSummaryReport),
        // On the clocks the collectives align, when asked: a wait between
        // two ranks is only as true as their clocks.
        onRequest(sessionReport("mpi_wait_states", "MPI Wait States (Scalasca's patterns)", kMatched, unsigned(P::CollectiveOps), "",
                                [](N s, O o, G g) {
                                    MpiMatch match = *sharedMpiMatch(s); // a copy: aligning moves its times
                                    if (!o.alignOnCollectives)
                                        return mpiWaitStatesTable(s, match, mpiWaits(s, match));
                                    return onCollectives(o, g, [&](CollectiveInputs &, const CollectiveMatch &aligned) {
                                        shiftMpiClocks(match, aligned.clockShift);
                                        return mpiWaitStatesTable(s, match, mpiWaits(s, match));
                                    });
                                })),
    };
}

} // namespace

const std::vector<ReportDeclaration> &reportDeclarations()
{
    static const std::vector<ReportDeclaration> declarations = declareReports();
    return declarations;
}

const ReportDeclaration *findReport(const QString &name)
{
    const QString base = name.section(QLatin1Char(':'), 0, 0);
    const auto &all = reportDeclarations();
    const auto it = std::find_if(all.begin(), all.end(), [&](const ReportDeclaration &d) { return d.name == base; });
    return it == all.end() ? nullptr : &*it;
}

namespace {

// `rows=N`'s count, or nullopt when `argument` is not one.
std::optional<int> rowsArgument(const QString &argument)
{
    static const QLatin1String prefix("rows=");
    if (!argument.startsWith(prefix))
        return std::nullopt;
    bool ok = false;
    const int rows = argument.mid(prefix.size()).toInt(&ok);
    return ok ? std::optional<int>(rows) : std::nullopt;
}

// What a report's arguments may be, for its message.
QString argumentsTaken(const ReportDeclaration &d)
{
    QStringList taken;
    if (d.reads(S::KernelNvtxNames))
        taken << QStringLiteral("'nvtx-name'");
    if (d.reads(S::KernelNames))
        taken << QStringLiteral("'base' or 'mangled'");
    if (d.reads(S::Rows))
        taken << QStringLiteral("'rows=N'");
    return taken.join(QStringLiteral(", "));
}

} // namespace

QString reportArgumentError(const QString &request)
{
    const ReportDeclaration *d = findReport(request);
    if (!d)
        return QStringLiteral("unknown report '%1'").arg(request.section(QLatin1Char(':'), 0, 0));
    const QStringList arguments = request.split(QLatin1Char(':')).mid(1);
    const bool namesKernels = d->reads(S::KernelNames);
    for (const QString &argument : arguments) {
        if (namesKernels && (argument == QLatin1String("base") || argument == QLatin1String("mangled")))
            continue;
        if (d->reads(S::KernelNvtxNames) && argument == QLatin1String("nvtx-name"))
            continue;
        if (d->reads(S::Rows) && rowsArgument(argument))
            continue;
        const QString taken = argumentsTaken(*d);
        return taken.isEmpty() ? QStringLiteral("report '%1' takes no arguments ('%2')").arg(d->name, argument)
                               : QStringLiteral("report '%1' takes %2, not '%3'").arg(d->name, taken, argument);
    }
    if (arguments.contains(QLatin1String("base")) && arguments.contains(QLatin1String("mangled")))
        return QStringLiteral("report '%1' takes 'base' or 'mangled', not both").arg(d->name);
    return {};
}

AnalysisSettings withReportArguments(const QString &request, AnalysisSettings options)
{
    for (const QString &argument : request.split(QLatin1Char(':')).mid(1)) {
        if (argument == QLatin1String("base"))
            options.kernelNames = KernelNaming::Base;
        else if (argument == QLatin1String("mangled"))
            options.kernelNames = KernelNaming::Mangled;
        else if (argument == QLatin1String("nvtx-name"))
            options.kernelNvtxPrefix = true;
        else if (const std::optional<int> rows = rowsArgument(argument))
            options.rows = rows;
    }
    return options;
}

ResultTable declaredTable(const QString &name)
{
    const ReportDeclaration *d = findReport(name);
    Q_ASSERT(d);
    ResultTable t;
    t.name = name;
    if (d)
        t.title = d->title;
    return t;
}

QStringList reportsReading(ReportSetting setting)
{
    QStringList names;
    for (const ReportDeclaration &d : reportDeclarations())
        if (d.reads(setting))
            names << d.name;
    return names;
}

QStringList fileReportNames()
{
    QStringList names;
    for (const ReportDeclaration &d : reportDeclarations())
        if (!d.isSessionReport())
            names << d.name;
    return names;
}

QStringList reportNames()
{
    QStringList names;
    for (const ReportDeclaration &d : reportDeclarations())
        names << d.name;
    return names;
}

QStringList defaultReportNames()
{
    QStringList names;
    for (const ReportDeclaration &d : reportDeclarations())
        if (d.byDefault)
            names << d.name;
    return names;
}

bool isKnownReport(const QString &name)
{
    return findReport(name) != nullptr && reportArgumentError(name).isEmpty();
}

bool isSessionReport(const QString &name)
{
    const ReportDeclaration *d = findReport(name);
    return d && d->isSessionReport();
}

KernelClassifier collectiveClassesFor(const AnalysisSettings &options)
{
    return KernelClassifier::rankscope(options.communicationPattern);
}

KernelClassifier breakdownClassesFor(const AnalysisSettings &options)
{
    return KernelClassifier::hta(options.communicationPattern);
}

std::optional<ResultTable> runReport(const QString &name, const Report &report, const AnalysisSettings &options)
{
    const ReportDeclaration *d = findReport(name);
    if (!d || !d->perFile)
        return std::nullopt;
    ResultTable table = d->perFile(report, withReportArguments(name, options));
    if (name != d->name) // with arguments: its files are PREFIX_cuda_gpu_trace_base.csv, beside the plain report's
        table.name = QString(name).replace(QLatin1Char(':'), QLatin1Char('_'));
    return table;
}

std::optional<ResultTable> runSessionReport(const QString &name, const Session &session, const AnalysisSettings &options,
                                            const SessionReportInputs &inputs)
{
    const ReportDeclaration *d = findReport(name);
    if (!d || !d->perSession)
        return std::nullopt;
    return d->perSession(session, options, inputs);
}

} // namespace rankscope::stats
