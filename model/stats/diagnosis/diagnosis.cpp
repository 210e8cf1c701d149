#include "stats/diagnosis/diagnosis.h"

#include "core/units.h"
#include "core/untrustedtext.h"
#include "stats/diagnosis/diagnosisdetectors.h"
#include "stats/diagnosis/diagnosisloop.h"
#include "stats/ranks/stepmatrix.h"

#include <algorithm>

namespace rankscope::stats {

QString severityName(Severity s)
{
    switch (s) {
    case Severity::High:
        return QStringLiteral("high");
    case Severity::Medium:
        return QStringLiteral("medium");
    case Severity::Low:
        break;
    }
    return QStringLiteral("low");
}

namespace {

QString rankList(const Session &session, const std::vector<int> &rankIndices)
{
    std::vector<int> ranks;
    for (const int ri : rankIndices)
        ranks.push_back(session.ranks()[std::size_t(ri)].rank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    if (ranks.empty())
        return {};
    if (ranks.size() == 1)
        return session.ranks().size() > 1 ? QStringLiteral("rank %1 only").arg(ranks[0]) : QStringLiteral("rank %1").arg(ranks[0]);
    QStringList runs;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        runs << (j == i ? QString::number(ranks[i]) : QStringLiteral("%1-%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
    }
    return QStringLiteral("ranks ") + runs.join(QStringLiteral(", "));
}

} // namespace

Diagnosis diagnose(const Session &session, const DiagnosisThresholds &th, const DiagnosisInputs &inputs)
{
    Diagnosis d;
    if (session.ranks().empty())
        return d;
    const std::vector<RankLoop> loops = loopsOf(session, th);
    for (const RankLoop &l : loops)
        d.gpuSpan += l.span();
    if (d.gpuSpan <= 0) {
        d.notes << QStringLiteral("No GPU work in any rank's loop: nothing to diagnose.");
        return d;
    }
    const bool anySteps = std::any_of(loops.begin(), loops.end(), [](const RankLoop &l) { return l.hasSteps; });
    d.notes << (anySteps ? QStringLiteral("The loop: from the first annotated step (NVTX or record_function \"step N\", \"ProfilerStep#N\") to the "
                                          "last; an in-loop gap is at least %1% of the median step.")
                               .arg(100.0 * th.inLoopGapShareOfStep)
                         : QStringLiteral("No annotated steps: the loop is each rank's whole GPU span; an in-loop gap is at least %1.")
                               .arg(formatDuration(th.inLoopGapWithoutSteps)));

    // Warm-up steps, left out as the Steps panel leaves them out of its chart.
    std::size_t warmupSteps = 0;
    TimeNs warmupTime = 0;
    std::vector<int> warmupRanks;
    for (std::size_t ri = 0; ri < loops.size(); ++ri)
        if (!loops[ri].warmup.empty()) {
            warmupSteps += loops[ri].warmup.size();
            warmupTime += lengthOf(loops[ri].warmup);
            warmupRanks.push_back(int(ri));
        }
    if (warmupSteps > 0)
        d.notes << QStringLiteral("Left out as warm-up, as the Steps panel leaves them out of its chart: %1 step(s) over %2 times the "
                                  "median step (%3 in all, %4); the findings and their shares are of the steps after.")
                       .arg(warmupSteps)
                       .arg(kWarmupFactor)
                       .arg(formatDuration(warmupTime), rankList(session, warmupRanks));

    TimeNs idle = 0;
    for (const RankLoop &l : loops)
        idle += l.idleTime();
    d.notes << QStringLiteral("The GPU was busy %1 of the loop%2 (every rank's GPU time over its span).")
                   .arg(percentText(1.0 - double(idle) / double(d.gpuSpan)), warmupSteps > 0 ? QStringLiteral(" after warm-up") : QString());

    InputStarvationResult input = detectInputStarvation(session, loops, th);
    DetectedFinding copies = detectBlockingCopies(session, loops);
    DetectedFinding syncs = detectSynchronisation(session, loops);
    DetectedFinding launch = detectLaunchBound(session, loops, th);
    DetectedFinding straggler = detectStraggler(session, inputs);
    DetectedFinding mpi = detectMpiWaits(session, inputs);
    DetectedFinding bubble = detectPipelineBubble(session, inputs);
    DetectedFinding low = detectLowUtilisation(session, loops, input.otherGaps, {&input.starvation, &launch, &syncs, &straggler, &mpi, &bubble}, th);

    // Share, ranks and severity; the findings that cost enough, costliest first.
    for (DetectedFinding *detected : {&input.starvation, &copies, &syncs, &launch, &straggler, &mpi, &bubble, &low}) {
        Finding &f = detected->finding;
        f.share = double(f.cost) / double(d.gpuSpan);
        // Blocking copies are listed however little they cost, as nsys'
        // cuda_memcpy_async rule lists them: each is a one-line fix.
        if (f.cost <= 0 || (f.share < th.reportedShare && f.kind != FindingKind::BlockingCopies))
            continue;
        for (const auto &[ri, cost] : detected->costPerRank)
            if (cost > 0)
                f.rankIndices.push_back(ri);
        f.ranks = rankList(session, f.rankIndices);
        f.severity = f.share >= th.highShare ? Severity::High : f.share >= th.mediumShare ? Severity::Medium : Severity::Low;
        std::stable_sort(f.instances.begin(), f.instances.end(), [](const FindingInstance &x, const FindingInstance &y) { return x.cost > y.cost; });
        d.findings.push_back(std::move(f));
    }
    std::stable_sort(d.findings.begin(), d.findings.end(), [](const Finding &a, const Finding &b) { return a.cost > b.cost; });
    return d;
}

ResultTable findingsTable(const Diagnosis &d)
{
    ResultTable t;
    t.name = QStringLiteral("diagnosis");
    t.title = QStringLiteral("Diagnosis");
    t.headers = QStringList{QStringLiteral("Severity"),  QStringLiteral("Finding"),   QStringLiteral("Ranks"),    QStringLiteral("Cost (ns)"),
                            QStringLiteral("Share (%)"), QStringLiteral("Instances"), QStringLiteral("Evidence"), QStringLiteral("Advice")};
    for (const Finding &f : d.findings)
        t.addRow({Cell::ofText(severityName(f.severity)), Cell::ofText(f.title), Cell::ofText(f.ranks), Cell::ofInteger(f.cost),
                  Cell::ofDecimal(100.0 * f.share, 1), Cell::ofInteger(std::int64_t(f.instances.size())), Cell::ofText(f.evidence),
                  Cell::ofText(f.advice)});
    t.notes = d.notes;
    return t;
}

ResultTable findingInstancesTable(const Session &session, const Finding &f)
{
    ResultTable t;
    t.name = QStringLiteral("diagnosis_") + f.id;
    t.title = f.title;
    t.headers = QStringList{QStringLiteral("Rank"), QStringLiteral("Start (ns)"), QStringLiteral("Duration (ns)"), QStringLiteral("Cost (ns)"),
                            QStringLiteral("What")};
    const TimeNs zero = session.extent().start;
    for (const FindingInstance &i : f.instances)
        t.addRow({Cell::ofInteger(session.ranks()[std::size_t(i.rankIndex)].rank), Cell::ofInteger(i.time.start - zero),
                  Cell::ofInteger(i.time.duration()), Cell::ofInteger(i.cost), Cell::ofText(i.what)});
    return t;
}

QString findingsMarkdown(const Session &session, const Diagnosis &d)
{
    QString md = QStringLiteral("# Diagnosis\n\n");
    if (d.findings.empty())
        md += QStringLiteral("No findings: nothing costs 1% or more of the GPU time.\n");
    const TimeNs zero = session.extent().start;
    for (const Finding &f : d.findings) {
        // Names from the trace (kernels, NVTX ranges, threads) are in the
        // evidence, the instances and the notes: literal text, never
        // Markdown or HTML. Titles and advice are this program's own.
        md += QStringLiteral("## %1 (%2, %3 of the GPU time, %4)\n\n")
                  .arg(f.title, severityName(f.severity), percentText(f.share), markdownText(f.ranks));
        md += markdownText(f.evidence) + QStringLiteral(".\n\n**Advice.** ") + f.advice + QStringLiteral("\n\n");
        const std::size_t shown = std::min<std::size_t>(f.instances.size(), 5);
        for (std::size_t i = 0; i < shown; ++i) {
            const FindingInstance &in = f.instances[i];
            md += QStringLiteral("- rank %1 at %2: %3\n")
                      .arg(session.ranks()[std::size_t(in.rankIndex)].rank)
                      .arg(formatDuration(in.time.start - zero), markdownText(in.what));
        }
        if (f.instances.size() > shown)
            md += QStringLiteral("- … %1 more\n").arg(f.instances.size() - shown);
        md += QLatin1Char('\n');
    }
    for (const QString &note : d.notes)
        md += QStringLiteral("> %1\n").arg(markdownText(note));
    return md;
}

} // namespace rankscope::stats
