// Step k of run B drawn over step k of run A: the piecewise-linear map, its
// pieces across a view, and the real before/after PyTorch pair stretched on
// the canvas, where B's ProfilerStep#4 must cover the pixels of A's.
#include "session/session.h"
#include "stats/comparison/runalignment.h"
#include "testdata.h"
#include "timeline/displaytime.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// Events of one rank named `name` on rows of `kind`.
std::optional<EventLocation> firstNamed(const Session &s, int rank, TrackKind kind, const QString &name)
{
    const Report &r = *s.ranks()[std::size_t(rank)].report;
    for (std::uint32_t t = 0; t < r.tracks.size(); ++t)
        if (r.tracks[t].kind == kind && Session::ownsTrack(s.ranks()[std::size_t(rank)], r.tracks[t]))
            for (std::uint32_t e = 0; e < r.tracks[t].slices.size(); ++e)
                if (r.strings.string(r.tracks[t].slices.name(e)) == name)
                    return EventLocation{rank, t, e};
    return std::nullopt;
}

} // namespace

class TestDisplayTime : public QObject {
    Q_OBJECT

private slots:
    void mapsPiecewiseAndBack()
    {
        DisplayTime d;
        // Rank 1: own 100..200 shown at 1000..1400 (x4), 200..300 at 1400..1450 (x0.5).
        d.setStretch({{}, {{100, 1000}, {200, 1400}, {300, 1450}}});
        QVERIFY(d.isStretched());
        QVERIFY(!d.isStretched(0));
        QCOMPARE(d.toDisplay(0, 12345), TimeNs(12345));
        QCOMPARE(d.toDisplay(1, 150), TimeNs(1200));
        QCOMPARE(d.toDisplay(1, 250), TimeNs(1425));
        QCOMPARE(d.toDisplay(1, 50), TimeNs(950));   // before the first point: moved only
        QCOMPARE(d.toDisplay(1, 400), TimeNs(1550)); // after the last
        for (TimeNs t : {TimeNs(0), TimeNs(100), TimeNs(137), TimeNs(200), TimeNs(299), TimeNs(1000)})
            QVERIFY(std::llabs(d.toSession(1, d.toDisplay(1, t)) - t) <= 1);
    }

    void piecesTileTheViewWithMatchingScales()
    {
        DisplayTime d;
        d.setStretch({{}, {{100, 1000}, {200, 1400}, {300, 1450}}});
        const TimeScale view = TimeScale::fit({900, 1600}, 700); // 1 ns per px
        const auto pieces = d.pieces(1, view, 700);
        QCOMPARE(pieces.size(), 4u);
        QCOMPARE(pieces.front().x0, 0);
        QCOMPARE(pieces.back().x1, 700);
        for (std::size_t i = 1; i < pieces.size(); ++i)
            QCOMPARE(pieces[i].x0, pieces[i - 1].x1);
        for (const auto &piece : pieces)
            for (int x = piece.x0; x < piece.x1; x += 7) {
                const TimeNs own = d.toSession(1, view.time(x));
                QVERIFY2(std::abs(piece.scale.x(own) - view.x(d.toDisplay(1, own))) <= 1.0, qPrintable(QString::number(x)));
            }
        // A rank drawn as recorded: one piece, the view's scale.
        const auto plain = d.pieces(0, view, 700);
        QCOMPARE(plain.size(), 1u);
        QCOMPARE(plain[0].scale.start, view.start);
    }

    void stretchedStepsCoverEachOther()
    {
        const Session slow = Session::load({dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"))});
        const Session fast = Session::load({dataPath(QStringLiteral("kineto/fast_rank0.pt.trace.json.gz"))});
        auto both = std::make_shared<Session>(Session::comparison(slow, fast));
        TimelineView view;
        view.resize(1400, 900);
        view.setSession(both);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        TimelineCanvas *canvas = view.canvas();
        canvas->setStretch(stats::stepStretchPoints(*both));
        QVERIFY(canvas->displayTime().isStretched(1));
        view.zoom()->fit();
        const auto stepA = firstNamed(*both, 0, TrackKind::CpuOp, QStringLiteral("ProfilerStep#4"));
        const auto stepB = firstNamed(*both, 1, TrackKind::CpuOp, QStringLiteral("ProfilerStep#4"));
        QVERIFY(stepA && stepB);
        QCOMPARE(canvas->displayedTime(*stepB).start, canvas->displayedTime(*stepA).start); // B's step drawn over A's
        QCOMPARE(canvas->displayedTime(*stepB).end, canvas->displayedTime(*stepA).end);
        QCOMPARE(both->sessionTime(*stepB).duration(), TimeNs(18549113)); // its own time unchanged (JSON dur 18549.113 µs)
        canvas->selectEvent(stepB, true);                                 // unfolds its process, scrolls it into view
        const int row = canvas->rows().rowOf(1, stepB->track);
        const TimeScale s = canvas->scale();
        const TimeRange a = both->sessionTime(*stepA);
        // Pieces meet at whole pixels: an event at a piece's edge is drawn
        // in both, side by side. Together they span A's step.
        float x0 = 1e9f, x1 = -1e9f;
        for (const RowGeometry &g : canvas->geometry().rows())
            if (g.row == row)
                for (const SliceRect &r : g.rects)
                    if (r.event == stepB->event && r.trackSlot < canvas->rows().rows()[std::size_t(row)].tracks.size()
                        && canvas->rows().rows()[std::size_t(row)].tracks[r.trackSlot] == stepB->track) {
                        x0 = std::min(x0, r.x0);
                        x1 = std::max(x1, r.x1);
                    }
        QVERIFY2(std::abs(x0 - s.x(a.start)) <= 1.0 && std::abs(x1 - s.x(a.end)) <= 1.0,
                 qPrintable(QStringLiteral("%1..%2 vs %3..%4").arg(x0).arg(x1).arg(s.x(a.start)).arg(s.x(a.end))));
        canvas->setStretch({});
        QCOMPARE(canvas->displayedTime(*stepB).start, both->sessionTime(*stepB).start);
    }
};

QTEST_MAIN(TestDisplayTime)
#include "tst_displaytime.moc"
