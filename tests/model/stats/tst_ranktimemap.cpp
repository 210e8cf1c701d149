// Rank x time maps: the GPU busy share per bin against nsys' own
// gpu_time_util rule on the real single-GPU run, the summaries' shortcut
// against the events on a large generated track, and the bins' edges.
#include "load/derivedtracks.h"
#include "session/session.h"
#include "stats/ranks/ranktimemap.h"
#include "testdata.h"

#include <QRandomGenerator>
#include <QtTest>
#include <cmath>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

// The union of some intervals as sorted disjoint runs, and the busy time
// inside any window by a binary search and a prefix sum.
struct ExactUnion {
    std::vector<std::pair<TimeNs, TimeNs>> runs;
    std::vector<TimeNs> before; // busy time of runs [0, i)

    explicit ExactUnion(std::vector<std::pair<TimeNs, TimeNs>> intervals)
    {
        std::sort(intervals.begin(), intervals.end());
        for (const auto &[s, e] : intervals) {
            if (!runs.empty() && s <= runs.back().second)
                runs.back().second = std::max(runs.back().second, e);
            else
                runs.push_back({s, e});
        }
        before.push_back(0);
        for (const auto &[s, e] : runs)
            before.push_back(before.back() + (e - s));
    }
    // Busy time before t.
    TimeNs upTo(TimeNs t) const
    {
        const auto after = std::upper_bound(runs.begin(), runs.end(), t, [](TimeNs x, const auto &run) { return x < run.first; });
        const std::size_t i = std::size_t(after - runs.begin());
        if (i == 0)
            return 0;
        return before[i - 1] + std::min(t, runs[i - 1].second) - runs[i - 1].first;
    }
    TimeNs between(TimeNs from, TimeNs to) const { return upTo(to) - upTo(from); }
};

} // namespace

class TestRankTimeMap : public QObject {
    Q_OBJECT

private slots:
    void binsCoverTheRangeToTheNanosecond()
    {
        RankTimeMap map;
        map.range = {1000, 1000 + 1'000'000'007};
        map.bins = 7;
        QCOMPARE(map.binStart(0), TimeNs(1000));
        QCOMPARE(map.binStart(7), map.range.end);
        for (int bin = 0; bin < map.bins; ++bin) {
            QVERIFY(map.binRange(bin).duration() >= 142'857'143 - 1);
            QCOMPARE(map.binOf(map.binStart(bin)), bin);
            QCOMPARE(map.binOf(map.binStart(bin + 1) - 1), bin);
        }
        QCOMPARE(map.binOf(999), -1);
        QCOMPARE(map.binOf(map.range.end), -1);
        // A trace near the end of time does not overflow.
        map.range = {kTimeMax / 2, kTimeMax - 1};
        map.bins = 1000;
        QVERIFY(map.binStart(999) < map.range.end && map.binStart(999) > map.binStart(998));
    }

    void slowRunAgreesWithNsysTimeUtil()
    {
        // nsys analyze gpu_time_util on this run: 30 equal chunks of the
        // device's span; those under 50 % in use merged into one row,
        // "2.8 % over 5181716564 ns from 3470705826". The map over the same
        // span in 30 bins says the same: its bins in that row average 2.8 %
        // (weighted by width), the others are at least 50 % busy. (This run
        // never overlaps a copy with a kernel, so the union the map counts
        // equals the sum nsys counts.)
        const QList<QStringList> csv = parseCsv(readText(referenceCsv(QStringLiteral("slow_1gpu"), QStringLiteral("gpu_time_util"))));
        QCOMPARE(csv.size(), 2);
        const TimeNs rowDuration = csv[1][2].toLongLong(), rowStart = csv[1][3].toLongLong();
        const Session session = Session::load({slowFixture()});
        QCOMPARE(session.ranks().size(), std::size_t(1));
        const RankEntry &entry = session.ranks()[0];
        QCOMPARE(entry.report->gpuBusy.size(), std::size_t(1));
        const BusySummary &gpu = entry.report->gpuBusy[0];
        // The maps' default range is where the GPUs work.
        QCOMPARE(gpuActiveRange(session).start, gpu.span.start + entry.sessionOffset);
        QCOMPARE(gpuActiveRange(session).end, gpu.span.end + entry.sessionOffset);
        const TimeNs chunk = (gpu.span.duration() + 29) / 30; // nsys: ceil, the last chunk clipped
        const RankTimeMap map = gpuBusyMap(session, {gpu.span.start + entry.sessionOffset, gpu.span.start + 30 * chunk + entry.sessionOffset}, 30);
        QCOMPARE(map.bins, 30);
        QCOMPARE(map.binStart(1) - map.binStart(0), chunk);
        double inRowBusy = 0;
        TimeNs inRowLength = 0;
        int inRow = 0;
        for (int bin = 0; bin < map.bins; ++bin) {
            const TimeRange b = map.binRange(bin);
            const TimeNs reportStart = b.start - entry.sessionOffset;
            const TimeNs length = std::min(b.end - entry.sessionOffset, gpu.span.end) - reportStart;
            const double busyNs = double(map.share(0, bin)) * double(b.duration());
            if (reportStart >= rowStart && reportStart < rowStart + rowDuration) {
                inRowBusy += busyNs;
                inRowLength += length;
                ++inRow;
            } else {
                QVERIFY2(busyNs / double(length) >= 0.5, qPrintable(QString::number(bin)));
            }
        }
        QCOMPARE(inRowLength, rowDuration);
        QVERIFY(inRow > 1);
        QCOMPARE(QString::number(100.0 * inRowBusy / double(inRowLength), 'f', 1), csv[1][1]);
    }

    void kinetoRanksHaveTheirGpuBusy()
    {
        // HTA's rank_summary for this PyTorch trace: compute 105,837,000 ns
        // plus non-compute 2,182,000 ns is the union of the GPU's kernels,
        // copies and memsets inside its step window (µs), over a kernel
        // time of 1,094,209,000 ns. The Kineto loader's busy summary (what
        // the map and a collapsed rank draw; it had none) is that union over
        // the whole trace: the same time and the few steps' kernels HTA's
        // window leaves out (0.45 % here), never less.
        const QList<QStringList> csv = parseCsv(readText(dataPath(QStringLiteral("kineto/rank_summary_slow.csv"))));
        const TimeNs htaBusy = csv[1][2].toLongLong() + csv[1][3].toLongLong(), htaSpan = csv[1][4].toLongLong();
        const Session session = Session::load({dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"))});
        QCOMPARE(session.ranks().size(), std::size_t(1));
        const Report &report = *session.ranks()[0].report;
        QCOMPARE(report.gpuBusy.size(), std::size_t(1));
        const BusySummary &gpu = report.gpuBusy[0];
        QVERIFY(gpu.busy >= htaBusy && gpu.busy < htaBusy + htaBusy / 100);
        QVERIFY(gpu.span.duration() >= htaSpan);
        const RankTimeMap map = gpuBusyMap(session, gpuActiveRange(session), 10);
        double mapped = 0;
        for (int bin = 0; bin < map.bins; ++bin)
            mapped += double(map.share(0, bin)) * double(map.binRange(bin).duration());
        QVERIFY(std::abs(mapped - double(gpu.busy)) < 1e-3 * double(gpu.busy));
    }

    void summariesAgreeWithTheEventsWithinTheirBound()
    {
        // 400,000 kernels on two streams (overlapping across streams) over
        // about 20 s: the map reads the busy summary's levels, and each bin's
        // share is within 2 / kSummaryBucketsPerBin of the union's exact share.
        auto report = std::make_shared<Report>();
        std::vector<std::pair<TimeNs, TimeNs>> all;
        QRandomGenerator random(19);
        for (std::uint32_t stream : {7u, 8u}) {
            Track track;
            track.kind = TrackKind::Kernel;
            track.pid = 42;
            track.deviceId = 0;
            track.streamId = stream;
            TimeNs t = 1'000'000;
            for (int i = 0; i < 200'000; ++i) {
                t += TimeNs(random.bounded(120'000));
                const TimeNs end = t + 1 + TimeNs(random.bounded(stream == 7 ? 100'000 : 20'000));
                track.slices.append(t, end, StringTable::kEmpty, 0);
                all.push_back({t, end});
                t = end;
            }
            track.slices.finalize();
            report->tracks.push_back(std::move(track));
        }
        buildGpuBusySummaries(*report);
        QCOMPARE(report->gpuBusy.size(), std::size_t(1));
        const ExactUnion exact(all);
        QCOMPARE(report->gpuBusy[0].busy, exact.before.back());
        const Session session = Session::fromReports({report});
        const TimeNs offset = session.ranks()[0].sessionOffset;
        const TimeRange range{exact.runs.front().first + offset, exact.runs.back().second + offset};
        for (const int bins : {40, 300, 20'000}) {
            const RankTimeMap map = gpuBusyMap(session, range, bins);
            double worst = 0;
            for (int bin = 0; bin < bins; ++bin) {
                const TimeRange b = map.binRange(bin);
                const double share = double(exact.between(b.start - offset, b.end - offset)) / double(b.duration());
                worst = std::max(worst, std::abs(share - double(map.share(0, bin))));
            }
            qInfo("%d bins: at most %.5f off the exact share", bins, worst);
            QVERIFY2(worst <= 2.0 / kSummaryBucketsPerBin + 1e-6, qPrintable(QStringLiteral("%1 bins: off by %2").arg(bins).arg(worst)));
            // 20,000 bins are finer than any summary level: read from the
            // events, exactly (to float precision).
            if (bins == 20'000)
                QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
        }
    }

    void binsOutsideWhatARankRecordedAreEmpty()
    {
        // Two ranks of the demo: a range reaching past the session's end
        // leaves the bins beyond every rank's last event without a value.
        const Session session = Session::load({ddpFixture(0), ddpFixture(1)});
        QCOMPARE(session.ranks().size(), std::size_t(2));
        const TimeRange extent = session.extent();
        const RankTimeMap map = gpuBusyMap(session, {extent.start, extent.end + extent.duration()}, 20);
        QCOMPARE(map.rankIndices, (std::vector<int>{0, 1}));
        for (std::size_t row = 0; row < 2; ++row) {
            QVERIFY(std::isnan(map.share(row, 19)));
            QVERIFY(!std::isnan(map.share(row, 0)));
            for (int bin = 0; bin < 10; ++bin)
                QVERIFY(std::isnan(map.share(row, bin)) || (map.share(row, bin) >= 0.0f && map.share(row, bin) <= 1.0f));
        }
    }
};

QTEST_GUILESS_MAIN(TestRankTimeMap)
#include "tst_ranktimemap.moc"
