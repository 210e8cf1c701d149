// Paraver's analysis views as reports: communication kernels' overlap
// with other kernels (nccl_gpu_overlap_trace), 2D histograms of kernel
// durations (kernel_duration_histogram) and pipeline bubbles
// (pipeline_bubbles). Expected values come from SQL over the exports and
// interval unions computed here, or from the generator's closed form.
#include "analysisinputs.h"
#include "session/session.h"
#include "sqlquery.h"
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/communicationoverlap.h"
#include "stats/ranks/durationhistogram.h"
#include "stats/ranks/gpustaterows.h"
#include "stats/ranks/pipelinebubbles.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

struct Span {
    qint64 start, end;
};

// The time of [from, to) some span covers: the spans merged, by a sweep.
qint64 coveredBy(std::vector<Span> spans, qint64 from, qint64 to)
{
    std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) { return a.start < b.start; });
    qint64 covered = 0, reached = from;
    for (const Span &s : spans) {
        const qint64 lo = std::max(s.start, reached), hi = std::min(s.end, to);
        if (hi > lo) {
            covered += hi - lo;
            reached = hi;
        }
    }
    return covered;
}

const RankEntry *rankOfPid(const Session &session, std::uint32_t pid)
{
    for (const RankEntry &entry : session.ranks())
        if (entry.pid ? *entry.pid == pid : entry.report->process(pid) != nullptr)
            return &entry;
    return nullptr;
}

// The power-of-two bin of a duration, counted here: [0, 1), [1, 2), [2, 4)...
qint64 binLowOf(qint64 duration)
{
    if (duration <= 0)
        return 0;
    qint64 low = 1;
    while (low <= duration / 2)
        low *= 2;
    return low;
}

QString tracegen()
{
    return QStringLiteral(RANKSCOPE_TRACEGEN);
}

} // namespace

class TestParaverViews : public QObject {
    Q_OBJECT

private slots:
    void overlapIsTheUnionOfOtherKernels_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("nsys-ai before the fix") << QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite");
        QTest::newRow("nsys-ai after the fix") << QStringLiteral("third-party/nsys-ai/mfu_2gpu_after.sqlite");
        QTest::newRow("generated, NCCL beside compute on other streams") << QStringLiteral("generated");
    }
    void overlapIsTheUnionOfOtherKernels()
    {
        // Each NCCL kernel's overlap: the kernels on its process and device
        // that are not NCCL's, merged by a sweep over SQL's rows.
        QFETCH(QString, file);
        QTemporaryDir dir;
        const bool generated = file == QLatin1String("generated");
        if (generated)
            QCOMPARE(QProcess::execute(tracegen(), {"--profile", "synthetic", "--events", "20000", dir.path()}), 0);
        const QString path = generated ? QDir(dir.path()).filePath(QStringLiteral("synthetic_rank0.sqlite")) : dataPath(file);
        const Session session = Session::load({path});
        QVERIFY(!session.ranks().empty());
        const QList<QStringList> kernels =
            queryRows(path, QStringLiteral("SELECT (k.globalPid >> 24) & 16777215, k.deviceId, k.start, k.end, s.value LIKE '%nccl%' "
                                           "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName ORDER BY k.start"));
        QVERIFY(!kernels.isEmpty());
        std::map<std::pair<qint64, qint64>, std::vector<Span>> others;
        std::vector<std::pair<std::pair<qint64, qint64>, Span>> communication;
        for (const QStringList &k : kernels) {
            const auto key = std::pair(k[0].toLongLong(), k[1].toLongLong());
            const Span span{k[2].toLongLong(), k[3].toLongLong()};
            if (k[4] == QLatin1String("1"))
                communication.push_back({key, span});
            else
                others[key].push_back(span);
        }
        const ResultTable t = *sessionReport(QStringLiteral("nccl_gpu_overlap_trace"), session);
        QCOMPARE(t.headers, QStringList({"Rank", "Device", "Start (ns)", "Duration (ns)", "Overlap (ns)", "Overlap (%)", "Name"}));
        QCOMPARE(t.rowCount(), std::size_t(communication.size()));
        // The report's rows are by rank, device and start; the query's by start.
        std::stable_sort(communication.begin(), communication.end(), [&](const auto &a, const auto &b) {
            return rankOfPid(session, std::uint32_t(a.first.first))->rank < rankOfPid(session, std::uint32_t(b.first.first))->rank;
        });
        qint64 overlapped = 0;
        for (std::size_t row = 0; row < communication.size(); ++row) {
            const auto &[key, span] = communication[row];
            const RankEntry &entry = *rankOfPid(session, std::uint32_t(key.first));
            const qint64 overlap = coveredBy(others[key], span.start, span.end);
            overlapped += overlap;
            QCOMPARE(t.integerAt(row, 0), qint64(entry.rank));
            QCOMPARE(t.integerAt(row, 1), key.second);
            QCOMPARE(t.integerAt(row, 2), span.start - entry.report->meta.rawTimeOrigin + entry.sessionOffset);
            QCOMPARE(t.integerAt(row, 3), span.end - span.start);
            QCOMPARE(t.integerAt(row, 4), overlap);
            QVERIFY(t.cell(row, 6).text.contains(QLatin1String("nccl"), Qt::CaseInsensitive));
        }
        if (generated) // the synthetic profile's NCCL kernels run on their own streams beside compute
            QVERIFY(overlapped > 0);
    }

    void noCommunicationSaysSo()
    {
        const Session session = Session::load({slowFixture()});
        const ResultTable t = *sessionReport(QStringLiteral("nccl_gpu_overlap_trace"), session);
        QCOMPARE(t.rowCount(), std::size_t(0));
        QVERIFY(t.notes.join(QLatin1Char('\n')).contains(QLatin1String("no communication kernels")));
    }

    void histogramCountsEachRanksKernelsByPowerOfTwo_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("sqlFilter");
        QTest::newRow("every kernel") << QString() << QStringLiteral("1");
        QTest::newRow("--pattern elementwise") << QStringLiteral("elementwise") << QStringLiteral("instr(s.value, 'elementwise') > 0");
        QTest::newRow("--pattern ^ncclDev") << QStringLiteral("^ncclDev") << QStringLiteral("substr(s.value, 1, 7) = 'ncclDev'");
    }
    void histogramCountsEachRanksKernelsByPowerOfTwo()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, sqlFilter);
        const QString path = dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_after.sqlite"));
        const Session session = Session::load({path});
        const QList<QStringList> kernels =
            queryRows(path, QStringLiteral("SELECT (k.globalPid >> 24) & 16777215, k.end - k.start "
                                           "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName WHERE %1")
                                .arg(sqlFilter));
        QVERIFY(!kernels.isEmpty());
        std::map<std::pair<int, qint64>, std::pair<qint64, qint64>> expected; // (rank, bin low) -> count, total
        qint64 lowest = std::numeric_limits<qint64>::max(), highest = -1;
        for (const QStringList &k : kernels) {
            const qint64 duration = k[1].toLongLong(), low = binLowOf(duration);
            auto &cell = expected[{rankOfPid(session, std::uint32_t(k[0].toLongLong()))->rank, low}];
            ++cell.first;
            cell.second += duration;
            lowest = std::min(lowest, low);
            highest = std::max(highest, low);
        }
        AnalysisSettings settings;
        settings.namePattern = pattern;
        const ResultTable t = *sessionReport(QStringLiteral("kernel_duration_histogram"), session, settings);
        QCOMPARE(t.headers, QStringList({"Rank", "Bin Low (ns)", "Bin High (ns)", "Count", "Total (ns)"}));
        // Every rank over the same bins, from the shortest filled to the longest.
        int bins = 0;
        for (qint64 low = lowest; low <= highest; low = low == 0 ? 1 : low * 2)
            ++bins;
        QCOMPARE(t.rowCount(), std::size_t(2 * bins));
        qint64 counted = 0;
        for (std::size_t row = 0; row < t.rowCount(); ++row) {
            const qint64 low = t.integerAt(row, 1);
            QCOMPARE(t.integerAt(row, 2), low == 0 ? 1 : 2 * low);
            const auto it = expected.find({int(t.integerAt(row, 0)), low});
            const std::pair<qint64, qint64> cell = it == expected.end() ? std::pair<qint64, qint64>{0, 0} : it->second;
            QCOMPARE(t.integerAt(row, 3), cell.first);
            QCOMPARE(t.integerAt(row, 4), cell.second);
            counted += cell.first;
        }
        QCOMPARE(counted, qint64(kernels.size()));
    }

    void histogramPerThreadSplitsEachRankByStreamAndThread()
    {
        // --per-thread on the real 2-rank export: a row per GPU stream for
        // kernels, counted by SQL per (pid, device, stream) and bin; and per
        // calling thread for the CUDA runtime calls, by SQL per globalTid.
        const QString path = dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_after.sqlite"));
        const Session session = Session::load({path});
        using Cell = std::pair<qint64, qint64>; // count, total
        std::map<std::tuple<int, QString, qint64>, Cell> expected;
        for (const QStringList &k : queryRows(path, QStringLiteral("SELECT (globalPid >> 24) & 16777215, deviceId, streamId, end - start "
                                                                   "FROM CUPTI_ACTIVITY_KIND_KERNEL"))) {
            const qint64 duration = k[3].toLongLong();
            Cell &cell = expected[{rankOfPid(session, std::uint32_t(k[0].toLongLong()))->rank, QStringLiteral("GPU %1 stream %2").arg(k[1], k[2]),
                                   binLowOf(duration)}];
            ++cell.first;
            cell.second += duration;
        }
        AnalysisSettings settings;
        settings.perThread = true;
        const ResultTable t = *sessionReport(QStringLiteral("kernel_duration_histogram"), session, settings);
        QCOMPARE(t.headers, QStringList({"Rank", "Thread", "Bin Low (ns)", "Bin High (ns)", "Count", "Total (ns)"}));
        std::set<std::pair<int, QString>> streams, rows;
        for (const auto &[key, cell] : expected)
            streams.insert({std::get<0>(key), std::get<1>(key)});
        qint64 counted = 0;
        for (std::size_t row = 0; row < t.rowCount(); ++row) {
            rows.insert({int(t.integerAt(row, 0)), t.cell(row, 1).text});
            const auto it = expected.find({int(t.integerAt(row, 0)), t.cell(row, 1).text, t.integerAt(row, 2)});
            const Cell cell = it == expected.end() ? Cell{0, 0} : it->second;
            QCOMPARE(t.integerAt(row, 4), cell.first);
            QCOMPARE(t.integerAt(row, 5), cell.second);
            counted += cell.first;
        }
        QCOMPARE(rows, streams); // a row for each stream that ran a kernel, and no other
        QCOMPARE(counted, qint64(queryRows(path, QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")).front().front().toLongLong()));

        // The CUDA runtime calls per calling thread.
        std::map<std::pair<std::uint32_t, std::uint32_t>, qint64> callsPerThread; // (pid, tid)
        for (const QStringList &c : queryRows(path, QStringLiteral("SELECT (globalTid >> 24) & 16777215, globalTid & 16777215, count(*) "
                                                                   "FROM CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY globalTid")))
            callsPerThread[{std::uint32_t(c[0].toLongLong()), std::uint32_t(c[1].toLongLong())}] = c[2].toLongLong();
        const DurationHistogram h = durationHistogram(session, {HistogramEvents::CudaApiCalls, {}, true}, KernelClassifier::rankscope());
        QCOMPARE(h.rowCount(), callsPerThread.size());
        for (std::size_t row = 0; row < h.rowCount(); ++row) {
            qint64 calls = 0;
            for (int bin = 0; bin < DurationHistogram::kBins; ++bin)
                calls += qint64(h.count(row, bin));
            QCOMPARE(calls, callsPerThread[std::pair(h.rows[row].pid, h.rows[row].id)]);
            QVERIFY(histogramLaneName(session, h.rows[row]).contains(QStringLiteral("tid %1").arg(h.rows[row].id)));
        }
    }

    void histogramBinsAreHalfOpen()
    {
        QCOMPARE(DurationHistogram::binOf(0), 0);
        QCOMPARE(DurationHistogram::binOf(1), 1);
        QCOMPARE(DurationHistogram::binOf(2), 2);
        QCOMPARE(DurationHistogram::binOf(3), 2);
        QCOMPARE(DurationHistogram::binOf(4), 3);
        QCOMPARE(DurationHistogram::binLow(3), TimeNs(4));
        QCOMPARE(DurationHistogram::binHigh(3), TimeNs(8));
        QCOMPARE(DurationHistogram::binOf(kTimeMax), DurationHistogram::kBins - 1);
        QCOMPARE(DurationHistogram::binOf(-5), 0); // a corrupt record
    }

    void gpipeBubbleIsTheClosedForm_data()
    {
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<QString>("library"); // what passes the data between stages
        QTest::newRow("p=4, m=4") << 4 << 4 << QStringLiteral("nccl");
        QTest::newRow("p=2, m=8") << 2 << 8 << QStringLiteral("nccl");
        QTest::newRow("p=8, m=16") << 8 << 16 << QStringLiteral("nccl");
        QTest::newRow("p=4, m=4, MPI messages") << 4 << 4 << QStringLiteral("mpi");
        QTest::newRow("p=2, m=8, MPI messages") << 2 << 8 << QStringLiteral("mpi");
    }
    void gpipeBubbleIsTheClosedForm()
    {
        // GPipe with equal stages (F = 1 ms, B = 2 ms, T = 20 µs from a
        // stage's compute end to its neighbour's input): the step takes
        // (m + p - 1)(F + B) + 2(p - 1)T, each stage computes m(F + B),
        // so every stage's bubble is (p - 1)(F + B + 2T), which is the
        // textbook (p - 1)/(m + p - 1) of the step as T goes to 0.
        QFETCH(int, stages);
        QFETCH(int, microBatches);
        QFETCH(QString, library);
        QTemporaryDir dir;
        QCOMPARE(QProcess::execute(tracegen(), {"--profile", "pipeline", "--schedule", "gpipe", "--microbatches", QString::number(microBatches),
                                                "--ranks", QString::number(stages), "--p2p", library, "--events", "200", dir.path()}),
                 0);
        const Session session = Session::load({dir.path()});
        const ResultTable t = *sessionReport(QStringLiteral("pipeline_bubbles"), session);
        QCOMPARE(t.headers, QStringList({"Step", "Stage", "Rank", "Step Time (ns)", "Busy (ns)", "Bubble (ns)", "Bubble (%)"}));
        const qint64 p = stages, m = microBatches, F = 1'000'000, B = 2'000'000, T = 20'000;
        const qint64 step = (m + p - 1) * (F + B) + 2 * (p - 1) * T;
        const qint64 steps = std::max<qint64>(1, 200 / (12 * m));
        QCOMPARE(t.rowCount(), std::size_t(steps * p));
        for (std::size_t row = 0; row < t.rowCount(); ++row) {
            QCOMPARE(t.integerAt(row, 0), qint64(row) / p);
            const qint64 stage = qint64(row) % p;
            QCOMPARE(t.integerAt(row, 1), stage);
            QCOMPARE(t.integerAt(row, 2), (stage + 1) % p); // the generator's stage s runs on rank s + 1
            QCOMPARE(t.integerAt(row, 3), step);
            QCOMPARE(t.integerAt(row, 4), m * (F + B));
            QCOMPARE(t.integerAt(row, 5), (p - 1) * (F + B + 2 * T));
            QCOMPARE(t.cell(row, 6).display(), QString::number(100.0 * double((p - 1) * (F + B + 2 * T)) / double(step), 'f', 2));
        }
    }

    void twoRunsCompareSideBySide()
    {
        // An exercise's two runs in the Compare mode: GPipe over 4 stages
        // with 4 micro-batches (A) and with 16 (B). Each run's pipeline is
        // found apart, its rows say which run, and each has its closed-form
        // bubble: more micro-batches, a smaller share.
        QTemporaryDir a, b;
        for (const auto &[dir, m] : {std::pair(a.path(), 4), std::pair(b.path(), 16)})
            QCOMPARE(QProcess::execute(tracegen(), {"--profile", "pipeline", "--schedule", "gpipe", "--microbatches", QString::number(m), "--ranks",
                                                    "4", "--events", "200", dir}),
                     0);
        const Session session = Session::comparison(Session::load({a.path()}), Session::load({b.path()}));
        const ResultTable t = *sessionReport(QStringLiteral("pipeline_bubbles"), session);
        QCOMPARE(t.headers.last(), QStringLiteral("Run"));
        const qint64 F = 1'000'000, B = 2'000'000, T = 20'000, p = 4;
        std::map<QString, int> rows;
        for (std::size_t row = 0; row < t.rowCount(); ++row) {
            const QString run = t.cell(row, 7).text;
            const qint64 m = run == QLatin1String("A") ? 4 : 16;
            QCOMPARE(t.integerAt(row, 3), (m + p - 1) * (F + B) + 2 * (p - 1) * T);
            QCOMPARE(t.integerAt(row, 5), (p - 1) * (F + B + 2 * T));
            ++rows[run];
        }
        QCOMPARE(rows[QStringLiteral("A")], 4 * 4); // 4 steps of 4 stages
        QCOMPARE(rows[QStringLiteral("B")], 4 * 1); // 200 events make 1 step of 16 micro-batches
        QCOMPARE(t.notes.filter(QStringLiteral("pipeline of ranks")).size(), 2);
        // The histogram and the overlap trace say which run a row is, too.
        const ResultTable h = *sessionReport(QStringLiteral("kernel_duration_histogram"), session);
        QCOMPARE(h.headers.last(), QStringLiteral("Run"));
        QCOMPARE(h.cell(0, 5).text, QStringLiteral("A"));
        QCOMPARE(h.cell(h.rowCount() - 1, 5).text, QStringLiteral("B"));
        const ResultTable o = *sessionReport(QStringLiteral("nccl_gpu_overlap_trace"), session);
        QCOMPARE(o.headers.last(), QStringLiteral("Run"));
    }

    void diagnosisNamesTheBubbleNotAStraggler_data()
    {
        QTest::addColumn<QString>("library");
        QTest::newRow("NCCL") << QStringLiteral("nccl");
        QTest::newRow("MPI") << QStringLiteral("mpi");
    }
    void diagnosisNamesTheBubbleNotAStraggler()
    {
        // In a pipeline the later stages wait for the earlier ones by
        // design: the Diagnosis names the bubble (its cost every stage's
        // closed-form bubble, every step), no straggler and no MPI waits
        // (each stage's MPI_Recv waits for the stage before's MPI_Send).
        QFETCH(QString, library);
        QTemporaryDir dir;
        QCOMPARE(QProcess::execute(tracegen(), {"--profile", "pipeline", "--schedule", "gpipe", "--microbatches", "4", "--ranks", "4", "--p2p",
                                                library, "--events", "200", dir.path()}),
                 0);
        const Session session = Session::load({dir.path()});
        const Diagnosis d = diagnosed(session);
        QVERIFY(!d.findings.empty());
        const Finding &top = d.findings.front();
        QCOMPARE(top.kind, FindingKind::PipelineBubble);
        const qint64 p = 4, F = 1'000'000, B = 2'000'000, T = 20'000, steps = 4;
        QCOMPARE(top.cost, steps * p * (p - 1) * (F + B + 2 * T));
        QCOMPARE(top.instances.size(), std::size_t(steps * p));
        QVERIFY2(top.evidence.contains(QStringLiteral("1 → 2 → 3 → 0")), qPrintable(top.evidence));
        for (const Finding &f : d.findings)
            QVERIFY2(f.kind != FindingKind::Straggler && f.kind != FindingKind::MpiWaits, qPrintable(f.evidence));
    }

    void neighboursExchangingAtOnceAreNoPipeline()
    {
        // The mpi profile's ranks pass 1 MiB round a ring each step, every
        // rank sending before its own receive completed (MPI_Isend,
        // MPI_Irecv, then the waits): a ring shift, not pipeline stages,
        // and its planted MPI waits stay the Diagnosis' finding.
        QTemporaryDir dir;
        QCOMPARE(QProcess::execute(tracegen(), {"--profile", "mpi", "--ranks", "4", "--events", "200", dir.path()}), 0);
        const Session session = Session::load({dir.path()});
        const ResultTable t = *sessionReport(QStringLiteral("pipeline_bubbles"), session);
        QCOMPARE(t.rowCount(), std::size_t(0));
        QVERIFY2(t.notes.join(QLatin1Char('\n')).contains(QLatin1String("ranks 0, 1, 2, 3 send to their neighbours before")),
                 qPrintable(t.notes.join(QLatin1Char('\n'))));
        const Diagnosis d = diagnosed(session);
        QVERIFY(std::any_of(d.findings.begin(), d.findings.end(), [](const Finding &f) { return f.kind == FindingKind::MpiWaits; }));
        for (const Finding &f : d.findings)
            QVERIFY(f.kind != FindingKind::PipelineBubble);
    }

    void oneForwardOneBackwardEqualsTheUnionOverSql()
    {
        // 1F1B: the report's busy and step time against each rank's compute
        // kernels (stream 7) by SQL, per step by the step range holding
        // their launch, the step the span of every stage's.
        QTemporaryDir dir;
        const int p = 4, m = 8;
        QCOMPARE(QProcess::execute(tracegen(), {"--profile", "pipeline", "--schedule", "1f1b", "--microbatches", QString::number(m), "--ranks",
                                                QString::number(p), "--events", "400", dir.path()}),
                 0);
        const Session session = Session::load({dir.path()});
        std::map<std::pair<qint64, int>, std::vector<Span>> compute; // (step, rank) -> kernels, recorded time (one clock)
        for (int rank = 0; rank < p; ++rank) {
            const QList<QStringList> rows = queryRows(
                QDir(dir.path()).filePath(QStringLiteral("pipeline_rank%1.sqlite").arg(rank)),
                QStringLiteral("SELECT CAST(substr(n.text, 6) AS INTEGER), k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                               "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
                               "JOIN NVTX_EVENTS n ON n.text LIKE 'step %' AND r.start >= n.start AND r.start < n.end WHERE k.streamId = 7"));
            QVERIFY(!rows.isEmpty());
            for (const QStringList &row : rows)
                compute[{row[0].toLongLong(), rank}].push_back({row[1].toLongLong(), row[2].toLongLong()});
        }
        const ResultTable t = *sessionReport(QStringLiteral("pipeline_bubbles"), session);
        QCOMPARE(t.rowCount(), compute.size());
        for (std::size_t row = 0; row < t.rowCount(); ++row) {
            const qint64 step = t.integerAt(row, 0);
            qint64 first = std::numeric_limits<qint64>::max(), last = 0;
            for (int rank = 0; rank < p; ++rank)
                for (const Span &s : compute[{step, rank}]) {
                    first = std::min(first, s.start);
                    last = std::max(last, s.end);
                }
            const int rank = int(t.integerAt(row, 2));
            const qint64 busy = coveredBy(compute[{step, rank}], first, last);
            QCOMPARE(t.integerAt(row, 3), last - first);
            QCOMPARE(t.integerAt(row, 4), busy);
            QCOMPARE(t.integerAt(row, 5), last - first - busy);
        }
        // The pipeline's ends: stage 0 is rank 1, the last stage rank 0.
        QCOMPARE(t.integerAt(0, 2), qint64(1));
        QCOMPARE(t.integerAt(p - 1, 2), qint64(0));
    }

    void gpuStateRowsAreStepFunctionsOfTheKernels()
    {
        // The derived rows of the generated GPU (NCCL kernels on their own
        // streams beside compute, copies and memsets), integrated over the
        // session, against SQL's rows: kernels in flight integrate to the
        // kernels' total time; GPU useful to the union of the kernels that
        // are not NCCL's; compute during communication to the overlap of
        // the two unions; the GPU gap to the sum of each gap's length
        // squared (its length, held for its length).
        QTemporaryDir dir;
        QCOMPARE(QProcess::execute(tracegen(), {"--profile", "synthetic", "--events", "20000", dir.path()}), 0);
        const QString path = QDir(dir.path()).filePath(QStringLiteral("synthetic_rank0.sqlite"));
        const Session session = Session::load({path});
        const Report &r = *session.ranks()[0].report;
        std::vector<std::uint32_t> tracks;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t)
            if (isGpuOperation(r.tracks[t].kind))
                tracks.push_back(t);
        const std::vector<GpuStateCounter> counters = gpuStateCounters(r, tracks, KernelClassifier::rankscope());
        QCOMPARE(counters.size(), std::size(kGpuStateRows));
        const qint64 origin = r.meta.rawTimeOrigin;
        std::vector<Span> compute, nccl, all;
        qint64 kernelTime = 0;
        for (const QStringList &k : queryRows(path, QStringLiteral("SELECT k.start, k.end, s.value LIKE 'nccl%' FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                                                   "JOIN StringIds s ON s.id = k.demangledName"))) {
            const Span span{k[0].toLongLong() - origin, k[1].toLongLong() - origin};
            (k[2] == QLatin1String("1") ? nccl : compute).push_back(span);
            all.push_back(span);
            kernelTime += span.end - span.start;
        }
        for (const QString &table : {QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"), QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET")})
            for (const QStringList &k : queryRows(path, QStringLiteral("SELECT start, end FROM %1").arg(table)))
                all.push_back({k[0].toLongLong() - origin, k[1].toLongLong() - origin});
        QVERIFY(!nccl.empty() && !compute.empty());
        // The unions, merged here.
        const auto merged = [](std::vector<Span> spans) {
            std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) { return a.start < b.start; });
            std::vector<Span> runs;
            for (const Span &s : spans)
                if (!runs.empty() && s.start <= runs.back().end)
                    runs.back().end = std::max(runs.back().end, s.end);
                else
                    runs.push_back(s);
            return runs;
        };
        const std::vector<Span> computeRuns = merged(compute), busyRuns = merged(all);
        qint64 useful = 0, overlap = 0;
        for (const Span &s : computeRuns)
            useful += s.end - s.start;
        for (const Span &s : merged(nccl))
            overlap += coveredBy(computeRuns, s.start, s.end);
        double gapSquares = 0;
        for (std::size_t i = 1; i < busyRuns.size(); ++i)
            gapSquares += double(busyRuns[i].start - busyRuns[i - 1].end) * double(busyRuns[i].start - busyRuns[i - 1].end);
        const qint64 from = busyRuns.front().start, to = busyRuns.back().end;
        const auto integral = [&](GpuStateRow row) { return *counters[std::size_t(row)].meanIn(from, to) * double(to - from); };
        QCOMPARE(qint64(std::llround(integral(GpuStateRow::KernelsInFlight))), kernelTime);
        QCOMPARE(qint64(std::llround(integral(GpuStateRow::Useful) / 100.0)), useful);
        QCOMPARE(qint64(std::llround(integral(GpuStateRow::ComputeDuringCommunication) / 100.0)), overlap);
        QVERIFY(overlap > 0);
        QCOMPARE(integral(GpuStateRow::GapLength), gapSquares);
        // The gap in force inside the longest gap is that gap's length.
        std::size_t longest = 1;
        for (std::size_t i = 1; i < busyRuns.size(); ++i)
            if (busyRuns[i].start - busyRuns[i - 1].end > busyRuns[longest].start - busyRuns[longest - 1].end)
                longest = i;
        QCOMPARE(*counters[std::size_t(GpuStateRow::GapLength)].counter.valueAt(busyRuns[longest - 1].end + 1),
                 double(busyRuns[longest].start - busyRuns[longest - 1].end));
        QCOMPARE(*counters[std::size_t(GpuStateRow::GapLength)].counter.valueAt(busyRuns[longest].start), 0.0);
    }

    void anAllToAllOfTwoIsNoPipeline()
    {
        // The real 2-rank export runs Ulysses' all-to-all (c10d::alltoall_base_),
        // which NCCL runs as grouped send/receive kernels both ways at once:
        // not a pipeline, said so, and its waits stay the straggler's.
        const Session session = Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))});
        const ResultTable t = *sessionReport(QStringLiteral("pipeline_bubbles"), session);
        QCOMPARE(t.rowCount(), std::size_t(0));
        QVERIFY2(t.notes.join(QLatin1Char('\n')).contains(QLatin1String("all-to-all of two ranks")), qPrintable(t.notes.join(QLatin1Char('\n'))));
        const Diagnosis d = diagnosed(session);
        for (const Finding &f : d.findings)
            QVERIFY(f.kind != FindingKind::PipelineBubble);
    }

    void withoutPointToPointThereAreNoStages()
    {
        const Session session = Session::load({ddpFixture(0), ddpFixture(1)});
        const ResultTable t = *sessionReport(QStringLiteral("pipeline_bubbles"), session);
        QCOMPARE(t.rowCount(), std::size_t(0));
        QVERIFY(t.notes.join(QLatin1Char('\n')).contains(QLatin1String("no point-to-point")));
    }
};

QTEST_GUILESS_MAIN(TestParaverViews)
#include "tst_paraverviews.moc"
