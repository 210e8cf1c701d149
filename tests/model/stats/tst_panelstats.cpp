// The analyses behind the stats panels: scoped sums, memcpy bins, GPU gaps
// with their CPU activity, rank comparison.
#include "load/derivedtracks.h"
#include "stats/diagnosis/diagnosisloop.h"
#include "stats/diagnosis/gapanalysis.h"
#include "stats/diagnosis/memcpyanalysis.h"
#include "stats/nsys/nsysreports.h"
#include "stats/ranks/rankcomparison.h"
#include "stats/sqlround.h"
#include "testdata.h"

#include <QtTest>
#include <sqlite3.h>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

class TestPanelStats : public QObject {
    Q_OBJECT
    std::shared_ptr<Session> m_slow, m_ddp;

private slots:
    void initTestCase()
    {
        m_slow = std::make_shared<Session>(Session::load({slowFixture()}));
        m_ddp = std::make_shared<Session>(Session::load({demoPath()}));
        QCOMPARE(m_ddp->ranks().size(), std::size_t(4));
    }

    void rangeSumsMatchTheGpuTrace_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::newRow("first training step") << 7600000000LL << 7800000000LL;
        QTest::newRow("a late stretch") << 8400000000LL << 8700000000LL;
        QTest::newRow("everything") << 0LL << 20000000000LL;
    }

    void rangeSumsMatchTheGpuTrace()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        // Independent: kernels of nsys' cuda_gpu_trace.csv starting in range.
        const QList<QStringList> rows = parseCsv(readText(referenceCsv(QStringLiteral("slow_1gpu"), QStringLiteral("cuda_gpu_trace"))));
        const QStringList h = rows[0];
        qint64 expected = 0, expectedCount = 0;
        for (qsizetype r = 1; r < rows.size(); ++r) {
            const qint64 start = rows[r][h.indexOf(QStringLiteral("Start (ns)"))].toLongLong();
            if (rows[r][h.indexOf(QStringLiteral("Name"))].startsWith(QLatin1String("[CUDA mem")) || start < from || start > to)
                continue;
            expected += rows[r][h.indexOf(QStringLiteral("Duration (ns)"))].toLongLong();
            ++expectedCount;
        }
        const ResultTable t = cudaGpuKernSum(slicesOf(*m_slow, {TimeRange{from, to}, std::nullopt}));
        qint64 total = 0, count = 0;
        for (const auto &row : t.allRows()) {
            total += row[1].integer;
            count += row[2].integer;
        }
        QCOMPARE(total, expected);
        QCOMPARE(count, expectedCount);
    }

    void pageableCopiesDominateTheSlowRun()
    {
        const MemcpyAnalysis a = analyzeMemcpy(*m_slow, {});
        // 39 HtoD copies, all pageable (data README; cuda_gpu_trace.csv).
        std::size_t htod = 0;
        for (const TransferBin &b : a.bins)
            if (b.direction == Direction::HtoD)
                htod += b.count;
        QCOMPARE(htod, std::size_t(39));
        QCOMPARE(a.hostToDevice.pinnedBytes, std::uint64_t(0));
        QVERIFY(a.hostToDevice.pageableByteShare() == 1.0);
        QVERIFY(a.advice.contains(QLatin1String("pin_memory=True")));
        // cuda_gpu_mem_size_sum: HtoD 35.063 MB in total.
        QCOMPARE(formatRounded(double(a.hostToDevice.pageableBytes) / 1e6, 3), QStringLiteral("35.063"));
        // The 4 MiB copies sit in bin 22 and clicking it finds them all.
        const auto big = transfersInBin(*m_slow, {}, Direction::HtoD, 22);
        QVERIFY(!big.empty());
        for (const EventLocation &e : big)
            QCOMPARE(m_slow->ranks()[0].report->memcpys[m_slow->track(e).slices.payload(e.event)].bytes, std::uint64_t(4194304));
        // The fixed DDP run copies from pinned memory: no advice.
        QVERIFY(analyzeMemcpy(*m_ddp, {}).advice.isEmpty());
    }

    void pageableAdviceNeedsTrafficThatMatters()
    {
        HostMemoryShare h;
        h.pageableBytes = 136; // all pageable, but 136 bytes in 2 µs
        h.pageableTime = 2000;
        QVERIFY(!pageableAdviceWarranted(h));
        h.pageableBytes = kPageableAdviceMinBytes; // 1 MiB
        QVERIFY(pageableAdviceWarranted(h));
        h.pageableBytes = 200 * 1024;
        h.pageableTime = kPageableAdviceMinTime; // 1 ms
        QVERIFY(pageableAdviceWarranted(h));
        h.pinnedBytes = 100 * h.pageableBytes; // a minority of bytes and of time
        h.pinnedTime = 100 * h.pageableTime;
        QVERIFY(!pageableAdviceWarranted(h));
    }

    void gapsMatchNsysAndNameTheDataLoader()
    {
        // At 500 ms the list is nsys' gpu_gaps: one 3.65 s gap.
        const auto nsysGaps = findGaps(*m_slow, {}, 500000000);
        QCOMPARE(nsysGaps.size(), std::size_t(1));
        QCOMPARE(nsysGaps[0].time.duration(), 3651742307LL);
        QCOMPARE(nsysGaps[0].time.start, 3471616886LL);
        // Inside the training loop the largest gaps are the data loader's.
        const auto gaps = findGaps(*m_slow, {TimeRange{7000000000, 9400000000}, std::nullopt}, 50000000);
        QVERIFY(gaps.size() >= 5);
        for (std::size_t i = 0; i < 5; ++i) {
            const CpuActivity *main = gaps[i].mainActivity();
            QVERIFY(main);
            QCOMPARE(main->name, QStringLiteral("data_loading"));
            QVERIFY2(main->share > 0.8, qPrintable(QString::number(main->share)));
        }
    }

    // The loop's stalls, from nsys' own printout of the GPU ops
    // (cuda_gpu_trace.csv) and the export's NVTX "step N" ranges (read
    // from the file): gaps inside the loop of at least 10% of the median
    // step, clipped to it, paired as gpu_gaps pairs them.
    void inLoopGapsAreTheLoopsStalls()
    {
        std::vector<TimeNs> starts, ends;
        const QList<QStringList> trace = parseCsv(readText(referenceCsv(QStringLiteral("slow_1gpu"), QStringLiteral("cuda_gpu_trace"))));
        for (qsizetype i = 1; i < trace.size(); ++i) {
            if (trace[i].size() < 2)
                continue;
            starts.push_back(trace[i][0].toLongLong());
            ends.push_back(trace[i][0].toLongLong() + trace[i][1].toLongLong());
        }
        std::sort(starts.begin(), starts.end());
        std::sort(ends.begin(), ends.end());
        std::vector<TimeRange> steps;
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(slowFixture().toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        sqlite3_stmt *st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db,
                                    "SELECT n.start, n.end FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId"
                                    " WHERE coalesce(n.text, s.value) LIKE 'step %' ORDER BY n.start",
                                    -1, &st, nullptr),
                 SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW)
            steps.push_back({sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)});
        sqlite3_finalize(st);
        sqlite3_close(db);
        QCOMPARE(steps.size(), std::size_t(8));
        std::vector<TimeNs> lengths;
        TimeNs loopEnd = 0;
        for (const TimeRange &s : steps) {
            lengths.push_back(s.duration());
            loopEnd = std::max(loopEnd, s.end);
        }
        std::sort(lengths.begin(), lengths.end());
        const TimeNs median = lengths[4], minimum = median / 10;
        std::vector<std::pair<TimeNs, TimeNs>> expected; // (start, duration)
        for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
            const TimeNs from = std::max(ends[k], steps.front().start), to = std::min(starts[k + 1], loopEnd);
            if (to - from > 0 && to - from >= minimum)
                expected.push_back({from, to - from});
        }
        std::vector<std::pair<TimeNs, TimeNs>> found;
        const auto gaps = findInLoopGaps(*m_slow, {}, 0.10, 1000000);
        for (const GpuGapInfo &g : gaps) {
            found.push_back({g.time.start, g.time.duration()});
            QCOMPARE(g.medianStep, median);
        }
        std::sort(expected.begin(), expected.end());
        std::sort(found.begin(), found.end());
        QVERIFY(expected.size() >= 8);
        QCOMPARE(found, expected);
        // nsys' 500 ms rule sees none of them: its one gap is before the loop.
        for (const auto &[start, length] : expected)
            QVERIFY(length < 500000000);
        // What the CPU did: the training thread's data loading.
        const CpuActivity *main = gaps.front().mainActivity();
        QVERIFY(main && main->mainThread);
        QCOMPARE(main->name, QStringLiteral("data_loading"));
        // The panel lists the longest few and counts the rest: the same
        // gaps, in the same order, with the same activity.
        std::size_t all = 0;
        const auto longest = findInLoopGaps(*m_slow, {}, 0.10, 1000000, 8, {3, &all});
        QCOMPARE(all, gaps.size());
        QCOMPARE(longest.size(), std::size_t(3));
        for (std::size_t i = 0; i < longest.size(); ++i) {
            QCOMPARE(longest[i].time, gaps[i].time);
            QCOMPARE(longest[i].activity.size(), gaps[i].activity.size());
            for (std::size_t a = 0; a < gaps[i].activity.size(); ++a)
                QVERIFY(longest[i].activity[a].name == gaps[i].activity[a].name && longest[i].activity[a].covered == gaps[i].activity[a].covered);
        }
        const auto nsysLongest = findGaps(*m_slow, {}, 1000, true, 8, {5, &all});
        QCOMPARE(all, findGaps(*m_slow, {}, 1000, false).size());
        QCOMPARE(nsysLongest.size(), std::size_t(5));
    }

    void utilizationAndHistogram()
    {
        const auto series = utilizationOverTime(*m_slow, {}, 30);
        QCOMPARE(series.size(), std::size_t(1));
        QCOMPARE(series[0].percent.size(), std::size_t(30));
        double weighted = 0;
        for (double p : series[0].percent)
            weighted += p;
        QVERIFY(weighted / 30 < 10.0); // the starving GPU: nsys says 2.8 % in use over its span
        const auto bins = gapHistogram(*m_slow, {});
        std::size_t gaps = 0;
        for (const GapHistogramBin &b : bins)
            gaps += b.count;
        QCOMPARE(gaps, findGaps(*m_slow, {}, 1000, false).size());
        QCOMPARE(bins.front().from, TimeNs(1000));
    }

    // The panel's one pass over each rank gives what the separate calls
    // give, for both rules and a range, on the real trace and the demo.
    void gapsOverviewIsTheSeparateCalls()
    {
        const auto sameGaps = [](const std::vector<GpuGapInfo> &a, const std::vector<GpuGapInfo> &b) {
            if (a.size() != b.size())
                return false;
            for (std::size_t i = 0; i < a.size(); ++i) {
                if (a[i].time != b[i].time || a[i].rankIndex != b[i].rankIndex || a[i].deviceId != b[i].deviceId || a[i].medianStep != b[i].medianStep
                    || a[i].activity.size() != b[i].activity.size())
                    return false;
                for (std::size_t k = 0; k < a[i].activity.size(); ++k)
                    if (a[i].activity[k].name != b[i].activity[k].name || a[i].activity[k].covered != b[i].activity[k].covered)
                        return false;
            }
            return true;
        };
        for (const Session *session : {m_slow.get(), m_ddp.get()})
            for (const StatsScope &scope : {StatsScope{}, StatsScope{TimeRange{7000000000, 9400000000}, std::nullopt}})
                for (const bool inLoop : {true, false}) {
                    const GapRule rule{inLoop, 0.10, 1000000, 50000000};
                    const GapsOverview overview = gapsOverview(*session, scope, rule, 8, 4, 30);
                    std::size_t found = 0;
                    const auto gaps = inLoop ? findInLoopGaps(*session, scope, 0.10, 1000000, 8, {4, &found})
                                             : findGaps(*session, scope, 50000000, true, 8, {4, &found});
                    QVERIFY(sameGaps(overview.gaps, gaps));
                    QCOMPARE(overview.found, found);
                    const auto bins = gapHistogram(*session, scope);
                    QCOMPARE(overview.histogram.size(), bins.size());
                    for (std::size_t i = 0; i < bins.size(); ++i)
                        QVERIFY(overview.histogram[i].count == bins[i].count && overview.histogram[i].total == bins[i].total);
                    const auto series = utilizationOverTime(*session, scope, 30);
                    QCOMPARE(overview.utilization.size(), series.size());
                    for (std::size_t i = 0; i < series.size(); ++i)
                        QVERIFY(overview.utilization[i].percent == series[i].percent && overview.utilization[i].start == series[i].start);
                }
        QVERIFY(gapsOverview(*m_slow, {}, {true, 0.10, 1000000, 0}, 8, 4, 30).found >= 8);
    }

    // Over whole ranks the gaps come from the GPU busy summaries' runs; over
    // a range, from pairing the operations' sorted starts and ends as nsys'
    // gpu_gaps does. A range covering everything must give the same gaps,
    // on every real trace at hand (nsys, two processes in one nsys export,
    // Kineto).
    void gapsFromBusyRunsAreTheOperationsPaired()
    {
        const QStringList sets[] = {
            {slowFixture()},
            {ddpFixture(0), ddpFixture(1), ddpFixture(2), ddpFixture(3)},
            {dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))},
            {dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_after.sqlite"))},
            {dataPath(QStringLiteral("third-party/hta/sampled_rank-0.json.gz")), dataPath(QStringLiteral("third-party/hta/sampled_rank-1.json.gz"))},
            {dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"))},
        };
        for (const QStringList &files : sets) {
            const Session session = Session::load(files);
            const TimeRange extent = session.extent();
            const StatsScope everything{TimeRange{extent.start - 1, extent.end + 1}, std::nullopt};
            std::size_t fromRuns = 0, paired = 0;
            const auto a = findGaps(session, {}, 0, false, 8, {std::numeric_limits<std::size_t>::max(), &fromRuns});
            const auto b = findGaps(session, everything, 0, false, 8, {std::numeric_limits<std::size_t>::max(), &paired});
            QVERIFY2(fromRuns > 0, qPrintable(files.join(QLatin1Char(' '))));
            QCOMPARE(fromRuns, paired);
            for (std::size_t i = 0; i < a.size(); ++i)
                QVERIFY(a[i].time == b[i].time && a[i].rankIndex == b[i].rankIndex && a[i].pid == b[i].pid && a[i].deviceId == b[i].deviceId);
        }
    }

    // Operations of no length split a gap as nsys pairs them: alone between
    // two runs, at a run's end or start, two at once, inside a busy run.
    void instantOperationsSplitGapsAsNsysPairsThem()
    {
        auto report = std::make_shared<Report>();
        const std::vector<std::vector<std::pair<TimeNs, TimeNs>>> streams{
            {{1000, 2000}, {3000, 3000}, {4000, 5000}, {5000, 5000}, {7000, 7000}, {7000, 7000}, {9000, 9500}},
            {{1500, 1500}, {6000, 6000}, {6000, 6500}, {9200, 9200}, {12000, 12000}},
        };
        std::vector<TimeNs> starts, ends;
        std::uint32_t stream = 7;
        for (const auto &ops : streams) {
            Track track;
            track.kind = TrackKind::Kernel;
            track.pid = 42;
            track.deviceId = 0;
            track.streamId = stream++;
            for (const auto &[start, end] : ops) {
                track.slices.append(start, end, StringTable::kEmpty, 0);
                starts.push_back(start);
                ends.push_back(end);
            }
            track.slices.finalize();
            report->tracks.push_back(std::move(track));
        }
        buildGpuBusySummaries(*report);
        std::sort(starts.begin(), starts.end());
        std::sort(ends.begin(), ends.end());
        std::vector<std::pair<TimeNs, TimeNs>> expected; // (start, end), gpu_gaps' pairing
        for (std::size_t k = 0; k + 1 < starts.size(); ++k)
            if (ends[k] < starts[k + 1])
                expected.push_back({ends[k], starts[k + 1]});
        QCOMPARE(expected,
                 (std::vector<std::pair<TimeNs, TimeNs>>{{2000, 3000}, {3000, 4000}, {5000, 6000}, {6500, 7000}, {7000, 9000}, {9500, 12000}}));
        const Session session = Session::fromReports({report});
        const TimeNs offset = session.ranks()[0].sessionOffset;
        std::vector<std::pair<TimeNs, TimeNs>> found;
        for (const GpuGapInfo &g : findGaps(session, {}, 0, false))
            found.push_back({g.time.start - offset, g.time.end - offset});
        std::sort(found.begin(), found.end());
        QCOMPARE(found, expected);
    }

    void rankComparisonOfTheDemo()
    {
        const auto rows = compareRanks(*m_ddp, {}, KernelClassifier::rankscope(), nullptr);
        QCOMPARE(rows.size(), std::size_t(4));
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(rows[std::size_t(r)].rank, r);
            QCOMPARE(rows[std::size_t(r)].steps, std::size_t(8)); // NVTX "step 0" .. "step 7"
            QVERIFY(rows[std::size_t(r)].maxStep.value_or(0) >= rows[std::size_t(r)].meanStep.value_or(1));
        }
        // Rank 0's bytes as nsys' cuda_gpu_mem_size_sum prints them.
        QCOMPARE(formatRounded(double(rows[0].bytes[int(Direction::HtoD)]) / 1e6, 3), QStringLiteral("48.492"));
        QCOMPARE(formatRounded(double(rows[0].bytes[int(Direction::DtoH)]) / 1e6, 3), QStringLiteral("13.429"));
        QCOMPARE(formatRounded(double(rows[0].bytes[int(Direction::DtoD)]) / 1e6, 3), QStringLiteral("14.917"));
        const ResultTable t = rankComparisonTable(*m_ddp, {}, KernelClassifier::rankscope(), nullptr);
        QCOMPARE(t.rowCount(), std::size_t(4));
        QCOMPARE(rankComparisonWorseIsHigher().size(), std::size_t(t.headers.size()));
        // One rank only.
        QCOMPARE(compareRanks(*m_ddp, {std::nullopt, 2}, KernelClassifier::rankscope(), nullptr).size(), std::size_t(1));
        QCOMPARE(compareRanks(*m_ddp, {std::nullopt, 2}, KernelClassifier::rankscope(), nullptr)[0].rank, 2);
    }

    void stepNames()
    {
        QVERIFY(isStepName("step 3"));
        QVERIFY(isStepName("ProfilerStep#12"));
        QVERIFY(isStepName("Iteration 7"));
        QVERIFY(!isStepName("data_loading"));
        QVERIFY(!isStepName("step 3 extra"));
        // Any case, either way a step name may begin.
        QVERIFY(isStepName("STEP#4"));
        QVERIFY(isStepName("iteration 12"));
        QVERIFY(isStepName("profilerstep#0"));
        QVERIFY(!isStepName("step"));
        QVERIFY(!isStepName("ProfilerStep#12a"));
        QVERIFY(!isStepName(""));
    }

    // PyTorch's and the courses' data-loading names, in any case; names that
    // hold one of the words but not the expression, and op names, are not.
    void dataLoadingNames()
    {
        for (const char *name : {"enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", "data_loading", "DATA LOAD", "_next_data",
                                 "Prefetch", "collate_fn", "Input Pipeline", "get_batch", "LoadBatch", "batch_load", "fetch"})
            QVERIFY2(isDataLoadingName(name), name);
        for (const char *name : {"", "aten::add, seq = 12", "reload weights", "input", "batch", "loader", "ProfilerStep#3", "l", "coll"})
            QVERIFY2(!isDataLoadingName(name), name);
    }
};

QTEST_GUILESS_MAIN(TestPanelStats)
#include "tst_panelstats.moc"
