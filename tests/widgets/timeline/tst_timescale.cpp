// Time <-> pixel mapping and adaptive ruler ticks.
#include "timeline/timescale.h"

#include <QtTest>

using namespace rankscope;

class TestTimeScale : public QObject {
    Q_OBJECT
private slots:
    void mapsBothWays()
    {
        const TimeScale s = TimeScale::fit({1000, 3000}, 200);
        QCOMPARE(s.nsPerPixel, 10.0);
        QCOMPARE(s.x(1500), 50.0);
        QCOMPARE(s.time(50), TimeNs(1500));
    }

    void niceSteps_data()
    {
        QTest::addColumn<double>("minimum");
        QTest::addColumn<qint64>("step");
        QTest::newRow("1") << 0.5 << 1LL;
        QTest::newRow("2") << 1.5 << 2LL;
        QTest::newRow("5") << 3.0 << 5LL;
        QTest::newRow("10") << 7.0 << 10LL;
        QTest::newRow("200us") << 150000.0 << 200000LL;
        QTest::newRow("5s") << 4.2e9 << 5000000000LL;
    }

    void niceSteps()
    {
        QFETCH(double, minimum);
        QFETCH(qint64, step);
        QCOMPARE(niceStep(minimum), step);
    }

    void tickLabelsUseTheStepsUnit_data()
    {
        QTest::addColumn<qint64>("relative");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<QString>("label");
        QTest::newRow("seconds") << 2000000000LL << 1000000000LL << "2 s";
        QTest::newRow("half seconds") << 1500000000LL << 500000000LL << "1500 ms";
        QTest::newRow("ms") << 7500000LL << 500000LL << "7500 µs";
        QTest::newRow("tenths of ms") << 7200000LL << 100000LL << "7200 µs";
        QTest::newRow("ns") << 40LL << 20LL << "40 ns";
        QTest::newRow("20ms steps") << 9640000000LL << 20000000LL << "9640 ms";
    }

    void tickLabelsUseTheStepsUnit()
    {
        QFETCH(qint64, relative);
        QFETCH(qint64, step);
        QFETCH(QString, label);
        QCOMPARE(formatTickLabel(relative, step), label);
    }

    void ticksCoverTheRangeAtLeastMinSpacingApart()
    {
        const TimeNs zero = 1000000;
        const RulerTicks ruler = rulerTicks({zero + 3500, zero + 1003500}, zero, 1000, 100);
        QVERIFY(!ruler.hasBase); // labels near the start read as they are
        const auto &ticks = ruler.ticks;
        QVERIFY(ticks.size() >= 5);
        for (std::size_t i = 1; i < ticks.size(); ++i)
            QVERIFY(ticks[i].time - ticks[i - 1].time >= 100000); // 100 px at 1000 ns/px
        QVERIFY(ticks.front().time >= zero + 3500);
        QVERIFY(ticks.back().time <= zero + 1003500);
        QCOMPARE((ticks.front().time - zero) % (ticks[1].time - ticks[0].time), TimeNs(0));
    }

    // Half-second ticks over seconds: "5.5 s", shorter than "5500 ms", and
    // every label in the same unit.
    void labelsTakeTheUnitThatWritesThemShortest()
    {
        const RulerTicks ruler = rulerTicks({4600000000, 8603000000}, 0, 400, 40);
        QCOMPARE(ruler.step, TimeNs(500000000));
        QStringList labels;
        for (const RulerTick &tick : ruler.ticks)
            labels << tick.label;
        QCOMPARE(labels, (QStringList{"5.0 s", "5.5 s", "6.0 s", "6.5 s", "7.0 s", "7.5 s", "8.0 s", "8.5 s"}));
        // Microsecond steps near the start stay in µs: seconds would be longer.
        const RulerTicks fine = rulerTicks({0, 1000000}, 0, 1000, 100);
        QCOMPARE(fine.ticks[1].label, QStringLiteral("100 µs"));
    }

    // 100 µs seen 7.096 s into the run: "7.096 s" once, then "+50 µs".
    void zoomedInFarFromTheStartTicksCountFromABase()
    {
        const TimeNs zero = 1000000;
        const TimeNs at = zero + 7096050123;
        const RulerTicks ruler = rulerTicks({at, at + 100000}, zero, 1000, 100);
        QCOMPARE(ruler.step, TimeNs(10000));
        QVERIFY(ruler.hasBase);
        QCOMPARE(ruler.baseLabel, QStringLiteral("7.096 s"));
        QCOMPARE(ruler.base, zero + 7096000000);
        QCOMPARE(ruler.ticks.front().time, zero + 7096060000);
        QCOMPARE(ruler.ticks.front().label, QStringLiteral("+60 µs"));
        QCOMPARE(ruler.ticks.back().label, QStringLiteral("+150 µs"));
        // Zoomed out the same place reads from the start.
        QVERIFY(!rulerTicks({zero, zero + 10000000000}, zero, 1000, 100).hasBase);
        // Nanoseconds deep into a long run: the base keeps its digits.
        const RulerTicks deep = rulerTicks({zero + 3600000000123, zero + 3600000000323}, zero, 1000, 100);
        QVERIFY(deep.hasBase);
        QCOMPARE(deep.baseLabel, QStringLiteral("3600.000 00 s"));
        QCOMPARE(deep.ticks.front().label, QStringLiteral("+140 ns"));
        // Offsets past a thousand steps read in the larger unit: 1.2 ms seen
        // 7.724 s in, 200 µs apart, from a base of 7.7 s.
        const RulerTicks copy = rulerTicks({zero + 7724000000, zero + 7725200000}, zero, 600, 100);
        QCOMPARE(copy.step, TimeNs(200000));
        QCOMPARE(copy.baseLabel, QStringLiteral("7.7 s"));
        QCOMPARE(copy.ticks.front().label, QStringLiteral("+24.0 ms"));
        QCOMPARE(copy.ticks[1].label, QStringLiteral("+24.2 ms"));
    }
};

QTEST_GUILESS_MAIN(TestTimeScale)
#include "tst_timescale.moc"
