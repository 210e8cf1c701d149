// The aggregate columns, against values worked out by hand.
#include "stats/summary.h"

#include <QRandomGenerator>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace rankscope;

class TestSummary : public QObject {
    Q_OBJECT
private slots:
    void oddCount()
    {
        std::vector<std::int64_t> v{300, 100, 200};
        const Summary s = summarize(v);
        QCOMPARE(s.total, 600);
        QCOMPARE(s.count, 3);
        QCOMPARE(s.average, 200.0);
        QCOMPARE(s.median, 200.0);
        QCOMPARE(s.minimum, 100);
        QCOMPARE(s.maximum, 300);
        QCOMPARE(s.stdDev, 100.0); // sample: sqrt((100² + 0 + 100²) / 2)
    }

    void evenCountMedianIsMeanOfMiddle()
    {
        std::vector<std::int64_t> v{4, 1, 3, 2};
        const Summary s = summarize(v);
        QCOMPARE(s.median, 2.5);
        QVERIFY(qAbs(s.stdDev - 1.2909944487358056) < 1e-12);
    }

    void singleValueHasZeroDeviation()
    {
        std::vector<std::int64_t> v{42};
        const Summary s = summarize(v);
        QCOMPARE(s.stdDev, 0.0);
        QCOMPARE(s.median, 42.0);
    }

    void totalsSaturateInsteadOfOverflowing()
    {
        // Durations within the trace range (each up to 2^62 ns) or sizes
        // below 2^63 can sum past 2^63: the total clamps, nothing wraps.
        constexpr std::int64_t big = std::int64_t(1) << 62;
        constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
        std::vector<std::int64_t> v{big, big, big};
        QCOMPARE(summarize(v).total, most);
        QCOMPARE(summarize(v).median, double(big));
        const std::vector<std::int64_t> a{big, big}, b{big};
        const SortedRun runs[] = {{a, most, 0.0}, {b, big, 0.0}};
        const Summary merged = summarizeSortedRuns(runs);
        QCOMPARE(merged.total, most);
        QCOMPARE(merged.count, 3);
        QCOMPARE(merged.median, double(big));
    }

    void empty()
    {
        std::vector<std::int64_t> v;
        QCOMPARE(summarize(v).count, 0);
    }

    // Runs merged as stored per rank give what all their values give
    // together: few values in all (selected among copies) and many
    // (searched for in the runs), even and odd counts, repeated values,
    // negative ones, runs of one value.
    void sortedRunsGiveWhatAllValuesGive_data()
    {
        QTest::addColumn<int>("runs");
        QTest::addColumn<int>("longest");
        QTest::addColumn<int>("spread");
        QTest::addRow("few values") << 7 << 30 << 1000;
        QTest::addRow("many runs of one value") << 5000 << 1 << 1000000;
        QTest::addRow("many values, few distinct") << 20 << 3000 << 5;
        QTest::addRow("many values, wide") << 64 << 5000 << 2000000000;
        QTest::addRow("two long runs") << 2 << 100000 << 3000000;
    }

    void sortedRunsGiveWhatAllValuesGive()
    {
        QFETCH(int, runs);
        QFETCH(int, longest);
        QFETCH(int, spread);
        for (std::uint32_t seed = 1; seed <= 4; ++seed) {
            QRandomGenerator random(seed * 7919 + std::uint32_t(runs));
            std::vector<std::vector<std::int64_t>> parts(static_cast<std::size_t>(runs));
            std::vector<std::int64_t> all;
            for (auto &part : parts) {
                const int n = 1 + random.bounded(longest);
                for (int i = 0; i < n; ++i)
                    part.push_back(std::int64_t(random.bounded(spread)) - spread / 10);
                std::sort(part.begin(), part.end());
                all.insert(all.end(), part.begin(), part.end());
            }
            if (seed % 2 == 0 && all.size() % 2 == 1) { // an even count too
                parts.back().push_back(parts.back().back());
                all.push_back(parts.back().back());
            }
            std::vector<SortedRun> sorted;
            for (const auto &part : parts) {
                long double sum = 0;
                std::int64_t total = 0;
                for (const std::int64_t v : part) {
                    sum += v;
                    total += v;
                }
                long double squares = 0;
                for (const std::int64_t v : part)
                    squares += ((long double)v - sum / part.size()) * ((long double)v - sum / part.size());
                sorted.push_back({part, total, double(squares)});
            }
            const Summary merged = summarizeSortedRuns(sorted);
            const Summary direct = summarize(all);
            QCOMPARE(merged.count, direct.count);
            QCOMPARE(merged.total, direct.total);
            QCOMPARE(merged.minimum, direct.minimum);
            QCOMPARE(merged.maximum, direct.maximum);
            QCOMPARE(merged.average, direct.average);
            QCOMPARE(merged.median, direct.median);
            QVERIFY2(std::abs(merged.stdDev - direct.stdDev) <= 1e-12 * direct.stdDev,
                     qPrintable(QStringLiteral("%1 vs %2").arg(merged.stdDev, 0, 'g', 17).arg(direct.stdDev, 0, 'g', 17)));
        }
    }
};

QTEST_APPLESS_MAIN(TestSummary)
#include "tst_summary.moc"
