// Row layout for the demo session: order, groups, hiding, reordering.
#include "testdata.h"
#include "timeline/timelinerows.h"

#include <QFontMetrics>
#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

class TestTimelineRows : public QObject {
    Q_OBJECT
    std::shared_ptr<Session> m_session;

    QStringList shownLabels(const TimelineRows &rows) const
    {
        QStringList labels;
        for (int r : rows.shownRows())
            labels << rows.rows()[std::size_t(r)].label;
        return labels;
    }

private slots:
    void initTestCase()
    {
        m_session = std::make_shared<Session>(Session::load({demoPath()}));
        QCOMPARE(m_session->ranks().size(), std::size_t(4));
    }

    // A narrow label column cuts the GPU model first, then the host, then
    // the file; the rank's name stays.
    void rankLabelsKeepWhoTheRankIsWhenNarrow()
    {
        TimelineRows rows;
        rows.build(*m_session);
        const TimelineRow &rank0 = rows.rows()[std::size_t(rows.shownRows().front())];
        QCOMPARE(rank0.kind, TimelineRow::Kind::Group);
        const QFontMetrics metrics(QFont{});
        const QString full = QStringLiteral("Rank 0 · vm · ddp4_rank0.sqlite · NVIDIA H100 80GB HBM3");
        QCOMPARE(fittedLabel(rank0, metrics, 10000), full);
        const int withoutGpu = metrics.horizontalAdvance(QStringLiteral("Rank 0 · vm · ddp4_rank0.sqlite · NVI…"));
        const QString narrower = fittedLabel(rank0, metrics, withoutGpu);
        QVERIFY2(narrower.startsWith(QStringLiteral("Rank 0 · vm · ddp4_rank0.sqlite")) && !narrower.contains(QLatin1String("H100")),
                 qPrintable(narrower));
        QVERIFY(metrics.horizontalAdvance(narrower) <= withoutGpu);
        const int fileOnly = metrics.horizontalAdvance(QStringLiteral("Rank 0 · ddp4_rank0.sqlite"));
        const QString narrow = fittedLabel(rank0, metrics, fileOnly);
        QVERIFY2(narrow.startsWith(QStringLiteral("Rank 0 · ")) && narrow.contains(QLatin1String("ddp4_rank0")), qPrintable(narrow));
        QVERIFY(!narrow.contains(QLatin1String("H100")));
        QVERIFY(fittedLabel(rank0, metrics, metrics.horizontalAdvance(QStringLiteral("Rank 0 ·"))).startsWith(QStringLiteral("Rank 0")));
    }

    // A rank's derived GPU rows: four counter rows under each of its GPUs'
    // All streams, none on the other ranks; the user's hidden and folded
    // rows stay so; switched off, the rows are as before.
    void derivedGpuRowsComeAndGoKeepingTheArrangement()
    {
        TimelineRows rows;
        rows.build(*m_session);
        const std::size_t before = rows.rows().size();
        const auto keyed = [&](const QString &key) {
            for (int i = 0; i < int(rows.rows().size()); ++i)
                if (rows.key(i) == key)
                    return i;
            return -1;
        };
        const QString hiddenKey = rows.key(rows.shownRows()[5]);
        rows.hide(rows.shownRows()[5]);
        rows.setDerivedGpuRanks(*m_session, {1});
        QCOMPARE(rows.rows().size(), before + 4); // rank 1 has one GPU
        QVERIFY(rows.rows()[std::size_t(keyed(hiddenKey))].hidden);
        QStringList labels;
        for (const int i : rows.shownRows()) {
            const TimelineRow &row = rows.rows()[std::size_t(i)];
            if (row.derivedCounter) {
                QCOMPARE(row.rank, 1);
                QCOMPARE(row.kind, TimelineRow::Kind::Counter);
                QCOMPARE(rows.rows()[std::size_t(row.parent)].level, 1); // the GPU's group
                labels << row.label;
            }
        }
        QCOMPARE(labels, QStringList({"Kernels in flight", "Compute during communication", "GPU useful", "GPU gap"}));
        rows.setDerivedGpuRanks(*m_session, {});
        QCOMPARE(rows.rows().size(), before);
        QVERIFY(rows.rows()[std::size_t(keyed(hiddenKey))].hidden);
    }

    // A GPU's row keeps its number and process when narrow; its model
    // goes first, never cut to an unreadable tail ("GPU 0: …B HBM3").
    void gpuLabelsKeepTheGpuAndProcessWhenNarrow()
    {
        TimelineRows rows;
        rows.build(*m_session);
        const TimelineRow &gpu = rows.rows()[std::size_t(rows.shownRows()[1])];
        QVERIFY(gpu.tooltip.contains(QLatin1String("NVIDIA H100 80GB HBM3")));
        const QFontMetrics metrics(QFont{});
        for (const int width : {metrics.horizontalAdvance(QStringLiteral("CUDA HW · GPU 0 · pid 1359")), 200, 120}) {
            const QString shown = fittedLabel(gpu, metrics, width);
            QVERIFY2(metrics.horizontalAdvance(shown) <= width, qPrintable(shown));
            QVERIFY2(shown.contains(QLatin1String("GPU 0")), qPrintable(shown));
            QVERIFY2(!shown.contains(QLatin1String("…")) || shown.contains(QLatin1String("H100")), qPrintable(shown));
        }
        QCOMPARE(fittedLabel(gpu, metrics, metrics.horizontalAdvance(QStringLiteral("CUDA HW · GPU 0 · pid 1359"))),
                 QStringLiteral("CUDA HW · GPU 0 · pid 1359"));
    }

    // A counter's long name goes on two lines, the words kept whole on the first.
    void longCounterNamesTakeTwoLines()
    {
        const QFontMetrics metrics(QFont{});
        const QString name = QStringLiteral("Unallocated Warps in Active SMs [Avg Warps per Cycle]");
        QCOMPARE(twoLineLabel(name, metrics, 10000), QStringList{name});
        const int width = metrics.horizontalAdvance(QStringLiteral("Unallocated Warps in Active SMs"));
        const QStringList lines = twoLineLabel(name, metrics, width);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], QStringLiteral("Unallocated Warps in Active SMs"));
        QCOMPARE(lines[1], QStringLiteral("[Avg Warps per Cycle]"));
        const QStringList cut = twoLineLabel(name, metrics, metrics.horizontalAdvance(QStringLiteral("Unallocated Warps")));
        QCOMPARE(cut[0], QStringLiteral("Unallocated Warps"));
        QVERIFY(cut[1].endsWith(QStringLiteral("…")));
    }

    void ranksInOrderGpuFirst()
    {
        TimelineRows rows;
        rows.build(*m_session);
        QStringList labels = shownLabels(rows);
        QCOMPARE(labels[0], QStringLiteral("Rank 0 · vm · ddp4_rank0.sqlite · NVIDIA H100 80GB HBM3"));
        QCOMPARE(labels[1], QStringLiteral("CUDA HW · GPU 0 · H100 80GB HBM3 · pid 1359"));
        QCOMPARE(labels[2], QStringLiteral("All streams"));
        QCOMPARE(labels[3], QStringLiteral("NVTX (projected on GPU)"));
        // The demo's data-loader workers made dozens of streams: folded.
        const int streams = int(labels.indexOf(QRegularExpression(QStringLiteral("Streams \\(\\d+\\)"))));
        QVERIFY(streams > 0);
        QVERIFY(!labels.contains(QStringLiteral("Stream 7")));
        rows.toggle(rows.shownRows()[std::size_t(streams)]);
        QVERIFY(shownLabels(rows).contains(QStringLiteral("Stream 7")));
        labels = shownLabels(rows);
        QVERIFY(labels.contains(QStringLiteral("python3 [1359] · NVTX")));
        int rankGroups = 0;
        for (const QString &l : labels)
            rankGroups += l.startsWith(QLatin1String("Rank "));
        QCOMPARE(rankGroups, 4);
        // Every recorded track of every rank has a row.
        for (int r = 0; r < 4; ++r)
            for (std::uint32_t t = 0; t < m_session->ranks()[std::size_t(r)].report->tracks.size(); ++t)
                QVERIFY(rows.rowOf(r, t) >= 0);
    }

    void collapseHideAndShowAll()
    {
        TimelineRows rows;
        rows.build(*m_session);
        const std::size_t all = rows.shownRows().size();
        rows.setCollapsed(rows.shownRows()[0], true); // rank 0
        QVERIFY(rows.shownRows().size() < all);
        QCOMPARE(rows.rows()[std::size_t(rows.shownRows()[1])].label.left(6), QStringLiteral("Rank 1"));
        rows.setCollapsed(rows.shownRows()[0], false);
        rows.hide(rows.shownRows()[2]);
        QCOMPARE(rows.shownRows().size(), all - 1);
        rows.showAll();
        QCOMPARE(rows.shownRows().size(), all);
    }

    void moveSwapsSiblingBlocks()
    {
        TimelineRows rows;
        rows.build(*m_session);
        const int rank1 = rows.shownRows()[std::size_t(shownLabels(rows).indexOf(QRegularExpression(QStringLiteral("Rank 1 .*"))))];
        QVERIFY(rows.move(rank1, -1));
        QVERIFY(shownLabels(rows).first().startsWith(QLatin1String("Rank 1")));
        QVERIFY(!rows.move(rank1, -1)); // already first
        QVERIFY(rows.move(rank1, +1));
        QVERIFY(shownLabels(rows).first().startsWith(QLatin1String("Rank 0")));
    }

    void expandAndCollapseAll()
    {
        TimelineRows rows;
        rows.build(*m_session);
        rows.setAllCollapsed(true);
        QStringList labels = shownLabels(rows);
        QCOMPARE(labels.size(), 4); // one folded group per rank
        for (const QString &l : labels)
            QVERIFY(l.startsWith(QLatin1String("Rank ")));
        rows.setAllCollapsed(false);
        QVERIFY(shownLabels(rows).contains(QStringLiteral("Stream 7"))); // even the folded streams
    }

    void showOnlyGpuOrNcclRows()
    {
        TimelineRows rows;
        rows.build(*m_session);
        rows.showOnly(RowFilter::GpuRows);
        for (int r : rows.shownRows()) {
            const TimelineRow &row = rows.rows()[std::size_t(r)];
            QVERIFY2(row.kind == TimelineRow::Kind::Group ? !row.label.startsWith(QLatin1String("python3")) : row.onGpu, qPrintable(row.label));
        }
        QVERIFY(shownLabels(rows).contains(QStringLiteral("All streams")));
        QVERIFY(!shownLabels(rows).contains(QStringLiteral("python3 [1359] · NVTX")));
        rows.showAll();
        QVERIFY(shownLabels(rows).contains(QStringLiteral("python3 [1359] · NVTX")));

        // A real NCCL export (nsys-ai's 2-GPU MFU run): its NCCL lanes alone.
        const Session nccl = Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_after.sqlite"))});
        rows.build(nccl);
        rows.showOnly(RowFilter::NcclRows);
        int lanes = 0;
        for (int r : rows.shownRows()) {
            const TimelineRow &row = rows.rows()[std::size_t(r)];
            QVERIFY2(row.kind == TimelineRow::Kind::Group || row.nccl, qPrintable(row.label));
            lanes += row.nccl;
        }
        QCOMPARE(lanes, 2); // one per GPU
    }

    void pinnedRowsLeaveTheScrolledOnes()
    {
        TimelineRows rows;
        rows.build(*m_session);
        const int total = rows.totalHeight();
        const int stream = rows.shownRows()[std::size_t(shownLabels(rows).indexOf(QStringLiteral("All streams")))];
        rows.setPinned(stream, true);
        QCOMPARE(rows.pinnedRows(), std::vector<int>{stream});
        QCOMPARE(rows.pinnedHeight(), rows.height(stream));
        QCOMPARE(rows.totalHeight(), total - rows.height(stream));
        rows.setPinned(stream, false);
        QVERIFY(rows.pinnedRows().empty());
        QCOMPARE(rows.totalHeight(), total);
        // Pinned rows stay when their group folds.
        rows.setPinned(stream, true);
        rows.setAllCollapsed(true);
        QCOMPARE(rows.pinnedRows(), std::vector<int>{stream});
    }

    // Counters that never left 0 share one folded note instead of a row each.
    void idleCountersShareOneNote()
    {
        auto report = std::make_shared<Report>();
        report->filePath = QStringLiteral("counters.json");
        for (const auto &[name, top] : std::vector<std::pair<QString, double>>{
                 {QStringLiteral("SM active"), 0.0}, {QStringLiteral("Memory in use"), 5.0}, {QStringLiteral("NVLink TX"), 0.0}}) {
            CounterTrack c;
            c.name = name;
            c.time = {0, 10, 20};
            c.value = {0.0, top, 0.0};
            c.finalize();
            report->counters.push_back(std::move(c));
        }
        const Session session = Session::fromReports({report});
        TimelineRows rows;
        rows.build(session);
        QStringList labels = shownLabels(rows);
        QVERIFY2(labels.contains(QStringLiteral("Memory in use")), qPrintable(labels.join(QLatin1Char('|'))));
        QVERIFY(labels.contains(QStringLiteral("No activity: 2 counters always 0")));
        QVERIFY(!labels.contains(QStringLiteral("SM active")));
        rows.setAllCollapsed(false);
        labels = shownLabels(rows);
        QVERIFY(labels.contains(QStringLiteral("SM active")) && labels.contains(QStringLiteral("NVLink TX")));
    }
};

QTEST_MAIN(TestTimelineRows)
#include "tst_timelinerows.moc"
