#include "stats/reportcatalog.h"

#include "load/workerpool.h"
#include "stats/ranktimemap.h"

#include "stats/apirules.h"
#include "stats/collectiveinputs.h"
#include "stats/collectives.h"
#include "stats/criticalpathtables.h"
#include "stats/gpurules.h"
#include "stats/nsysreports.h"
#include "stats/rankbreakdown.h"
#include "stats/rankcomparison.h"
#include "stats/samplingcomparison.h"
#include "stats/samplingprofile.h"

namespace rankscope::stats {

namespace {

using Runner = std::function<ResultTable(const Report &, const ReportOptions &)>;

const std::vector<std::pair<QString, Runner>> &catalog()
{
    static const std::vector<std::pair<QString, Runner>> reports{
        {QStringLiteral("cuda_gpu_kern_sum"), [](const Report &r, const ReportOptions &) { return cudaGpuKernSum(r); }},
        {QStringLiteral("cuda_gpu_mem_time_sum"), [](const Report &r, const ReportOptions &) { return cudaGpuMemTimeSum(r); }},
        {QStringLiteral("cuda_gpu_mem_size_sum"), [](const Report &r, const ReportOptions &) { return cudaGpuMemSizeSum(r); }},
        {QStringLiteral("cuda_api_sum"), [](const Report &r, const ReportOptions &) { return cudaApiSum(r); }},
        {QStringLiteral("nvtx_sum"), [](const Report &r, const ReportOptions &) { return nvtxSum(r); }},
        {QStringLiteral("osrt_sum"), [](const Report &r, const ReportOptions &) { return osrtSum(r); }},
        {QStringLiteral("gpu_gaps"), [](const Report &r, const ReportOptions &o) { return gpuGaps(r, o.gapThresholdMs); }},
        {QStringLiteral("gpu_time_util"), [](const Report &r, const ReportOptions &o) {
             return gpuTimeUtil(r, o.utilThresholdPercent, o.utilChunks); }},
        {QStringLiteral("cuda_memcpy_async"), [](const Report &r, const ReportOptions &o) { return cudaMemcpyAsyncRule(r, o.ruleRowLimit); }},
        {QStringLiteral("cuda_memcpy_sync"), [](const Report &r, const ReportOptions &o) { return cudaMemcpySyncRule(r, o.ruleRowLimit); }},
        {QStringLiteral("cuda_memset_sync"), [](const Report &r, const ReportOptions &o) { return cudaMemsetSyncRule(r, o.ruleRowLimit); }},
        {QStringLiteral("cuda_api_sync"), [](const Report &r, const ReportOptions &o) { return cudaApiSyncRule(r, o.ruleRowLimit); }},
        {QStringLiteral("cpu_sampling_flat"), [](const Report &r, const ReportOptions &) { return samplingFlatTable(samplingProfile(r)); }},
        {QStringLiteral("cpu_sampling_top_down"), [](const Report &r, const ReportOptions &) {
             return samplingTopDownTable(samplingProfile(r)); }},
    };
    return reports;
}

const QStringList &sessionReportNames()
{
    static const QStringList names{QStringLiteral("rank_summary"), QStringLiteral("rank_comparison"), QStringLiteral("collectives"),
                                   QStringLiteral("rank_wait"), QStringLiteral("rank_time_map"), QStringLiteral("cpu_sampling_ranks"),
                                   QStringLiteral("critical_path"), QStringLiteral("critical_path_summary")};
    return names;
}

} // namespace

QStringList fileReportNames()
{
    QStringList names;
    for (const auto &[name, runner] : catalog())
        names << name;
    return names;
}

QStringList reportNames()
{
    return fileReportNames() + sessionReportNames();
}

bool isKnownReport(const QString &name)
{
    return reportNames().contains(name);
}

bool isSessionReport(const QString &name)
{
    return sessionReportNames().contains(name);
}

std::optional<ResultTable> runReport(const QString &name, const Report &report, const ReportOptions &options)
{
    for (const auto &[known, runner] : catalog())
        if (known == name)
            return runner(report, options);
    return std::nullopt;
}

KernelClassifier collectiveClassesFor(const ReportOptions &options)
{
    return KernelClassifier::rankscope(options.communicationPattern);
}

bool readsCollectives(const QString &name)
{
    return name == QLatin1String("collectives") || name == QLatin1String("rank_wait") || name == QLatin1String("rank_time_map")
           || name == QLatin1String("rank_comparison") // its waits columns
           || name == QLatin1String("critical_path") || name == QLatin1String("critical_path_summary");
}

bool readsOtherGpuWork(const QString &name)
{
    return name == QLatin1String("rank_wait");
}

KernelClassifier breakdownClassesFor(const ReportOptions &options)
{
    return KernelClassifier::hta(options.communicationPattern);
}

std::optional<ResultTable> runSessionReport(const QString &name, const Session &session, const ReportOptions &options,
                                           const GatheredRankParts &gathered)
{
    if (name == QLatin1String("rank_summary"))
        return rankSummary(session, breakdownClassesFor(options), gathered.breakdowns);
    if (name == QLatin1String("cpu_sampling_ranks"))
        return samplingByRankTable(session);
    if (name == QLatin1String("rank_comparison"))
        return rankComparisonTable(session, {}, collectiveClassesFor(options),
                                   gathered.collectiveOps ? &gathered.collectiveOps->match(false) : nullptr, gathered.comparisonRows);
    if (!readsCollectives(name))
        return std::nullopt;
    std::optional<CollectiveInputs> own;
    CollectiveInputs *collectiveOps = gathered.collectiveOps;
    if (!collectiveOps)
        collectiveOps = &own.emplace(session, collectiveClassesFor(options));
    const CollectiveMatch &match = collectiveOps->match(options.alignOnCollectives);
    if (name.startsWith(QLatin1String("critical_path"))) {
        CriticalPathOptions pathOptions;
        pathOptions.step = options.step;
        pathOptions.stepNames = options.stepNames;
        for (const QString &text : options.whatIfs)
            if (const std::optional<WhatIf> w = parseWhatIf(text))
                pathOptions.whatIfs.push_back(*w);
        const KernelClassifier classes = collectiveClassesFor(options);
        const CriticalPathSteps steps(session, match, pathOptions);
        ResultTable t;
        if (name == QLatin1String("critical_path")) {
            t = criticalPathTable(session, criticalPaths(session, match, classes, pathOptions));
        } else { // a step's summary, its segments let go once it is summed up; steps are independent, so solved side by side
            const PathNameClasses names(session, classes);
            std::vector<StepPathSummary> summaries(steps.size());
            parallelFor(steps.size(), [&](std::size_t i) {
                summaries[i] = summarizePath(session, solveCriticalPath(session, match, names, pathOptions, steps.window(i)));
            });
            t = criticalPathSummaryTable(session, summaries);
        }
        t.notes = match.notes;
        if (steps.size() == 0)
            t.notes << QStringLiteral("critical path: no step %1 among the ranks' step annotations").arg(options.step.value_or(0));
        else if (steps.stepOf(0) < 0)
            t.notes << QStringLiteral("critical path: no step annotation (ProfilerStep#N, an NVTX \"step N\" range): the whole session is one range, step -1");
        return t;
    }
    ResultTable t = name == QLatin1String("collectives") ? collectivesTable(session, match)
                    : name == QLatin1String("rank_wait") ? rankWaitTable(*collectiveOps, match)
                                                         : rankTimeMapTable(session, match, options.mapBins);
    t.notes = match.notes;
    return t;
}

} // namespace rankscope::stats
