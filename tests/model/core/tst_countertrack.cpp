// Counter rows: the largest value in force over a range, read from block
// maxima, equals a scan of the samples; repeated samples of a metric are
// dropped without changing the step function.
#include "core/countertrack.h"

#include <QtTest>

#include <random>

using namespace rankscope;

namespace {

// The reference: every sample in force at some time in [from, to).
std::optional<double> scanLargest(const CounterTrack &c, TimeNs from, TimeNs to)
{
    std::optional<double> m;
    for (std::size_t i = 0; i < c.time.size(); ++i) {
        const TimeNs end = i + 1 < c.time.size() ? c.time[i + 1] : kTimeMax;
        if (c.time[i] < to && end > from)
            m = std::max(m.value_or(c.value[i]), c.value[i]);
    }
    return m;
}

} // namespace

class TestCounterTrack : public QObject {
    Q_OBJECT

private slots:
    void largestInMatchesAScan()
    {
        std::mt19937_64 rng(7);
        CounterTrack c;
        TimeNs t = 1000;
        for (int i = 0; i < 300000; ++i) { // several super-blocks
            t += 1 + TimeNs(rng() % 200);
            c.time.push_back(t);
            c.value.push_back(double(rng() % 1000));
        }
        c.finalize();
        QCOMPARE(c.largest(), *std::max_element(c.value.begin(), c.value.end()));
        QCOMPARE(c.smallest(), *std::min_element(c.value.begin(), c.value.end()));
        for (int q = 0; q < 300; ++q) {
            const TimeNs from = TimeNs(rng() % std::uint64_t(t + 5000));
            const TimeNs length = q % 3 == 0 ? TimeNs(rng() % 50) + 1 : TimeNs(rng() % std::uint64_t(t));
            QCOMPARE(c.largestIn(from, from + length), scanLargest(c, from, from + length));
        }
        QCOMPARE(c.largestIn(0, 1000), std::optional<double>()); // before the first sample
        QCOMPARE(c.largestIn(0, 1001 + 200 * 300000), std::optional<double>(c.largest()));
        QCOMPARE(c.largestIn(t + 10, t + 20), std::optional<double>(c.value.back())); // the last stays in force
    }

    // A frame's pixels read ranges left to right; the reader steps on from
    // the last range and searches afresh when a range starts earlier.
    void aForwardReaderMatchesAScan()
    {
        std::mt19937_64 rng(13);
        CounterTrack c;
        TimeNs t = 1000;
        for (int i = 0; i < 20000; ++i) { // several super-blocks
            t += 1 + TimeNs(rng() % 200);
            c.time.push_back(t);
            c.value.push_back(double(rng() % 1000));
            if (i % 1000 == 0) // runs of equal times across block edges
                for (int r = 0; r < 130; ++r, ++i) {
                    c.time.push_back(t);
                    c.value.push_back(double(rng() % 1000));
                }
        }
        c.finalize();
        for (const TimeNs pixel : {TimeNs(1), TimeNs(3), TimeNs(97), TimeNs(5000), t / 1500}) {
            CounterTrack::ForwardReader reader(c);
            for (TimeNs from = 900; from < t + 3 * pixel && from < 900 + 1600 * pixel; from += pixel)
                QCOMPARE(reader.largestIn(from, from + pixel), scanLargest(c, from, from + pixel));
        }
        CounterTrack::ForwardReader reader(c);
        for (int q = 0; q < 2000; ++q) { // mostly forward, now and then back
            const TimeNs from = q % 50 == 49 ? TimeNs(rng() % std::uint64_t(t)) : TimeNs(q) * (t / 2000);
            const TimeNs to = from + 1 + TimeNs(rng() % 20000);
            QCOMPARE(reader.largestIn(from, to), scanLargest(c, from, to));
        }
        QCOMPARE(reader.largestIn(5, 5), std::optional<double>());

        CounterTrack unfinished; // read without blocks
        unfinished.time = {10, 20, 30};
        unfinished.value = {1, 5, 2};
        CounterTrack::ForwardReader plain(unfinished);
        QCOMPARE(plain.largestIn(0, 10), std::optional<double>());
        QCOMPARE(plain.largestIn(15, 25), std::optional<double>(5));
        QCOMPARE(plain.largestIn(31, 40), std::optional<double>(2));
    }

    // Samples are found by the time of each block's first sample and then
    // within one block; runs of equal times that straddle blocks must not
    // move the sample in force.
    void queriesHoldWhereTimesRepeatAcrossBlocks()
    {
        std::mt19937_64 rng(11);
        CounterTrack c;
        for (int i = 0; i < 20000; ++i) {
            c.time.push_back(1000 + TimeNs(i / 100) * 7);
            c.value.push_back(double(rng() % 1000));
        }
        c.finalize();
        const TimeNs last = c.time.back();
        for (TimeNs from = 990; from <= last + 10; from += 3) {
            for (const TimeNs length : {TimeNs(1), TimeNs(7), TimeNs(50), TimeNs(2000)})
                QCOMPARE(c.largestIn(from, from + length), scanLargest(c, from, from + length));
            const auto after = std::size_t(std::upper_bound(c.time.begin(), c.time.end(), from) - c.time.begin());
            QCOMPARE(c.valueAt(from), after == 0 ? std::optional<double>() : std::optional<double>(c.value[after - 1]));
        }
    }

    // Memory in use: 0 until 100, 4 GiB from 100, 2 GiB from 300.
    void valueAtAndRangeSummaryFollowTheSteps()
    {
        CounterTrack c;
        c.time = {100, 300, 50};
        c.value = {4.0, 2.0, 0.0};
        c.finalize();
        QVERIFY(!c.valueAt(49));
        QCOMPARE(*c.valueAt(50), 0.0);
        QCOMPARE(*c.valueAt(299), 4.0);
        QCOMPARE(*c.valueAt(300), 2.0);
        QCOMPARE(*c.valueAt(1000000), 2.0);
        // [0, 400): nothing before 50, then 0 for 50 ns, 4 for 200, 2 for 100.
        const auto all = c.summaryIn(0, 400);
        QVERIFY(all);
        QCOMPARE(all->smallest, 0.0);
        QCOMPARE(all->largest, 4.0);
        QCOMPARE(all->mean, (0.0 * 50 + 4.0 * 200 + 2.0 * 100) / 350);
        // Inside one step: that value alone.
        const auto inside = c.summaryIn(150, 250);
        QCOMPARE(inside->smallest, 4.0);
        QCOMPARE(inside->largest, 4.0);
        QCOMPARE(inside->mean, 4.0);
        // Across a change: 4 for 50 ns, 2 for 150 ns.
        const auto across = c.summaryIn(250, 450);
        QCOMPARE(across->smallest, 2.0);
        QCOMPARE(across->mean, (4.0 * 50 + 2.0 * 150) / 200);
        QVERIFY(!c.summaryIn(0, 50));    // before the first sample
        QVERIFY(!c.summaryIn(400, 400)); // empty range
    }

    void repeatedValuesAreDropped()
    {
        CounterTrack c;
        c.time = {10, 20, 30, 40, 50, 60};
        c.value = {5, 5, 7, 7, 7, 5};
        c.dropRepeatedValues();
        QCOMPARE(c.time, (std::vector<TimeNs>{10, 30, 60}));
        QCOMPARE(c.value, (std::vector<double>{5, 7, 5}));
        c.finalize();
        QCOMPARE(c.largestIn(35, 45), std::optional<double>(7));
        QCOMPARE(c.largestIn(61, 70), std::optional<double>(5));
    }

    void outOfOrderSamplesAreSorted()
    {
        CounterTrack c;
        c.time = {300, 100, 200};
        c.value = {80, 20, 50};
        c.finalize();
        QCOMPARE(c.time, (std::vector<TimeNs>{100, 200, 300}));
        QCOMPARE(c.value, (std::vector<double>{20, 50, 80}));
        QCOMPARE(c.largestIn(100, 250), std::optional<double>(50));
    }
};

QTEST_APPLESS_MAIN(TestCounterTrack)
#include "tst_countertrack.moc"
