// Level-of-detail summaries against a brute force per bucket.
#include "core/lodsummary.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <random>

using namespace rankscope;

class TestLodSummary : public QObject {
    Q_OBJECT

    struct Expected {
        std::uint32_t count = 0;
        TimeNs busy = 0;
        TimeNs longest = -1;
    };

    // For every bucket of `width`: events starting in it, the covered time
    // inside it (union, by walking nanosecond-free interval arithmetic),
    // and the longest duration among the events starting in it.
    static std::map<std::int64_t, Expected> bruteForce(const std::vector<TimeNs> &s, const std::vector<TimeNs> &e, TimeNs width)
    {
        std::map<std::int64_t, Expected> out;
        for (std::size_t i = 0; i < s.size(); ++i) {
            Expected &x = out[LodSummary::bucketOf(s[i], width)];
            ++x.count;
            x.longest = std::max(x.longest, e[i] - s[i]);
        }
        // Union of intervals, then clip to each bucket.
        std::vector<std::pair<TimeNs, TimeNs>> merged;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (!merged.empty() && s[i] <= merged.back().second)
                merged.back().second = std::max(merged.back().second, e[i]);
            else
                merged.push_back({s[i], e[i]});
        }
        for (auto [a, b] : merged)
            for (std::int64_t k = LodSummary::bucketOf(a, width); k * width < b; ++k) {
                const TimeNs piece = std::min(b, (k + 1) * width) - std::max(a, k * width);
                if (piece > 0)
                    out[k].busy += piece;
            }
        std::erase_if(out, [](const auto &kv) { return kv.second.count == 0 && kv.second.busy == 0; });
        return out;
    }

private slots:
    void matchesBruteForce_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<qint64>("maxLength");
        for (int n : {1, 2, 17, 100, 3000})
            for (qint64 len : {0LL, 50LL, 5000LL, 400000LL})
                QTest::addRow("n=%d len=%lld", n, len) << n << len;
    }

    void matchesBruteForce()
    {
        QFETCH(int, count);
        QFETCH(qint64, maxLength);
        std::mt19937_64 rng(std::uint64_t(count) * 31 + std::uint64_t(maxLength));
        std::uniform_int_distribution<TimeNs> at(-5000, 1000000), length(0, maxLength);
        std::vector<std::pair<TimeNs, TimeNs>> v(static_cast<std::size_t>(count));
        for (auto &[s, e] : v) {
            s = at(rng);
            e = s + length(rng);
        }
        std::sort(v.begin(), v.end());
        std::vector<TimeNs> starts, ends;
        for (auto [s, e] : v) {
            starts.push_back(s);
            ends.push_back(e);
        }
        LodSummary lod;
        lod.build(starts, ends);
        QVERIFY(!lod.levels().empty());
        QVERIFY(lod.levels().back().size() <= 2); // one bucket, or two either side of 0
        for (const LodSummary::Level &level : lod.levels()) {
            const auto expected = bruteForce(starts, ends, level.width);
            QCOMPARE(level.size(), expected.size());
            std::size_t i = 0;
            for (const auto &[bucket, x] : expected) {
                QCOMPARE(level.bucket[i], bucket);
                QCOMPARE(level.count[i], x.count);
                QCOMPARE(level.busy[i], x.busy);
                if (x.count == 0) {
                    QCOMPARE(level.longest[i], LodSummary::kNoEvent);
                    QCOMPARE(level.longestStart[i], TimeNs(0));
                    QCOMPARE(level.longestEnd[i], TimeNs(0));
                } else {
                    const auto e = level.longest[i];
                    QCOMPARE(ends[e] - starts[e], x.longest);
                    QCOMPARE(LodSummary::bucketOf(starts[e], level.width), bucket);
                    // Its times, as the timeline draws it zoomed out.
                    QCOMPARE(level.longestStart[i], starts[e]);
                    QCOMPARE(level.longestEnd[i], ends[e]);
                }
                ++i;
            }
        }
    }

    void levelChoiceAndRangeLookup()
    {
        std::vector<TimeNs> starts, ends;
        for (int i = 0; i < 10000; ++i) {
            starts.push_back(i * 128); // a 128 ns period divides every bucket width
            ends.push_back(i * 128 + 64);
        }
        LodSummary lod;
        lod.build(starts, ends);
        const auto *fine = lod.levelFor(double(lod.levels().front().width) / 2);
        QVERIFY(fine == nullptr); // finer than level 0: draw the events
        const auto *level = lod.levelFor(1e5);
        QVERIFY(level);
        QVERIFY(level->width <= 100000);
        QVERIFY(level->width * 2 > 100000 || level == &lod.levels().back());
        const auto [first, last] = level->bucketsIn(250000, 350000);
        QVERIFY(last - first >= 3);
        QVERIFY(first < last);
        QVERIFY(level->bucket[first] * level->width <= 250000);
        QVERIFY((level->bucket[last - 1] + 1) * level->width > 350000);
        // The busy share is exactly one half everywhere inside.
        QCOMPARE(level->busy[first + 1] * 2, level->width);
        // Starts in a range, from the summary: at least the 781 events
        // starting in [250,000, 350,000], and at most two eighths more.
        const std::size_t exact = 350000 / 128 - 250000 / 128;
        QVERIFY(lod.startsAbout(250000, 350000) >= exact);
        QVERIFY(lod.startsAbout(250000, 350000) <= exact + exact / 4 + 4);
        QCOMPARE(lod.startsAbout(0, starts.back()), starts.size());
        QCOMPARE(lod.startsAbout(5, 4), std::size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestLodSummary)
#include "tst_lodsummary.moc"
