// Collectives across ranks: matching, arrivals, skew, waits, who made whom
// wait and why, bandwidth as nccl-tests define it, desyncs and clock
// offsets. Planted-truth traces written here, then the real 2-rank sets.
#include "analysisinputs.h"
#include "core/units.h"
#include "session/session.h"
#include "sqlquery.h"
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/cpucommunication.h"
#include "stats/ranks/rankcomparison.h"
#include "stats/ranks/ranktimemap.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QProcess>
#include <QtTest>
#include <functional>
#include <map>
#include <set>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

// A Kineto trace of one rank, times in µs. Each collective is launched by
// a cudaLaunchKernel at `launch` and runs on stream 20 from `start` to
// `end`; a compute kernel on stream 7 runs from 0 to `computeEnd`.
struct PlantedCollective {
    double launch, start, end;
};

QString rankTrace(int rank, int ranks, long long baseNs, double computeEnd, const std::vector<PlantedCollective> &collectives,
                  bool withSequence = false)
{
    QString events =
        QString::fromLatin1(
            R"json({"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 0.0, "dur": %1, "args": {"correlation": 1, "device": 0, "stream": 7}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1000, "tid": 1000, "ts": 0.0, "dur": 2.0, "args": {"correlation": 1}})json")
            .arg(computeEnd, 0, 'f', 1);
    int correlation = 100;
    for (const PlantedCollective &c : collectives) {
        events += QString::fromLatin1(R"json(,
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1000, "tid": 1000, "ts": %1, "dur": 5.0, "args": {"correlation": %2}},
 {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", "pid": 0, "tid": 20, "ts": %3, "dur": %4,
  "args": {"correlation": %2, "device": 0, "stream": 20, "Collective name": "allreduce", "dtype": "Float", "In msg nelems": 262144, "Out msg nelems": 262144,
           "Group size": %5, "Process Group Name": "0", "Process Group Ranks": "[0, 1, 2]"%6}})json")
                      .arg(c.launch, 0, 'f', 1)
                      .arg(correlation)
                      .arg(c.start, 0, 'f', 1)
                      .arg(c.end - c.start, 0, 'f', 1)
                      .arg(ranks)
                      .arg(withSequence ? QStringLiteral(", \"Seq\": %1, \"Rank\": %2").arg(correlation - 100).arg(rank) : QString());
        ++correlation;
    }
    return QString::fromLatin1(
               R"json({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": %1, "world_size": %2}, "baseTimeNanoseconds": %3,
 "traceEvents": [%4]})json")
        .arg(rank)
        .arg(ranks)
        .arg(baseNs)
        .arg(events);
}

constexpr long long kBase = 1790857026000000000LL;

} // namespace

class TestCollectives : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    Session plantedSession(long long rank1ClockShiftNs = 0)
    {
        // Collective 0: rank 2's compute runs to 400 µs, the others' to
        // 100; the all-reduce starts after it and ends at 500 everywhere.
        // Collective 1: rank 1's host launches it 500 µs late (1500, not
        // 1000); its GPU is idle meanwhile; ends at 1600.
        // Rank 0 alone issues a third all-reduce (a desync).
        const QString sub = QStringLiteral("planted%1").arg(rank1ClockShiftNs);
        QDir(m_dir.path()).mkpath(sub);
        QStringList paths;
        const double compute[] = {100, 100, 400};
        for (int r = 0; r < 3; ++r) {
            std::vector<PlantedCollective> c{{50, compute[r], 500}, {r == 1 ? 1500.0 : 1000.0, r == 1 ? 1510.0 : 1010.0, 1600}};
            if (r == 0)
                c.push_back({1990, 2000, 2100});
            paths << writeFile(m_dir, sub + QStringLiteral("/rank%1.json").arg(r),
                               rankTrace(r, 3, kBase + (r == 1 ? rank1ClockShiftNs : 0), compute[r], c).toUtf8());
        }
        return Session::load(paths);
    }

private slots:
    void kindsFromNames()
    {
        QCOMPARE(collectiveKindOf("allreduce", "whatever"), CollectiveKind::AllReduce);
        QCOMPARE(collectiveKindOf("_reduce_scatter_base", ""), CollectiveKind::ReduceScatter);
        QCOMPARE(collectiveKindOf("_allgather_base", ""), CollectiveKind::AllGather);
        QCOMPARE(collectiveKindOf("", "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL"), CollectiveKind::ReduceScatter);
        QCOMPARE(collectiveKindOf("", "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"),
                 CollectiveKind::SendRecv);
        QCOMPARE(collectiveKindOf("", "ncclDevKernel_Broadcast_RING_LL"), CollectiveKind::Broadcast);
        QCOMPARE(collectiveKindOf("", "ncclDevKernel_Reduce_Sum_f32_RING_LL"), CollectiveKind::Reduce);
        QCOMPARE(collectiveKindOf("send", ""), CollectiveKind::Send);
        // nccl-tests: busBw = algBw x 2(n-1)/n for all-reduce, (n-1)/n for
        // all-gather and reduce-scatter, 1 for broadcast, reduce, send/recv.
        QCOMPARE(busBandwidthFactor(CollectiveKind::AllReduce, 8), 1.75);
        QCOMPARE(busBandwidthFactor(CollectiveKind::AllGather, 8), 0.875);
        QCOMPARE(busBandwidthFactor(CollectiveKind::ReduceScatter, 4), 0.75);
        QCOMPARE(busBandwidthFactor(CollectiveKind::Broadcast, 8), 1.0);
        QCOMPARE(busBandwidthFactor(CollectiveKind::SendRecv, 2), 1.0);
    }

    void plantedStragglersAreFound()
    {
        QVERIFY(m_dir.isValid());
        const Session session = plantedSession();
        QCOMPARE(session.ranks().size(), std::size_t(3));
        QVERIFY(session.failures().empty());
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        QCOMPARE(match.instances.size(), std::size_t(2));
        auto rankOf = [&](int rankIndex) { return session.ranks()[std::size_t(rankIndex)].rank; };

        const CollectiveInstance &first = match.instances[0];
        QCOMPARE(first.communicator, QStringLiteral("0"));
        QCOMPARE(first.sequence, std::size_t(0));
        QCOMPARE(first.kind, CollectiveKind::AllReduce);
        QCOMPARE(first.name, QStringLiteral("allreduce"));
        QCOMPARE(first.arrivals.size(), std::size_t(3));
        QCOMPARE(first.bytes, std::int64_t(262144 * 4));
        QCOMPARE(first.groupSize, 3);
        QCOMPARE(rankOf(first.lastRankIndex), 2);
        QCOMPARE(first.skew(), TimeNs(300'000));
        QCOMPARE(first.transfer(), TimeNs(100'000));
        // 1 MiB in 100 µs: 10.48576 GB/s; x 2(3-1)/3 on the bus.
        QCOMPARE(*first.algorithmBandwidth(), 1048576.0 / 100000.0);
        QVERIFY(qFuzzyCompare(*first.busBandwidth(), 1048576.0 / 100000.0 * 4.0 / 3.0));

        const CollectiveInstance &second = match.instances[1];
        QCOMPARE(second.sequence, std::size_t(1));
        QCOMPARE(rankOf(second.lastRankIndex), 1);
        QCOMPARE(second.skew(), TimeNs(500'000));

        // Rank 0 issued a third all-reduce the others never reached: they
        // are behind, they skipped nothing.
        QCOMPARE(match.desyncs.size(), std::size_t(2));
        for (const CommunicatorDesync &d : match.desyncs) {
            QVERIFY(rankOf(d.rankIndex) == 1 || rankOf(d.rankIndex) == 2);
            QCOMPARE(d.operations, std::size_t(2));
            QCOMPARE(d.expected, std::size_t(3));
            QCOMPARE(d.skipped, std::size_t(0));
            QVERIFY(!d.firstMissing);
        }
        QVERIFY2(match.notes.join(QLatin1Char('\n')).contains(QLatin1String("Desync on 0: rank 1 has 2 operations, another rank 3 (1 behind")),
                 qPrintable(match.notes.join(QLatin1Char('\n'))));

        const std::vector<RankWait> waits = rankWaits(session, match, {}, KernelClassifier::rankscope());
        QCOMPARE(waits.size(), std::size_t(3));
        for (const RankWait &w : waits) {
            QCOMPARE(w.collectives, std::size_t(2));
            QCOMPARE(w.late, w.lateCompute + w.lateIdle + w.lateHost);
            switch (w.rank) {
            case 0:
                QCOMPARE(w.timesLast, std::size_t(0));
                QCOMPARE(w.delayCaused, TimeNs(0));
                QCOMPARE(w.waited, TimeNs(800'000));
                QCOMPARE(w.late, TimeNs(0));
                break;
            case 1: // late at the second by its host: 490 µs idle before the launch, 10 µs of launch
                QCOMPARE(w.timesLast, std::size_t(1));
                QCOMPARE(w.delayCaused, TimeNs(1'000'000));
                QCOMPARE(w.waited, TimeNs(300'000));
                QCOMPARE(w.late, TimeNs(500'000));
                QCOMPARE(w.lateCompute, TimeNs(0));
                QCOMPARE(w.lateIdle, TimeNs(490'000));
                QCOMPARE(w.lateHost, TimeNs(10'000));
                break;
            case 2: // late at the first by its own compute
                QCOMPARE(w.timesLast, std::size_t(1));
                QCOMPARE(w.delayCaused, TimeNs(600'000));
                QCOMPARE(w.waited, TimeNs(500'000));
                QCOMPARE(w.late, TimeNs(300'000));
                QCOMPARE(w.lateCompute, TimeNs(300'000));
                break;
            default:
                QFAIL("unexpected rank");
            }
        }

        // Each arrival's kernel finds its instance, on its stream's row and
        // on the NCCL lane.
        for (const CollectiveInstance &c : match.instances)
            for (const CollectiveArrival &a : c.arrivals)
                QCOMPARE(instanceOfKernel(session, match, a.kernel), &c);
        const Report &rank0 = *session.ranks()[0].report;
        int ncclLanes = 0;
        for (std::uint32_t t = 0; t < rank0.tracks.size(); ++t)
            if (rank0.tracks[t].kind == TrackKind::NcclKernels) {
                ++ncclLanes;
                QCOMPARE(instanceOfKernel(session, match, {0, t, 0}), &match.instances[0]);
            }
        QCOMPARE(ncclLanes, 1);

        // The CLI's tables.
        const ResultTable collectives = collectivesTable(session, match);
        QCOMPARE(collectives.headers.join(QLatin1Char(',')), QStringLiteral("Index,Communicator,Sequence,Name,Ranks,Bytes,First Arrival (ns),Last "
                                                                            "Arrival (ns),Last Rank,Skew (ns),End (ns),Bus Bandwidth (GB/s)"));
        QCOMPARE(collectives.rowCount(), std::size_t(2));
        QCOMPARE(collectives.allRows()[0][8].integer, std::int64_t(2));
        QCOMPARE(collectives.allRows()[0][9].integer, std::int64_t(300'000));
        const ResultTable ranks = rankWaitTable(session, match, {}, KernelClassifier::rankscope());
        QCOMPARE(ranks.headers.join(QLatin1Char(',')),
                 QStringLiteral("Rank,Collectives,Times Last,Delay Caused (ns),Waited (ns),Late: Compute (%),Late: Idle (%),Late: Host (%)"));
        QCOMPARE(ranks.rowCount(), std::size_t(3));
    }

    void oneRanksExtraOperationIsNoSkipByTheOthers()
    {
        // Rank 0 runs an all-reduce between the two both ranks run: an
        // extra operation (one arrival: no instance); rank 1 skipped
        // nothing it could have taken part in, it only has fewer.
        const QString sub = QStringLiteral("extra");
        QDir(m_dir.path()).mkpath(sub);
        const QString rank0 = writeFile(m_dir, sub + QStringLiteral("/rank0.json"),
                                        rankTrace(0, 2, kBase, 100, {{50, 100, 500}, {690, 700, 800}, {1490, 1500, 1600}}).toUtf8());
        const QString rank1 =
            writeFile(m_dir, sub + QStringLiteral("/rank1.json"), rankTrace(1, 2, kBase, 100, {{50, 100, 500}, {1490, 1500, 1600}}).toUtf8());
        const Session session = Session::load({rank0, rank1});
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        QCOMPARE(match.instances.size(), std::size_t(2));
        QCOMPARE(match.instances[1].end, match.instances[1].arrivals[0].end);
        QCOMPARE(match.instances[1].arrivals[0].end, match.instances[1].arrivals[1].end);
        QCOMPARE(match.desyncs.size(), std::size_t(1));
        QCOMPARE(session.ranks()[std::size_t(match.desyncs[0].rankIndex)].rank, 1);
        QCOMPARE(match.desyncs[0].skipped, std::size_t(0));
    }

    void waitsFillTheRankTimeMap()
    {
        // The planted waits in 100 µs bins from the traces' time 0: ranks 0
        // and 1 wait for rank 2 from 100 to 400 µs; ranks 0 and 2 wait for
        // rank 1 from 1010 to 1510 µs (0.9 of bin 10, 0.1 of bin 15).
        const Session session = plantedSession();
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        const TimeNs zero = match.instances[0].firstArrival - 100'000;
        const RankTimeMap map = collectiveWaitMap(session, match, {zero, zero + 2'000'000}, 20);
        auto rowOf = [&](int rank) {
            for (std::size_t row = 0; row < map.rankIndices.size(); ++row)
                if (session.ranks()[std::size_t(map.rankIndices[row])].rank == rank)
                    return row;
            return std::size_t(0);
        };
        std::map<int, std::vector<float>> expected;
        expected[0] = {0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0.9f, 1, 1, 1, 1, 0.1f, 0, 0, 0, 0};
        expected[1] = {0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        expected[2] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.9f, 1, 1, 1, 1, 0.1f, 0, 0, 0, 0};
        for (const auto &[rank, shares] : expected)
            for (int bin = 0; bin < 20; ++bin) {
                const float share = map.share(rowOf(rank), bin);
                // Ranks 1 and 2 recorded nothing after 1600 µs.
                if (rank != 0 && bin >= 17)
                    QVERIFY2(std::isnan(share), qPrintable(QStringLiteral("rank %1 bin %2").arg(rank).arg(bin)));
                else
                    QVERIFY2(std::abs(share - shares[std::size_t(bin)]) < 1e-6f,
                             qPrintable(QStringLiteral("rank %1 bin %2: %3").arg(rank).arg(bin).arg(share)));
            }
    }

    void busyWithoutWaitsIsTheBusyTimeLessTheWaits()
    {
        // The waits lie inside the planted communication kernels, so busy
        // without waits is busy less waits in every bin: 0 where a rank
        // only waited (rank 0 in bins 1-3), its busy share where it waited
        // for nobody (rank 2 then, the straggler).
        const Session session = plantedSession();
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        const TimeNs zero = match.instances[0].firstArrival - 100'000;
        const TimeRange range{zero, zero + 2'000'000};
        const RankTimeMap busy = gpuBusyMap(session, range, 20);
        const RankTimeMap waits = collectiveWaitMap(session, match, range, 20);
        const RankTimeMap without = gpuBusyWithoutWaitMap(session, match, range, 20);
        QCOMPARE(without.rankIndices, busy.rankIndices);
        int straggling = 0;
        for (std::size_t row = 0; row < busy.rankIndices.size(); ++row)
            for (int bin = 0; bin < 20; ++bin) {
                const float b = busy.share(row, bin), w = waits.share(row, bin), x = without.share(row, bin);
                QCOMPARE(std::isnan(x), std::isnan(b));
                if (std::isnan(x))
                    continue;
                // gpuBusyMap may read summaries, off by at most 2 / kSummaryBucketsPerBin.
                QVERIFY2(std::abs(x - (b - w)) <= 2.0f / kSummaryBucketsPerBin + 1e-6f,
                         qPrintable(QStringLiteral("row %1 bin %2: %3 vs %4 - %5").arg(row).arg(bin).arg(x).arg(b).arg(w)));
                straggling += (w == 0 && b > 0.5f && x == b);
            }
        QVERIFY(straggling > 0);
        const auto rank0 = std::size_t(
            std::find_if(busy.rankIndices.begin(), busy.rankIndices.end(), [&](int i) { return session.ranks()[std::size_t(i)].rank == 0; })
            - busy.rankIndices.begin());
        for (int bin : {1, 2, 3})
            QCOMPARE(without.share(rank0, bin), 0.0f);
    }

    void scopeKeepsCollectivesStartingInIt()
    {
        const Session session = plantedSession();
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        StatsScope scope;
        scope.range = TimeRange{900'000, 2'000'000}; // the second collective only
        for (const RankWait &w : rankWaits(session, match, scope, KernelClassifier::rankscope())) {
            QCOMPARE(w.collectives, std::size_t(1));
            QCOMPARE(w.timesLast, std::size_t(w.rank == 1 ? 1 : 0));
        }
    }

    void clocksAlignOnCollectiveEnds()
    {
        // Same host: every end lines up, no correction.
        {
            const Session session = plantedSession();
            const auto clocks = alignOnCollectives(session, matchCollectives(session, KernelClassifier::rankscope()));
            for (const ClockEstimate &e : clocks) {
                QVERIFY(e.offset);
                QCOMPARE(*e.offset, TimeNs(0));
                QCOMPARE(*e.residual, TimeNs(0));
                QCOMPARE(e.collectives, std::size_t(2));
            }
        }
        // Rank 1's recorded start 200 µs late (less than half the time
        // between collectives, as NTP's milliseconds are against training
        // steps): its collectives end 200 µs after the others' on the
        // session axis; the estimate takes it back.
        const Session shifted = plantedSession(200'000);
        const auto clocks = alignOnCollectives(shifted, matchCollectives(shifted, KernelClassifier::rankscope()));
        for (std::size_t ri = 0; ri < clocks.size(); ++ri) {
            const bool isRank1 = shifted.ranks()[ri].rank == 1;
            QCOMPARE(*clocks[ri].offset, TimeNs(isRank1 ? -200'000 : 0));
            QCOMPARE(*clocks[ri].residual, TimeNs(0));
        }
        // Aligned, the shifted set reads as the true one: the same skews,
        // last ranks and late splits.
        const Session truth = plantedSession();
        const CollectiveMatch expected = matchCollectives(truth, KernelClassifier::rankscope());
        const CollectiveMatch recorded = matchCollectives(shifted, KernelClassifier::rankscope());
        QVERIFY(recorded.notes.join(QLatin1Char(' ')).contains(QLatin1String("Times as recorded")));
        QCOMPARE(recorded.instances[1].skew(), expected.instances[1].skew() + 200'000); // rank 1, last there, reads 200 µs later
        const CollectiveMatch aligned = alignedOnCollectives(shifted, recorded);
        QVERIFY2(aligned.notes.join(QLatin1Char(' ')).contains(QStringLiteral("rank 1 -200.000 µs (residual 0 ns)")),
                 qPrintable(aligned.notes.join(QLatin1Char(' '))));
        QVERIFY(!aligned.notes.join(QLatin1Char(' ')).contains(QLatin1String("Times as recorded")));
        QCOMPARE(aligned.instances.size(), expected.instances.size());
        for (std::size_t i = 0; i < expected.instances.size(); ++i) {
            QCOMPARE(aligned.instances[i].skew(), expected.instances[i].skew());
            QCOMPARE(aligned.instances[i].lastRankIndex, expected.instances[i].lastRankIndex);
        }
        const auto alignedWaits = rankWaits(shifted, aligned, {}, KernelClassifier::rankscope()),
                   trueWaits = rankWaits(truth, expected, {}, KernelClassifier::rankscope());
        for (std::size_t ri = 0; ri < trueWaits.size(); ++ri) {
            QCOMPARE(alignedWaits[ri].delayCaused, trueWaits[ri].delayCaused);
            QCOMPARE(alignedWaits[ri].lateCompute, trueWaits[ri].lateCompute);
            QCOMPARE(alignedWaits[ri].lateIdle, trueWaits[ri].lateIdle);
            QCOMPARE(alignedWaits[ri].lateHost, trueWaits[ri].lateHost);
        }
        // The session moved by the offsets (what View > Align Ranks on
        // Collectives shows) matches as the truth does.
        const Session moved = shifted.withShiftedRanks(aligned.clockShift);
        const CollectiveMatch rematched = matchCollectives(moved, KernelClassifier::rankscope());
        for (std::size_t i = 0; i < expected.instances.size(); ++i)
            QCOMPARE(rematched.instances[i].skew(), expected.instances[i].skew());
        QCOMPARE(moved.sessionTime(rematched.instances[1].arrivals[1].kernel).start,
                 truth.sessionTime(expected.instances[1].arrivals[1].kernel).start);
        // Same host: the estimate says no correction is needed.
        QVERIFY(alignedOnCollectives(truth, expected).notes.join(QLatin1Char(' ')).contains(QLatin1String("already agree")));
    }

    void generatedPlantedTruthIsRecovered_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("nsys") << QStringLiteral("nsys");
        QTest::newRow("kineto") << QStringLiteral("kineto");
    }
    void generatedPlantedTruthIsRecovered()
    {
        // 4 ranks, 40 steps of about 10 ms: rank 2 runs 300 µs more compute
        // before every 4th all-reduce; recorded starts off by 0, +1.5 ms,
        // -0.7 ms, +0.2 ms; rank 3 skips the all-reduce of step 5.
        QFETCH(QString, format);
        const QString dir = m_dir.filePath(QStringLiteral("ddp_") + format);
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN),
                                   {"--profile", "ddp", "--format", format, "--ranks", "4", "--events", "1720", "--straggler", "2:300:4",
                                    "--clock-offsets-us", "0,1500,-700,200", "--skip", "3:5", dir}),
                 0);
        const Session session = Session::load({dir});
        QCOMPARE(session.ranks().size(), std::size_t(4));
        auto indexOfRank = [&](int rank) {
            for (std::size_t ri = 0; ri < session.ranks().size(); ++ri)
                if (session.ranks()[ri].rank == rank)
                    return int(ri);
            return -1;
        };
        const CollectiveMatch recorded = matchCollectives(session, KernelClassifier::rankscope());
        QCOMPARE(recorded.instances.size(), std::size_t(40));
        // The desync: rank 3 is absent from operation #5 only.
        QCOMPARE(recorded.desyncs.size(), std::size_t(1));
        QCOMPARE(recorded.desyncs[0].rankIndex, indexOfRank(3));
        QCOMPARE(recorded.desyncs[0].skipped, std::size_t(1));
        QCOMPARE(*recorded.desyncs[0].firstMissing, std::size_t(5));
        // The clock offsets, exactly: collectives end together.
        const std::vector<ClockEstimate> clocks = alignOnCollectives(session, recorded);
        const TimeNs planted[] = {0, 1'500'000, -700'000, 200'000};
        for (int rank = 0; rank < 4; ++rank) {
            const ClockEstimate &e = clocks[std::size_t(indexOfRank(rank))];
            QCOMPARE(*e.offset, planted[0] - planted[rank]);
            QCOMPARE(*e.residual, TimeNs(0));
        }
        // Aligned: the straggler is last by 300 µs (within the 1 µs of
        // jitter) at steps 0, 4, 8, ...; elsewhere the skew is under 1 µs.
        const CollectiveMatch aligned = alignedOnCollectives(session, recorded);
        for (const CollectiveInstance &c : aligned.instances) {
            if (c.sequence % 4 == 0) {
                QCOMPARE(c.lastRankIndex, indexOfRank(2));
                QVERIFY2(std::abs(c.skew() - 300'000) <= 1'000, qPrintable(QString::number(c.skew())));
            } else {
                QVERIFY2(c.skew() < 1'000, qPrintable(QString::number(c.skew())));
            }
            QCOMPARE(c.arrivals.size(), std::size_t(c.sequence == 5 ? 3 : 4));
        }
        const std::vector<RankWait> waits = rankWaits(session, aligned, {}, KernelClassifier::rankscope());
        const RankWait &straggler = waits[std::size_t(indexOfRank(2))];
        QVERIFY(straggler.timesLast >= 10);
        for (const RankWait &w : waits)
            if (w.rankIndex != straggler.rankIndex)
                QVERIFY(w.delayCaused * 100 < straggler.delayCaused);
        // Its lateness was its own compute.
        QVERIFY(straggler.lateCompute * 100 >= straggler.late * 99);
    }

    void clocksOffByMoreThanAStepStillMatch()
    {
        // Recorded starts off by 25, -17 and 40 ms: more than the ~10 ms
        // between all-reduces, so the k-th end of one rank lies nearer
        // another instance's end on the others. The matching lines the
        // ranks' ends up first; the desync is still found.
        const QString dir = m_dir.filePath(QStringLiteral("ddp_far_clocks"));
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), {"--profile", "ddp", "--format", "nsys", "--ranks", "4", "--events", "1720",
                                                                        "--clock-offsets-us", "0,25000,-17000,40000", "--skip", "3:5", dir}),
                 0);
        const Session session = Session::load({dir});
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        QCOMPARE(match.instances.size(), std::size_t(40));
        for (const CollectiveInstance &c : match.instances)
            QCOMPARE(c.arrivals.size(), std::size_t(c.sequence == 5 ? 3 : 4));
        QCOMPARE(match.desyncs.size(), std::size_t(1));
        QCOMPARE(*match.desyncs[0].firstMissing, std::size_t(5));
        for (const ClockEstimate &e : alignOnCollectives(session, match))
            QCOMPARE(*e.residual, TimeNs(0));
    }

    void pipelineSendsPairWithTheirPeers()
    {
        // 4 stages on one NCCL communicator, NCCL's payloads naming the
        // peers: stage s sends to s+1 once its 1 ms compute is done; s+1
        // posted its receive at the step's start. The pair (s, s+1) is one
        // instance per step, the sender last by 1001 + 1051 s µs (the bubble).
        const QString dir = m_dir.filePath(QStringLiteral("pipeline"));
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN),
                                   {"--profile", "pipeline", "--format", "nsys", "--ranks", "4", "--events", "200", dir}),
                 0);
        const Session session = Session::load({dir});
        QCOMPARE(session.ranks().size(), std::size_t(4));
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        QVERIFY2(match.desyncs.empty(), qPrintable(match.notes.join(QLatin1Char('\n'))));
        QCOMPARE(match.instances.size(), std::size_t(3 * 20));
        std::map<QString, int> perPair;
        for (const CollectiveInstance &c : match.instances) {
            QCOMPARE(c.arrivals.size(), std::size_t(2));
            const int sender = session.ranks()[std::size_t(c.lastRankIndex)].rank;
            QCOMPARE(c.communicator, QStringLiteral("NCCL comm 0x5eedc0ffee000001 ranks %1→%2").arg(sender).arg(sender + 1));
            QCOMPARE(c.skew(), TimeNs(1'001'000 + 1'051'000 * sender));
            QCOMPARE(c.transfer(), TimeNs(50'000));
            QCOMPARE(c.bytes, std::int64_t(8 << 20));
            QCOMPARE(c.groupSize, 4);
            ++perPair[c.communicator];
        }
        QCOMPARE(perPair.size(), std::size_t(3));
        for (const auto &[pair, count] : perPair)
            QCOMPARE(count, 20);
        // The last stage only waits; the first only makes others wait.
        const std::vector<RankWait> waits = rankWaits(session, match, {}, KernelClassifier::rankscope());
        QCOMPARE(waits[0].waited, TimeNs(0));
        QCOMPARE(waits[3].delayCaused, TimeNs(0));
        QCOMPARE(waits[3].waited, TimeNs(20 * 3'103'000));
    }

    void sequenceNumbersMatchWhateverTheClocks()
    {
        // PyTorch's "Seq" on each collective: rank 1's clock is off by
        // exactly the time between the two all-reduces, so its first ends
        // when the others' second does. By number, each instance is right.
        QDir(m_dir.path()).mkpath(QStringLiteral("seq"));
        QStringList paths;
        for (int r = 0; r < 3; ++r)
            paths << writeFile(m_dir, QStringLiteral("seq/rank%1.json").arg(r),
                               rankTrace(r, 3, kBase + (r == 1 ? 1'100'000 : 0), 100, {{50, 100, 500}, {1000, 1010, 1600}}, true).toUtf8());
        const Session session = Session::load(paths);
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        QCOMPARE(match.instances.size(), std::size_t(2));
        for (const CollectiveInstance &c : match.instances) {
            QCOMPARE(c.arrivals.size(), std::size_t(3));
            // Each arrival is its rank's k-th all-reduce.
            for (const CollectiveArrival &a : c.arrivals) {
                const Report &r = *session.ranks()[std::size_t(a.rankIndex)].report;
                const KernelRecord &k = r.kernels[session.track(a.kernel).slices.payload(a.kernel.event)];
                QCOMPARE(r.collectives[k.collective].sequence, std::int64_t(c.sequence));
            }
        }
        QVERIFY(match.desyncs.empty());
        QVERIFY(match.notes.join(QLatin1Char(' ')).contains(QLatin1String("sequence number")));
    }

    void realTwoRankNsysExport()
    {
        // nsys-ai's fixture: 2 ranks (processes) in one export, NCCL
        // SendRecv kernels, no process group names.
        for (const char *name : {"before", "after"}) {
            const Session session = Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_%1.sqlite").arg(QLatin1String(name)))});
            QCOMPARE(session.ranks().size(), std::size_t(2));
            const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
            QVERIFY(match.instances.size() >= 30);
            QVERIFY(match.notes.join(QLatin1Char('\n')).contains(QLatin1String("matched with the other ranks' by their end")));
            for (const CollectiveInstance &c : match.instances) {
                QCOMPARE(c.arrivals.size(), std::size_t(2));
                QCOMPARE(c.kind, CollectiveKind::SendRecv);
                QVERIFY(c.skew() >= 0 && c.lastArrival <= c.end);
                // Both ranks' kernels of one instance overlap in time: a
                // pair of matched SendRecvs run together.
                QVERIFY(c.arrivals[0].start < c.arrivals[1].end && c.arrivals[1].start < c.arrivals[0].end);
            }
            // One host, one clock: collectives end together.
            for (const ClockEstimate &e : alignOnCollectives(session, match))
                QVERIFY2(e.residual && *e.residual < 100'000, qPrintable(QString::number(e.residual.value_or(-1))));
            const std::vector<RankWait> waits = rankWaits(session, match, {}, KernelClassifier::rankscope());
            QCOMPARE(waits[0].delayCaused, waits[1].waited); // two ranks: one's delay is the other's wait
            QCOMPARE(waits[1].delayCaused, waits[0].waited);
            // The rank comparison reads the same figures.
            for (const RankComparisonRow &row : compareRanks(session, {}, KernelClassifier::rankscope(), &match)) {
                QCOMPARE(*row.delayCaused, waits[std::size_t(row.rankIndex)].delayCaused);
                QCOMPARE(*row.waited, waits[std::size_t(row.rankIndex)].waited);
            }
        }
    }

    void realTwoRankKinetoTraces()
    {
        const Session session = Session::load(
            {dataPath(QStringLiteral("third-party/hta/sampled_rank-0.json.gz")), dataPath(QStringLiteral("third-party/hta/sampled_rank-1.json.gz"))});
        QCOMPARE(session.ranks().size(), std::size_t(2));
        // Two ranks of a 128-rank job, sampled: not every operation has its
        // partner in the other file. The matched ones end together.
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        QVERIFY(match.instances.size() >= 5);
        for (const CollectiveInstance &c : match.instances) {
            QCOMPARE(c.kind, CollectiveKind::SendRecv);
            QCOMPARE(c.arrivals.size(), std::size_t(2));
            QVERIFY(std::abs(c.arrivals[0].end - c.arrivals[1].end) < c.end - c.firstArrival);
        }
    }

    void suggestedOffsetsNameTheLargestAndCountTheRest()
    {
        // Planted: rank 1's clock 250 µs off, the others agree.
        const Session shifted = plantedSession(250'000);
        const QString one = suggestedOffsetsNote(shifted, alignOnCollectives(shifted, matchCollectives(shifted, KernelClassifier::rankscope())));
        QVERIFY2(one.startsWith(QLatin1String("Clock offsets the collectives suggest: rank 1 -250")), qPrintable(one));
        QVERIFY2(one.contains(QLatin1String("; 1 other ranks' clocks agree as recorded.")), qPrintable(one));
        QVERIFY2(!one.contains(QLatin1String("rank 2")), qPrintable(one)); // a zero offset is not an offset
        // No offsets at all: says the clocks agree instead of listing zeros.
        const Session agreeing = plantedSession();
        const QString none = suggestedOffsetsNote(agreeing, alignOnCollectives(agreeing, matchCollectives(agreeing, KernelClassifier::rankscope())));
        QCOMPARE(none, QStringLiteral("The collectives end together as recorded: the ranks' clocks agree, nothing to align."));
        // Twelve ranks off: the eight largest named, largest first, the rest counted.
        std::vector<ClockEstimate> clocks(13);
        const QString dir = m_dir.filePath(QStringLiteral("offsets13"));
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN),
                                   {"--profile", "ddp", "--format", "kineto", "--ranks", "13", "--events", "600", dir}),
                 0);
        const Session thirteen = Session::load({dir});
        QCOMPARE(thirteen.ranks().size(), std::size_t(13));
        clocks[0] = {0, 0, 10, true};
        for (std::size_t ri = 1; ri < 13; ++ri)
            clocks[ri] = {TimeNs(ri) * 1000, 5, 10, false};
        const QString many = suggestedOffsetsNote(thirteen, clocks);
        QVERIFY2(many.startsWith(QStringLiteral("Clock offsets the collectives suggest: rank 12 12.000 µs")), qPrintable(many));
        QVERIFY2(many.endsWith(QLatin1String(", and 4 more ranks.")), qPrintable(many));
        QCOMPARE(many.count(QLatin1String("(residual")), 8);
        // The note of an alignment likewise: thirteen ranks with offsets,
        // the eight largest named, largest first.
        const QString aligned =
            alignedOnCollectives(thirteen, matchCollectives(thirteen, KernelClassifier::rankscope())).notes.join(QLatin1Char(' '));
        QCOMPARE(aligned.count(QLatin1String("(residual")), 8);
        QVERIFY2(aligned.contains(QLatin1String("and 5 more ranks with smaller offsets")), qPrintable(aligned));
    }

    // The sets the cross-rank reports are checked on, by name.
    Session collectiveSet(const QString &set)
    {
        if (set == QLatin1String("planted"))
            return plantedSession(250'000);
        if (set == QLatin1String("generated")) {
            const QString dir = m_dir.filePath(QStringLiteral("gathered_ddp"));
            if (!QFileInfo::exists(dir))
                QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN),
                                  {"--profile", "ddp", "--format", "nsys", "--ranks", "4", "--events", "1720", "--straggler", "2:300:4",
                                   "--clock-offsets-us", "0,1500,-700,200", "--skip", "3:5", dir});
            return Session::load({dir});
        }
        if (set == QLatin1String("pipeline")) {
            const QString dir = m_dir.filePath(QStringLiteral("kept_pipeline"));
            if (!QFileInfo::exists(dir))
                QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN),
                                  {"--profile", "pipeline", "--format", "nsys", "--ranks", "4", "--events", "200", dir});
            return Session::load({dir});
        }
        if (set == QLatin1String("nsys-ai"))
            return Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))});
        return Session::load(
            {dataPath(QStringLiteral("third-party/hta/sampled_rank-0.json.gz")), dataPath(QStringLiteral("third-party/hta/sampled_rank-1.json.gz"))});
    }

    void recordsReadPerFileGiveTheSameReports_data()
    {
        QTest::addColumn<QString>("set");
        QTest::newRow("planted, one rank's clock off") << QStringLiteral("planted");
        QTest::newRow("generated nsys, offsets and a skip") << QStringLiteral("generated");
        QTest::newRow("real export of two processes") << QStringLiteral("nsys-ai");
        QTest::newRow("real Kineto pair") << QStringLiteral("hta");
    }
    void recordsReadPerFileGiveTheSameReports()
    {
        // What an MPI process sends for each file of its share (the ranks'
        // records read from that file alone, in its own time, through the
        // bytes that travel) gives process 0 the same collective reports as
        // reading every rank of the session itself.
        QFETCH(QString, set);
        const Session session = collectiveSet(set);
        QVERIFY(session.ranks().size() >= 2);
        const KernelClassifier classes = collectiveClassesFor({});
        CollectiveInputs gathered(session, classes);
        for (const ReportPtr &report : session.reports())
            for (const ReportRankOps &rank : collectiveOpsOfReport(report, classes, true)) {
                QByteArray bytes;
                QDataStream out(&bytes, QIODevice::WriteOnly);
                out << rank.ops;
                RankCollectiveOps received;
                QDataStream in(bytes);
                in >> received;
                QCOMPARE(in.status(), QDataStream::Ok);
                QVERIFY(gathered.giveOfReport(report->filePath, rank.pid, std::move(received)));
            }
        QCOMPARE(gathered.given(), session.ranks().size());
        // Both alignments from the one set of records (each match computed
        // once and kept for the reports that read it).
        for (const bool aligned : {false, true}) {
            AnalysisSettings options;
            options.alignOnCollectives = aligned;
            for (const QString &name :
                 {QStringLiteral("collectives"), QStringLiteral("rank_wait"), QStringLiteral("rank_time_map"), QStringLiteral("rank_comparison")}) {
                const ResultTable direct = *sessionReport(name, session, options);
                const ResultTable fromRecords = *runSessionReport(name, session, options, {gathered});
                QVERIFY2(!direct.allRows().empty(), qPrintable(name));
                QCOMPARE(fromRecords.toCsv(), direct.toCsv());
                QCOMPARE(fromRecords.notes, direct.notes);
            }
        }
    }

    void comparisonRowsFromPartsAreTheSame_data() { recordsReadPerFileGiveTheSameReports_data(); }
    void comparisonRowsFromPartsAreTheSame()
    {
        // Under MPI each process computes its files' ranks' rows alone (a
        // report split by process, one row per process) and process 0 adds
        // the waits: the table is the one computed here.
        QFETCH(QString, set);
        const Session session = collectiveSet(set);
        GatheredComparisonRows rows(session.ranks().size());
        for (const ReportPtr &report : session.reports()) {
            const Session alone = Session::fromReports({report});
            for (int ri = 0; ri < int(alone.ranks().size()); ++ri) {
                QByteArray bytes;
                QDataStream out(&bytes, QIODevice::WriteOnly);
                out << rankComparisonRowOf(alone, ri, KernelClassifier::rankscope());
                QDataStream in(bytes);
                RankComparisonRow received;
                in >> received;
                QCOMPARE(in.status(), QDataStream::Ok);
                for (std::size_t si = 0; si < session.ranks().size(); ++si)
                    if (session.ranks()[si].report == report && session.ranks()[si].pid == alone.ranks()[std::size_t(ri)].pid)
                        rows[si] = received;
            }
        }
        QVERIFY(std::all_of(rows.begin(), rows.end(), [](const auto &r) { return r.has_value(); }));
        CollectiveInputs records(session, KernelClassifier::rankscope());
        const CollectiveMatch &match = records.match(false);
        const ResultTable direct = rankComparisonTable(session, {}, KernelClassifier::rankscope(), &match);
        QCOMPARE(runSessionReport(QStringLiteral("rank_comparison"), session, {}, {records, nullptr, &rows})->toCsv(), direct.toCsv());
        QCOMPARE(direct.rowCount(), session.ranks().size());
        // A time range reads the events: the rows of all time do not apply.
        const TimeRange extent = session.extent();
        const StatsScope firstHalf{TimeRange{extent.start, extent.start + extent.duration() / 2}, std::nullopt};
        QCOMPARE(rankComparisonTable(session, firstHalf, KernelClassifier::rankscope(), &match, &rows).toCsv(),
                 rankComparisonTable(session, firstHalf, KernelClassifier::rankscope(), &match).toCsv());
    }

    void keptTimeSplitsGiveTheSameRows_data() { recordsReadPerFileGiveTheSameReports_data(); }
    void keptTimeSplitsGiveTheSameRows()
    {
        // An index cache keeps each report's GPU time split over all of its
        // time (Report::timeSplits; a report split by process, one per
        // process), and the rank comparison reads those for whole ranks with
        // the built-in classes: the rows are those computed from the events
        // (whose figures tst_panelstats checks against nsys).
        QFETCH(QString, set);
        const Session session = collectiveSet(set);
        // The set loaded again, its reports (this test's own) given splits.
        const auto withSplits = [&](const std::function<void(GpuTimeSplit &)> &change) {
            Session loaded = collectiveSet(set);
            for (const ReportPtr &report : loaded.reports()) {
                Report &own = const_cast<Report &>(*report);
                own.timeSplits = builtInTimeSplits(own);
                for (GpuTimeSplit &split : own.timeSplits)
                    change(split);
            }
            return loaded;
        };
        const Session kept = withSplits([](GpuTimeSplit &) {});
        QCOMPARE(kept.ranks().size(), session.ranks().size());
        for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
            QVERIFY(session.ranks()[ri].report->timeSplits.empty()); // parsed: none kept
            QVERIFY(keptTimeSplit(*kept.ranks()[ri].report, kept.ranks()[ri].pid));
        }
        const QString direct = rankComparisonTable(session, {}, KernelClassifier::rankscope(), nullptr).toCsv();
        QCOMPARE(rankComparisonTable(kept, {}, KernelClassifier::rankscope(), nullptr).toCsv(), direct);
        // They are what the rows read: a split changed shows in them...
        const Session marked = withSplits([](GpuTimeSplit &split) {
            split.steps = 12345;
            split.stepTotal = split.longestStep = 0;
        });
        for (const RankComparisonRow &row : compareRanks(marked, {}, KernelClassifier::rankscope(), nullptr))
            QCOMPARE(row.steps, std::size_t(12345));
        // ...but not in a time range, nor with the user's pattern, which
        // read the events.
        const TimeRange extent = session.extent();
        const StatsScope firstHalf{TimeRange{extent.start, extent.start + extent.duration() / 2}, std::nullopt};
        QCOMPARE(rankComparisonTable(marked, firstHalf, KernelClassifier::rankscope(), nullptr).toCsv(),
                 rankComparisonTable(session, firstHalf, KernelClassifier::rankscope(), nullptr).toCsv());
        const KernelClassifier users = KernelClassifier::rankscope(defaultCommunicationPattern());
        QCOMPARE(rankComparisonTable(marked, {}, users, nullptr).toCsv(), rankComparisonTable(session, {}, users, nullptr).toCsv());
    }

    void keptCommunicationKernelsGiveTheSameReports_data()
    {
        recordsReadPerFileGiveTheSameReports_data();
        QTest::newRow("generated pipeline, NCCL's payloads naming peers") << QStringLiteral("pipeline");
    }
    void keptCommunicationKernelsGiveTheSameReports()
    {
        // A loaded report keeps its communication kernels and the GPU's
        // other work (Report::communication), and the collective reports
        // read those with the built-in patterns. The same pattern given as
        // the user's makes them classify every kernel instead: the tables
        // are the same (the real sets' figures are checked against HTA and
        // nsys-ai elsewhere in this file).
        QFETCH(QString, set);
        const Session session = collectiveSet(set);
        QVERIFY(session.ranks().size() >= 2);
        for (const ReportPtr &report : session.reports())
            QVERIFY(report->communication.present && !report->communication.kernels.empty());
        for (const bool aligned : {false, true}) {
            AnalysisSettings kept, scanned;
            kept.alignOnCollectives = scanned.alignOnCollectives = aligned;
            scanned.communicationPattern = defaultCommunicationPattern();
            QVERIFY(collectiveClassesFor(kept).hasBuiltInCommunication() && !collectiveClassesFor(scanned).hasBuiltInCommunication());
            for (const QString &name : {QStringLiteral("collectives"), QStringLiteral("rank_wait"), QStringLiteral("rank_time_map")}) {
                const ResultTable fromKept = *sessionReport(name, session, kept);
                const ResultTable fromScan = *sessionReport(name, session, scanned);
                QVERIFY2(!fromKept.allRows().empty(), qPrintable(name));
                QCOMPARE(fromKept.toCsv(), fromScan.toCsv());
            }
        }
    }

    // The 4-rank nsys DDP run uses Gloo but recorded no gloo:* ranges: the
    // note says so, what the pt_gloo threads show (their CUDA syncs, counted
    // by SQL over each rank's own process) and how to record the ranges.
    void glooWithoutRangesSaysWhatIsMissing()
    {
        QStringList files;
        std::size_t calls = 0;
        qint64 time = 0;
        for (int r = 0; r < 4; ++r) {
            files << ddpFixture(r);
            // The rank's process: the one whose kernels the file holds.
            const QList<QStringList> rows =
                queryRows(ddpFixture(r), QStringLiteral("SELECT count(*), sum(r.end - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                                                        "JOIN StringIds n ON n.id = r.nameId JOIN ThreadNames t ON t.globalTid = r.globalTid "
                                                        "JOIN StringIds tn ON tn.id = t.nameId WHERE tn.value LIKE 'pt_gloo%' "
                                                        "AND n.value LIKE '%Synchronize%' AND r.globalTid / 16777216 IN "
                                                        "(SELECT DISTINCT globalPid / 16777216 FROM CUPTI_ACTIVITY_KIND_KERNEL)"));
            QCOMPARE(rows.size(), 1);
            calls += rows[0][0].toULongLong();
            time += rows[0][1].toLongLong();
        }
        QCOMPARE(calls, std::size_t(89));
        const Session session = Session::load(files);
        const CpuCommunication cpu = cpuCommunicationOf(session);
        QCOMPARE(cpu.ranks, 4);
        QCOMPARE(cpu.ranges, std::size_t(0));
        QCOMPARE(cpu.glooThreads, std::size_t(8)); // two per rank's process
        QCOMPARE(cpu.glooSyncCalls, calls);
        QCOMPARE(cpu.glooSyncTime, time);
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        QVERIFY(match.instances.empty());
        const QString notes = match.notes.join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(
                     QStringLiteral("8 pt_gloo threads on 4 rank(s), where they waited %1 in 89 CUDA synchronisations").arg(formatDuration(time))),
                 qPrintable(notes));
        QVERIFY(notes.contains(QLatin1String("no gloo:* ranges, so its collectives can be neither matched across ranks nor timed")));
        QVERIFY(notes.contains(QLatin1String("torch.autograd.profiler.emit_nvtx()")));
        QVERIFY(!notes.contains(QLatin1String("they are matched across ranks from their gloo:* ranges")));
    }

    void glooCollectivesAreMatchedOnTheCpu()
    {
        // The 4-rank gloo run has no NCCL kernel: it communicates on the
        // CPU, each rank's trace holding 12 gloo:all_reduce and 12
        // gloo:broadcast annotations, two of a kind at once (two threads,
        // which differ from rank to rank). The k-th of each name on every
        // rank is one collective.
        QStringList ranks;
        for (int r = 0; r < 4; ++r)
            ranks << dataPath(QStringLiteral("kineto/ddp_gloo_rank%1.pt.trace.json.gz").arg(r));
        const Session session = Session::load(ranks);
        QCOMPARE(session.ranks().size(), std::size_t(4));
        const CpuCommunication cpu = cpuCommunicationOf(session);
        QCOMPARE(cpu.ranks, 4);
        QCOMPARE(cpu.ranges, std::size_t(4 * 24));
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        const QString notes = match.notes.join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("This run communicates on the CPU (Gloo): 96 gloo:* ranges")), qPrintable(notes));
        QVERIFY(!notes.contains(QLatin1String("Desync")));
        QCOMPARE(match.instances.size(), std::size_t(24));
        std::map<QString, int> perCommunicator;
        for (const CollectiveInstance &c : match.instances) {
            ++perCommunicator[c.communicator];
            QCOMPARE(c.arrivals.size(), std::size_t(4));
            std::set<int> ranksIn;
            for (const CollectiveArrival &a : c.arrivals) {
                ranksIn.insert(a.rankIndex);
                // Each arrival is a gloo range of that rank, of the instance's name.
                const Report &r = *session.ranks()[std::size_t(a.rankIndex)].report;
                QCOMPARE(r.strings.string(r.tracks[a.kernel.track].slices.name(a.kernel.event)), c.name);
            }
            QCOMPARE(ranksIn.size(), std::size_t(4));
        }
        QCOMPARE(perCommunicator,
                 (std::map<QString, int>{{QStringLiteral("gloo:all_reduce (CPU)"), 12}, {QStringLiteral("gloo:broadcast (CPU)"), 12}}));
        for (const RankWait &w : rankWaits(session, match, {}, KernelClassifier::rankscope()))
            QCOMPARE(w.collectives, std::size_t(24));
        // The rank comparison counts the ranges' time, each nanosecond once,
        // as CPU communication. Expected: the union of each rank's
        // user_annotation "gloo:*" events, ts and dur read as exact decimals
        // (Python's decimal), rounded to ns, end = start + dur.
        const ResultTable t = rankComparisonTable(session, {}, KernelClassifier::rankscope(), nullptr);
        const auto column = t.headers.indexOf(QStringLiteral("CPU Comm (ns)"));
        QVERIFY(column >= 0);
        const std::map<std::int64_t, std::int64_t> expected{{0, 463482131}, {1, 460352267}, {2, 448367244}, {3, 458591731}};
        for (std::size_t r = 0; r < t.rowCount(); ++r)
            QCOMPARE(t.cell(r, std::size_t(column)).integer, expected.at(t.cell(r, 0).integer));
        // No GPU communication: Exposed Comm stays 0.
        for (std::size_t r = 0; r < t.rowCount(); ++r)
            QCOMPARE(t.cell(r, 5).integer, std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestCollectives)
#include "tst_collectives.moc"
