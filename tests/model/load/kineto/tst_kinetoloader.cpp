// The real PyTorch profiler traces: counts per category and kernel totals
// against an independent count of the JSON (Python's json module, numbers
// in the comments), ranks from distributedInfo, and rank_summary against
// tests/data/kineto/hta_reference.py.
#include "load/kineto/kinetoloader.h"
#include "load/kineto/kinetoparser.h"
#include "stats/ranks/rankbreakdown.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

QString kinetoFile(const QString &name)
{
    return dataPath(QStringLiteral("kineto/") + name);
}

QStringList ddpFiles()
{
    QStringList files;
    for (int r = 0; r < 4; ++r)
        files << kinetoFile(QStringLiteral("ddp_gloo_rank%1.pt.trace.json.gz").arg(r));
    return files;
}

std::int64_t kernelSumTotal(const Report &r)
{
    std::int64_t total = 0;
    const ResultTable table = *stats::runReport(QStringLiteral("cuda_gpu_kern_sum"), r); // keep it alive for the loop
    for (const auto &row : table.allRows())
        total += row[1].integer;
    return total;
}

} // namespace

class TestKinetoLoader : public QObject {
    Q_OBJECT
private slots:
    void countsAndKernelTotals_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("cpuOps");
        QTest::addColumn<int>("annotations");
        QTest::addColumn<int>("runtime");
        QTest::addColumn<int>("driver");
        QTest::addColumn<int>("kernels");
        QTest::addColumn<int>("memcpys");
        QTest::addColumn<int>("memsets");
        QTest::addColumn<int>("gpuAnnotations");
        QTest::addColumn<qint64>("kernelNs");
        QTest::addColumn<int>("memorySamples");
        // From: python3 -c 'Counter(e["cat"] for e in traceEvents if e["ph"] == "X")',
        // kernel time = sum(round(dur * 1000)), [memory] instants.
        QTest::newRow("slow") << "slow_rank0.pt.trace.json.gz" << 3096 << 54 << 829 << 12 << 432 << 18 << 42 << 30 << 106271492LL << 840;
        QTest::newRow("fast") << "fast_rank0.pt.trace.json.gz" << 1494 << 54 << 861 << 12 << 432 << 18 << 42 << 30 << 106296463LL << 816;
        QTest::newRow("ddp0") << "ddp_gloo_rank0.pt.trace.json.gz" << 2394 << 84 << 1635 << 12 << 528 << 204 << 42 << 72 << 435023388LL << 1008;
        QTest::newRow("ddp1") << "ddp_gloo_rank1.pt.trace.json.gz" << 2382 << 84 << 1601 << 12 << 528 << 192 << 42 << 60 << 432138105LL << 1008;
        QTest::newRow("ddp2") << "ddp_gloo_rank2.pt.trace.json.gz" << 2382 << 84 << 1603 << 12 << 528 << 192 << 42 << 60 << 430413464LL << 1008;
        QTest::newRow("ddp3") << "ddp_gloo_rank3.pt.trace.json.gz" << 2382 << 84 << 1669 << 12 << 528 << 192 << 42 << 60 << 437381361LL << 1008;
    }

    void countsAndKernelTotals()
    {
        QFETCH(QString, file);
        const LoadResult r = KinetoLoader::load(kinetoFile(file));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Report &rep = *r.report;
        QFETCH(int, cpuOps);
        QFETCH(int, annotations);
        QFETCH(int, runtime);
        QFETCH(int, driver);
        QFETCH(int, kernels);
        QFETCH(int, memcpys);
        QFETCH(int, memsets);
        QFETCH(int, gpuAnnotations);
        QFETCH(qint64, kernelNs);
        QFETCH(int, memorySamples);
        QCOMPARE(int(rep.eventCount(TrackKind::CpuOp)), cpuOps + annotations);
        QCOMPARE(rep.eventCount(TrackKind::Nvtx), std::size_t(0)); // CPU scopes are a kind of their own
        QCOMPARE(int(rep.eventCount(TrackKind::CudaApi)), runtime + driver);
        QCOMPARE(int(rep.eventCount(TrackKind::Kernel)), kernels);
        QCOMPARE(int(rep.eventCount(TrackKind::Memcpy)), memcpys);
        QCOMPARE(int(rep.eventCount(TrackKind::Memset)), memsets);
        QCOMPARE(int(rep.eventCount(TrackKind::NvtxGpuProjection)), gpuAnnotations);
        QCOMPARE(int(rep.meta.sourceEventCounts.at(QStringLiteral("cpu_op"))), cpuOps);
        QCOMPARE(kernelSumTotal(rep), kernelNs);
        std::size_t samples = 0;
        for (const CounterTrack &c : rep.counters)
            samples += c.time.size();
        QCOMPARE(int(samples), memorySamples);
        // Every kernel, memcpy and memset knows the call that launched it.
        std::size_t gpuOps = 0;
        for (const Track &t : rep.tracks)
            if (t.kind == TrackKind::Kernel || t.kind == TrackKind::Memcpy || t.kind == TrackKind::Memset)
                gpuOps += t.slices.size();
        QCOMPARE(rep.gpuByCorrelation.size(), gpuOps);
        QCOMPARE(rep.gpus.size(), std::size_t(1));
        QCOMPARE(rep.gpus[0].name, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(rep.gpus[0].smCount, 132);
    }

    void memcpyKindsComeFromTheName()
    {
        const LoadResult r = KinetoLoader::load(kinetoFile(QStringLiteral("slow_rank0.pt.trace.json.gz")));
        QVERIFY(r.ok());
        // 12 "Memcpy HtoD (Pageable -> Device)", 6 of them 4 MiB.
        int pageable = 0, big = 0;
        for (const MemcpyRecord &m : r.report->memcpys)
            if (m.copyKind == MemcpyKind::HtoD && m.srcKind == MemoryKind::Pageable && m.dstKind == MemoryKind::Device) {
                ++pageable;
                big += m.bytes == 4194304;
            }
        QCOMPARE(pageable, 12);
        QCOMPARE(big, 6);
        // The same names as nsys stats: memory statistics read the same.
        const auto sizes = stats::runReport(QStringLiteral("cuda_gpu_mem_size_sum"), *r.report);
        QCOMPARE(sizes->row(0).back().text, QStringLiteral("[CUDA memcpy Host-to-Device]"));
    }

    void ddpRanksComeFromDistributedInfo()
    {
        // Renamed so the file names say nothing (and even mislead).
        QTemporaryDir dir;
        QStringList renamed;
        for (int r = 0; r < 4; ++r) {
            const QString target = dir.filePath(QStringLiteral("trace_rank%1.json.gz").arg(3 - r));
            QVERIFY(QFile::copy(ddpFiles()[r], target));
            renamed << target;
        }
        const Session s = Session::load({dir.path()});
        QCOMPARE(s.ranks().size(), std::size_t(4));
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(s.ranks()[std::size_t(r)].rank, r);
            QCOMPARE(s.ranks()[std::size_t(r)].report->filePath, renamed[r]);
            QCOMPARE(s.ranks()[std::size_t(r)].report->meta.worldSize.value_or(0), 4);
        }
        const Report &r0 = *s.ranks()[0].report;
        QCOMPARE(r0.meta.distributedBackend, QStringLiteral("gloo"));
        QCOMPARE(r0.meta.processGroups.size(), std::size_t(1));
        QCOMPARE(r0.meta.processGroups[0].ranks, QStringLiteral("[0, 1, 2, 3]"));
        // Aligned on baseTimeNanoseconds + the first event.
        QVERIFY(r0.meta.utcStartNs > 1790857026000000000LL);
    }

    void rankSummaryMatchesTheReference_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("reference");
        QTest::newRow("ddp, 4 ranks") << ddpFiles() << "rank_summary_ddp_gloo.csv";
        QTest::newRow("slow") << QStringList{kinetoFile(QStringLiteral("slow_rank0.pt.trace.json.gz"))} << "rank_summary_slow.csv";
        QTest::newRow("fast") << QStringList{kinetoFile(QStringLiteral("fast_rank0.pt.trace.json.gz"))} << "rank_summary_fast.csv";
    }

    void rankSummaryMatchesTheReference()
    {
        QFETCH(QStringList, files);
        QFETCH(QString, reference);
        const Session s = Session::load(files);
        QCOMPARE(s.failures().size(), std::size_t(0));
        QCOMPARE(stats::rankSummary(s, stats::KernelClassifier::hta()).toCsv(), readText(kinetoFile(reference)));
    }

    void rankSummaryFromPartsIsTheSame_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::newRow("ddp, 4 ranks, step window") << ddpFiles();
        // Rank 0 names its steps, the nsys rank none: the session takes
        // HTA's window, in which the nsys rank keeps nothing.
        QTest::newRow("steps on one rank only") << QStringList{ddpFiles()[0], slowFixture()};
        QTest::newRow("no steps") << QStringList{slowFixture(), ddpFixture(1)};
    }

    void rankSummaryFromPartsIsTheSame()
    {
        // Under MPI each process computes its files' ranks' parts alone
        // (both with and without the step window) and process 0 picks once
        // it knows every rank's steps: the table is the one computed here.
        QFETCH(QStringList, files);
        const Session session = Session::load(files);
        QCOMPARE(session.failures().size(), std::size_t(0));
        stats::GatheredBreakdowns parts(session.ranks().size());
        for (const ReportPtr &report : session.reports()) {
            const Session alone = Session::fromReports({report});
            for (int ri = 0; ri < int(alone.ranks().size()); ++ri) {
                QByteArray bytes;
                QDataStream out(&bytes, QIODevice::WriteOnly);
                out << stats::rankBreakdownParts(alone, ri, stats::KernelClassifier::hta());
                QDataStream in(bytes);
                stats::RankBreakdownParts received;
                in >> received;
                QCOMPARE(in.status(), QDataStream::Ok);
                for (std::size_t si = 0; si < session.ranks().size(); ++si)
                    if (session.ranks()[si].report == report && session.ranks()[si].pid == alone.ranks()[std::size_t(ri)].pid)
                        parts[si] = received;
            }
        }
        QVERIFY(std::all_of(parts.begin(), parts.end(), [](const auto &p) { return p.has_value(); }));
        const ResultTable direct = stats::rankSummary(session, stats::KernelClassifier::hta());
        QCOMPARE(stats::rankSummary(session, stats::KernelClassifier::hta(), &parts).toCsv(), direct.toCsv());
        QCOMPARE(direct.rowCount(), session.ranks().size());
        QCOMPARE(stats::temporalBreakdown(session, stats::KernelClassifier::hta()).front().stepWindow,
                 QByteArray(QTest::currentDataTag()) != "no steps");
    }

    void stepWindowFollowsHtaOnPyTorch2Traces()
    {
        // What HTA (commit f4d0062c) itself printed for ddp_gloo rank 0:
        // kernel time 517,108 µs. Its step window ends at the GPU-side copy
        // of the last ProfilerStep (gpu_user_annotation), and kernels
        // launched by cuLaunchKernel (cuda_driver) stay in it.
        const auto ranks = stats::temporalBreakdown(Session::load(ddpFiles()), stats::KernelClassifier::hta());
        QCOMPARE(ranks.size(), std::size_t(4));
        QCOMPARE(ranks[0].rank, 0);
        QVERIFY(ranks[0].stepWindow);
        QCOMPARE(ranks[0].kernelTime, 517108000);
    }

    void pageableLoaderIsIdle()
    {
        // The data-loader-bound run idles its GPU most of the time; the
        // fixed one (workers, pinned memory) does not.
        const auto slow =
            stats::temporalBreakdown(Session::load({kinetoFile(QStringLiteral("slow_rank0.pt.trace.json.gz"))}), stats::KernelClassifier::hta());
        const auto fast =
            stats::temporalBreakdown(Session::load({kinetoFile(QStringLiteral("fast_rank0.pt.trace.json.gz"))}), stats::KernelClassifier::hta());
        QVERIFY(slow[0].idlePercent > 80.0);
        QVERIFY(fast[0].idlePercent < 10.0);
        QVERIFY(slow[0].stepWindow);
    }

    void microsecondsParseExactly_data()
    {
        QTest::addColumn<QString>("token");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("3 decimals") << "4494023079567.966" << 4494023079567966LL;
        QTest::newRow("integer") << "1661203462598738" << 1661203462598738000LL;
        QTest::newRow("1 decimal") << "12.5" << 12500LL;
        QTest::newRow("4 decimals round") << "1.0005" << 1001LL;
        QTest::newRow("negative") << "-3.25" << -3250LL;
        QTest::newRow("exponent") << "1.5e3" << 1500000LL;
        QTest::newRow("trailing space") << "7.001 " << 7001LL;
    }

    void microsecondsParseExactly()
    {
        QFETCH(QString, token);
        QFETCH(qint64, ns);
        const std::string t = token.toStdString();
        QCOMPARE(kineto::microsToNanos(t).value_or(-999), ns);
    }

    void badTokensAreRejected()
    {
        QVERIFY(!kineto::microsToNanos("abc"));
        QVERIFY(!kineto::microsToNanos(""));
        QVERIFY(!kineto::microsToNanos("99999999999999999999999"));
    }

    void dtypeSizes()
    {
        QCOMPARE(dtypeSize("Float"), 4);
        QCOMPARE(dtypeSize("BFloat16"), 2);
        QCOMPARE(dtypeSize("Long"), 8);
        QCOMPARE(dtypeSize("Mystery"), 0);
    }
};

QTEST_GUILESS_MAIN(TestKinetoLoader)
#include "tst_kinetoloader.moc"
