// Comparing two runs: the real nsys-ai pair (the same 2-rank job before and
// after a fix), whose per-kernel totals must be each side's own kernel
// summary (cuda_gpu_kern_sum, checked against nsys on the other fixtures),
// and the name normalisations.
#include "session/session.h"
#include "stats/comparison/rundiff.h"
#include "stats/nsys/nsysreports.h"
#include "stats/ranks/collectives.h"
#include "testdata.h"

#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <set>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

// Name -> Total Time (ns) of a report's cuda_gpu_kern_sum.
std::map<QString, std::int64_t> kernelTotals(const Report &r)
{
    const ResultTable t = cudaGpuKernSum(r);
    const auto name = t.headers.indexOf(QStringLiteral("Name")), total = t.headers.indexOf(QStringLiteral("Total Time (ns)"));
    std::map<QString, std::int64_t> out;
    for (const auto &row : t.allRows())
        out[row[std::size_t(name)].text] += row[std::size_t(total)].integer;
    return out;
}

QString fixture(const char *which)
{
    return dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_%1.sqlite").arg(QLatin1String(which)));
}

} // namespace

class TestRunDiff : public QObject {
    Q_OBJECT
    std::unique_ptr<Session> m_before, m_after;

private slots:
    void initTestCase()
    {
        m_before = std::make_unique<Session>(Session::load({fixture("before")}));
        m_after = std::make_unique<Session>(Session::load({fixture("after")}));
        QVERIFY(!m_before->ranks().empty() && !m_after->ranks().empty());
    }

    void kernelTotalsAreEachSidesSummary()
    {
        const std::map<QString, std::int64_t> a = kernelTotals(*m_before->ranks()[0].report);
        const std::map<QString, std::int64_t> b = kernelTotals(*m_after->ranks()[0].report);
        const std::vector<DiffRow> rows = diffRuns(*m_before, *m_after, DiffReport::Kernels);
        QCOMPARE(rows.size(), [&] {
            std::set<QString> names;
            for (const auto &[n, t] : a)
                names.insert(n);
            for (const auto &[n, t] : b)
                names.insert(n);
            return names.size();
        }());
        std::int64_t delta = 0, expected = 0;
        for (const DiffRow &r : rows) {
            QCOMPARE(std::int64_t(r.totalA), a.count(r.name) ? a.at(r.name) : 0);
            QCOMPARE(std::int64_t(r.totalB), b.count(r.name) ? b.at(r.name) : 0);
            delta += r.delta();
        }
        for (const auto &[n, t] : b)
            expected += t;
        for (const auto &[n, t] : a)
            expected -= t;
        QCOMPARE(delta, expected);
        // Largest absolute change first.
        for (std::size_t i = 1; i < rows.size(); ++i)
            QVERIFY(std::llabs(rows[i - 1].delta()) >= std::llabs(rows[i].delta()));
        // The fix made NCCL's SendRecv slower per call and flash attention
        // run fewer times: both near the top.
        QVERIFY(rows[0].name.contains(QLatin1String("flash_fwd_kernel")));
        // Flash attention's total fell because it ran fewer times, not
        // because a call got faster: most of its delta is the count's.
        const DiffRow &flash = rows[0];
        QVERIFY(flash.countB < flash.countA);
        QCOMPARE(flash.deltaFromCount() + flash.deltaFromMean(), flash.delta());
        QCOMPARE(flash.deltaFromCount(), TimeNs(std::llround(double(flash.countB - flash.countA) * double(flash.totalA) / double(flash.countA))));
        QCOMPARE(flash.change(), QStringLiteral("fewer calls"));
        // SendRecv: slower per call.
        const auto sendRecv =
            std::find_if(rows.begin(), rows.end(), [](const DiffRow &r) { return r.name.startsWith(QLatin1String("ncclDevKernel_SendRecv")); });
        QVERIFY(sendRecv != rows.end());
        QCOMPARE(sendRecv->change(), QStringLiteral("slower per call"));
        const ResultTable t = diffTable(rows, DiffReport::Kernels);
        QCOMPARE(t.rowCount(), rows.size());
        QCOMPARE(t.headers.size(), 12);
        QCOMPARE(t.headers.last(), QStringLiteral("Change"));
    }

    void collectivesOfEachRun()
    {
        // From the exports with sqlite3: the k-th ncclDevKernel_SendRecv of
        // one process paired with the k-th of the other,
        //   with r as (select globalPid p, start s, row_number() over
        //     (partition by globalPid order by start) n from
        //     CUPTI_ACTIVITY_KIND_KERNEL join StringIds on id = demangledName
        //     where value like 'ncclDevKernel_SendRecv%')
        //   select count(*), sum(abs(a.s - b.s)) from r a join r b
        //     on a.n = b.n and a.p < b.p;
        // before: 33 pairs, 13375816 ns; after: 31 pairs, 22485194 ns. With
        // two ranks the one that came first waits the whole skew.
        const std::vector<CollectiveDiff> rows =
            diffCollectives(matchCollectives(*m_before, KernelClassifier::rankscope()), matchCollectives(*m_after, KernelClassifier::rankscope()));
        QCOMPARE(rows.size(), 1u);
        QCOMPARE(rows[0].countA, 33);
        QCOMPARE(rows[0].countB, 31);
        QCOMPARE(rows[0].skewA, TimeNs(13375816));
        QCOMPARE(rows[0].skewB, TimeNs(22485194));
        QCOMPARE(rows[0].waitA, rows[0].skewA);
        QCOMPARE(rows[0].waitB, rows[0].skewB);
        const ResultTable t = collectiveDiffTable(rows);
        QCOMPARE(t.rowCount(), 1u);
        QCOMPARE(t.allRows()[0][7].integer, std::int64_t(22485194 - 13375816));
    }

    void aRowsEventsAreItsCount()
    {
        const std::vector<DiffRow> rows = diffRuns(*m_before, *m_after, DiffReport::Kernels);
        for (const Session *side : {m_before.get(), m_after.get()}) {
            const std::vector<EventLocation> events = eventsOfDiffRow(*side, DiffReport::Kernels, {}, rows[0].name);
            QCOMPARE(std::int64_t(events.size()), side == m_before.get() ? rows[0].countA : rows[0].countB);
            TimeNs total = 0;
            for (const EventLocation &e : events) {
                const Report &r = *side->ranks()[std::size_t(e.rank)].report;
                QCOMPARE(r.strings.string(side->track(e).slices.name(e.event)), rows[0].name);
                total += side->sessionTime(e).duration();
            }
            QCOMPARE(total, side == m_before.get() ? rows[0].totalA : rows[0].totalB);
        }
    }

    void nvtxPathsMatchAcrossRuns()
    {
        const std::vector<DiffRow> rows = diffRuns(*m_before, *m_after, DiffReport::Nvtx);
        QVERIFY(!rows.empty());
        int onBothSides = 0;
        for (const DiffRow &r : rows) {
            QVERIFY2(!r.name.contains(QLatin1String("op_id =")), qPrintable(r.name));
            onBothSides += r.countA > 0 && r.countB > 0;
        }
        QVERIFY(onBothSides > int(rows.size()) / 2);
    }

    void oneRankAgainstItselfChangesNothing()
    {
        DiffOptions options;
        options.rankA = 0;
        options.rankB = 0;
        for (DiffReport report : {DiffReport::Kernels, DiffReport::Api, DiffReport::Memcpy, DiffReport::Nvtx})
            for (const DiffRow &r : diffRuns(*m_before, *m_before, report, options)) {
                QCOMPARE(r.delta(), TimeNs(0));
                QCOMPARE(r.countA, r.countB);
            }
        // Rank 0 against rank 1 of the same run: each side only its rank.
        options.rankB = 1;
        std::int64_t a = 0, all = 0;
        for (const DiffRow &r : diffRuns(*m_before, *m_before, DiffReport::Kernels, options))
            a += r.totalA;
        for (const DiffRow &r : diffRuns(*m_before, *m_before, DiffReport::Kernels))
            all += r.totalA;
        QVERIFY(a > 0 && a < all);
    }

    void namesNormalise()
    {
        QCOMPARE(normalizedKernelName("void gemm<float, cutlass::half_t<8>>(Params)"), QStringLiteral("void gemm<…>(Params)"));
        QCOMPARE(normalizedKernelName("kernel_0x1f3a9c"), QStringLiteral("kernel_…"));
        QCOMPARE(nvtxPathPart("ProfilerStep#12"), QStringLiteral("step"));
        QCOMPARE(nvtxPathPart("step 3"), QStringLiteral("step"));
        QCOMPARE(nvtxPathPart("aten::to, op_id = 998949"), QStringLiteral("aten::to"));
        QCOMPARE(nvtxPathPart("MmBackward0, stashed seq = 12"), QStringLiteral("MmBackward0"));
        QCOMPARE(*diffReportNamed(QStringLiteral("memcpy")), DiffReport::Memcpy);
        QCOMPARE(*diffReportNamed(QStringLiteral("steps")), DiffReport::Steps);
        QVERIFY(!diffReportNamed(QStringLiteral("frames")));
    }

    // A generated pair: B's gemm takes three times as long and B no longer
    // copies its input from pageable memory; everything else is the same.
    // The two changes are the top two rows, nothing else moved.
    void aPlantedChangeIsFoundFirst()
    {
        auto makeRun = [](bool after) {
            auto r = std::make_shared<Report>();
            r->filePath = after ? QStringLiteral("after.sqlite") : QStringLiteral("before.sqlite");
            const StringId gemm = r->strings.intern("gemm"), relu = r->strings.intern("relu"), copy = r->strings.intern("[CUDA memcpy HtoD]");
            r->tracks.push_back({TrackKind::Kernel, 1, 0, 0, 7, 1, 0, StringTable::kEmpty, {}});
            for (int i = 0; i < 10; ++i) {
                const TimeNs at = 100000 * i;
                r->kernels.push_back({gemm, gemm, std::uint32_t(2 * i), 0, 0, KernelRecord::kNoCollective, -1});
                r->tracks[0].slices.append(at, at + (after ? 3000 : 1000), gemm, std::uint32_t(r->kernels.size() - 1));
                r->kernels.push_back({relu, relu, std::uint32_t(2 * i + 1), 0, 0, KernelRecord::kNoCollective, -1});
                r->tracks[0].slices.append(at + 5000, at + 5500, relu, std::uint32_t(r->kernels.size() - 1));
            }
            r->kernelConfigs.push_back({});
            if (!after) {
                r->tracks.push_back({TrackKind::Memcpy, 1, 0, 0, 7, 1, 0, StringTable::kEmpty, {}});
                MemcpyRecord m;
                m.bytes = 1 << 20;
                m.copyKind = MemcpyKind::HtoD;
                m.srcKind = MemoryKind::Pageable;
                m.dstKind = MemoryKind::Device;
                r->memcpys.push_back(m);
                r->tracks[1].slices.append(90000, 92000, copy, 0);
            }
            for (Track &t : r->tracks)
                t.slices.finalize();
            return Session::fromReports({r});
        };
        const Session before = makeRun(false), after = makeRun(true);
        const std::vector<DiffRow> kernels = diffRuns(before, after, DiffReport::Kernels);
        QCOMPARE(kernels.size(), std::size_t(2));
        QCOMPARE(kernels[0].name, QStringLiteral("gemm"));
        QCOMPARE(kernels[0].delta(), TimeNs(10 * 2000));
        QCOMPARE(kernels[1].delta(), TimeNs(0));
        const std::vector<DiffRow> copies = diffRuns(before, after, DiffReport::Memcpy);
        QCOMPARE(copies.size(), std::size_t(1));
        QCOMPARE(copies[0].name, QStringLiteral("HtoD (pageable)"));
        QCOMPARE(copies[0].countA, 1);
        QCOMPARE(copies[0].countB, 0);
        QCOMPARE(copies[0].delta(), TimeNs(-2000));
    }

    // Rank 0 against rank 2 of the 4-rank demo, step by step: each step's
    // duration is the export's own NVTX "step k" range (nsys' nvtx_sum
    // prints each as a one-instance range).
    void stepsOfTwoRanks()
    {
        const Session demo = Session::load({demoPath()});
        DiffOptions options;
        options.rankA = 0;
        options.rankB = 2;
        const std::vector<StepDiff> steps = diffSteps(demo, demo, options);
        QCOMPARE(steps.size(), std::size_t(8));
        const QList<QStringList> nvtx = parseCsv(readText(referenceCsv(QStringLiteral("ddp4"), QStringLiteral("nvtx_sum"))));
        std::map<int, std::int64_t> rank0;
        for (const QStringList &row : nvtx)
            if (row.size() >= 10 && row[9].startsWith(QLatin1String(":step ")))
                rank0[row[9].mid(6).toInt()] = row[1].toLongLong();
        QCOMPARE(rank0.size(), std::size_t(8));
        for (const StepDiff &s : steps) {
            QVERIFY(s.durationA && s.durationB && s.busyA && s.busyB);
            QCOMPARE(std::int64_t(*s.durationA), rank0.at(s.index));
            QVERIFY(*s.busyA <= *s.durationA);
        }
        for (std::size_t i = 1; i < steps.size(); ++i)
            QVERIFY(std::llabs(steps[i - 1].delta()) >= std::llabs(steps[i].delta()));
        QCOMPARE(stepDiffTable(steps).rowCount(), std::size_t(8));
    }

    // 20,000 NVTX ranges nested in one another (the audit: 17 s and 9.8 GiB
    // for `diff -r nvtx`, keys quadratic in the depth): paths keep their
    // outer kNvtxPathLevels levels, deeper ranges are "outer > … > name",
    // each range still its own row with its own count.
    void deeplyNestedRangesKeepShortPaths()
    {
        constexpr int kDepth = 20'000;
        QStringList events;
        for (int d = 0; d < kDepth; ++d)
            events << QStringLiteral(R"({"ph": "X", "cat": "user_annotation", "name": "range_%1_%2", "pid": 1, "tid": 1, "ts": %3, "dur": %4})")
                          .arg(d)
                          .arg(QString(40, QLatin1Char('x')))
                          .arg(10 + d)
                          .arg(2 * (kDepth - d));
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("nested.json"), "{\"traceEvents\": [" + events.join(QLatin1Char(',')).toUtf8() + "]}");
        const Session s = Session::load({path});
        QCOMPARE(s.ranks().size(), std::size_t(1));
        const std::vector<DiffRow> rows = diffRuns(s, s, DiffReport::Nvtx);
        QCOMPARE(rows.size(), std::size_t(kDepth));
        qsizetype totalChars = 0;
        std::set<QString> names;
        for (const DiffRow &r : rows) {
            QCOMPARE(r.countA, std::int64_t(1));
            QCOMPARE(r.countB, std::int64_t(1));
            totalChars += r.name.size();
            names.insert(r.name);
        }
        QVERIFY(totalChars < qsizetype(kDepth) * (kNvtxPathChars + 100)); // linear; unbounded it would be ~10^10
        const QString part = QStringLiteral("_") + QString(40, QLatin1Char('x'));
        QVERIFY(names.count(QStringLiteral("range_0") + part + QStringLiteral(" > range_1") + part));
        // The outer levels every deep path keeps: up to kNvtxPathLevels, while
        // the path and the next name fit in kNvtxPathChars.
        QString outer = QStringLiteral("range_0") + part;
        for (std::size_t d = 1; d < kNvtxPathLevels; ++d) {
            const QString next = QStringLiteral("range_%1").arg(d) + part;
            if (outer.size() + next.size() > kNvtxPathChars)
                break;
            outer += QStringLiteral(" > ") + next;
        }
        QVERIFY(outer.count(QLatin1String(" > ")) >= 10);
        QVERIFY(names.count(outer));
        QVERIFY(names.count(outer + QStringLiteral(" > … > range_%1").arg(kDepth - 1) + part));
    }
};

QTEST_GUILESS_MAIN(TestRunDiff)
#include "tst_rundiff.moc"
