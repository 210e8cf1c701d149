// The steps of matching collectives across ranks (stats/ranks/collectivematching.h),
// each on operations written by hand: the tolerance, the clock shift, the
// order by sequence numbers, the greedy instances with skips and extras,
// and the arrivals measured.
#include "stats/ranks/collectivematching.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::stats;

namespace {

CollectiveOp op(TimeNs start, TimeNs end, std::int64_t sequence = -1, CollectiveKind kind = CollectiveKind::AllReduce)
{
    CollectiveOp o;
    o.start = start;
    o.end = end;
    o.sequence = sequence;
    o.kind = kind;
    o.name = QStringLiteral("allreduce");
    return o;
}

// `count` all-reduces every `period` ns from `first`, each `length` long.
std::vector<CollectiveOp> every(TimeNs first, TimeNs period, int count, TimeNs length = 1'000)
{
    std::vector<CollectiveOp> ops;
    for (int i = 0; i < count; ++i)
        ops.push_back(op(first + i * period, first + i * period + length));
    return ops;
}

} // namespace

class TestCollectiveMatching : public QObject {
    Q_OBJECT

private slots:
    void toleranceIsHalfTheMedianSpacing()
    {
        OpsPerRank perRank;
        perRank[0] = every(0, 10'000, 5);
        perRank[1] = every(0, 30'000, 3);
        // Spacings 10 µs ×4 and 30 µs ×2: the median 10 µs.
        QCOMPARE(matchingTolerance(perRank), TimeNs(5'000));
        OpsPerRank single{{0, every(0, 1, 1)}};
        QVERIFY(matchingTolerance(single) > TimeNs(1'000'000'000'000)); // one operation a rank: anything matches
    }

    void shiftFindsAClockOffsetLongerThanASpacing()
    {
        // Rank 1's clock runs 35 µs ahead, three and a half spacings: pairing
        // ends in order would match each with the wrong one.
        const std::vector<CollectiveOp> reference = every(100'000, 10'000, 20);
        const std::vector<CollectiveOp> ahead = every(135'000 + 200, 10'000, 20);
        const TimeNs shift = matchingShift(reference, ahead, 5'000);
        QCOMPARE(shift, TimeNs(-35'200));
        // A rank that skipped the first operation is not shifted by a step.
        std::vector<CollectiveOp> skipped(reference.begin() + 1, reference.end());
        QCOMPARE(matchingShift(reference, skipped, 5'000), TimeNs(0));
    }

    void sequenceNumbersOrderWhenEveryOperationHasOne()
    {
        OpsPerRank perRank;
        perRank[0] = {op(0, 10, 1), op(20, 30, 0)}; // recorded out of order
        perRank[1] = {op(500, 510, 0), op(900, 910, 1)};
        const MatchingOrder order = orderForMatching(perRank);
        QVERIFY(order.bySequence);
        QCOMPARE(order.tolerance, TimeNs(0));
        QCOMPARE(perRank[0].front().sequence, std::int64_t(0));
        QCOMPARE(order.keyOf(1, perRank[1].back()), TimeNs(1));
        // A send among them (numbered apart), or one operation without a
        // number: by time.
        perRank[1].push_back(op(1000, 1010, 2, CollectiveKind::Send));
        QVERIFY(!orderForMatching(perRank).bySequence);
        OpsPerRank unnumbered{{0, {op(0, 10, 0)}}, {1, {op(0, 10)}}};
        QVERIFY(!orderForMatching(unnumbered).bySequence);
    }

    void byTimeTheShiftIsAppliedToTheKey()
    {
        OpsPerRank perRank;
        perRank[0] = every(100'000, 10'000, 10);
        perRank[1] = every(147'000, 10'000, 10);
        const MatchingOrder order = orderForMatching(perRank);
        QVERIFY(!order.bySequence);
        QCOMPARE(order.tolerance, TimeNs(5'000));
        QCOMPARE(order.shift.at(0), TimeNs(0));
        QCOMPARE(order.shift.at(1), TimeNs(-47'000));
        QCOMPARE(order.keyOf(1, perRank[1].front()), perRank[0].front().end);
    }

    void instancesTakeEachRanksNextOperationTogether()
    {
        // Rank 2 skips the third all-reduce; rank 1 has an extra one at the
        // end that nobody else joins.
        OpsPerRank perRank;
        perRank[0] = every(0, 10'000, 5);
        perRank[1] = every(300, 10'000, 6);
        perRank[2] = every(600, 10'000, 5);
        perRank[2].erase(perRank[2].begin() + 2);
        MatchingOrder order;
        order.tolerance = 5'000;
        const CommunicatorMatch m = matchCommunicator(QStringLiteral("pg 0"), perRank, order);
        QCOMPARE(m.instances.size(), std::size_t(5)); // the extra one is no instance
        QCOMPARE(m.instances[2].arrivals.size(), std::size_t(2));
        QCOMPARE(m.instances[3].arrivals.size(), std::size_t(3));
        for (std::size_t i = 0; i < m.instances.size(); ++i) {
            QCOMPARE(m.instances[i].sequence, i);
            QCOMPARE(m.instances[i].communicator, QStringLiteral("pg 0"));
        }
        // Rank 2 skipped one (the third, #2); rank 0 has fewer than rank 1 at the end.
        QCOMPARE(m.desyncs.size(), std::size_t(2));
        const auto desyncOf = [&](int rankIndex) {
            return *std::find_if(m.desyncs.begin(), m.desyncs.end(), [&](const CommunicatorDesync &d) { return d.rankIndex == rankIndex; });
        };
        QCOMPARE(desyncOf(2).skipped, std::size_t(1));
        QCOMPARE(desyncOf(2).firstMissing, std::optional<std::size_t>(2));
        QCOMPARE(desyncOf(2).expected, std::size_t(6));
        QCOMPARE(desyncOf(0).skipped, std::size_t(0));
        QVERIFY(!desyncOf(0).firstMissing);
    }

    void arrivalsAreMeasured()
    {
        CollectiveInstance c;
        c.arrivals = {{0, {}, 500, 2'000, std::nullopt},
                      {1, {}, 900, 2'100, std::nullopt},
                      {2, {}, 900, 2'050, std::nullopt},
                      {3, {}, 100, 2'000, std::nullopt}};
        measureInstance(c);
        QCOMPARE(c.firstArrival, TimeNs(100));
        QCOMPARE(c.lastArrival, TimeNs(900));
        QCOMPARE(c.lastRankIndex, 1); // the first of the two last
        QCOMPARE(c.end, TimeNs(2'100));
        QCOMPARE(c.skew(), TimeNs(800));
    }
};

QTEST_GUILESS_MAIN(TestCollectiveMatching)
#include "tst_collectivematching.moc"
