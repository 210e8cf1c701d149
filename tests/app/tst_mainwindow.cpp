// The application window: opening, details of a clicked copy, search in
// every rank, cancelling a load, screenshots.
#include "badcorpus.h"
#include "details/detailspanel.h"
#include "details/diagnosticspanel.h"
#include "events/eventspanel.h"
#include "events/selectionpanel.h"
#include "mainwindow.h"
#include "nsysfixture.h"
#include "palettes.h"
#include "panels/comparepanel.h"
#include "panels/diagnosispanel.h"
#include "panels/rankspanel.h"
#include "panels/resulttablemodel.h"
#include "panels/statsdock.h"
#include "panels/tablebox.h"
#include "recentfiles.h"
#include "session/residentbudget.h"
#include "sessioncontroller.h"
#include "sessionloadjob.h"
#include "stats/comparison/runalignment.h"
#include "stats/selectionsummary.h"
#include "testdata.h"
#include "timeline/searchbar.h"
#include "timeline/timelineactions.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineview.h"
#include "timeline/timeruler.h"
#include "timeline/zoomstate.h"

#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QThreadPool>
#include <QXmlStreamReader>
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
        // Opened from its index cache (an earlier run wrote one), the row is
        // built on a worker and drawn hatched until then: wait for it, as a user does.
        QTRY_VERIFY(canvas->eventAt(pixel).has_value());
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, pixel);
        const QString details = w.details()->plainText();
        QVERIFY2(details.contains(QLatin1String("4,194,304 B (4.00 MiB)")), qPrintable(details));
        QVERIFY(details.contains(QLatin1String("HtoD")));
        QVERIFY(details.contains(QLatin1String("Pageable")));
        QVERIFY(details.contains(QLatin1String("cudaMemcpyAsync_v3020"))); // launched by
        QVERIFY(details.contains(QLatin1String("GB/s")));

        // The Events dock lists the clicked row: Stream 7's 691 GPU ops
        // (cuda_gpu_trace.csv rows with Strm 7), the clicked copy marked.
        const EventsTableModel *events = w.events()->model();
        QCOMPARE(events->rowCount(), 691);
        QVERIFY(w.events()->rowName().endsWith(QLatin1String("Stream 7")));
        const QModelIndex marked = w.events()->table()->currentIndex();
        QVERIFY(marked.isValid());
        QCOMPARE(events->eventAt(marked.row()), *canvas->selectedEvent());
        // Sorted by size, largest first: a 4 MiB copy; choosing it selects it.
        const auto columns = events->columns();
        const int size = int(std::find(columns.begin(), columns.end(), EventsTableModel::Column::Size) - columns.begin());
        QVERIFY(size < int(columns.size()));
        w.events()->table()->sortByColumn(size, Qt::DescendingOrder);
        QCOMPARE(events->data(events->index(0, size), Qt::DisplayRole).toString(), QStringLiteral("4.00 MiB"));
        w.events()->table()->selectRow(1);
        QCOMPARE(*canvas->selectedEvent(), events->eventAt(1));
        // A range keeps the events inside it.
        w.timeline()->zoom()->setSelection(TimeRange{start - 1000, start + duration + 1000});
        QCOMPARE(events->rowCount(), 1);

        // Details' "launched by" link, clicked (the browser takes the focus):
        // the call is selected and the timeline has the keys at once.
        w.timeline()->zoom()->setSelection(std::nullopt);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, pixel);
        auto *browser = w.details()->findChild<QTextBrowser *>();
        QVERIFY(browser);
        const QRegularExpressionMatch link = QRegularExpression(QStringLiteral("href=\"(event:[0-9:]+)\"")).match(browser->toHtml());
        QVERIFY2(link.hasMatch(), qPrintable(browser->toHtml()));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        browser->setFocus(Qt::MouseFocusReason);
        QTRY_VERIFY(browser->hasFocus());
        emit browser->anchorClicked(QUrl(link.captured(1)));
        QVERIFY(w.details()->plainText().contains(QLatin1String("cudaMemcpyAsync")));
        QTRY_VERIFY(canvas->hasFocus());
        const TimeNs before = w.timeline()->zoom()->visible().duration();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Plus);
        QVERIFY2(w.timeline()->zoom()->visible().duration() < before, "+ zooms in after a link");
    }

    void searchFindsAKernelInEveryRank()
    {
        MainWindow w;
        w.show();
        w.open({demoPath()}, true);
        QCOMPARE(w.timeline()->session()->ranks().size(), std::size_t(4));
        SearchBar *search = w.searchBar();
        search->setQuery(QStringLiteral("max_pool_backward_nchw"));
        search->next(); // searches off the GUI thread; the first match is selected when found
        QTRY_VERIFY(!search->isSearching());
        QCOMPARE(search->matches().size(), std::size_t(4 * 8)); // 8 per rank
        QCOMPARE(search->current(), 0);
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

    // Ctrl+F, a name, Enter, Esc: the timeline has the keyboard again, so +
    // zooms instead of typing into the field; a second Esc clears the selection.
    void escapeFromSearchGivesTheTimelineTheKeys()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.open({demoPath()}, true);
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QLineEdit *field = w.searchBar()->findChild<QLineEdit *>();
        QTRY_VERIFY(field->hasFocus());
        QTest::keyClicks(field, QStringLiteral("max_pool_backward_nchw"));
        QTest::keyClick(field, Qt::Key_Return);
        QTRY_VERIFY(!w.searchBar()->isSearching());
        QVERIFY(w.timeline()->canvas()->selectedEvent());
        QTest::keyClick(field, Qt::Key_Escape);
        QTRY_VERIFY(w.timeline()->canvas()->hasFocus());
        const TimeNs before = w.timeline()->zoom()->visible().duration();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Plus);
        QVERIFY2(w.timeline()->zoom()->visible().duration() < before, "+ zooms in");
        QCOMPARE(field->text(), QStringLiteral("max_pool_backward_nchw"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QVERIFY(!w.timeline()->canvas()->selectedEvent());
    }

    // The Statistics dock opens under half the window, the timeline keeping
    // the rows the panel is about.
    void statisticsOpenUnderHalfTheWindow()
    {
        MainWindow w;
        w.resize(1400, 850);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({demoPath()}, true);
        for (const QString &panel : {QStringLiteral("gaps"), QStringLiteral("diagnosis"), QStringLiteral("ranks")}) {
            QVERIFY(w.showStatsPanel(panel));
            QApplication::processEvents();
            const auto *dock = w.findChild<QDockWidget *>(QStringLiteral("statisticsDock"));
            QVERIFY2(dock->height() <= w.height() / 2, qPrintable(QStringLiteral("%1: %2 of %3 px, at least %4")
                                                                      .arg(panel)
                                                                      .arg(dock->height())
                                                                      .arg(w.height())
                                                                      .arg(dock->minimumSizeHint().height())));
        }
    }

    // With the default docks (Details, then Statistics from the View menu
    // on every panel) the timeline keeps half the window at 1280 x 720, and
    // the window goes down to 900 x 560; closing Statistics gives its room
    // back to the timeline, not to the Events tab beside it.
    void timelineKeepsHalfTheWindow()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({demoPath()}, true);
        auto *stats = w.findChild<QDockWidget *>(QStringLiteral("statisticsDock"));
        auto *events = w.findChild<QDockWidget *>(QStringLiteral("eventsDock"));
        if (events->isHidden())
            events->toggleViewAction()->trigger();
        if (stats->isHidden())
            stats->toggleViewAction()->trigger();
        QVERIFY(!events->isHidden() && !stats->isHidden());
        const auto half = [&] { return w.timeline()->height() >= w.height() / 2 - 1; };
        QTRY_VERIFY2(half(), qPrintable(QStringLiteral("timeline %1 of %2").arg(w.timeline()->height()).arg(w.height())));
        for (const QString &panel : StatsDock::panelNames()) {
            QVERIFY(w.showStatsPanel(panel));
            QApplication::processEvents();
            QVERIFY2(half(), qPrintable(QStringLiteral("%1: timeline %2 of %3").arg(panel).arg(w.timeline()->height()).arg(w.height())));
        }
        // Closed, Statistics gives its room to the timeline: Events, beside
        // it, keeps a third of the window at most.
        const int withStatistics = w.timeline()->height();
        stats->toggleViewAction()->trigger();
        QVERIFY(!events->isHidden());
        QTRY_VERIFY2(
            w.timeline()->height() > withStatistics && events->height() <= w.height() / 3,
            qPrintable(QStringLiteral("timeline %1, was %2, events %3").arg(w.timeline()->height()).arg(withStatistics).arg(events->height())));
        // At 900 x 560, Statistics open again.
        stats->toggleViewAction()->trigger();
        const QSize least = w.minimumSizeHint();
        QVERIFY2(least.width() <= 900 && least.height() <= 560, qPrintable(QStringLiteral("%1 x %2").arg(least.width()).arg(least.height())));
        w.resize(900, 560);
        QTRY_COMPARE(w.size(), QSize(900, 560));
        QTRY_VERIFY2(half(), qPrintable(QStringLiteral("timeline %1 of %2").arg(w.timeline()->height()).arg(w.height())));
    }

    // A Diagnosis instance, double-clicked: the gap outlined on the GPU's
    // row, and the data_loading range that explains it in view below it.
    void diagnosisJumpShowsTheGapAndItsEvidence()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({slowFixture()}, true);
        QVERIFY(w.showStatsPanel(QStringLiteral("diagnosis")));
        DiagnosisPanel *diagnosis = w.stats()->diagnosis();
        QTRY_VERIFY(diagnosis->instancesTable()->model()->rowCount() > 0);
        TimelineCanvas *canvas = w.timeline()->canvas();
        canvas->verticalScrollBar()->setValue(canvas->verticalScrollBar()->maximum()); // far from both rows
        emit diagnosis->instancesTable()->rowActivated(0);
        const int markRow = canvas->markRow();
        QVERIFY(markRow >= 0);
        QVERIFY2(canvas->rows().rows()[std::size_t(markRow)].onGpu, qPrintable(canvas->rows().rows()[std::size_t(markRow)].label));
        const auto inView = [&](int row) {
            const QRect r = canvas->rowRect(row);
            return !r.isNull() && r.top() >= 0 && r.bottom() <= canvas->viewport()->height();
        };
        QVERIFY(inView(markRow));
        int nvtx = -1;
        for (int r : canvas->rows().shownRows())
            if (canvas->rows().rows()[std::size_t(r)].label.endsWith(QLatin1String("NVTX")) && !canvas->rows().rows()[std::size_t(r)].onGpu)
                nvtx = r;
        QVERIFY(nvtx >= 0);
        QVERIFY(inView(nvtx));
    }

    // View > Statistics (Ctrl+Shift+S) shows the panels in front of the
    // tabs they share, not behind the Selection tab.
    void docksShownFromTheViewMenuComeForward()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({demoPath()}, true);
        auto *stats = w.findChild<QDockWidget *>(QStringLiteral("statisticsDock"));
        auto *selection = w.findChild<QDockWidget *>(QStringLiteral("selectionDock"));
        stats->hide();
        selection->show();
        selection->raise();
        QApplication::processEvents();
        stats->toggleViewAction()->trigger();
        QApplication::processEvents();
        QVERIFY(w.tabifiedDockWidgets(stats).contains(selection)); // one area, as they open
        // The tab in front of the dock area: a tabbed dock behind it keeps isVisible().
        QString front;
        for (const QTabBar *bar : w.findChildren<QTabBar *>())
            if (bar->parent() == &w && bar->isVisible())
                front += bar->tabText(bar->currentIndex());
        QCOMPARE(front, QStringLiteral("Statistics"));
    }

    // A click on a row lists its events, opening the Events dock the first
    // time; closed by the user, the dock stays closed on the next clicks.
    void closedEventsDockStaysClosed()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({demoPath()}, true);
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("eventsDock"));
        TimelineCanvas *canvas = w.timeline()->canvas();
        const std::vector<int> &shown = canvas->rows().shownRows();
        const auto slices = std::find_if(shown.begin(), shown.end(),
                                         [&](int row) { return canvas->rows().rows()[std::size_t(row)].kind == TimelineRow::Kind::Slices; });
        QVERIFY(slices != shown.end());
        emit canvas->rowChosen(*slices);
        QVERIFY(!dock->isHidden());
        dock->close();
        QVERIFY(dock->isHidden());
        emit canvas->rowChosen(*slices);
        QVERIFY(dock->isHidden());
        dock->toggleViewAction()->trigger(); // View > Events: the user wants it again
        QVERIFY(!dock->isHidden());
        dock->hide();
        emit canvas->rowChosen(*slices);
        QVERIFY(dock->isHidden());
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

    // Caches new to this user (a team's shared folder): the window shows
    // the ranks from their summaries first, statistics and search waiting,
    // then the whole session in their place, the view kept.
    void uncheckedCachesShowSummariesFirstThenTheWholeSession()
    {
        QTemporaryDir caches, mine, someoneElse;
        qputenv("RANKSCOPE_INDEX_CACHE", QFile::encodeName(caches.path()));
        qputenv("RANKSCOPE_CHECKED_CACHES", QFile::encodeName(mine.path()));
        const auto restore = qScopeGuard([] {
            qputenv("RANKSCOPE_INDEX_CACHE", "off");
            qputenv("RANKSCOPE_CHECKED_CACHES", "off");
        });
        const QStringList files{ddpFixture(0), ddpFixture(1), ddpFixture(2), ddpFixture(3)};
        {
            MainWindow writer;
            writer.open(files, true); // parses, writes the caches
            QVERIFY(writer.timeline()->session() && !writer.timeline()->session()->hasSummariesOnlyRanks());
        }
        qputenv("RANKSCOPE_CHECKED_CACHES", QFile::encodeName(someoneElse.path()));
        MainWindow w;
        w.resize(1400, 850);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *search = w.findChild<SearchBar *>();
        QVERIFY(search);
        QSignalSpy whole(w.loadJob(), &SessionLoadJob::wholeLoaded);
        bool firstWasSummaries = false, searchWaited = false;
        TimeRange chosen{};
        // Runs after the window's own handler: the user zooms in on the first frame.
        connect(w.loadJob(), &SessionLoadJob::loaded, &w, [&](std::shared_ptr<const Session> first) {
            firstWasSummaries = first->hasSummariesOnlyRanks() && w.timeline()->session() == first;
            searchWaited = !search->isEnabled();
            const TimeRange all = first->extent();
            chosen = {all.start + all.duration() / 3, all.start + all.duration() / 2};
            w.timeline()->zoom()->show(chosen);
        });
        w.open(files);
        QTRY_COMPARE_WITH_TIMEOUT(whole.count(), 1, 30000);
        QVERIFY(firstWasSummaries);
        QVERIFY(searchWaited);
        const auto shown = w.timeline()->session();
        QVERIFY(shown && !shown->hasSummariesOnlyRanks());
        QCOMPARE(shown->ranks().size(), std::size_t(4));
        QVERIFY(shown->failures().empty());
        QVERIFY(search->isEnabled());
        QCOMPARE(w.timeline()->zoom()->visible().start, chosen.start);
        QCOMPARE(w.timeline()->zoom()->visible().end, chosen.end);
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("events")));
    }

    // Each bad input opened beside a good file: the good one opens, the bad
    // one is listed in the Diagnostics dock with its reason.
    void badCorpusOpensBesideAGoodFile()
    {
        QTemporaryDir dir;
        const auto corpus =
            buildBadCorpus(dir.path(), badInputsDir(), slowFixture(), dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz")));
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

    void onlyBadFilesSayWhatFailed()
    {
        QTemporaryDir dir;
        const QString bad = writeFile(dir, QStringLiteral("bad.sqlite"), "garbage");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.timeline()->ruler()->isHidden()); // no session: no time to show
        w.open({bad}, true);
        QVERIFY(!w.timeline()->session());
        const QString message = w.timeline()->canvas()->emptyMessage();
        QVERIFY2(message.contains(QLatin1String("bad.sqlite: ")), qPrintable(message));
        QVERIFY(w.timeline()->ruler()->isHidden());
        w.open({slowFixture()}, true);
        QVERIFY(w.timeline()->ruler()->isVisible());
    }

    void recentFoldersHaveNames()
    {
        QTemporaryDir dir;
        RecentFiles::clear();
        RecentFiles::add({dir.path() + QLatin1Char('/')});
        const QList<RecentSet> sets = RecentFiles::load();
        QCOMPARE(sets.size(), 1);
        QCOMPARE(sets[0].runA.value(0), QDir::cleanPath(dir.path()));
        QVERIFY(sets[0].runB.isEmpty());
        QVERIFY(!QFileInfo(sets[0].runA.value(0)).fileName().isEmpty());
        RecentFiles::clear();
    }

    void collapsedRanksCanLeaveOutTheirWaits()
    {
        // The real 2-rank export: one rank waited 2.477 ms in all, the other
        // 10.898 ms (the Collectives panel's figures).
        MainWindow w;
        w.open({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))}, true);
        QAction *action = nullptr;
        for (QAction *a : w.findChildren<QAction *>())
            if (a->text() == QLatin1String("Collapsed Ranks Without &Communication Wait"))
                action = a;
        QVERIFY(action);
        QList<QAction *> inMenus; // offered in View
        for (QMenu *menu : w.menuBar()->findChildren<QMenu *>())
            inMenus += menu->actions();
        QVERIFY(inMenus.contains(action));
        QVERIFY(w.timeline()->canvas()->communicationWaits().empty());
        action->setChecked(true); // matched on a worker, then drawn
        QTRY_COMPARE_WITH_TIMEOUT(w.timeline()->canvas()->communicationWaits().size(), std::size_t(2), 20000);
        std::set<TimeNs> totals;
        for (const auto &rank : w.timeline()->canvas()->communicationWaits()) {
            TimeNs total = 0;
            for (const stats::Interval &wait : rank)
                total += wait.second - wait.first;
            totals.insert(total);
        }
        QCOMPARE(totals, (std::set<TimeNs>{2477480, 10898336})); // rank_wait's Waited (ns) of each rank
        action->setChecked(false);
        QVERIFY(w.timeline()->canvas()->communicationWaits().empty());
    }

    // A path with a line break is one recent path, shown with the break
    // escaped; a settings file edited by hand cannot make the labels cover
    // the timeline.
    void hostileSettingsAreReadBackSafely()
    {
        RecentFiles::clear();
        QTemporaryDir dir;
        const QString odd = dir.filePath(QStringLiteral("run\nevil\\n.sqlite"));
        RecentFiles::add({odd});
        const QList<RecentSet> sets = RecentFiles::load();
        QCOMPARE(sets.size(), 1);
        QCOMPARE(sets[0].runA, QStringList{odd});
        QCOMPARE(RecentFiles::label(sets[0]), QStringLiteral("run\\x0Aevil\\n.sqlite"));
        RecentFiles::clear();

        QSettings().setValue(QStringLiteral("timeline/labelWidth"), 2147483647);
        QSettings().setValue(QStringLiteral("memory/rankDetailBudgetMiB"), QStringLiteral("18446744073709551615"));
        MainWindow w;
        w.resize(1280, 720);
        w.open({slowFixture()}, true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TimelineCanvas *canvas = w.timeline()->canvas();
        QVERIFY2(canvas->labelWidth() <= canvas->viewport()->width() / 2, qPrintable(QString::number(canvas->labelWidth())));
        QVERIFY(ResidentBudget::process().bytes() <= 2 * ResidentBudget::defaultBytes());
        w.close();
        QSettings().clear();
        ResidentBudget::process().setBytes(ResidentBudget::defaultBytes());
    }

    void theRecentMenuFillsAfterTheFirstOpen()
    {
        RecentFiles::clear();
        MainWindow w;
        QMenu *recent = nullptr;
        for (QMenu *menu : w.menuBar()->findChildren<QMenu *>())
            if (menu->title() == QLatin1String("Open &Recent"))
                recent = menu;
        QVERIFY(recent);
        QVERIFY(!recent->isEnabled()); // nothing opened yet
        w.open({slowFixture()}, true);
        QVERIFY(recent->isEnabled());
        QCOMPARE(recent->actions().value(0)->text(), QStringLiteral("slow_1gpu.sqlite"));
        RecentFiles::clear();
    }

    void aRecentComparisonReopensAsAComparison()
    {
        RecentFiles::clear();
        const QString slow = dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"));
        const QString fast = dataPath(QStringLiteral("kineto/fast_rank0.pt.trace.json.gz"));
        {
            MainWindow w;
            w.open({slow}, true);
            w.compareWith({fast}, true);
        }
        const QList<RecentSet> sets = RecentFiles::load();
        QCOMPARE(sets.size(), 2); // the comparison, newest, and run A alone
        QCOMPARE(sets[0], (RecentSet{{QFileInfo(slow).absoluteFilePath()}, {QFileInfo(fast).absoluteFilePath()}}));
        QCOMPARE(sets[1].runB, QStringList{});
        QCOMPARE(RecentFiles::label(sets[0]), QStringLiteral("slow_rank0.pt.trace.json.gz vs fast_rank0.pt.trace.json.gz"));
        MainWindow again;
        QMenu *recent = nullptr;
        for (QMenu *menu : again.menuBar()->findChildren<QMenu *>())
            if (menu->title() == QLatin1String("Open &Recent"))
                recent = menu;
        QVERIFY(recent);
        QCOMPARE(recent->actions().value(0)->text(), RecentFiles::label(sets[0]));
        recent->actions()[0]->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(again.timeline()->session() && again.timeline()->session()->isComparison(), 30000);
        RecentFiles::clear();
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

    void exportWritesTimelinePngAndSvg()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.resize(1200, 700);
        w.show(); // laid out as the user sees it
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({slowFixture()}, true);
        const QString png = dir.filePath(QStringLiteral("t.png")), svg = dir.filePath(QStringLiteral("t.svg"));
        QVERIFY(w.exportTimelineTo(png));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), w.timeline()->canvas()->viewport()->width());
        QVERIFY(w.exportTimelineTo(svg));
        const QByteArray text = readText(svg).toUtf8();
        QXmlStreamReader xml(text);
        int rects = 0, texts = 0;
        QStringList words;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                rects += xml.name() == QLatin1String("rect");
                if (xml.name() == QLatin1String("text")) {
                    ++texts;
                    words << xml.readElementText();
                }
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY2(rects > 50 && texts > 10, qPrintable(QStringLiteral("%1 rects, %2 texts").arg(rects).arg(texts)));
        // The row names and the ruler are there as text, not pixels.
        QVERIFY2(words.join(QLatin1Char('|')).contains(QLatin1String("CUDA HW")), qPrintable(words.join(QLatin1Char('|'))));
        QVERIFY(words.join(QLatin1Char('|')).contains(QLatin1String("Span ")));

        // Every row, not only those in the window: as tall as the rows are.
        TimelineCanvas *canvas = w.timeline()->canvas();
        canvas->rows().setAllCollapsed(false);
        canvas->rowsChanged();
        w.resize(1200, 420);
        QTRY_VERIFY(canvas->rows().totalHeight() > canvas->viewport()->height());
        const QString all = dir.filePath(QStringLiteral("all.png"));
        QVERIFY(w.exportTimelineTo(all, TimelineView::ExportScope::AllRows));
        QCOMPARE(QImage(all).height(), w.timeline()->ruler()->height() + canvas->rows().totalHeight());
        // The whole session while zoomed in: the ruler starts at 0 s again,
        // and the window's view is as it was.
        const TimeRange session = w.timeline()->session()->extent();
        const TimeRange zoomed{session.start + session.duration() / 2, session.start + session.duration() / 2 + 1000000};
        w.timeline()->zoom()->show(zoomed);
        const QString whole = dir.filePath(QStringLiteral("whole.svg"));
        QVERIFY(w.exportTimelineTo(whole, TimelineView::ExportScope::WholeSession));
        QVERIFY2(readText(whole).contains(QLatin1String(">0 s<")), "the whole session's ruler starts at 0 s");
        QCOMPARE(w.timeline()->zoom()->visible().start, zoomed.start);
        QCOMPARE(w.timeline()->zoom()->visible().end, zoomed.end);
        QCOMPARE(canvas->frameHeight(), canvas->viewport()->height());
    }

    void exportWritesEveryStatisticsTable()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.open({slowFixture()}, true);
        const QStringList written = w.exportStatistics(dir.path());
        QCOMPARE(written.size(),
                 38); // 12 nsys reports and rules and cuda_lib_sum; cuda_api_trace, cuda_api_gpu_sum, cuda_gpu_kern_gb_sum, cuda_gpu_sum,
                      // cuda_gpu_trace, cuda_kern_exec_sum, cuda_kern_exec_trace, nvtx_pushpop_sum, nvtx_pushpop_trace, nvtx_gpu_proj_trace,
                      // nvtx_gpu_proj_sum and nvtx_kern_sum (run when named, written as they have rows; no start/end ranges or MPI here)
                      // and 2 CPU sampling tables for the file; rank_summary, rank_comparison, collectives, rank_wait, rank_time_map,
                      // cpu_sampling_ranks, critical_path, critical_path_summary, nccl_gpu_overlap_trace, kernel_duration_histogram and
                      // pipeline_bubbles for the session
        for (const QString &report : {QStringLiteral("cuda_gpu_kern_sum"), QStringLiteral("cuda_gpu_mem_size_sum"), QStringLiteral("gpu_gaps"),
                                      QStringLiteral("cuda_api_sync"), QStringLiteral("cuda_memcpy_async")}) {
            QString expected = readText(referenceCsv(QStringLiteral("slow_1gpu"), report));
            expected.remove(QLatin1Char('\r'));
            QCOMPARE(readText(dir.filePath(QStringLiteral("slow_1gpu_%1.csv").arg(report))), expected);
        }
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("rank_summary.csv"))));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("critical_path_summary.csv"))));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("rank_comparison.csv"))));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("rank_wait.csv"))));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("kernel_duration_histogram.csv"))));
    }

    void selectingACollectiveShowsItOnEveryRank()
    {
        // The real 2-rank export: a SendRecv kernel on rank 0's NCCL lane.
        MainWindow w;
        w.open({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))}, true);
        const Session &session = *w.timeline()->canvas()->session();
        QCOMPARE(session.ranks().size(), std::size_t(2));
        std::optional<EventLocation> nccl;
        for (std::uint32_t t = 0; t < session.ranks()[0].report->tracks.size() && !nccl; ++t)
            if (session.ranks()[0].report->tracks[t].kind == TrackKind::NcclKernels
                && Session::ownsTrack(session.ranks()[0], session.ranks()[0].report->tracks[t]))
                nccl = EventLocation{0, t, 0};
        QVERIFY(nccl);
        w.timeline()->canvas()->selectEvent(nccl, true);
        // Matched on a worker: the window shows the kernel at once, its
        // collective when the match arrives.
        QTRY_VERIFY(w.timeline()->canvas()->collectiveOverlay().has_value());
        const QString details = w.details()->plainText();
        QVERIFY2(details.contains(QLatin1String("Collective: SendRecv #0 on stream #0")), qPrintable(details));
        QVERIFY(details.contains(QLatin1String("(last)")));
        const auto &overlay = w.timeline()->canvas()->collectiveOverlay();
        QVERIFY(overlay);
        QCOMPARE(overlay->kernels.size(), std::size_t(2));
        QVERIFY(overlay->arrivals.duration() > 0);
        // Matched once: the next collective kernel shows its instance at once.
        w.timeline()->canvas()->selectEvent(EventLocation{0, nccl->track, 1}, true);
        QVERIFY(w.details()->plainText().contains(QLatin1String("Collective: SendRecv #1 on stream #0")));
        w.timeline()->canvas()->selectEvent(nccl, true);
        // One export, one clock: aligning on collectives (matched on a
        // worker, the status bar saying so meanwhile) moves nothing and says so.
        const Session *before = w.timeline()->canvas()->session();
        w.session()->alignOnCollectives(true);
        QVERIFY(w.statusBar()->currentMessage().startsWith(QLatin1String("Matching collectives across 2 rank(s)")));
        QTRY_VERIFY(w.statusBar()->currentMessage().contains(QLatin1String("already agree")));
        QCOMPARE(w.timeline()->canvas()->session(), before);
        // Another kind of event: no collective.
        w.timeline()->canvas()->selectEvent(std::nullopt);
        QVERIFY(!w.timeline()->canvas()->collectiveOverlay());
    }

    // File > Compare With... on the real before/after PyTorch pair: both
    // runs in one timeline, labelled by run and file, their first steps
    // one above the other, the Compare panel on the difference.
    void comparingTwoRunsShowsBothAndTheirDifference()
    {
        MainWindow w;
        const QString slow = dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"));
        const QString fast = dataPath(QStringLiteral("kineto/fast_rank0.pt.trace.json.gz"));
        w.open({slow}, true);
        w.compareWith({fast}, true);
        const Session *s = w.timeline()->canvas()->session();
        QVERIFY(s && s->isComparison());
        QCOMPARE(s->ranks().size(), 2u);
        QVERIFY2(w.windowTitle().contains(QLatin1String("A: slow_rank0.pt.trace.json.gz vs B: fast_rank0.pt.trace.json.gz")),
                 qPrintable(w.windowTitle()));
        QStringList groups;
        for (const TimelineRow &row : w.timeline()->canvas()->rows().rows())
            if (row.parent < 0)
                groups << row.label;
        QVERIFY2(groups.value(0).startsWith(QStringLiteral("A · rank 0 · slow_rank0.pt.trace.json.gz")), qPrintable(groups.join(QLatin1Char('|'))));
        QVERIFY2(groups.value(1).startsWith(QStringLiteral("B · rank 0 · fast_rank0.pt.trace.json.gz")), qPrintable(groups.join(QLatin1Char('|'))));
        QCOMPARE(stats::runAnchorDelta(*s, stats::RunAnchor::FirstStep), std::optional<TimeNs>(0));

        ComparePanel *compare = w.stats()->compare();
        QVERIFY(!compare->isHidden()); // its tab is the current one
        compare->ensureComputed();
        QVERIFY(compare->choiceNames().value(0).startsWith(QLatin1String("Run A: slow_rank0.pt.trace.json.gz")));
        // Step k: ProfilerStep#(k+2)'s dur in each JSON (µs).
        const ResultTable steps = compare->stepsTable()->model()->table();
        QCOMPARE(steps.rowCount(), 6u);
        for (const auto &row : steps.allRows())
            if (row[0].integer == 0) {
                QCOMPARE(row[1].integer, std::int64_t(146966408));
                QCOMPARE(row[3].integer, std::int64_t(18635010));
            }
        // A row of the difference lights up its events in both runs.
        const ResultTable diff = compare->diffTable()->model()->table();
        QVERIFY(!diff.allRows().empty());
        compare->diffTable()->view()->selectRow(0);
        const auto &lit = w.timeline()->canvas()->highlighted();
        QCOMPARE(std::int64_t(lit.size()), diff.allRows()[0][1].integer + diff.allRows()[0][4].integer);
        QVERIFY(std::any_of(lit.begin(), lit.end(), [](const EventLocation &e) { return e.rank == 0; }));
        QVERIFY(std::any_of(lit.begin(), lit.end(), [](const EventLocation &e) { return e.rank == 1; }));

        // An event of B and its counterpart in A, one above the other.
        const EventLocation b = lit.back();
        QCOMPARE(b.rank, 1);
        w.timeline()->canvas()->selectEvent(b);
        QVERIFY(w.session()->alignRunsOnSelectedEvent().contains(QLatin1String("counterpart")));
        s = w.timeline()->canvas()->session();
        const std::optional<EventLocation> a = stats::counterpartEvent(*s, b);
        QVERIFY(a && a->rank == 0);
        QCOMPARE(s->sessionTime(*a).start, s->sessionTime(b).start);
        QVERIFY(!w.session()->alignRuns(stats::RunAnchor::Starts).isEmpty());
        s = w.timeline()->canvas()->session();
        QCOMPARE(s->subset({0}).extent().start, s->subset({1}).extent().start);

        // Stretched, step k of B is drawn over step k of A, and stays so when B moves.
        QVERIFY(w.session()->stretchSteps(true).contains(QLatin1String("drawn over")));
        QVERIFY(w.timeline()->canvas()->displayTime().isStretched(1));
        w.session()->alignRuns(stats::RunAnchor::FirstStep);
        QVERIFY(w.timeline()->canvas()->displayTime().isStretched(1));
        w.session()->stretchSteps(false);
        QVERIFY(!w.timeline()->canvas()->displayTime().isStretched());

        // Files dropped with Shift held are run B.
        {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(fast)});
            QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
            QApplication::sendEvent(&w, &drop);
            w.loadJob()->waitForFinished();
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents();
            s = w.timeline()->canvas()->session();
            QCOMPARE(s->ranks().size(), 2u);
            QVERIFY(s->isComparison());
            QVERIFY(s->ranks()[1].report->filePath.endsWith(QLatin1String("fast_rank0.pt.trace.json.gz")));
        }

        // Comparing again replaces run B; run A stays.
        w.compareWith({slow}, true);
        s = w.timeline()->canvas()->session();
        QCOMPARE(s->ranks().size(), 2u);
        QVERIFY(s->ranks()[1].report->filePath.endsWith(QLatin1String("slow_rank0.pt.trace.json.gz")));
    }

    // Rank against rank of one session is the same comparison.
    void aligningOnCollectivesMovesTheRanksOffTheWindowThread()
    {
        // Three generated ranks whose clocks are off by 1.5 ms and -0.7 ms:
        // View > Align Ranks on Collectives matches on a worker, then shows
        // the ranks moved; switched off, the recorded session comes back,
        // and a result that arrives after the user changed their mind is dropped.
        QTemporaryDir dir;
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), {"--profile", "ddp", "--format", "nsys", "--ranks", "3", "--events", "1500",
                                                                        "--clock-offsets-us", "0,1500,-700", dir.path()}),
                 0);
        MainWindow w;
        w.open({dir.path()}, true);
        const Session *recorded = w.timeline()->canvas()->session();
        QCOMPARE(recorded->ranks().size(), 3u);
        w.session()->alignOnCollectives(true);
        QCOMPARE(w.timeline()->canvas()->session(), recorded); // not yet
        QTRY_VERIFY(w.timeline()->canvas()->session() != recorded);
        const Session *aligned = w.timeline()->canvas()->session();
        QCOMPARE(aligned->ranks().size(), 3u);
        QVERIFY(aligned->ranks()[1].sessionOffset != recorded->ranks()[1].sessionOffset);
        w.session()->alignOnCollectives(false);
        QCOMPARE(w.timeline()->canvas()->session(), recorded);
        QVERIFY(w.statusBar()->currentMessage().contains(QLatin1String("recorded start times")));
        // On, then off before the match is done: the window stays as
        // recorded once the match has ended (or never started) and what it
        // posted has been delivered.
        w.session()->alignOnCollectives(true);
        w.session()->alignOnCollectives(false);
        QVERIFY(QThreadPool::globalInstance()->waitForDone(30000));
        QCoreApplication::processEvents();
        QCOMPARE(w.timeline()->canvas()->session(), recorded);
    }

    void comparingTwoRanksOfOneSession()
    {
        MainWindow w;
        w.open({demoPath()}, true);
        QVERIFY(!w.session()->compareRanks(1, 1));
        QVERIFY(w.session()->compareRanks(3, 0));
        const Session *s = w.timeline()->canvas()->session();
        QVERIFY(s->isComparison());
        QCOMPARE(s->ranks().size(), 2u);
        QCOMPARE(s->ranks()[0].displayName(), QStringLiteral("A · rank 3"));
        QCOMPARE(s->ranks()[1].displayName(), QStringLiteral("B · rank 0"));
        QVERIFY2(w.windowTitle().contains(QLatin1String("A: ddp4_rank3.sqlite vs B: ddp4_rank0.sqlite")), qPrintable(w.windowTitle()));
        QVERIFY(w.stats()->compare()->choiceNames().value(0).startsWith(QLatin1String("Run A: ddp4_rank3.sqlite")));
    }

    void windowLayoutAndHiddenRowsAreRemembered()
    {
        QSettings().clear();
        QString hiddenKey;
        {
            MainWindow w;
            w.resize(1234, 777);
            w.open({slowFixture()}, true);
            w.showStatsPanel(QStringLiteral("gaps"));
            TimelineCanvas *canvas = w.timeline()->canvas();
            const int row = canvas->rows().shownRows().back();
            hiddenKey = canvas->rows().key(row);
            canvas->rows().hide(row);
            emit canvas->rowVisibilityChanged(); // as the row's context menu does
            canvas->setLabelWidth(411);          // as dragging the column's edge does
            w.close();
        }
        MainWindow again;
        QCOMPARE(again.size(), QSize(1234, 777));
        QCOMPARE(again.timeline()->canvas()->labelWidth(), 411);
        QVERIFY(again.findChild<QDockWidget *>(QStringLiteral("statisticsDock"))->isVisibleTo(&again));
        again.open({slowFixture()}, true);
        const QStringList hidden = again.timeline()->canvas()->rows().hiddenKeys();
        QCOMPARE(hidden, QStringList{hiddenKey});
        QSettings().clear();
    }

    void windowSizeIsKeptWithoutQuitting()
    {
        QSettings().clear();
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.resize(1111, 666);
            // Kept a second after the change, with no close: a window the
            // desktop's session end takes down keeps its size.
            QTRY_VERIFY_WITH_TIMEOUT(QSettings().contains(QStringLiteral("window/geometry")), 5000);
            MainWindow again;
            QCOMPARE(again.size(), QSize(1111, 666));
        }
        QSettings().clear();
    }

    void exportDialogsStartBesideTheTraces()
    {
        QSettings().clear();
        MainWindow w;
        w.open({slowFixture()}, true);
        const QString folder = QFileInfo(slowFixture()).absolutePath();
        if (QFileInfo(folder).isWritable())
            QCOMPARE(w.exportDirectory(), folder);
        QTemporaryDir dir;
        QSettings().setValue(QStringLiteral("export/directory"), dir.path()); // as an export remembers it
        QCOMPARE(w.exportDirectory(), dir.path());
        // File > Open starts where the last traces were.
        QCOMPARE(w.openFolder(), folder);
        QSettings().clear();
    }

    void themeMenuSwitchesAndIsRemembered()
    {
        QSettings().clear();
        const bool systemDark = QApplication::palette().color(QPalette::Window).lightnessF() < 0.5;
        {
            MainWindow w;
            w.setColorScheme(ColorScheme::Dark);
            QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() < 0.5);
        }
        {
            // The scheme is applied from the settings. (Qt hands a new
            // application palette to existing widgets only once its event
            // loop runs, as in the viewer; a test has none, so it reads a
            // window made after the change.)
            MainWindow again;
            QCOMPARE(currentColorScheme(), ColorScheme::Dark);
            QVERIFY(again.timeline()->canvas()->palette().color(QPalette::Base).lightnessF() < 0.5);
            // The shortcut cycles: dark, then system.
            for (QAction *action : again.findChildren<QAction *>())
                if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T))
                    action->trigger();
            QCOMPARE(currentColorScheme(), ColorScheme::System);
            QCOMPARE(QApplication::palette().color(QPalette::Window).lightnessF() < 0.5, systemDark);
            again.setColorScheme(ColorScheme::Light);
            QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() > 0.5);
            again.setColorScheme(ColorScheme::System);
        }
        QSettings().clear();
    }

    void communicationPatternIsRememberedAndExported()
    {
        QSettings().clear();
        {
            MainWindow w;
            QVERIFY(w.stats()->ranks()->setCommunicationPattern(QStringLiteral("(?i)gemm")));
        }
        MainWindow again;
        QCOMPARE(again.stats()->ranks()->communicationPattern(), QStringLiteral("(?i)gemm"));
        again.open({slowFixture()}, true);
        QTemporaryDir dir;
        again.exportStatistics(dir.path());
        // The GEMMs are communication now, in the exported table too.
        const QList<QStringList> rows = parseCsv(readText(dir.filePath(QStringLiteral("rank_comparison.csv"))));
        QCOMPARE(rows[0][5], QStringLiteral("Exposed Comm (ns)"));
        QVERIFY(rows[1][5].toLongLong() > 0);
        QSettings().clear();
    }

    void darkAndLightPalettesAreBothReadable_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void darkAndLightPalettesAreBothReadable()
    {
        QFETCH(bool, dark);
        const QPalette palette = desktopPalette(dark);
        const QColor back = paletteBackground(dark);
        MainWindow w;
        w.setPalette(palette); // as a system theme change reaches every widget
        w.resize(1200, 700);
        w.show(); // laid out as the user sees it
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({slowFixture()}, true);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("t.png"));
        QVERIFY(w.exportTimelineTo(png));
        const QImage image(png);
        // The empty space under the rows has the theme's background...
        const QColor empty = image.pixelColor(image.width() - 5, image.height() - 5);
        QVERIFY2(std::abs(empty.lightnessF() - back.lightnessF()) < 0.05, qPrintable(empty.name()));
        // ...and the row names are drawn in the theme's text colour: strong
        // contrast against it somewhere in the label column.
        double bestContrast = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < w.timeline()->canvas()->labelWidth(); ++x)
                bestContrast = std::max(bestContrast, double(std::abs(image.pixelColor(x, y).lightnessF() - back.lightnessF())));
        QVERIFY2(bestContrast > 0.7, qPrintable(QString::number(bestContrast)));
    }

    // Perfetto's area selection: Shift+drag across rows summarises their
    // slices in that range in the Selection dock.
    void shiftDragAcrossRowsSummarisesThem()
    {
        MainWindow w;
        w.resize(1400, 850);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({slowFixture()}, true);
        TimelineCanvas *canvas = w.timeline()->canvas();
        // From the first thread row with CUDA API calls to the row after it.
        int first = -1;
        for (int r : canvas->rows().shownRows())
            if (canvas->rows().rows()[std::size_t(r)].label.endsWith(QLatin1String("CUDA API")) && first < 0)
                first = r;
        QVERIFY(first >= 0);
        canvas->revealRow(first);
        QCoreApplication::processEvents();
        const QRect from = canvas->rowRect(first);
        const int x0 = canvas->labelWidth() + 20, x1 = canvas->viewport()->width() - 20;
        auto send = [&](QEvent::Type type, QPoint at, Qt::MouseButtons buttons) {
            QMouseEvent e(type, at, canvas->viewport()->mapToGlobal(at), Qt::LeftButton, buttons, Qt::ShiftModifier);
            QApplication::sendEvent(canvas->viewport(), &e);
        };
        send(QEvent::MouseButtonPress, {x0, from.center().y()}, Qt::LeftButton);
        send(QEvent::MouseMove, {x1, from.bottom() + 12}, Qt::LeftButton);
        send(QEvent::MouseButtonRelease, {x1, from.bottom() + 12}, Qt::NoButton);
        QVERIFY(canvas->areaRows().size() >= 2);
        QCOMPARE(canvas->areaRows().front(), first);
        w.selection()->waitForSummary();
        QVERIFY(w.findChild<QDockWidget *>(QStringLiteral("selectionDock"))->isVisible());
        const ResultTable &t = w.selection()->table()->model()->table();
        QVERIFY(t.rowCount() > 0);
        const ResultTable expected = stats::selectionSummary(*w.timeline()->session(), canvas->areaTracks(), *w.timeline()->zoom()->selection());
        QCOMPARE(t.rowCount(), expected.rowCount());
        QCOMPARE(t.cell(0, 0).text, expected.cell(0, 0).text);
        QCOMPARE(t.cell(0, 1).integer, expected.cell(0, 1).integer);
        QVERIFY2(w.selection()->title().contains(QLatin1String("slice")), qPrintable(w.selection()->title()));
        // Esc clears the range, the area and its summary.
        w.timeline()->actions()->clearSelection->trigger();
        QVERIFY(canvas->areaRows().empty());
        QCOMPARE(w.selection()->table()->model()->rowCount(), 0);
        // Closed by the user, the dock stays closed at the next drag; the summary is made all the same.
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("selectionDock"));
        dock->close();
        QVERIFY(dock->isHidden());
        send(QEvent::MouseButtonPress, {x0, from.center().y()}, Qt::LeftButton);
        send(QEvent::MouseMove, {x1, from.bottom() + 12}, Qt::LeftButton);
        send(QEvent::MouseButtonRelease, {x1, from.bottom() + 12}, Qt::NoButton);
        w.selection()->waitForSummary();
        QVERIFY(dock->isHidden());
        QVERIFY(w.selection()->table()->model()->rowCount() > 0);
    }

    void aNarrowWindowsRulerLabelsItsStart()
    {
        MainWindow w;
        w.resize(900, 560);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.open({slowFixture()}, true);
        const TimeNs zero = w.timeline()->session()->extent().start;
        const TimeRange visible{zero + 4600000000, zero + 8603000000}; // 4.003 s, as zoomed in the demo
        w.timeline()->zoom()->show(visible);
        TimeRuler *ruler = w.timeline()->ruler();
        const int width = ruler->width() - w.timeline()->canvas()->labelWidth();
        QVERIFY(width < 500);
        const RulerTicks ticks = ruler->fittedTicks(visible, width, ruler->fontMetrics());
        // A label within the first quarter, and labels apart by more than the widest.
        QVERIFY2(ticks.ticks.size() >= 4, qPrintable(QString::number(ticks.ticks.size())));
        const TimeScale scale = TimeScale::fit(visible, width);
        QVERIFY(scale.x(ticks.ticks.front().time) < width / 4.0);
        int widest = 0;
        for (const RulerTick &tick : ticks.ticks)
            widest = std::max(widest, ruler->fontMetrics().horizontalAdvance(tick.label));
        QVERIFY(scale.x(ticks.ticks[1].time) - scale.x(ticks.ticks[0].time) >= widest + 4);
    }

    void helpAndVersion()
    {
        QProcess p;
        p.start(QStringLiteral(RANKSCOPE_GUI), {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).startsWith(QLatin1String("Rankscope 0.")));
        p.start(QStringLiteral(RANKSCOPE_GUI), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QString help = QString::fromUtf8(p.readAllStandardOutput());
        for (const char *option : {"--screenshot", "--range", "--panel", "--version", "FILE|DIR"})
            QVERIFY2(help.contains(QLatin1String(option)), qPrintable(help));
    }

    void shortcutsTableIsTheReadmes()
    {
        const QString readme = readText(demoPath(QStringLiteral("../../README.md")));
        QVERIFY(!readme.isEmpty());
        MainWindow w;
        const TimelineActions *actions = w.timeline()->actions();
        if (!readme.contains(w.shortcutsMarkdown()))
            qInfo().noquote() << w.shortcutsMarkdown(); // whole: a failure message is cut short
        QVERIFY(readme.contains(w.shortcutsMarkdown()));
        const QString html = TimelineActions::htmlOf(w.shortcutRows());
        for (const char *keys : {"<b>Backspace</b>", "<b>Ctrl+Shift+O</b>", "<b>Ctrl+K</b>", "<b>Ctrl+Shift+S</b>", "<b>Ctrl+Shift+T</b>"})
            QVERIFY2(html.contains(QLatin1String(keys)), keys);
        // The View menu holds the same actions, so its shortcuts are the table's.
        QList<QAction *> inMenus;
        for (QMenu *menu : w.menuBar()->findChildren<QMenu *>())
            inMenus += menu->actions();
        for (QAction *action : actions->all())
            QVERIFY2(inMenus.contains(action), qPrintable(action->text()));
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
        p.start(QStringLiteral(RANKSCOPE_GUI),
                {QStringLiteral("--screenshot"), out, QStringLiteral("--range"), QStringLiteral("nonsense"), slowFixture()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        // With a statistics panel shown.
        const QString panel = dir.filePath(QStringLiteral("gaps.png"));
        p.start(QStringLiteral(RANKSCOPE_GUI),
                {QStringLiteral("--screenshot"), panel, QStringLiteral("--panel"), QStringLiteral("gaps"), slowFixture()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(!QImage(panel).isNull());
        p.start(QStringLiteral(RANKSCOPE_GUI),
                {QStringLiteral("--screenshot"), panel, QStringLiteral("--panel"), QStringLiteral("nope"), slowFixture()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
