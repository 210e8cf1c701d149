// The critical path in the viewer: the panel's steps, chart, top events,
// segments and what-if over the generator's planted straggler (rank 2 runs
// an extra 3 ms kernel before its all-reduce every second step), and the
// path drawn on the timeline.
#include "panels/criticalpathpanel.h"
#include "panels/resulttablemodel.h"
#include "panels/statsdock.h"
#include "panels/tablebox.h"
#include "stats/criticalpath/criticalpathtables.h"
#include "stats/ranks/collectives.h"
#include "testdata.h"
#include "theme/theme.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"

#include <QCheckBox>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

Q_DECLARE_METATYPE(std::shared_ptr<const rankscope::stats::StepCriticalPath>)

class TestCriticalPathView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::shared_ptr<const Session> m_session;

private slots:
    void initTestCase()
    {
        qRegisterMetaType<std::shared_ptr<const StepCriticalPath>>();
        QProcess gen;
        gen.start(QStringLiteral(RANKSCOPE_TRACEGEN),
                  {QStringLiteral("--format"), QStringLiteral("nsys"), QStringLiteral("--profile"), QStringLiteral("ddp"), QStringLiteral("--events"),
                   QStringLiteral("200"), QStringLiteral("--ranks"), QStringLiteral("4"), QStringLiteral("--straggler"), QStringLiteral("2:3000:2"),
                   m_dir.path()});
        QVERIFY(gen.waitForFinished(60000));
        QCOMPARE(gen.exitCode(), 0);
        m_session = std::make_shared<const Session>(Session::load({m_dir.path()}));
        QCOMPARE(m_session->ranks().size(), std::size_t(4));
    }

    void panelShowsEveryStepAndItsPath()
    {
        CriticalPathPanel panel;
        QSignalSpy shown(&panel, &CriticalPathPanel::pathShown);
        panel.setSession(m_session);
        QCOMPARE(panel.steps().size(), std::size_t(4));
        // The step shown is solved first; the others once in view, or asked for.
        QVERIFY(panel.steps()[0].solved);
        panel.solveAllSteps();
        QVERIFY(std::all_of(panel.steps().begin(), panel.steps().end(), [](const StepPathSummary &s) { return s.solved; }));
        QCOMPARE(panel.stepsTable()->model()->rowCount(), 4);
        QVERIFY(panel.chart());
        QVERIFY(panel.note().contains(QStringLiteral("4 step(s)")));
        // The first step is shown: its path reached the timeline.
        QCOMPARE(panel.shownPath(), 0);
        QVERIFY(!shown.isEmpty());
        const auto drawn = shown.last().at(0).value<std::shared_ptr<const StepCriticalPath>>();
        QVERIFY(drawn);
        QCOMPARE(drawn, panel.shownStepPath());
        QCOMPARE(drawn->segments.size(), panel.steps()[0].segments);
        // Step 0 is a delayed one: the straggler's 3 ms kernel is its top event.
        const ResultTable &top = panel.topEvents()->model()->table();
        QVERIFY(top.rowCount() > 0);
        QVERIFY(top.cell(0, 2).integer >= 3'000'000);
        QCOMPARE(top.cell(0, 5).integer, 2); // on rank 2
        QCOMPARE(panel.segments()->model()->rowCount(), int(panel.steps()[0].segments));
        // Double-clicking the top event selects its longest segment's event.
        QSignalSpy selected(&panel, &StatsPanel::eventsSelected);
        emit panel.topEvents()->rowActivated(0);
        QCOMPARE(selected.size(), 1);
        const auto events = selected.at(0).at(0).value<std::vector<EventLocation>>();
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(m_session->ranks()[std::size_t(events[0].rank)].rank, 2);
        QCOMPARE(m_session->sessionTime(events[0]).duration(), TimeNs(3'000'000));
        // The step under a time (the timeline's context menu).
        const TimeRange step3 = panel.steps()[3].window;
        panel.showStepAt(step3.start + step3.duration() / 2);
        QCOMPARE(panel.shownPath(), 3);
        // Another step, chosen in its table.
        panel.showPath(1);
        QCOMPARE(shown.last().at(0).value<std::shared_ptr<const StepCriticalPath>>()->step, 1);
        // Not drawn when the box is cleared.
        for (QCheckBox *box : panel.findChildren<QCheckBox *>())
            if (box->text().contains(QStringLiteral("Draw")))
                box->setChecked(false);
        QVERIFY(!shown.last().at(0).value<std::shared_ptr<const StepCriticalPath>>());
    }

    void whatIfIsSolvedAndShown()
    {
        CriticalPathPanel panel;
        panel.setSession(m_session);
        panel.showPath(2);
        QVERIFY(!panel.setWhatIf(QStringLiteral("stream:7=0.5")));
        QVERIFY(panel.whatIfResult().contains(QStringLiteral("the target is kernel, nvtx or rank")));
        panel.solveAllSteps();
        QVERIFY(panel.setWhatIf(QStringLiteral("rank:2=0.9")));
        QCOMPARE(panel.steps().size(), std::size_t(4));
        const StepPathSummary &step0 = panel.steps()[0];
        QVERIFY(step0.whatIfLength);
        QVERIFY(*step0.whatIfLength < step0.length());
        QCOMPARE(panel.shownPath(), 2); // the step shown before stays shown
        QVERIFY(panel.whatIfResult().contains(QStringLiteral("step 2 would take")));
        // Step 1's last rank is not rank 2: it gains nothing, and says so.
        panel.showPath(1);
        QVERIFY(panel.whatIfResult().contains(QStringLiteral("no change")));
        QVERIFY(panel.stepsTable()->model()->table().headers.contains(QStringLiteral("What-if Duration (ns)")));
        QVERIFY(panel.setWhatIf(QString()));
        QVERIFY(!panel.steps()[0].whatIfLength);
    }

    // With a range selected: the steps that start in it.
    void followsTheRange()
    {
        CriticalPathPanel panel;
        panel.setSession(m_session);
        const TimeNs step2 = panel.stepStarts()[2];
        stats::StatsScope scope;
        scope.range = TimeRange{step2, step2 + 1};
        panel.setScope(scope);
        QCOMPARE(panel.steps().size(), std::size_t(1));
        QCOMPARE(panel.steps()[0].step, 2);
    }

    void dockHasThePanel()
    {
        StatsDock dock;
        QVERIFY(StatsDock::panelNames().contains(QStringLiteral("critical")));
        QVERIFY(dock.criticalPath());
        QVERIFY(dock.showPanel(QStringLiteral("critical")));
    }

    // The path on the timeline: its segments outlined in the path's colour,
    // cleared by a new session.
    void timelineDrawsThePath()
    {
        CriticalPathPanel panel;
        panel.setSession(m_session);
        TimelineView view;
        view.resize(1400, 900);
        view.setSession(m_session);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        TimelineCanvas *canvas = view.canvas();
        canvas->rows().setAllCollapsed(false);
        canvas->rowsChanged();
        const auto path = panel.shownStepPath();
        QVERIFY(path);
        view.zoom()->show(path->window);
        const auto pathPixels = [&] {
            const QImage image = canvas->viewport()->grab().toImage();
            int count = 0;
            const QRgb outline = Theme::criticalPathOutline().rgb();
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    count += image.pixel(x, y) == outline;
            return count;
        };
        QCOMPARE(pathPixels(), 0);
        canvas->setCriticalPath(path);
        QCOMPARE(canvas->criticalPath(), path);
        QTRY_VERIFY(pathPixels() > 200);
        view.setSession(m_session);
        QVERIFY(!canvas->criticalPath());
    }
};

QTEST_MAIN(TestCriticalPathView)
#include "tst_criticalpathview.moc"
