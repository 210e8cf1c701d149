// Sorting, nesting depth and queries of a finalized slice track.
#include "core/slicetrack.h"

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

    // Implied columns give back exactly what was appended, and cost nothing.
    void impliedColumnsReadBackTheSame_data()
    {
        QTest::addColumn<std::vector<std::uint32_t>>("payloads");
        QTest::addColumn<bool>("stored");
        QTest::newRow("side table in track order") << std::vector<std::uint32_t>{7, 8, 9, 10, 11} << false;
        QTest::newRow("no side table") << std::vector<std::uint32_t>{0, 0, 0, 0, 0} << false;
        QTest::newRow("one event") << std::vector<std::uint32_t>{42} << false;
        QTest::newRow("rows shared with another track") << std::vector<std::uint32_t>{3, 5, 7, 9, 11} << true;
        QTest::newRow("out of order") << std::vector<std::uint32_t>{1, 2, 4, 3, 5} << true;
        QTest::newRow("counting on past 2^32") << std::vector<std::uint32_t>{0xffffffffu, 0, 1} << false;
    }

    void impliedColumnsReadBackTheSame()
    {
        QFETCH(std::vector<std::uint32_t>, payloads);
        QFETCH(bool, stored);
        SliceTrack t;
        for (std::size_t i = 0; i < payloads.size(); ++i)
            t.append(TimeNs(i) * 10, TimeNs(i) * 10 + 5, 1, payloads[i]); // flat: nothing nests
        t.finalize();
        for (std::size_t i = 0; i < payloads.size(); ++i) {
            QCOMPARE(t.payload(i), payloads[i]);
            QCOMPARE(t.depth(i), std::uint16_t(0));
        }
        // The same times with payloads that must be stored: the difference
        // is the payload column, or nothing.
        if (payloads.size() > 1) {
            SliceTrack twin;
            for (std::size_t i = 0; i < payloads.size(); ++i)
                twin.append(TimeNs(i) * 10, TimeNs(i) * 10 + 5, 1, std::uint32_t(i % 2) * 7);
            twin.finalize();
            const std::size_t column = payloads.size() * sizeof(std::uint32_t);
            QCOMPARE(t.memoryBytes() + (stored ? 0 : column), twin.memoryBytes());
        }
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
