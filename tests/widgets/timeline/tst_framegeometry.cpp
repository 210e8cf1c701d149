// Hit-testing a frame: the rectangle drawn under a point, by row and lane,
// preferring one that contains the point over a neighbour within a pixel.
#include "timeline/framegeometry.h"

#include <QtTest>

using namespace rankscope;

namespace {

constexpr int kLeft = 100; // the track area starts here
constexpr int kLane = 18;

SliceRect rect(float x0, float x1, std::uint16_t lane, std::uint32_t event)
{
    SliceRect r;
    r.x0 = x0;
    r.x1 = x1;
    r.lane = lane;
    r.event = event;
    r.count = 1;
    return r;
}

RowGeometry rowOf(int row, int top, int height, std::vector<SliceRect> rects)
{
    RowGeometry g;
    g.row = row;
    g.top = top;
    g.height = height;
    g.rects = std::move(rects);
    return g;
}

FrameGeometry frame()
{
    FrameGeometry f;
    f.rows().push_back(rowOf(0, 0, 40, {rect(10, 20, 0, 1), rect(20.5f, 30, 0, 2), rect(10, 50, 1, 3)}));
    f.rows().push_back(rowOf(3, 40, 22, {rect(0, 5, 0, 4)}));
    return f;
}

} // namespace

class TestFrameGeometry : public QObject {
    Q_OBJECT
private slots:
    void rowsByHeight()
    {
        const FrameGeometry f = frame();
        QCOMPARE(f.rowAt(0)->row, 0);
        QCOMPARE(f.rowAt(39)->row, 0);
        QCOMPARE(f.rowAt(40)->row, 3);
        QVERIFY(!f.rowAt(62));
        QCOMPARE(f.rectCount(), std::size_t(4));
    }
    void hitsByLaneAndX()
    {
        const FrameGeometry f = frame();
        const int lane0 = FrameGeometry::kLaneTopMargin + 1, lane1 = lane0 + kLane;
        QCOMPARE(f.hit({kLeft + 15, lane0}, kLeft, kLane).rect->event, 1u);
        QCOMPARE(f.hit({kLeft + 25, lane0}, kLeft, kLane).rect->event, 2u);
        QCOMPARE(f.hit({kLeft + 25, lane1}, kLeft, kLane).rect->event, 3u);
        // Within a pixel of a rectangle still hits it; the containing one wins.
        QCOMPARE(f.hit({kLeft + 9, lane0}, kLeft, kLane).rect->event, 1u);
        QCOMPARE(f.hit({kLeft + 21, lane0}, kLeft, kLane).rect->event, 2u);
        QVERIFY(!f.hit({kLeft + 40, lane0}, kLeft, kLane).rect);
        // The label column has rows but no events.
        const FrameGeometry::Hit label = f.hit({kLeft - 5, lane0}, kLeft, kLane);
        QCOMPARE(label.row->row, 0);
        QVERIFY(!label.rect);
        QCOMPARE(f.hit({kLeft + 2, 40 + lane0}, kLeft, kLane).rect->event, 4u);
    }
};

QTEST_GUILESS_MAIN(TestFrameGeometry)
#include "tst_framegeometry.moc"
