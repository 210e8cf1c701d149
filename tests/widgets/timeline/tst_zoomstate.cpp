// Zoom, pan, fit, selection and history, without any widget.
#include "timeline/zoomstate.h"

#include <QSignalSpy>
#include <QtTest>

using namespace rankscope;

class TestZoomState : public QObject {
    Q_OBJECT
private slots:
    void zoomKeepsTheAnchorAndScalesByTheFactor()
    {
        ZoomState z;
        z.setBounds({0, 1000000});
        QSignalSpy spy(&z, &ZoomState::visibleChanged);
        z.zoomIn(250000);
        QCOMPARE(spy.count(), 1);
        const TimeRange v = z.visible();
        QVERIFY(qAbs(double(v.duration()) - 1000000 / ZoomState::kZoomStep) <= 1.0);
        // The anchor stays at the same fraction of the view (a quarter).
        QVERIFY(qAbs(double(250000 - v.start) / double(v.duration()) - 0.25) < 1e-6);
        z.zoomOut(250000);
        QVERIFY(qAbs(z.visible().duration() - 1000000) <= 2);
    }

    void clampsToTheBoundsAndTheMinimumSpan()
    {
        ZoomState z;
        z.setBounds({1000, 2000});
        for (int i = 0; i < 100; ++i)
            z.zoomIn(1500);
        QCOMPARE(z.visible().duration(), ZoomState::kMinimumSpan);
        z.fit();
        for (int i = 0; i < 20; ++i)
            z.zoomOut(1500);
        QVERIFY(z.visible().duration() <= 1000 + 2 * 1000 / 20);
        z.pan(1000000);
        QVERIFY(z.visible().end <= 2000 + 1000 / 20);
    }

    void selectionZoomAndBack()
    {
        ZoomState z;
        z.setBounds({0, 1000});
        QVERIFY(!z.zoomToSelection());
        z.setSelection(TimeRange{600, 300}); // reversed: normalised
        QCOMPARE(z.selection()->start, 300);
        QVERIFY(z.zoomToSelection());
        QCOMPARE(z.visible().start, 300);
        QCOMPARE(z.visible().end, 600);
        z.zoomIn(450);
        QVERIFY(z.back());
        QCOMPARE(z.visible().start, 300);
        QVERIFY(z.back());
        QCOMPARE(z.visible().duration(), 1000);
        QVERIFY(!z.back());
    }
};

QTEST_GUILESS_MAIN(TestZoomState)
#include "tst_zoomstate.moc"
