// The interval index against a brute-force scan on random intervals.
#include "core/intervalindex.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace rankscope;

class TestIntervalIndex : public QObject {
    Q_OBJECT

    struct Intervals {
        std::vector<TimeNs> starts, ends;
    };

    static Intervals randomIntervals(std::mt19937_64 &rng, std::size_t n, TimeNs span, TimeNs maxLength)
    {
        std::uniform_int_distribution<TimeNs> at(0, span), length(0, maxLength);
        std::vector<std::pair<TimeNs, TimeNs>> v(n);
        for (auto &[s, e] : v) {
            s = at(rng);
            e = s + length(rng);
        }
        std::sort(v.begin(), v.end());
        Intervals r;
        for (auto [s, e] : v) {
            r.starts.push_back(s);
            r.ends.push_back(e);
        }
        return r;
    }

    static std::vector<std::uint32_t> bruteForce(const Intervals &iv, TimeNs lo, TimeNs hi)
    {
        std::vector<std::uint32_t> hits;
        for (std::size_t i = 0; i < iv.starts.size(); ++i)
            if (iv.starts[i] <= hi && iv.ends[i] >= lo)
                hits.push_back(std::uint32_t(i));
        return hits;
    }

private slots:
    void empty()
    {
        IntervalIndex index;
        index.build({}, {});
        QVERIFY(index.overlapping({}, {}, 0, 100).empty());
    }

    void matchesBruteForce_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<qint64>("maxLength");
        for (int n : {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100, 1000, 4097, 20000})
            for (qint64 len : {0LL, 10LL, 1000LL, 1000000LL})
                QTest::addRow("n=%d len=%lld", n, len) << n << len;
    }

    void matchesBruteForce()
    {
        QFETCH(int, count);
        QFETCH(qint64, maxLength);
        std::mt19937_64 rng(std::uint64_t(count) * 7919 + std::uint64_t(maxLength));
        const TimeNs span = 1000000;
        const Intervals iv = randomIntervals(rng, std::size_t(count), span, maxLength);
        IntervalIndex index;
        index.build(iv.starts, iv.ends);
        std::uniform_int_distribution<TimeNs> at(-1000, span + 1000), width(0, span / 10);
        for (int q = 0; q < 300; ++q) {
            const TimeNs lo = at(rng);
            const TimeNs hi = q % 3 == 0 ? lo : lo + width(rng); // every third is a point query
            QCOMPARE(index.overlapping(iv.starts, iv.ends, lo, hi), bruteForce(iv, lo, hi));
        }
    }

    void nestedAndZeroLength()
    {
        // A parent, nested children, and instants at the edges.
        const std::vector<TimeNs> starts{0, 0, 10, 20, 20, 100};
        const std::vector<TimeNs> ends{100, 5, 30, 20, 25, 100};
        IntervalIndex index;
        index.build(starts, ends);
        QCOMPARE(index.overlapping(starts, ends, 20, 20), (std::vector<std::uint32_t>{0, 2, 3, 4}));
        QCOMPARE(index.overlapping(starts, ends, 100, 100), (std::vector<std::uint32_t>{0, 5}));
        QCOMPARE(index.overlapping(starts, ends, 101, 200), std::vector<std::uint32_t>{});
        QCOMPARE(index.overlapping(starts, ends, 6, 9), (std::vector<std::uint32_t>{0}));
    }

    void longIntervalEarlyIsFoundLate()
    {
        // The first interval spans everything: the subtree max must carry it.
        Intervals iv;
        iv.starts.push_back(0);
        iv.ends.push_back(1000000);
        for (int i = 1; i < 5000; ++i) {
            iv.starts.push_back(i * 10);
            iv.ends.push_back(i * 10 + 1);
        }
        IntervalIndex index;
        index.build(iv.starts, iv.ends);
        QCOMPARE(index.overlapping(iv.starts, iv.ends, 999999, 999999), std::vector<std::uint32_t>{0});
    }
};

QTEST_APPLESS_MAIN(TestIntervalIndex)
#include "tst_intervalindex.moc"
