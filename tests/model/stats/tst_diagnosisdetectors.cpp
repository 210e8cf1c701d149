// Each of the diagnosis' detectors alone (stats/diagnosis/diagnosisdetectors.h):
// what it finds against what nsys analyze printed for the same real export
// (blocking copies, synchronisation, GPU gaps), against planted problems
// of the generator (launch-bound, straggler), and the loop they all read.
#include "session/session.h"
#include "sqlquery.h"
#include "stats/diagnosis/diagnosisdetectors.h"
#include "stats/diagnosis/diagnosisloop.h"
#include "stats/kernelclasses.h"
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/collectives.h"
#include "testdata.h"

#include <QProcess>
#include <QtTest>

#include <map>
#include <set>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

// The rows of one of nsys' CSV reports of the slow run, as (start, duration)
// in the export's clock, from the columns named.
std::set<std::pair<TimeNs, TimeNs>> startsAndDurations(const QString &report)
{
    QFile f(referenceCsv(QStringLiteral("slow_1gpu"), report));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QList<QStringList> rows = parseCsv(QString::fromUtf8(f.readAll()));
    const int start = int(rows.front().indexOf(QStringLiteral("Start (ns)"))), duration = int(rows.front().indexOf(QStringLiteral("Duration (ns)")));
    std::set<std::pair<TimeNs, TimeNs>> out;
    for (qsizetype i = 1; i < rows.size(); ++i)
        if (rows[i].size() > std::max(start, duration))
            out.insert({rows[i][start].toLongLong(), rows[i][duration].toLongLong()});
    return out;
}

} // namespace

class TestDiagnosisDetectors : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::optional<Session> m_slow;
    std::vector<RankLoop> m_slowLoops;

    QString generate(const QString &profile, const QStringList &extra, const QString &events)
    {
        const QString dir = m_dir.filePath(profile + QString::number(extra.size()));
        QStringList args{"--profile", profile, "--format", "nsys", "--events", events};
        args << extra << dir;
        return QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), args) == 0 ? dir : QString();
    }
    TimeNs rawTime(TimeNs sessionTime) const { return sessionTime - m_slow->ranks().front().sessionOffset; }

private slots:
    void initTestCase()
    {
        m_slow.emplace(Session::load({slowFixture()}));
        QCOMPARE(m_slow->ranks().size(), std::size_t(1));
        m_slowLoops = loopsOf(*m_slow, {});
    }

    void theLoopRunsFromTheFirstStepToTheLast()
    {
        const RankLoop &l = m_slowLoops.front();
        QVERIFY(l.hasSteps);
        QVERIFY(l.medianStep > 0);
        QCOMPARE(l.gapThreshold, TimeNs(double(l.medianStep) * 0.10));
        // The gaps are inside the loop, in order, apart, and none is busy time.
        TimeNs last = l.range.start;
        for (const Interval &g : l.idle) {
            QVERIFY(g.first >= last && g.second > g.first && g.second <= l.range.end);
            last = g.second;
        }
        QCOMPARE(l.idleTime(), lengthOf(l.idle));
        QVERIFY(l.shortIdleTime() < l.idleTime());
        // Step 0 (594 ms against a median of 151 ms, by SQL over the
        // export) is warm-up, left out as the Steps panel leaves it out: no
        // gap inside it, and the span without it.
        const QList<QStringList> steps = queryRows(slowFixture(), QStringLiteral("SELECT start, end FROM NVTX_EVENTS WHERE "
                                                                                 "coalesce(text, (SELECT value FROM StringIds WHERE id = textId)) "
                                                                                 "LIKE 'step %' ORDER BY start"));
        QCOMPARE(steps.size(), 8);
        std::vector<TimeNs> lengths;
        for (const QStringList &st : steps)
            lengths.push_back(st[1].toLongLong() - st[0].toLongLong());
        std::vector<TimeNs> sorted = lengths;
        std::sort(sorted.begin(), sorted.end());
        QVERIFY(lengths[0] > 3 * sorted[4]);
        for (std::size_t k = 1; k < lengths.size(); ++k)
            QVERIFY(lengths[k] <= 3 * sorted[4]);
        QCOMPARE(l.warmup.size(), std::size_t(1));
        QCOMPARE(rawTime(l.warmup[0].second), steps[0][1].toLongLong());
        QVERIFY(rawTime(l.warmup[0].first) >= steps[0][0].toLongLong());
        for (const Interval &g : l.idle)
            QVERIFY(g.first >= l.warmup[0].second || g.second <= l.warmup[0].first);
        QCOMPARE(l.span(), l.range.duration() - (l.warmup[0].second - l.warmup[0].first));
    }

    void inputStarvationGapsAreGapsOfNsysGpuTrace()
    {
        // The GPU's gaps from the operations nsys' cuda_gpu_trace lists;
        // each in-loop gap the detector finds that is not cut by the loop's
        // ends is one of them, to the nanosecond.
        std::vector<Interval> operations;
        for (const auto &[start, duration] : startsAndDurations(QStringLiteral("cuda_gpu_trace")))
            operations.push_back({start, start + duration});
        QVERIFY(operations.size() > 600);
        std::set<std::pair<TimeNs, TimeNs>> nsysGaps; // (start, duration)
        TimeNs busyUntil = operations.front().second;
        for (const Interval &op : operations) { // in order of start
            if (op.first > busyUntil)
                nsysGaps.insert({busyUntil, op.first - busyUntil});
            busyUntil = std::max(busyUntil, op.second);
        }
        const InputStarvationResult found = detectInputStarvation(*m_slow, m_slowLoops, {});
        const Finding &f = found.starvation.finding;
        QCOMPARE(f.instances.size(), std::size_t(7)); // one per step after the warm-up
        const RankLoop &l = m_slowLoops.front();
        int compared = 0;
        for (const FindingInstance &i : f.instances) {
            QVERIFY2(i.what.contains(QLatin1String("data_loading")), qPrintable(i.what));
            QVERIFY(i.time.duration() >= l.gapThreshold);
            // A gap cut by the loop's ends or its warm-up is not nsys' whole gap.
            if (i.time.start == l.range.start || i.time.end == l.range.end || i.time.start == l.warmup.front().second)
                continue;
            QVERIFY2(nsysGaps.count({rawTime(i.time.start), i.time.duration()}), qPrintable(i.what));
            ++compared;
        }
        QVERIFY(compared > 0);
        // Every long in-loop gap is the finding's or left for low utilisation.
        std::size_t longGaps = 0;
        for (const Interval &g : l.idle)
            longGaps += g.second - g.first >= l.gapThreshold;
        const auto others = found.otherGaps.find(0);
        QCOMPARE(f.instances.size() + (others == found.otherGaps.end() ? 0 : others->second.size()), longGaps);
        QCOMPARE(found.starvation.costOf(0), f.cost);
    }

    void blockingCopiesAreNsysAnalyzesPageableCopiesInTheLoop()
    {
        const DetectedFinding found = detectBlockingCopies(*m_slow, m_slowLoops);
        const std::set<std::pair<TimeNs, TimeNs>> nsysCopies = startsAndDurations(QStringLiteral("cuda_memcpy_async"));
        const RankLoop &l = m_slowLoops.front();
        std::size_t inLoop = 0;
        for (const auto &[start, duration] : nsysCopies)
            inLoop += l.inLoop({start + m_slow->ranks().front().sessionOffset, start + duration + m_slow->ranks().front().sessionOffset});
        QCOMPARE(found.finding.instances.size(), inLoop);
        for (const FindingInstance &i : found.finding.instances) {
            QVERIFY2(nsysCopies.count({rawTime(i.time.start), i.time.duration()}), qPrintable(i.what));
            QVERIFY(i.what.contains(QLatin1String("Pageable")));
        }
        QVERIFY(found.finding.evidence.startsWith(QStringLiteral("%1 copies").arg(inLoop)));
    }

    void synchronisationIsAmongNsysAnalyzesSyncCalls()
    {
        const DetectedFinding found = detectSynchronisation(*m_slow, m_slowLoops);
        const std::set<std::pair<TimeNs, TimeNs>> nsysSyncs = startsAndDurations(QStringLiteral("cuda_api_sync"));
        for (const FindingInstance &i : found.finding.instances) {
            QVERIFY2(nsysSyncs.count({rawTime(i.time.start), i.time.duration()}), qPrintable(i.what));
            // What it costs is the GPU's idle time after the call, inside one gap.
            const Interval *gap = m_slowLoops.front().gapAt(i.time.end);
            QVERIFY(gap);
            QVERIFY(i.cost > 0 && i.cost <= gap->second - i.time.end);
        }
        QVERIFY(found.finding.evidence.contains(QLatin1String("synchronising calls in the loop")));
    }

    void launchBoundOnlyWhereKernelsAreShorterThanTheirLaunch()
    {
        // The slow run's GPU idles in long gaps, not short ones.
        QCOMPARE(detectLaunchBound(*m_slow, m_slowLoops, {}).finding.cost, TimeNs(0));
        // 3 µs kernels every 8.5 µs: the cost is the short gaps' idle time.
        const QString dir = generate(QStringLiteral("launchbound"), {}, QStringLiteral("20000"));
        QVERIFY(!dir.isEmpty());
        const Session session = Session::load({dir});
        const std::vector<RankLoop> loops = loopsOf(session, {});
        const DetectedFinding found = detectLaunchBound(session, loops, {});
        QCOMPARE(found.finding.cost, loops.front().shortIdleTime());
        QCOMPARE(found.costOf(0), found.finding.cost);
        // The last kernel starts after the last step ends: out of the loop.
        QVERIFY(found.finding.evidence.contains(QLatin1String("9999 of 9999 kernels shorter than their launch call")));
        QCOMPARE(found.finding.instances.size(), std::size_t(200)); // examples, not every kernel
    }

    void stragglerIsTheRankOthersWaitFor()
    {
        QVERIFY(detectStraggler(*m_slow, {}).finding.instances.empty()); // one rank: nothing to wait for
        const QString dir = generate(QStringLiteral("ddp"), {"--ranks", "4", "--straggler", "1:3000:1"}, QStringLiteral("1720"));
        QVERIFY(!dir.isEmpty());
        const Session session = Session::load({dir});
        CollectiveInputs records(session, KernelClassifier::rankscope());
        const CollectiveMatch &aligned = records.match(true);
        const std::vector<RankWait> waits = rankWaits(records, aligned);
        const DetectedFinding found = detectStraggler(session, {&aligned, &waits});
        QCOMPARE(found.costPerRank.size(), std::size_t(1));
        QCOMPARE(session.ranks()[std::size_t(found.costPerRank.begin()->first)].rank, 1);
        // Three ranks wait 3 ms at each of the 40 all-reduces.
        QVERIFY2(std::abs(found.finding.cost - 40 * 3 * 3'000'000) < 40 * 3 * 3'000, qPrintable(QString::number(found.finding.cost)));
        TimeNs instances = 0;
        for (const FindingInstance &i : found.finding.instances)
            instances += i.cost;
        QCOMPARE(instances, found.finding.cost);
    }

    void lowUtilisationIsTheIdleTimeNoOtherFindingExplains()
    {
        const RankLoop &l = m_slowLoops.front();
        const InputStarvationResult input = detectInputStarvation(*m_slow, m_slowLoops, {});
        // Alone, all the loop's idle time is unexplained.
        const DetectedFinding alone = detectLowUtilisation(*m_slow, m_slowLoops, input.otherGaps, {}, {});
        QCOMPARE(alone.finding.cost, l.idleTime());
        // With the input pipeline's gaps explained, what is left (short
        // gaps: every long one after the warm-up is the input's) is under a
        // fifth of the loop: not reported; without a floor, it is reported
        // with no gap to list.
        QVERIFY(!input.otherGaps.count(0));
        QCOMPARE(detectLowUtilisation(*m_slow, m_slowLoops, input.otherGaps, {&input.starvation}, {}).finding.cost, TimeNs(0));
        DiagnosisThresholds any;
        any.lowUtilisationUnexplained = 0;
        const DetectedFinding explained = detectLowUtilisation(*m_slow, m_slowLoops, input.otherGaps, {&input.starvation}, any);
        QCOMPARE(explained.finding.cost, l.idleTime() - input.starvation.costOf(0));
        QVERIFY(explained.finding.instances.empty());
    }

    // The gaps a low utilisation lists are named by what the CPU ran in
    // them, as the GPU gaps panel names them; given the slow run's long gaps
    // unexplained, that is data_loading, whose NVTX ranges (read by SQL)
    // cover at least half of each gap named after it.
    void lowUtilisationNamesWhatTheCpuRan()
    {
        const RankLoop &l = m_slowLoops.front();
        std::map<int, std::vector<Interval>> longGaps;
        for (const Interval &g : l.idle)
            if (g.second - g.first >= l.gapThreshold)
                longGaps[0].push_back(g);
        QCOMPARE(longGaps[0].size(), std::size_t(7));
        const DetectedFinding low = detectLowUtilisation(*m_slow, m_slowLoops, longGaps, {}, {});
        QVERIFY2(low.finding.title.endsWith(QLatin1String("idle while the CPU runs data_loading (NVTX)")), qPrintable(low.finding.title));
        QVERIFY2(low.finding.evidence.contains(QLatin1String("The CPU meanwhile ran data_loading (NVTX)")), qPrintable(low.finding.evidence));
        QVERIFY(low.finding.advice.contains(QLatin1String("data_loading")));
        std::vector<Interval> loading;
        for (const QStringList &row :
             queryRows(slowFixture(), QStringLiteral("SELECT start, end FROM NVTX_EVENTS WHERE coalesce(text, (SELECT value FROM StringIds "
                                                     "WHERE id = textId)) = 'data_loading'")))
            loading.push_back({row[0].toLongLong(), row[1].toLongLong()});
        loading = unionOf(std::move(loading));
        QCOMPARE(low.finding.instances.size(), std::size_t(7));
        for (const FindingInstance &i : low.finding.instances) {
            QVERIFY2(i.what.contains(QLatin1String("while the CPU runs data_loading (NVTX)")), qPrintable(i.what));
            QVERIFY(2 * coveredIn(loading, rawTime(i.time.start), rawTime(i.time.end)) >= i.time.duration());
        }
    }

    void syncAndCopyApiNames()
    {
        QVERIFY(isBlockingSync("cudaStreamSynchronize_v3020"));
        QVERIFY(isBlockingSync("cuEventSynchronize"));
        QVERIFY(!isBlockingSync("cudaStreamWaitEvent"));
        QVERIFY(isSynchronousCopyApi("cudaMemcpy_v3020"));
        QVERIFY(!isSynchronousCopyApi("cudaMemcpyAsync_v3020"));
        QCOMPARE(percentText(0.1234), QStringLiteral("12.3%"));
    }
};

QTEST_GUILESS_MAIN(TestDiagnosisDetectors)
#include "tst_diagnosisdetectors.moc"
