// The statistics panels: every table model passes QAbstractItemModelTester,
// tables show what nsys printed, panels follow the range and rank scope.
#include "core/units.h"
#include "panels/collectivespanel.h"
#include "panels/comparepanel.h"
#include "panels/diagnosispanel.h"
#include "panels/gapspanel.h"
#include "panels/histogramgrid.h"
#include "panels/histogrampanel.h"
#include "panels/memcpypanel.h"
#include "panels/rankheatmap.h"
#include "panels/rankspanel.h"
#include "panels/resulttablemodel.h"
#include "panels/statsdock.h"
#include "panels/stepspanel.h"
#include "panels/summarypanel.h"
#include "panels/tablebox.h"
#include "stats/nsys/nsysreports.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/rankcomparison.h"
#include "stats/ranks/ranktimemap.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include "panels/chartfactory.h"
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTextDocument>
#include <cmath>

#include <QScrollArea>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChartView>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QtTest>
#include <map>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// Shares equal cell by cell, "nothing recorded" (NaN) included.
bool sameShares(const std::vector<float> &a, const std::vector<float> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](float x, float y) { return x == y || (std::isnan(x) && std::isnan(y)); });
}

// The model's display text, row by row, as a CSV parser would read it.
QList<QStringList> shown(const ResultTableModel *m)
{
    QList<QStringList> rows;
    QStringList header;
    for (int c = 0; c < m->columnCount(); ++c)
        header << m->headerData(c, Qt::Horizontal).toString();
    rows << header;
    for (int r = 0; r < m->rowCount(); ++r) {
        QStringList row;
        for (int c = 0; c < m->columnCount(); ++c)
            row << m->data(m->index(r, c)).toString();
        rows << row;
    }
    return rows;
}

} // namespace

// A panel whose computation runs out of memory, as one over a huge trace can.
class StarvedPanel : public StatsPanel {
public:
    using StatsPanel::StatsPanel;
    bool shown = false;

protected:
    void refresh() override
    {
        run<int>([]() -> int { throw std::bad_alloc(); }, [this](int) { shown = true; });
    }
};

class TestStatsPanels : public QObject {
    Q_OBJECT
    std::shared_ptr<Session> m_slow, m_ddp;

private slots:
    // Running out of memory is an outcome: the panel says so, inline or on
    // a worker, and the program goes on (a bad_alloc leaving the worker
    // would be rethrown on the GUI thread).
    void aPanelThatRunsOutOfMemoryFailsAlone()
    {
        for (const bool background : {false, true}) {
            StarvedPanel panel;
            panel.setComputeInBackground(background);
            QSignalSpy failed(&panel, &StatsPanel::computationFailed);
            panel.setSession(m_slow);
            if (background)
                QVERIFY(failed.wait(10000));
            QCOMPARE(failed.size(), 1);
            QVERIFY2(failed[0][0].toString().startsWith(QLatin1String("ran out of memory computing it (")), qPrintable(failed[0][0].toString()));
            QVERIFY(!panel.shown);
            QVERIFY(!panel.isComputing());
        }
    }

    // A name from a trace is data: its tooltip shows the markup it holds
    // as text (a cpu_op named x<img src=...> shows no image on hover).
    void namesInTablesAreNotMarkup()
    {
        const QString name = QStringLiteral("x<img src=\"/tmp/red.png\"><b>bold</b>");
        ResultTable table;
        table.headers = {QStringLiteral("Name")};
        table.addRow({Cell::ofText(name)});
        ResultTableModel model;
        model.setTable(table);
        const QString tip = model.data(model.index(0, 0), Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("x&lt;img src=&quot;/tmp/red.png&quot;&gt;&lt;b&gt;bold&lt;/b&gt;")), qPrintable(tip));
        QVERIFY(!tip.contains(QLatin1String("<img")));
        QCOMPARE(model.data(model.index(0, 0), Qt::DisplayRole).toString(), name);
        // Rendered as a tooltip renders it, the text is what the trace says.
        QTextDocument shown;
        shown.setHtml(tip);
        QCOMPARE(shown.toPlainText(), name);
    }

    // Readable tables give every number its unit and grouping: a mean of
    // nanoseconds reads as a duration, other decimals keep their digits with
    // thousands grouped; the tooltip has the exact value as exported.
    void numbersInTablesHaveUnitsAndGrouping()
    {
        ResultTable table;
        table.headers = {QStringLiteral("Mean skew A (ns)"), QStringLiteral("Ratio B/A"), QStringLiteral("Count A")};
        table.addRow({Cell::ofDecimal(4004667.3, 1), Cell::ofDecimal(405327.8, 1), Cell::ofInteger(1234567)});
        table.addRow({Cell::ofDecimal(-0.4, 1), Cell::ofDecimal(-1234.25, 2), Cell::ofInteger(-5)});
        ResultTableModel model;
        model.setTable(table);
        model.setReadable(true);
        const auto shown = [&](int r, int c, int role = Qt::DisplayRole) { return model.data(model.index(r, c), role).toString(); };
        QCOMPARE(shown(0, 0), formatDuration(4004667));
        QCOMPARE(shown(0, 0, Qt::ToolTipRole), QStringLiteral("4,004,667.3 ns"));
        QCOMPARE(shown(0, 1), QStringLiteral("405,327.8"));
        QCOMPARE(shown(0, 2), QStringLiteral("1,234,567"));
        QCOMPARE(shown(1, 1), QStringLiteral("-1,234.25"));
        QCOMPARE(shown(1, 0, Qt::ToolTipRole), QStringLiteral("-0.4 ns"));
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Mean skew A"));
        model.setReadable(false); // as exported
        QCOMPARE(shown(0, 0), QStringLiteral("4004667.3"));
    }

    // A header click sorts by the table's values: integers exactly (past
    // 2^53, where doubles tie), decimals as numbers, names by their UTF-8
    // bytes (a report's strings too), empty cells first; the source rows,
    // which the panels' own lists follow, keep their order.
    void tablesSortByTheirValues()
    {
        auto report = std::make_shared<Report>();
        ResultTable table;
        table.headers = {QStringLiteral("Count"), QStringLiteral("Avg"), QStringLiteral("Name")};
        const std::int64_t big = std::int64_t(1) << 60;
        table.addRow({Cell::ofInteger(big + 1), Cell::ofDecimal(2.5, 1), Cell::ofText(QStringLiteral("b"))});
        table.addRow({Cell::ofInteger(big), Cell::ofDecimal(10.0, 1)});
        table.setReportText(1, 2, *report, report->strings.intern("ab"), "a");
        table.addRow({Cell::ofInteger(-3), Cell::ofDecimal(-1.0, 1), Cell::ofText(QStringLiteral("\u00e9"))});
        table.addRow({Cell(), Cell(), Cell()});
        TableBox box(QStringLiteral("t"));
        box.setTable(table);
        QSortFilterProxyModel *proxy = box.proxy();
        auto column = [&](int c) {
            QStringList shown;
            for (int r = 0; r < proxy->rowCount(); ++r)
                shown << proxy->data(proxy->index(r, c)).toString();
            return shown;
        };
        proxy->sort(0, Qt::AscendingOrder);
        QCOMPARE(column(0), (QStringList{QString(), QStringLiteral("-3"), QString::number(big), QString::number(big + 1)}));
        proxy->sort(1, Qt::DescendingOrder);
        QCOMPARE(column(1), (QStringList{QStringLiteral("10.0"), QStringLiteral("2.5"), QStringLiteral("-1.0"), QString()}));
        proxy->sort(2, Qt::AscendingOrder);
        QCOMPARE(column(2), (QStringList{QString(), QStringLiteral("aab"), QStringLiteral("b"), QStringLiteral("\u00e9")}));
        QCOMPARE(box.model()->data(box.model()->index(0, 2)).toString(), QStringLiteral("b")); // the source as it was
    }

    void initTestCase()
    {
        m_slow = std::make_shared<Session>(Session::load({slowFixture()}));
        m_ddp = std::make_shared<Session>(Session::load({demoPath()}));
    }

    void everyTableModelPassesTheTester()
    {
        StatsDock dock;
        dock.setSession(m_slow);
        const QList<TableBox *> boxes = dock.findChildren<TableBox *>();
        QVERIFY(boxes.size() >= 8);
        for (TableBox *box : boxes) {
            QAbstractItemModelTester modelTester(box->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
            QAbstractItemModelTester proxyTester(box->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
            box->proxy()->sort(1, Qt::DescendingOrder); // sorting and filtering under the testers' eyes
            box->proxy()->setFilterFixedString(QStringLiteral("a"));
            box->proxy()->setFilterFixedString(QString());
            dock.setRange(TimeRange{7600000000, 7800000000});
            dock.setRange(std::nullopt);
        }
    }

    void tablesShowWhatNsysPrinted_data()
    {
        QTest::addColumn<QString>("report");
        QTest::newRow("kernels") << "cuda_gpu_kern_sum";
        QTest::newRow("api") << "cuda_api_sum";
        QTest::newRow("nvtx") << "nvtx_sum";
        QTest::newRow("osrt") << "osrt_sum";
        QTest::newRow("memcpy size") << "cuda_gpu_mem_size_sum";
        QTest::newRow("memcpy time") << "cuda_gpu_mem_time_sum";
    }

    void tablesShowWhatNsysPrinted()
    {
        QFETCH(QString, report);
        StatsDock dock;
        dock.setSession(m_slow);
        const std::map<QString, TableBox *> boxes{{QStringLiteral("cuda_gpu_kern_sum"), dock.summaries()->kernels()},
                                                  {QStringLiteral("cuda_api_sum"), dock.summaries()->api()},
                                                  {QStringLiteral("nvtx_sum"), dock.summaries()->nvtx()},
                                                  {QStringLiteral("osrt_sum"), dock.summaries()->osrt()},
                                                  {QStringLiteral("cuda_gpu_mem_size_sum"), dock.memcpy()->sizeTable()},
                                                  {QStringLiteral("cuda_gpu_mem_time_sum"), dock.memcpy()->timeTable()}};
        QCOMPARE(shown(boxes.at(report)->model()), parseCsv(readText(referenceCsv(QStringLiteral("slow_1gpu"), report))));
    }

    // The registry's GUI places: a report declared in a panel is named by
    // the panel's tab, and is a table of that panel unless the panel draws
    // it or adds to it (listed here with how).
    void declaredReportsAreInTheirPanels()
    {
        const QSet<QString> notAsTheTable{
            QStringLiteral("gpu_gaps"),              // with each gap's CPU activity: gpu_gaps_with_cpu_activity
            QStringLiteral("rank_summary"),          // the ranks' stacked bars
            QStringLiteral("rank_time_map"),         // the heatmap
            QStringLiteral("cpu_sampling_flat"),     // the call tree views
            QStringLiteral("cpu_sampling_top_down"), // (the demo has no samples)
            QStringLiteral("cpu_sampling_ranks"),
        };
        StatsDock dock;
        dock.setSession(m_ddp);
        auto *tabs = dock.findChild<QTabWidget *>();
        QVERIFY(tabs);
        int asTables = 0;
        for (const stats::ReportDeclaration &d : stats::reportDeclarations()) {
            if (d.panel.isEmpty())
                continue;
            const int tab = int(StatsDock::panelNames().indexOf(d.panel));
            QVERIFY2(tab >= 0, qPrintable(d.name + QStringLiteral(": no panel ") + d.panel));
            QVERIFY2(tabs->tabToolTip(tab).contains(d.name), qPrintable(tabs->tabToolTip(tab)));
            if (notAsTheTable.contains(d.name))
                continue;
            QVERIFY(dock.showPanel(d.panel));
            const auto inPanel = [&] {
                for (const TableBox *box : tabs->widget(tab)->findChildren<TableBox *>())
                    if (box->model()->table().name == d.name)
                        return true;
                return false;
            };
            QTRY_VERIFY2(inPanel(), qPrintable(d.name));
            ++asTables;
        }
        QCOMPARE(asTables, 15);
    }

    void panelsFollowTheRangeAndRank()
    {
        StatsDock dock;
        dock.setSession(m_ddp);
        const auto total = [](const ResultTableModel *m) {
            qint64 sum = 0;
            for (int r = 0; r < m->rowCount(); ++r)
                sum += m->data(m->index(r, 1), ResultTableModel::SortRole).toLongLong();
            return sum;
        };
        const qint64 all = total(dock.summaries()->kernels()->model());
        dock.setRankIndex(1);
        const qint64 rank1 = total(dock.summaries()->kernels()->model());
        QVERIFY(rank1 > 0 && rank1 < all);
        qint64 expected = 0; // the engine's kernel total for rank 1 alone
        for (const auto &row : stats::cudaGpuKernSum(*m_ddp->ranks()[1].report).allRows())
            expected += row[1].integer;
        QCOMPARE(rank1, expected);
        const TimeRange half{m_ddp->extent().start, m_ddp->extent().start + m_ddp->extent().duration() / 2};
        dock.setRange(half);
        QVERIFY(total(dock.summaries()->kernels()->model()) < rank1);
        // The rank comparison always compares every rank.
        QCOMPARE(dock.ranks()->table()->model()->rowCount(), 4);
    }

    // One workspace for every panel of the dock: the Collectives and the
    // Rank comparison show the same match object, the Diagnosis the
    // workspace's; the user's communication pattern reaches all of them.
    void thePanelsShareOneWorkspace()
    {
        StatsDock dock;
        dock.setSession(m_ddp);
        QVERIFY(dock.workspace());
        QCOMPARE(dock.workspace()->session().get(), m_ddp.get());
        for (const QString &name : {QStringLiteral("collectives"), QStringLiteral("ranks"), QStringLiteral("diagnosis")})
            dock.showPanel(name);
        QVERIFY(dock.collectives()->match());
        QCOMPARE(dock.collectives()->match(), dock.ranks()->match());
        QCOMPARE(dock.collectives()->match(), dock.workspace()->readyCollectiveMatch(MatchClock::Recorded).get());
        QVERIFY(dock.workspace()->readyDiagnosis());
        QSignalSpy changed(&dock, &StatsDock::workspaceChanged);
        QVERIFY(dock.ranks()->setCommunicationPattern(QStringLiteral("(?i)gemm")));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(dock.workspace()->settings().communicationPattern, QStringLiteral("(?i)gemm"));
        QCOMPARE(dock.workspace()->session().get(), m_ddp.get());
        QCOMPARE(dock.collectives()->match(), dock.workspace()->readyCollectiveMatch(MatchClock::Recorded).get());
        QVERIFY(dock.ranks()->setCommunicationPattern(QString()));
    }

    // The GPU gaps panel's in-loop rule reads the Diagnosis' thresholds
    // from the workspace: new thresholds recompute it.
    void theGapsPanelReadsTheWorkspacesThresholds()
    {
        StatsDock dock;
        dock.setSession(m_slow);
        dock.showPanel(QStringLiteral("gaps"));
        const int before = dock.gaps()->gapTable()->model()->rowCount();
        QVERIFY(before > 0);
        AnalysisSettings strict = dock.analysisSettings();
        strict.diagnosis.inLoopGapShareOfStep = 1000.0; // no gap is a thousand steps long
        strict.diagnosis.inLoopGapWithoutSteps = TimeNs(1) << 60;
        dock.setAnalysisSettings(strict);
        QCOMPARE(dock.workspace()->settings().diagnosis.inLoopGapShareOfStep, 1000.0);
        QVERIFY2(dock.gaps()->gapTable()->model()->rowCount() < before, qPrintable(QString::number(dock.gaps()->gapTable()->model()->rowCount())));
        dock.setAnalysisSettings({});
        QCOMPARE(dock.gaps()->gapTable()->model()->rowCount(), before);
    }

    // A new session: the Diagnosis drops the old session's findings at
    // once and says it is computing, instead of showing them as the new one's.
    void aNewSessionShowsNoOldResults()
    {
        StatsDock dock;
        dock.setSession(m_slow);
        dock.showPanel(QStringLiteral("diagnosis"));
        QVERIFY(dock.diagnosis()->findingsTable()->model()->rowCount() > 0);
        dock.setComputeInBackground(true);
        dock.setSession(m_ddp);
        QCOMPARE(dock.diagnosis()->findingsTable()->model()->rowCount(), 0);
        QCOMPARE(dock.gaps()->gapTable()->model()->rowCount(), 0); // every panel, not only the Diagnosis
        QVERIFY(dock.diagnosis()->isShowingComputing());
        QTRY_VERIFY_WITH_TIMEOUT(!dock.isComputing(), 60000);
        QVERIFY(!dock.diagnosis()->isShowingComputing());
    }

    // A new range: what the panel shows meanwhile is the last scope's, so
    // it is greyed out under "Computing for the selected range...".
    void aNewRangeGreysOutTheLastScopesResults()
    {
        StatsDock dock;
        dock.setSession(m_slow);
        dock.showPanel(QStringLiteral("gaps"));
        TableBox *gaps = dock.gaps()->gapTable();
        QVERIFY(gaps->model()->rowCount() > 0);
        QVERIFY(gaps->isEnabled());
        dock.setComputeInBackground(true);
        const TimeRange extent = m_slow->extent();
        dock.setRange(TimeRange{extent.start, extent.start + extent.duration() / 2});
        QVERIFY(dock.gaps()->isShowingComputing());
        QVERIFY(!gaps->isEnabled());
        const auto *label = dock.gaps()->findChild<QLabel *>(QStringLiteral("computing"));
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("Computing for the selected range..."));
        QTRY_VERIFY_WITH_TIMEOUT(!dock.isComputing(), 60000);
        QVERIFY(gaps->isEnabled());
        QVERIFY(!dock.gaps()->isShowingComputing());
    }

    // Rank against rank of one session: rank 0 of the demo against rank 1,
    // rank 0's side checked against what nsys printed for its file.
    void comparePanelComparesTwoRanks()
    {
        StatsDock dock;
        dock.setSession(m_ddp);
        dock.showPanel(QStringLiteral("compare"));
        ComparePanel *compare = dock.compare();
        const QStringList choices = compare->choiceNames();
        QCOMPARE(choices.size(), 4);
        QCOMPARE(choices[0], QStringLiteral("rank 0 · ddp4_rank0.sqlite"));
        compare->setSides(0, 1);
        const ResultTable diff = compare->diffTable()->model()->table();
        std::map<QString, std::pair<std::int64_t, std::int64_t>> nsys; // name -> instances, total
        const QList<QStringList> csv = parseCsv(readText(dataPath(QStringLiteral("nsys/ddp4/stats/ddp4_rank0_cuda_gpu_kern_sum.csv"))));
        for (qsizetype i = 1; i < csv.size(); ++i)
            if (csv[i].size() == 9)
                nsys[csv[i][8]] = {csv[i][2].toLongLong(), csv[i][1].toLongLong()};
        std::map<QString, std::int64_t> rank1; // the engine's summary of rank 1
        for (const auto &row : stats::cudaGpuKernSum(*m_ddp->ranks()[1].report).allRows())
            rank1[row[8].text] += row[1].integer;
        std::size_t inA = 0;
        for (const auto &row : diff.allRows()) {
            const auto a = nsys.find(row[0].text);
            QCOMPARE(row[1].integer, a == nsys.end() ? 0 : a->second.first);
            QCOMPARE(row[2].integer, a == nsys.end() ? 0 : a->second.second);
            inA += a != nsys.end();
            QCOMPARE(row[5].integer, rank1.count(row[0].text) ? rank1[row[0].text] : 0);
        }
        QCOMPARE(inA, nsys.size());
        // The difference comes right after the name, whatever its length.
        const QHeaderView *header = compare->diffTable()->view()->horizontalHeader();
        QCOMPARE(header->visualIndex(7), 1);  // Delta (ns)
        QCOMPARE(header->visualIndex(8), 2);  // Ratio B/A
        QCOMPARE(header->visualIndex(11), 3); // Change
        // The same rank on both sides is no comparison.
        compare->setSides(2, 2);
        QCOMPARE(compare->diffTable()->model()->rowCount(), 0);
    }

    // Two runs without steps (the nsys-ai pair): no empty step boxes, the
    // difference takes their room and the note says why.
    void compareWithoutStepsShowsTheDifferenceOnly()
    {
        const Session before = Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))});
        const Session after = Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_after.sqlite"))});
        ComparePanel compare;
        compare.resize(1200, 500);
        compare.setSession(std::make_shared<const Session>(Session::comparison(before, after)));
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        QVERIFY(compare.diffTable()->model()->rowCount() > 10);
        QVERIFY(compare.stepsTable()->isHidden());
        QVERIFY(compare.findChild<QLabel *>()); // the note
        bool said = false;
        for (const QLabel *label : compare.findChildren<QLabel *>())
            said = said || label->text().contains(QLatin1String("no step times to compare"));
        QVERIFY(said);
        // Flash attention ran fewer times; a call did not get faster.
        const ResultTable diff = compare.diffTable()->model()->table();
        QVERIFY(diff.allRows().front()[0].text.contains(QLatin1String("flash_fwd_kernel")));
        QCOMPARE(diff.allRows().front()[11].text, QStringLiteral("fewer calls"));
    }

    void largestGapsNameTheDataLoader()
    {
        GapsPanel panel;
        panel.setSession(m_slow);
        panel.setThresholdMs(50);
        panel.setScope({TimeRange{7000000000, 9400000000}, std::nullopt});
        const ResultTableModel *gaps = panel.gapTable()->model();
        QVERIFY(gaps->rowCount() >= 5);
        for (int r = 0; r < 5; ++r)
            QVERIFY2(gaps->data(gaps->index(r, 5)).toString().startsWith(QLatin1String("data_loading covers ")),
                     qPrintable(gaps->data(gaps->index(r, 5)).toString()));
        // The largest first.
        QVERIFY(gaps->data(gaps->index(0, 3), ResultTableModel::SortRole).toLongLong()
                >= gaps->data(gaps->index(1, 3), ResultTableModel::SortRole).toLongLong());
        // Double-clicking a gap points the timeline at it: its rank's GPU,
        // its span, and what Details says of it.
        QSignalSpy marked(&panel, &StatsPanel::markRequested);
        emit panel.gapTable()->rowActivated(0);
        QCOMPARE(marked.count(), 1);
        const TimeMark mark = marked.first().first().value<TimeMark>();
        QCOMPARE(mark.rankIndex, panel.gaps()[0].rankIndex);
        QCOMPARE(mark.deviceId, panel.gaps()[0].deviceId);
        QCOMPARE(mark.time, panel.gaps()[0].time);
        QVERIFY(!mark.event);
        QCOMPARE(mark.title, QStringLiteral("GPU gap"));
        const auto cpu =
            std::find_if(mark.fields.begin(), mark.fields.end(), [](const auto &f) { return f.first == QLatin1String("CPU meanwhile"); });
        QVERIFY(cpu != mark.fields.end());
        QCOMPARE(cpu->second, gaps->data(gaps->index(0, 5)).toString());
    }

    // A gap's length in median steps of its rank: the demo's data-loading
    // stall, longer than a step, reads 5.30 (not 530 %).
    void gapsAreMeasuredInMedianSteps()
    {
        GapsPanel panel;
        panel.setSession(m_ddp);
        const ResultTableModel *gaps = panel.gapTable()->model();
        QCOMPARE(gaps->headerData(6, Qt::Horizontal).toString(), QStringLiteral("Length (median steps)"));
        QVERIFY(gaps->rowCount() > 0);
        const stats::GpuGapInfo &longest = panel.gaps()[0];
        QVERIFY(longest.medianStep > 0);
        const double steps = double(longest.time.duration()) / double(longest.medianStep);
        QVERIFY(steps > 1.0);
        QVERIFY(std::abs(gaps->data(gaps->index(0, 6), ResultTableModel::SortRole).toDouble() - steps) < 0.005);
    }

    void clickingABarSelectsItsCopies()
    {
        MemcpyPanel panel;
        panel.setSession(m_slow);
        QVERIFY(panel.adviceText().contains(QLatin1String("pin_memory=True")));
        QSignalSpy selected(&panel, &StatsPanel::eventsSelected);
        panel.selectBin(stats::Direction::HtoD, 22); // the 4 MiB bin
        QCOMPARE(selected.count(), 1);
        const auto events = selected.first().first().value<std::vector<EventLocation>>();
        QVERIFY(!events.empty());
        for (const EventLocation &e : events)
            QCOMPARE(m_slow->ranks()[0].report->memcpys[m_slow->track(e).slices.payload(e.event)].bytes, std::uint64_t(4194304));
    }

    void diagnosisListsFindingsAndGoesToInstances()
    {
        DiagnosisPanel panel;
        panel.setSession(m_slow);
        const ResultTableModel *findings = panel.findingsTable()->model();
        QVERIFY(findings->rowCount() >= 2);
        QCOMPARE(findings->data(findings->index(0, 1)).toString(), QStringLiteral("GPU starved by the input pipeline"));
        // Evidence and advice wrap at words, never cut inside one.
        QVERIFY(panel.findingsTable()->view()->wordWrap());
        QCOMPARE(panel.findingsTable()->view()->textElideMode(), Qt::ElideNone);
        // The first finding is shown: its advice and instances.
        QVERIFY(panel.advice().contains(QLatin1String("num_workers")));
        QVERIFY(panel.instancesTable()->model()->rowCount() > 0);
        // Another finding: its own instances.
        int copiesRow = -1;
        for (int r = 0; r < findings->rowCount(); ++r)
            if (findings->data(findings->index(r, 1)).toString().startsWith(QLatin1String("Pageable")))
                copiesRow = r;
        QVERIFY(copiesRow > 0);
        panel.showFinding(copiesRow);
        QVERIFY(panel.advice().contains(QLatin1String("pin_memory")));
        // Double-click: the copy, on its row, selected.
        QSignalSpy marked(&panel, &StatsPanel::markRequested);
        emit panel.instancesTable()->rowActivated(0);
        QCOMPARE(marked.count(), 1);
        const TimeMark mark = marked.first().first().value<TimeMark>();
        QVERIFY(mark.event);
        QCOMPARE(m_slow->track(*mark.event).kind, TrackKind::Memcpy);
        QCOMPARE(mark.time, m_slow->sessionTime(*mark.event));
        QVERIFY(panel.markdown().startsWith(QLatin1String("# Diagnosis")));
        // A starved gap: on the GPU's row, its data_loading range the evidence,
        // covering the gap as the finding says.
        panel.showFinding(0);
        emit panel.instancesTable()->rowActivated(0);
        QCOMPARE(marked.count(), 2);
        const TimeMark gap = marked.last().first().value<TimeMark>();
        QVERIFY(!gap.event);
        QCOMPARE(gap.deviceId, 0);
        QVERIFY(gap.evidence);
        const Report &r = *m_slow->ranks()[0].report;
        QCOMPARE(r.strings.string(m_slow->track(*gap.evidence).slices.name(gap.evidence->event)), QStringLiteral("data_loading"));
        const TimeRange loading = m_slow->sessionTime(*gap.evidence);
        QVERIFY(2 * (std::min(loading.end, gap.time.end) - std::max(loading.start, gap.time.start)) >= gap.time.duration());
    }

    void slowestRankIsMarked()
    {
        RanksPanel panel;
        panel.setSession(m_ddp);
        const ResultTableModel *m = panel.table()->model();
        QCOMPARE(m->rowCount(), 4);
        int marked = 0;
        for (int r = 0; r < m->rowCount(); ++r)
            for (int c = 0; c < m->columnCount(); ++c)
                marked += m->data(m->index(r, c), Qt::BackgroundRole).isValid();
        QVERIFY(marked >= 4);
        // Communication and its hidden share are never shaded: the longest
        // waiter in a collective is the victim of a straggler.
        for (int r = 0; r < m->rowCount(); ++r)
            for (const int c : {5, 7})
                QVERIFY(!m->data(m->index(r, c), Qt::BackgroundRole).isValid());
        // Readable: the duration carries its unit, the header (tooltip and export) the column's name.
        QCOMPARE(m->headerData(5, Qt::Horizontal).toString(), QStringLiteral("Exposed Comm"));
        QCOMPARE(m->headerData(5, Qt::Horizontal, Qt::ToolTipRole).toString(), QStringLiteral("Exposed Comm (ns)"));
        QCOMPARE(m->table().headers[5], QStringLiteral("Exposed Comm (ns)"));
        QCOMPARE(m->data(m->index(0, 1), Qt::ToolTipRole).toString(), formatInteger(m->table().cell(0, 1).integer) + QStringLiteral(" ns"));
        QCOMPARE(m->data(m->index(0, 1)).toString(), formatDuration(m->table().cell(0, 1).integer)); // GPU Span
        QCOMPARE(m->headerData(7, Qt::Horizontal).toString(), QStringLiteral("Comm Hidden (%)"));
        const auto rule = stats::rankComparisonWorseIsHigher();
        QVERIFY(!rule[5] && !rule[7]);
    }

    // HTA's stacked bar per rank beside the table: each rank's span split
    // into compute, exposed communication, exposed memory and idle.
    void eachRanksTimeIsAStackedBar()
    {
        RanksPanel panel;
        panel.setSession(m_ddp);
        const auto &shares = panel.breakdown();
        QCOMPARE(shares.size(), std::size_t(4));
        const std::vector<stats::RankComparisonRow> rows = stats::compareRanks(*m_ddp, {}, stats::KernelClassifier::rankscope(), nullptr);
        for (const stats::RankTimeShares &s : shares) {
            QVERIFY(std::abs(s.compute + s.communication + s.memory + s.idle - 100.0) < 1e-9);
            const auto row = std::find_if(rows.begin(), rows.end(), [&](const auto &r) { return r.rank == s.rank; });
            QVERIFY(row != rows.end());
            QVERIFY(std::abs(s.compute - 100.0 * double(row->computeNs) / double(row->span)) < 1e-9);
            QVERIFY(std::abs(s.idle - 100.0 * double(row->idleNs) / double(row->span)) < 1e-6);
        }
        auto *view = qobject_cast<QChartView *>(panel.breakdownChart());
        QVERIFY(view);
        QCOMPARE(view->chart()->series().size(), 1); // one stacked series of four sets
        QCOMPARE(qobject_cast<QAbstractBarSeries *>(view->chart()->series()[0])->count(), 4);

        // View > Theme changes the application's palette: the chart's frame
        // follows it, its bars keep the colours that name their kinds.
        auto *bars = qobject_cast<QAbstractBarSeries *>(view->chart()->series()[0]);
        QList<QColor> colours;
        for (QBarSet *set : bars->barSets())
            colours << set->color();
        const QPalette before = QApplication::palette();
        const bool wasDark = view->chart()->theme() == QChart::ChartThemeDark;
        QApplication::setPalette(wasDark ? QPalette(QColor(0xee, 0xee, 0xee)) : QPalette(QColor(0x30, 0x30, 0x30)));
        QTRY_COMPARE(view->chart()->theme(), wasDark ? QChart::ChartThemeLight : QChart::ChartThemeDark);
        for (int i = 0; i < colours.size(); ++i)
            QCOMPARE(bars->barSets()[i]->color(), colours[i]);
        QApplication::setPalette(before);
        QTRY_COMPARE(view->chart()->theme(), wasDark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    }

    void stepsByRanksNameTheSlowestRank()
    {
        StepsPanel panel;
        panel.setSession(m_ddp);
        const stats::StepMatrix expected = stats::stepMatrix(*m_ddp);
        QCOMPARE(panel.table()->model()->rowCount(), int(expected.steps.size()));
        QCOMPARE(panel.matrix().steps.size(), std::size_t(8));
        // The note names the rank slowest most often, counted from the matrix.
        std::map<int, int> slowest;
        for (std::size_t k = 0; k < expected.steps.size(); ++k)
            ++slowest[expected.rankIndices[std::size_t(expected.spreadOf(k).slowestColumn)]];
        const auto most = std::max_element(slowest.begin(), slowest.end(), [](auto &a, auto &b) { return a.second < b.second; });
        QVERIFY2(panel.note().contains(
                     QStringLiteral("Rank %1 was the slowest in %2").arg(m_ddp->ranks()[std::size_t(most->first)].rank).arg(most->second)),
                 qPrintable(panel.note()));
        QVERIFY(qobject_cast<QChartView *>(panel.chart()));
        // Its last column is a number: it keeps its width, beside its header.
        QVERIFY(!panel.table()->view()->horizontalHeader()->stretchLastSection());
        // Double-click: the step from its first start to its last end, on the timeline.
        QSignalSpy zoom(&panel, &StatsPanel::zoomRequested);
        emit panel.table()->rowActivated(3);
        QCOMPARE(zoom.size(), 1);
        const TimeRange to = zoom.first().first().value<TimeRange>();
        for (const auto &step : expected.steps[3])
            QVERIFY(step->start >= to.start && step->end <= to.end);
        // The user's ranges; no match says so.
        QVERIFY(!panel.setStepPattern(QStringLiteral("(")));
        QVERIFY(panel.setStepPattern(QStringLiteral("no such range")));
        QCOMPARE(panel.table()->model()->rowCount(), 0);
        QVERIFY(panel.note().contains(QLatin1String("No range matches")));
    }

    void rankHeatmapDrawsEachRanksShareAndZoomsToABin()
    {
        RanksPanel panel;
        panel.resize(900, 600);
        panel.setSession(m_ddp);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        RankHeatmap *heatmap = panel.heatmap();
        const stats::RankTimeMap expected = stats::gpuBusyMap(*m_ddp, stats::gpuActiveRange(*m_ddp), RanksPanel::kHeatmapBins);
        QCOMPARE(heatmap->map().rankIndices, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(heatmap->map().bins, RanksPanel::kHeatmapBins);
        QVERIFY(sameShares(heatmap->map().shares, expected.shares));
        // Every cell is painted in its share's colour: the middle of rank
        // 2's row, bin 100.
        const QRect area = heatmap->cellArea();
        const QPoint cell(area.left() + int((100.5) * area.width() / RanksPanel::kHeatmapBins), area.top() + int(2.5 * area.height() / 4));
        QCOMPARE(heatmap->cellAt(cell), std::make_pair(2, 100));
        const QImage shot = heatmap->grab().toImage();
        QCOMPARE(shot.pixelColor(cell * shot.devicePixelRatio()), heatmap->cellColor(expected.share(2, 100)));
        QCOMPARE(heatmap->scaleTop(), 1.0f); // some bin is busier than half
        // Times count from the session's start, as the ruler's do.
        const TimeNs zero = m_ddp->extent().start;
        QCOMPARE(heatmap->axisTexts().first, formatTimestamp(expected.range.start - zero));
        QCOMPARE(heatmap->axisTexts().second, formatTimestamp(expected.range.end - zero));
        QVERIFY(heatmap->describeCell(2, 100).contains(formatTimestamp(expected.binStart(100) - zero)));
        // A click zooms the timeline to that bin.
        QSignalSpy zoom(&panel, &StatsPanel::zoomRequested);
        QTest::mouseClick(panel.heatmap(), Qt::LeftButton, {}, cell);
        QCOMPARE(zoom.size(), 1);
        const TimeRange to = zoom.first().first().value<TimeRange>();
        QCOMPARE(to.start, expected.binStart(100));
        QCOMPARE(to.end, expected.binStart(101));
        // Waiting in collectives: the same rows, from the matched collectives.
        panel.heatmapMeasure()->setCurrentIndex(1);
        const stats::RankTimeMap waits = stats::collectiveWaitMap(*m_ddp, stats::matchCollectives(*m_ddp, stats::KernelClassifier::rankscope()),
                                                                  stats::gpuActiveRange(*m_ddp), RanksPanel::kHeatmapBins);
        QVERIFY(sameShares(heatmap->map().shares, waits.shares));
        // The scale tops out at the largest share, rounded up to 1, 2 or 5 x 10^k.
        float largest = 0.0f;
        for (const float share : waits.shares)
            largest = std::isnan(share) ? largest : std::max(largest, share);
        QVERIFY(heatmap->scaleTop() >= largest && (largest == 0.0f || heatmap->scaleTop() <= largest * 2.5f || heatmap->scaleTop() == 0.001f));
        // Busy without communication wait: the model's map, rows as before.
        panel.heatmapMeasure()->setCurrentIndex(2);
        const stats::RankTimeMap busyLessWaits = stats::gpuBusyWithoutWaitMap(
            *m_ddp, stats::matchCollectives(*m_ddp, stats::KernelClassifier::rankscope()), stats::gpuActiveRange(*m_ddp), RanksPanel::kHeatmapBins);
        QVERIFY(sameShares(heatmap->map().shares, busyLessWaits.shares));
        panel.heatmapMeasure()->setCurrentIndex(1);
        // A range selection maps that range.
        const TimeRange extent = m_ddp->extent();
        const TimeRange half{extent.start, extent.start + extent.duration() / 2};
        const stats::CollectiveMatch *matched = panel.match();
        QVERIFY(matched);
        panel.setScope({half, std::nullopt});
        QCOMPARE(heatmap->map().range.end, half.end);
        QCOMPARE(panel.match(), matched); // a range filters the waits; the ranks are not matched again
        QVERIFY(panel.setCommunicationPattern(QStringLiteral("gemm")));
        QVERIFY(panel.match() != matched); // other kernels are communication now: matched again
        QVERIFY(panel.setCommunicationPattern(QString()));
    }

    // 64 ranks keep rows a stripe tall: the map asks for the height and
    // scrolls in the panel, instead of squeezing each rank to 2 px.
    void manyRanksKeepAReadableRowHeight()
    {
        stats::RankTimeMap map;
        map.range = {0, 1000};
        map.bins = 10;
        for (int i = 0; i < 64; ++i)
            map.rankIndices.push_back(i);
        map.shares.assign(64 * 10, 0.5f);
        RankHeatmap heatmap;
        QStringList names;
        for (int i = 0; i < 64; ++i)
            names << QStringLiteral("rank %1").arg(i);
        heatmap.setMap(map, names, QStringLiteral("GPU busy"), 0);
        QVERIFY(heatmap.minimumSizeHint().height() >= 64 * 8);
        RanksPanel panel;
        QVERIFY(qobject_cast<QScrollArea *>(panel.heatmap()->parentWidget()->parentWidget())); // the viewport's area
    }

    // The nsys DDP run communicates through Gloo without gloo:* ranges: no
    // empty plot with a meaningless axis, and the note says what is missing.
    void histogramCellsSelectTheirEvents()
    {
        // The Durations panel on the demo's 4 ranks: the grid and the table
        // are one histogram (kernel_duration_histogram's), and a click on a
        // cell selects exactly that cell's kernels, each in its bin.
        HistogramPanel panel;
        panel.setSession(m_ddp);
        const stats::DurationHistogram &h = panel.grid()->histogram();
        QCOMPARE(h.rowCount(), std::size_t(4));
        QVERIFY(h.lastBin > h.firstBin);
        QCOMPARE(panel.table()->model()->table().name, QStringLiteral("kernel_duration_histogram"));
        const ResultTable &table = panel.table()->model()->table();
        QCOMPARE(table.rowCount(), std::size_t(4 * (h.lastBin - h.firstBin + 1)));
        // The fullest cell of rank 2.
        int fullest = h.firstBin;
        for (int bin = h.firstBin; bin <= h.lastBin; ++bin)
            if (h.count(2, bin) > h.count(2, fullest))
                fullest = bin;
        QSignalSpy selected(&panel, &StatsPanel::eventsSelected);
        QSignalSpy zoomed(&panel, &StatsPanel::zoomRequested);
        panel.grid()->resize(800, 300);
        const QRect area = panel.grid()->cellArea();
        const int columns = h.lastBin - h.firstBin + 1;
        const QPoint cell(area.left() + int((fullest - h.firstBin + 0.5) * area.width() / columns), area.top() + int(2.5 * area.height() / 4));
        QCOMPARE(panel.grid()->cellAt(cell), std::pair(2, fullest));
        QTest::mouseClick(panel.grid(), Qt::LeftButton, {}, cell);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(zoomed.count(), 1);
        const auto events = selected[0][0].value<std::vector<EventLocation>>();
        QCOMPARE(events.size(), std::size_t(h.count(2, fullest)));
        for (const EventLocation &e : events) {
            QCOMPARE(e.rank, 2);
            QCOMPARE(stats::DurationHistogram::binOf(m_ddp->sessionTime(e).duration()), fullest);
        }
        // A pattern nothing matches says so, and the grid is empty.
        panel.setChoice({stats::HistogramEvents::Kernels, QStringLiteral("^no such kernel$")});
        QCOMPARE(panel.grid()->histogram().lastBin, -1);
        QVERIFY(panel.table()->model()->table().notes.join(QLatin1Char(' ')).contains(QLatin1String("no such kernel")));
        // Another kind of event: the CUDA API calls.
        panel.setChoice({stats::HistogramEvents::CudaApiCalls, {}});
        QCOMPARE(panel.table()->model()->table().name, QStringLiteral("duration_histogram"));
        QVERIFY(panel.grid()->histogram().lastBin >= 0);
        // A row per thread: each rank's calling threads, and a click selects
        // that thread's calls only.
        panel.setChoice({stats::HistogramEvents::CudaApiCalls, {}, true});
        const stats::DurationHistogram &threads = panel.grid()->histogram();
        QVERIFY(threads.rowCount() >= 4);
        QCOMPARE(panel.table()->model()->table().headers.value(1), QStringLiteral("Thread"));
        std::uint64_t calls = 0;
        for (std::size_t row = 0; row < threads.rowCount(); ++row) {
            QVERIFY(!threads.rows[row].wholeRank && threads.rows[row].device < 0);
            for (int bin = threads.firstBin; bin <= threads.lastBin; ++bin)
                calls += threads.count(row, bin);
        }
        // Each row keeps a line of its own at the grid's smallest: a name
        // beside every row, none drawn across a neighbour's cells.
        panel.grid()->resize(800, panel.grid()->minimumSizeHint().height());
        QVERIFY(double(panel.grid()->cellArea().height()) / double(threads.rowCount()) >= panel.grid()->fontMetrics().height());
        const stats::HistogramLane &lane = threads.rows.back();
        int busiest = threads.firstBin;
        for (int bin = threads.firstBin; bin <= threads.lastBin; ++bin)
            if (threads.count(threads.rowCount() - 1, bin) > threads.count(threads.rowCount() - 1, busiest))
                busiest = bin;
        selected.clear();
        panel.activateCell(int(threads.rowCount()) - 1, busiest);
        QCOMPARE(selected.count(), 1);
        const auto threadCalls = selected[0][0].value<std::vector<EventLocation>>();
        QCOMPARE(threadCalls.size(), std::size_t(threads.count(threads.rowCount() - 1, busiest)));
        for (const EventLocation &e : threadCalls) {
            QCOMPARE(e.rank, lane.rankIndex);
            QCOMPARE(m_ddp->track(e).tid, lane.id);
            QCOMPARE(m_ddp->track(e).kind, TrackKind::CudaApi);
        }
        // The same calls as the rows per rank hold.
        panel.setChoice({stats::HistogramEvents::CudaApiCalls, {}, false});
        std::uint64_t perRank = 0;
        for (std::size_t row = 0; row < panel.grid()->histogram().rowCount(); ++row)
            for (int bin = panel.grid()->histogram().firstBin; bin <= panel.grid()->histogram().lastBin; ++bin)
                perRank += panel.grid()->histogram().count(row, bin);
        QCOMPARE(calls, perRank);
    }

    void overlapRowsSelectTheirKernel()
    {
        // The Collectives panel's overlap table on the real 2-rank export:
        // a row per SendRecv kernel; double-clicking one selects it.
        CollectivesPanel panel;
        const auto session = std::make_shared<const Session>(Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))}));
        panel.setSession(session);
        const ResultTable &table = panel.overlapTable()->model()->table();
        QCOMPARE(table.name, QStringLiteral("nccl_gpu_overlap_trace"));
        QCOMPARE(table.rowCount(), std::size_t(66));
        QSignalSpy selected(&panel, &StatsPanel::eventsSelected);
        emit panel.overlapTable()->rowActivated(5);
        QCOMPARE(selected.count(), 1);
        const auto events = selected[0][0].value<std::vector<EventLocation>>();
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(session->sessionTime(events[0]).start, table.integerAt(5, 2));
    }

    void collectivesWithoutInstancesSayWhy()
    {
        CollectivesPanel panel;
        panel.setSession(m_ddp);
        QVERIFY(panel.findChildren<QChartView *>().isEmpty());
        bool said = false;
        for (const QLabel *label : panel.findChildren<QLabel *>())
            said = said || label->text() == QLatin1String("No collective instances to draw in this range.");
        QVERIFY(said);
        QVERIFY2(panel.notes().contains(QLatin1String("The export has no gloo:* ranges")), qPrintable(panel.notes()));
    }

    void collectivesPanelShadesWhoCausedTheDelay()
    {
        // The real 2-rank nsys export: rank 1 arrived last at 22 of 33
        // SendRecvs and made rank 0 wait 10.9 ms; shaded is rank 1, the
        // cause, not rank 0, which waited most.
        CollectivesPanel panel;
        panel.setSession(std::make_shared<const Session>(Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))})));
        const ResultTableModel *ranks = panel.ranksTable()->model();
        QAbstractItemModelTester tester(const_cast<ResultTableModel *>(ranks));
        QCOMPARE(ranks->rowCount(), 2);
        QCOMPARE(shown(ranks)[0][3], QStringLiteral("Delay Caused"));
        for (int r = 0; r < 2; ++r) {
            const bool culprit = shown(ranks)[r + 1][0] == QLatin1String("1");
            QCOMPARE(ranks->data(ranks->index(r, 0), Qt::BackgroundRole).isValid(), culprit);
        }
        // Shown with the rank that caused the most delay on top, and the
        // instances by skew, largest first, until the user sorts.
        const QAbstractItemModel *view = panel.ranksTable()->view()->model();
        QCOMPARE(view->data(view->index(0, 0)).toString(), QStringLiteral("1"));
        const QAbstractItemModel *instancesView = panel.instancesTable()->view()->model();
        const int skew = int(panel.instancesTable()->model()->table().headers.indexOf(QStringLiteral("Skew (ns)")));
        QVERIFY(skew >= 0);
        for (int r = 1; r < instancesView->rowCount(); ++r)
            QVERIFY(instancesView->data(instancesView->index(r - 1, skew), Qt::ToolTipRole)
                        .toString()
                        .remove(QLatin1Char(','))
                        .split(QLatin1Char(' '))
                        .value(0)
                        .toLongLong()
                    >= instancesView->data(instancesView->index(r, skew), Qt::ToolTipRole)
                           .toString()
                           .remove(QLatin1Char(','))
                           .split(QLatin1Char(' '))
                           .value(0)
                           .toLongLong());
        QCOMPARE(panel.kindsTable()->model()->rowCount(), 1);
        QVERIFY(panel.instancesTable()->model()->rowCount() >= 30);
        QVERIFY(panel.notes().contains(QLatin1String("The trace names no process groups")));
        QVERIFY(panel.notes().contains(QLatin1String("Times as recorded")));
        QVERIFY2(panel.notes().contains(QLatin1String("Ranks 0, 1 are in one export: one clock")), qPrintable(panel.notes()));
        // A range selected: the tables follow it, the match is not made again.
        const stats::CollectiveMatch *whole = panel.match();
        const int instances = panel.instancesTable()->model()->rowCount();
        const TimeRange firstHalf{whole->instances.front().firstArrival, whole->instances[std::size_t(instances / 2)].firstArrival};
        panel.setScope({firstHalf, std::nullopt});
        QCOMPARE(panel.match(), whole);
        QVERIFY(panel.instancesTable()->model()->rowCount() < instances);
        panel.setScope({});
        QCOMPARE(panel.instancesTable()->model()->rowCount(), instances);
        // One host: aligning changes nothing, and says so.
        panel.setAlignOnCollectives(true);
        QVERIFY2(panel.notes().contains(QLatin1String("already agree")), qPrintable(panel.notes()));
        QVERIFY(!panel.notes().contains(QLatin1String("Times as recorded")));
        panel.setAlignOnCollectives(false);
        // Double-clicking an instance goes there and selects both kernels.
        QSignalSpy zoom(&panel, &StatsPanel::zoomRequested);
        QSignalSpy selected(&panel, &StatsPanel::eventsSelected);
        emit panel.instancesTable()->rowActivated(0);
        QCOMPARE(zoom.count(), 1);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).value<std::vector<EventLocation>>().size(), std::size_t(2));

        // The gloo run has no communication kernels: the panel says so.
        panel.setSession(m_ddp);
        QCOMPARE(panel.instancesTable()->model()->rowCount(), 0);
        QVERIFY(panel.notes().contains(QLatin1String("No communication kernels")));
    }

    // The skew chart of 62 s of collectives ends at 62 s, not at 80 s.
    void chartAxesEndAtTheData()
    {
        QValueAxis axis;
        charts::fitAxisToData(&axis, 0.4, 62.0, 0.02);
        QVERIFY(axis.max() < 63.5 && axis.max() >= 62.0);
        QVERIFY(axis.min() <= 0.4 && axis.min() > -1.0);
        QCOMPARE(axis.tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(axis.tickInterval(), 10.0);
        QCOMPARE(axis.tickAnchor(), 0.0);
        // One value: a unit around it, not an empty range.
        charts::fitAxisToData(&axis, 5.0, 5.0, 0.0);
        QVERIFY(axis.min() < 5.0 && axis.max() > 5.0);
    }

    // 64 ranks' shares: every rank's label whole and on its own line (the
    // chart as tall as they need; the panel scrolls), no axis cut to "…".
    void sixtyFourRanksKeepTheirLabels()
    {
        QStringList ranks;
        std::vector<charts::Series> series{{QStringLiteral("compute"), Qt::blue, {}, {}, false}};
        for (int r = 0; r < 64; ++r) {
            ranks << QStringLiteral("rank %1").arg(r);
            series[0].values.push_back(50);
        }
        QWidget host;
        auto *view = qobject_cast<QChartView *>(charts::shareBarChart(QStringLiteral("GPU time per rank (%)"), ranks, series, {}, &host));
        QVERIFY(view);
        QVERIFY(view->minimumHeight() >= 64 * charts::kCategoryHeight);
        host.resize(500, view->minimumHeight());
        view->resize(500, view->minimumHeight());
        for (const QAbstractAxis *axis : view->chart()->axes())
            QVERIFY(!axis->truncateLabels());
        // Drawn, each label's line fits its bar's share of the plot.
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        QVERIFY(view->chart()->plotArea().height() / 64 >= QFontMetrics(view->font()).height());
        const auto *scatter = qobject_cast<QChartView *>(
            charts::scatterChart(QStringLiteral("s"), {}, QStringLiteral("session time (s)"), QStringLiteral("in use (%)"), std::nullopt, &host));
        for (const QAbstractAxis *axis : scatter->chart()->axes())
            QVERIFY(!axis->truncateLabels());
    }

    void communicationKernelsAreNamedAndChangeable()
    {
        RanksPanel panel;
        QSignalSpy changed(&panel, &RanksPanel::communicationPatternChanged);
        panel.setSession(m_ddp);
        QVERIFY(panel.classesDescription().contains(QLatin1String("DeepEP")));
        QVERIFY(panel.classesDescription().contains(QLatin1String("built-in")));
        QVERIFY(!panel.setCommunicationPattern(QStringLiteral("nccl("))); // invalid: refused, nothing changes
        QCOMPARE(changed.count(), 0);
        // The demo's kernels are all compute; call the GEMMs communication
        // and the table follows.
        const ResultTableModel *m = panel.table()->model();
        QCOMPARE(m->data(m->index(0, 5)).toString(), QStringLiteral("0 ns"));
        QVERIFY(panel.setCommunicationPattern(QStringLiteral("(?i)gemm")));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), QStringLiteral("(?i)gemm"));
        QVERIFY(panel.classesDescription().contains(QLatin1String("(?i)gemm")));
        QVERIFY(m->data(m->index(0, 5)).toString() != QStringLiteral("0"));
        QVERIFY(panel.setCommunicationPattern(QString())); // back to the table
        QVERIFY(panel.classesDescription().contains(QLatin1String("built-in")));
    }

    void hiddenPanelsComputeWhenShown()
    {
        StatsDock dock;
        dock.setComputeOnlyWhenShown(true);
        dock.setSession(m_ddp); // the dock is not shown: nothing is computed
        QCOMPARE(dock.ranks()->table()->model()->rowCount(), 0);
        QCOMPARE(dock.memcpy()->sizeTable()->model()->rowCount(), 0);
        dock.resize(1200, 800);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QVERIFY(dock.diagnosis()->findingsTable()->model()->rowCount() > 0); // the current (first) tab
        QCOMPARE(dock.memcpy()->sizeTable()->model()->rowCount(), 0);        // hidden tabs
        QCOMPARE(dock.ranks()->table()->model()->rowCount(), 0);
        dock.showPanel(QStringLiteral("memcpy"));
        QVERIFY(dock.memcpy()->sizeTable()->model()->rowCount() > 0);
        dock.showPanel(QStringLiteral("ranks"));
        QCOMPARE(dock.ranks()->table()->model()->rowCount(), 4);
        // Within Summaries, each summary waits for its own tab.
        dock.showPanel(QStringLiteral("summaries"));
        SummaryPanel *summaries = dock.summaries();
        QVERIFY(summaries->kernels()->model()->rowCount() > 0);
        QCOMPARE(summaries->nvtx()->model()->rowCount(), 0);
        summaries->findChild<QTabWidget *>()->setCurrentWidget(summaries->nvtx());
        QVERIFY(summaries->nvtx()->model()->rowCount() > 0);
        QCOMPARE(summaries->osrt()->model()->rowCount(), 0);
        // Exporting computes the tabs never opened.
        QCOMPARE(dock.gaps()->gapTable()->model()->rowCount(), 0);
        QTemporaryDir dir;
        const QStringList files = dock.exportAll(dir.path());
        QVERIFY(dock.gaps()->gapTable()->model()->rowCount() > 0);
        QVERIFY(summaries->osrt()->model()->rowCount() > 0);
        QVERIFY2(files.contains(dir.filePath(dock.gaps()->gapTable()->model()->table().name + QStringLiteral(".csv"))),
                 qPrintable(files.join(QLatin1Char(' '))));
    }

    // The dock passes its scope on whenever the timeline's selection is
    // reset; the same scope again must not start a second pass over every
    // rank beside the first (over hundreds of ranks, each holds gigabytes).
    void theSameScopeAgainComputesNothing()
    {
        struct CountingPanel : StatsPanel {
            int refreshes = 0;
            void refresh() override { ++refreshes; }
        } panel;
        panel.setSession(m_ddp);
        QCOMPARE(panel.refreshes, 1);
        panel.setScope({});
        QCOMPARE(panel.refreshes, 1);
        const TimeRange firstSecond{0, 1000000000};
        panel.setScope({firstSecond, std::nullopt});
        QCOMPARE(panel.refreshes, 2);
        panel.setScope({firstSecond, std::nullopt});
        QCOMPARE(panel.refreshes, 2);
        panel.setScope({firstSecond, 1});
        QCOMPARE(panel.refreshes, 3);
        panel.setScope({});
        QCOMPARE(panel.refreshes, 4);
    }

    // The throughput chart's size axis reads in binary units, its legend
    // tells pageable from pinned copies by hue and by marker.
    void throughputChartSpeaksInUnits()
    {
        StatsDock dock;
        dock.setSession(m_slow);
        const auto views = dock.memcpy()->findChildren<QChartView *>();
        QChartView *scatter = nullptr;
        for (QChartView *v : views)
            if (v->chart()->title() == QStringLiteral("Size against throughput"))
                scatter = v;
        QVERIFY(scatter);
        auto *x = qobject_cast<QCategoryAxis *>(scatter->chart()->axes(Qt::Horizontal).front());
        QVERIFY(x);
        const QString labels = x->categoriesLabels().join(QLatin1Char('|'));
        QVERIFY2(labels.contains(QLatin1String("KiB")) && labels.contains(QLatin1String("MiB")) && !labels.contains(QLatin1Char('e')),
                 qPrintable(labels));
        QColor pinned, pageable;
        for (QAbstractSeries *s : scatter->chart()->series()) {
            auto *points = qobject_cast<QScatterSeries *>(s);
            if (points->name() == QStringLiteral("HtoD"))
                pinned = points->color();
            if (points->name() == QStringLiteral("HtoD (pageable)")) {
                pageable = points->color();
                QCOMPARE(points->markerShape(), QScatterSeries::MarkerShapeRectangle);
            }
        }
        QVERIFY(pageable.isValid());
        if (pinned.isValid()) // distinct hues, not two shades of one green
            QVERIFY(std::abs(pinned.hslHue() - pageable.hslHue()) >= 25);
    }

    void exportWritesCsvAndPng()
    {
        QTemporaryDir dir;
        StatsDock dock;
        dock.resize(1200, 800);
        dock.setSession(m_slow);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        const QStringList files = dock.memcpy()->exportAll(dir.path()) + dock.gaps()->exportAll(dir.path());
        QVERIFY(files.contains(dir.filePath(QStringLiteral("cuda_gpu_mem_size_sum.csv"))));
        QVERIFY(files.contains(dir.filePath(QStringLiteral("memcpy_sizes.png"))));
        QVERIFY(files.contains(dir.filePath(QStringLiteral("gpu_utilization.png"))));
        // At a readable size, whatever the strip on screen measures.
        QCOMPARE(QImage(dir.filePath(QStringLiteral("memcpy_sizes.png"))).size(), charts::kExportSize);
        QCOMPARE(QImage(dir.filePath(QStringLiteral("memcpy_throughput.png"))).size(), charts::kExportSize);
        QCOMPARE(readText(dir.filePath(QStringLiteral("cuda_gpu_mem_size_sum.csv"))),
                 readText(referenceCsv(QStringLiteral("slow_1gpu"), QStringLiteral("cuda_gpu_mem_size_sum"))).remove(QLatin1Char('\r')));
    }
};

QTEST_MAIN(TestStatsPanels)
#include "tst_statspanels.moc"
