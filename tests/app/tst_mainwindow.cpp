// The application window: opening, details of a clicked copy, search in
// every rank, cancelling a load, screenshots.
#include "badcorpus.h"
#include "detailspanel.h"
#include "diagnosticspanel.h"
#include "nsysfixture.h"
#include "mainwindow.h"
#include "searchbar.h"
#include "sessionloadjob.h"
#include "statsdock.h"
#include "testdata.h"
#include "timelinecanvas.h"
#include "timelineview.h"
#include "zoomstate.h"

#include <QProgressDialog>
#include <QPushButton>
#include <QtTest>

#include <set>

using namespace rankscope;
using namespace rankscope::test;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
        QCursor::setPos(QPoint(-5000, -5000));
    }

    void clickedHtoDCopyShowsItsExactSize()
    {
        MainWindow w;
        w.resize(1400, 850);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({slowFixture()}, true);
        QVERIFY(w.timeline()->session());
        TimelineCanvas *canvas = w.timeline()->canvas();
        const TimeNs start = 7724753678, duration = 357832; // from cuda_gpu_trace.csv
        w.timeline()->zoom()->show({start - 100000, start + duration + 100000});
        int row = -1;
        for (int r : canvas->rows().shownRows())
            if (canvas->rows().rows()[std::size_t(r)].label == QLatin1String("Stream 7"))
                row = r;
        QVERIFY(row >= 0);
        const QPoint pixel(canvas->labelWidth() + int(canvas->scale().x(start + duration / 2)),
                           canvas->rowRect(row).top() + 2 + TimelineRows::kLaneHeight / 2);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, pixel);
        const QString details = w.details()->plainText();
        QVERIFY2(details.contains(QLatin1String("4,194,304 B (4.00 MiB)")), qPrintable(details));
        QVERIFY(details.contains(QLatin1String("HtoD")));
        QVERIFY(details.contains(QLatin1String("Pageable")));
        QVERIFY(details.contains(QLatin1String("cudaMemcpyAsync_v3020"))); // launched by
        QVERIFY(details.contains(QLatin1String("GB/s")));
    }

    void searchFindsAKernelInEveryRank()
    {
        MainWindow w;
        w.show();
        w.open({demoPath()}, true);
        QCOMPARE(w.timeline()->session()->ranks().size(), std::size_t(4));
        SearchBar *search = w.searchBar();
        search->setQuery(QStringLiteral("max_pool_backward_nchw"));
        search->next();
        QCOMPARE(search->matches().size(), std::size_t(4 * 8)); // 8 per rank
        std::set<int> ranks;
        for (const EventLocation &e : search->matches())
            ranks.insert(w.timeline()->session()->ranks()[std::size_t(e.rank)].rank);
        QCOMPARE(ranks, (std::set<int>{0, 1, 2, 3}));
        // Enter selects the first match and brings it into view.
        const auto selected = w.timeline()->canvas()->selectedEvent();
        QVERIFY(selected);
        QCOMPARE(*selected, search->matches().front());
        const TimeRange when = w.timeline()->session()->sessionTime(*selected);
        QVERIFY(w.timeline()->zoom()->visible().start <= when.start && when.end <= w.timeline()->zoom()->visible().end);
        search->next();
        QCOMPARE(search->current(), 1);
        search->previous();
        search->previous();
        QCOMPARE(search->current(), int(search->matches().size()) - 1);
    }

    void cancellingALoadKeepsTheSessionOnScreen()
    {
        QTemporaryDir dir;
        const QString big = dir.filePath(QStringLiteral("big.sqlite"));
        {
            NsysFixture f(big);
            f.fillWithCalls(300000);
        }
        MainWindow w;
        w.open({slowFixture()}, true);
        const auto before = w.timeline()->session();
        QVERIFY(before);
        QSignalSpy cancelled(w.loadJob(), &SessionLoadJob::cancelled);
        QSignalSpy loaded(w.loadJob(), &SessionLoadJob::loaded);
        w.open({big});
        // The user presses Cancel in the progress dialog.
        auto *progress = w.findChild<QProgressDialog *>();
        QVERIFY(progress);
        auto *cancelButton = progress->findChild<QPushButton *>();
        QVERIFY(cancelButton);
        cancelButton->click();
        QTRY_COMPARE(cancelled.count(), 1);
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(w.timeline()->session(), before); // untouched
        QCOMPARE(w.timeline()->session()->ranks().size(), std::size_t(1));
    }

    // Each bad input opened beside a good file: the good one opens, the bad
    // one is listed in the Diagnostics dock with its reason.
    void badCorpusOpensBesideAGoodFile()
    {
        QTemporaryDir dir;
        const auto corpus = buildBadCorpus(dir.path(), badInputsDir(), slowFixture(),
                                           dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz")));
        QVERIFY(!corpus.empty());
        MainWindow w;
        for (const BadInput &input : corpus) {
            w.open({ddpFixture(0), input.path}, true);
            const auto session = w.timeline()->session();
            QVERIFY2(session, qPrintable(input.name()));
            QCOMPARE(session->ranks().size() + session->failures().size(), std::size_t(2));
            QVERIFY2(session->ranks().size() >= 1, qPrintable(input.name()));
            if (input.outcome == BadInput::Outcome::Error) {
                QCOMPARE(session->failures().size(), std::size_t(1));
                const auto rows = w.diagnostics()->findItems(input.name(), Qt::MatchExactly, 0);
                QVERIFY2(rows.size() == 1, qPrintable(input.name()));
                QVERIFY(rows[0]->text(2).contains(session->failures()[0].error));
            }
        }
    }

    void rangeSelectionReachesThePanels()
    {
        MainWindow w;
        w.open({slowFixture()}, true);
        QVERIFY(w.showStatsPanel(QStringLiteral("summaries")));
        const TimeRange range{7600000000, 7800000000};
        w.timeline()->zoom()->setSelection(range);
        QTRY_VERIFY(w.stats()->scope().range.has_value()); // after the selection settles
        QCOMPARE(w.stats()->scope().range->start, range.start);
        w.timeline()->zoom()->setSelection(std::nullopt);
        QTRY_VERIFY(!w.stats()->scope().range.has_value());
    }

    void badFileIsReportedAndTheOthersOpen()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.sqlite"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("garbage");
        f.close();
        MainWindow w;
        w.open({bad, slowFixture()}, true);
        QCOMPARE(w.timeline()->session()->ranks().size(), std::size_t(1));
        QCOMPARE(w.timeline()->session()->failures().size(), std::size_t(1));
    }

    void screenshotWritesAPng()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("shot.png"));
        QProcess p;
        p.start(QStringLiteral(RANKSCOPE_GUI), {QStringLiteral("--screenshot"), out, QStringLiteral("--size"), QStringLiteral("1000x700"),
                                                 QStringLiteral("--range"), QStringLiteral("7.6s:7.8s"), slowFixture()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QImage image(out);
        QCOMPARE(image.size(), QSize(1000, 700));
        p.start(QStringLiteral(RANKSCOPE_GUI), {QStringLiteral("--screenshot"), out, QStringLiteral("--range"), QStringLiteral("nonsense"), slowFixture()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        // With a statistics panel shown.
        const QString panel = dir.filePath(QStringLiteral("gaps.png"));
        p.start(QStringLiteral(RANKSCOPE_GUI), {QStringLiteral("--screenshot"), panel, QStringLiteral("--panel"), QStringLiteral("gaps"), slowFixture()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(!QImage(panel).isNull());
        p.start(QStringLiteral(RANKSCOPE_GUI), {QStringLiteral("--screenshot"), panel, QStringLiteral("--panel"), QStringLiteral("nope"), slowFixture()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
