// Geometry: events become rectangles; sub-pixel events merge and keep count.
#include "timeline/slicegeometry.h"

#include <QtTest>

#include <map>

using namespace rankscope;

class TestSliceGeometry : public QObject {
    Q_OBJECT

    static std::uint64_t totalCount(const std::vector<SliceRect> &rects)
    {
        std::uint64_t n = 0;
        for (const SliceRect &r : rects)
            n += r.count;
        return n;
    }

private slots:
    void wideEventsAreDrawnOneByOne()
    {
        SliceTrack t;
        t.append(0, 100, 1, 0);
        t.append(200, 300, 2, 0);
        t.append(220, 250, 3, 0); // nested: lane 1
        t.finalize();
        std::vector<SliceRect> out;
        buildSliceGeometry({&t, 0, 0, false, 0}, TimeScale::fit({0, 400}, 400), 400, out);
        QCOMPARE(out.size(), std::size_t(3));
        QCOMPARE(out[0].x0, 0.0f);
        QCOMPARE(out[0].x1, 100.0f);
        QCOMPARE(out[0].count, 1u);
        QCOMPARE(out[2].lane, std::uint16_t(1));
        out.clear();
        buildSliceGeometry({&t, 0, 0, true, 0}, TimeScale::fit({0, 400}, 400), 400, out);
        QCOMPARE(out[2].lane, std::uint16_t(0)); // flattened
    }

    void subPixelEventsMergeAndCount()
    {
        SliceTrack t;
        for (int i = 0; i < 1000; ++i)
            t.append(i * 10, i * 10 + 5, 1, 0);
        t.finalize();
        std::vector<SliceRect> out;
        // 10,000 ns over 100 px: ten events per pixel.
        buildSliceGeometry({&t, 0, 0, false, 0}, TimeScale::fit({0, 10000}, 100), 100, out);
        QVERIFY(out.size() < 10);
        QCOMPARE(totalCount(out), std::uint64_t(1000));
        QVERIFY(out.front().x1 - out.front().x0 > 50.0f); // a busy row looks busy
    }

    void summariesStandInForManyEvents()
    {
        SliceTrack t;
        for (int i = 0; i < 200000; ++i)
            t.append(i * 100, i * 100 + 60, 1, 0);
        t.finalize();
        std::vector<SliceRect> out;
        buildSliceGeometry({&t, 0, 0, false, 0}, TimeScale::fit({0, 20000000}, 800), 800, out);
        QVERIFY(out.size() <= 800);
        QCOMPARE(totalCount(out), std::uint64_t(200000));
        for (const SliceRect &r : out)
            QVERIFY(r.coverage > 0.5f && r.coverage < 0.7f); // 60% busy
    }

    // A GPT-2 shaped NVTX row: one long step, a forward/backward pair in
    // it, and 100,000 short ops in those. Zoomed out to the whole run every
    // depth row is drawn as busy as it is, not only the top one.
    void everyDepthRowIsDrawnZoomedOut()
    {
        SliceTrack t;
        const TimeNs opCount = 100000;
        t.append(0, opCount * 100, 1, 0);            // step, depth 0
        t.append(0, opCount * 50, 2, 0);             // forward, depth 1
        t.append(opCount * 50, opCount * 100, 3, 0); // backward, depth 1
        for (TimeNs i = 0; i < opCount; ++i)
            t.append(i * 100, i * 100 + 80, 4, 0); // ops, depth 2 (80 % busy)
        t.append(10, 20, 5, 0);                    // one tiny op's child, depth 3
        t.finalize();
        QCOMPARE(t.maxDepth(), std::uint16_t(3));
        std::vector<SliceRect> out;
        buildSliceGeometry({&t, 0, 0, false, 0}, TimeScale::fit({0, opCount * 100}, 1000), 1000, out);
        std::map<int, std::uint64_t> countPerLane;
        std::map<int, double> coveredPerLane;
        for (const SliceRect &r : out) {
            countPerLane[r.lane] += r.count;
            coveredPerLane[r.lane] += (r.x1 - r.x0) * r.coverage;
        }
        QCOMPARE(countPerLane[0], std::uint64_t(1));
        QCOMPARE(countPerLane[1], std::uint64_t(2));
        QCOMPARE(countPerLane[2], std::uint64_t(opCount));
        QCOMPARE(countPerLane[3], std::uint64_t(1)); // few events: drawn as themselves
        QVERIFY(std::abs(coveredPerLane[2] / 1000.0 - 0.8) < 0.02);
        QVERIFY(coveredPerLane[1] > 999.0);
        // The two depth-1 ranges are drawn as themselves, with their names.
        int exact = 0;
        for (const SliceRect &r : out)
            if (r.lane == 1 && r.count == 1 && r.event != SliceRect::kNoEvent && (t.name(r.event) == 2 || t.name(r.event) == 3))
                ++exact;
        QCOMPARE(exact, 2);
        // The cost follows the pixels, not the 100,000 events.
        QVERIFY(out.size() < 3000);
        // Only the lanes on screen are built.
        out.clear();
        SliceGeometryInput visible{&t, 0, 0, false, 0};
        visible.firstLane = 1;
        visible.lastLane = 1;
        buildSliceGeometry(visible, TimeScale::fit({0, opCount * 100}, 1000), 1000, out);
        QVERIFY(!out.empty());
        for (const SliceRect &r : out)
            QCOMPARE(r.lane, std::uint16_t(1));
    }

    // Zoomed in on the end of a long range followed by many short ones on
    // its row: the long one is drawn as itself (its colour, its name), not
    // as the busy time of buckets it started before.
    void aLongRangeOpenAtTheLeftEdgeIsDrawnAsItself()
    {
        SliceTrack t;
        t.append(0, 20000000, 1, 0);        // parent, depth 0
        t.append(10000000, 13000000, 2, 0); // the long range, depth 1
        for (TimeNs s = 13000000; s < 16000000; s += 100)
            t.append(s, s + 60, 3, 0); // 30,000 short ones after it, depth 1
        t.finalize();
        std::vector<SliceRect> out;
        buildSliceGeometry({&t, 0, 0, false, 0}, TimeScale::fit({12000000, 16000000}, 1000), 1000, out);
        const SliceRect *longOne = nullptr;
        for (const SliceRect &r : out)
            if (r.lane == 1 && r.count == 1 && r.event != SliceRect::kNoEvent && t.name(r.event) == 2)
                longOne = &r;
        QVERIFY(longOne);
        QVERIFY(longOne->x0 <= 0.0f);
        QCOMPARE(longOne->x1, 250.0f); // 13 ms is a quarter of the way across
        QVERIFY(out.size() < 2100);    // the short ones from summaries
    }

    // Zoomed out, a long range that starts in the pixel where short ones
    // end (the autograd thread's "backward" after its small ops) is still
    // drawn as itself, so it gets its label.
    void aLongRangeStartingAmongShortOnesIsDrawnAsItself()
    {
        SliceTrack t;
        for (TimeNs s = 0; s < 3000000; s += 100)
            t.append(s, s + 60, 3, 0);       // 30,000 short ones, depth 0
        t.append(3000010, 3813000000, 2, 0); // then an 813 ms range, depth 0
        t.finalize();
        std::vector<SliceRect> out;
        buildSliceGeometry({&t, 0, 0, false, 0}, TimeScale::fit({0, 3900000000}, 1250), 1250, out);
        const SliceRect *longOne = nullptr;
        for (const SliceRect &r : out)
            if (r.count == 1 && r.event != SliceRect::kNoEvent && t.name(r.event) == 2)
                longOne = &r;
        QVERIFY(longOne);
        QVERIFY(longOne->x1 - longOne->x0 > 250.0f);
        QCOMPARE(totalCount(out), std::uint64_t(30001));
    }

    void sessionOffsetShiftsEverything()
    {
        SliceTrack t;
        t.append(0, 100, 1, 0);
        t.finalize();
        std::vector<SliceRect> out;
        buildSliceGeometry({&t, 1000, 0, false, 0}, TimeScale::fit({1000, 1400}, 400), 400, out);
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out[0].x0, 0.0f);
    }
};

QTEST_GUILESS_MAIN(TestSliceGeometry)
#include "tst_slicegeometry.moc"
