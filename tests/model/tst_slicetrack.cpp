// Sorting, nesting depth and queries of a finalized slice track.
#include "slicetrack.h"

#include <QtTest>

using namespace rankscope;

class TestSliceTrack : public QObject {
    Q_OBJECT
private slots:
    void sortsParentsBeforeChildrenAndAssignsDepth()
    {
        SliceTrack t;
        // Appended out of order: child, parent, grandchild, sibling.
        t.append(10, 20, 2, 102);
        t.append(0, 100, 1, 101);
        t.append(12, 15, 3, 103);
        t.append(30, 40, 4, 104);
        t.append(10, 20, 5, 105); // same bounds as the first child
        t.finalize();
        QCOMPARE(t.size(), std::size_t(5));
        QCOMPARE(t.name(0), StringId(1));
        QCOMPARE(t.depth(0), std::uint16_t(0));
        QCOMPARE(t.depth(1), std::uint16_t(1));
        QCOMPARE(t.depth(2), std::uint16_t(2)); // equal bounds nest
        QCOMPARE(t.depth(3), std::uint16_t(3));
        QCOMPARE(t.payload(3), std::uint32_t(103));
        QCOMPARE(t.depth(4), std::uint16_t(1));
        QCOMPARE(t.maxDepth(), std::uint16_t(3));
        QCOMPARE(t.extent().start, TimeNs(0));
        QCOMPARE(t.extent().end, TimeNs(100));
        QCOMPARE(t.overlapping(35, 35), (std::vector<std::uint32_t>{0, 4}));
    }

    void instantsDoNotOpenALevel()
    {
        SliceTrack t;
        t.append(5, 5, 1, 0);
        t.append(5, 10, 2, 0);
        t.finalize();
        QCOMPARE(t.depth(0), std::uint16_t(0)); // the longer one sorts first
        QCOMPARE(t.duration(0), TimeNs(5));
        QCOMPARE(t.depth(1), std::uint16_t(1));
    }

    void emptyTrack()
    {
        SliceTrack t;
        t.finalize();
        QVERIFY(t.isEmpty());
        QVERIFY(t.extent().isEmpty());
        QVERIFY(t.overlapping(0, 10).empty());
    }
};

QTEST_APPLESS_MAIN(TestSliceTrack)
#include "tst_slicetrack.moc"
