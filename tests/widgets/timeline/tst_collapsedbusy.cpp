// A collapsed rank's GPU busy without its waits at collectives: the busy
// runs of the real slow run less planted waits keep exactly the busy time
// outside them, and the share drawn falls where the waits are.
#include "core/intervals.h"
#include "session/session.h"
#include "testdata.h"
#include "timeline/collapsedbusy.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

TimeNs totalOf(const SliceTrack &runs)
{
    TimeNs total = 0;
    for (std::size_t i = 0; i < runs.size(); ++i)
        total += runs.end(i) - runs.start(i);
    return total;
}

// The part of `runs` inside `spans` (both sorted and disjoint).
TimeNs overlapOf(const SliceTrack &runs, const std::vector<stats::Interval> &spans)
{
    TimeNs total = 0;
    for (std::size_t i = 0; i < runs.size(); ++i)
        for (const stats::Interval &s : spans)
            total += std::max<TimeNs>(0, std::min(runs.end(i), s.second) - std::max(runs.start(i), s.first));
    return total;
}

} // namespace

class TestCollapsedBusy : public QObject {
    Q_OBJECT

private slots:
    void waitsLeftOutKeepTheBusyTimeOutsideThem()
    {
        const Session session = Session::load({slowFixture()});
        const Report &report = *session.ranks()[0].report;
        QVERIFY(!report.gpuBusy.empty());
        std::vector<std::uint32_t> gpuTracks;
        for (std::uint32_t t = 0; t < report.tracks.size(); ++t)
            if (report.tracks[t].kind == TrackKind::Kernel || report.tracks[t].kind == TrackKind::Memcpy
                || report.tracks[t].kind == TrackKind::Memset)
                gpuTracks.push_back(t);
        CollapsedBusy busy(report, gpuTracks);
        const SliceTrack &before = busy.runs();
        QVERIFY(before.size() > 100);
        const TimeNs total = totalOf(before);
        // Three waits: inside one run, across several, and past the end.
        const std::size_t middle = before.size() / 2;
        const std::vector<stats::Interval> waits{
            {before.start(10) + 1, before.end(10) - 1},
            {before.start(middle), before.end(middle + 20)},
            {before.end(before.size() - 1) - 5, before.end(before.size() - 1) + 1000},
        };
        const TimeNs inside = overlapOf(before, waits);
        QVERIFY(inside > 0);
        busy.leaveOut(waits);
        QVERIFY(!busy.runsAreTheReports());
        const SliceTrack &after = busy.runs();
        QCOMPARE(totalOf(after), total - inside);
        QCOMPARE(overlapOf(after, waits), TimeNs(0));
        for (std::size_t i = 1; i < after.size(); ++i)
            QVERIFY(after.start(i) >= after.end(i - 1)); // still sorted and disjoint
    }
};

QTEST_GUILESS_MAIN(TestCollapsedBusy)
#include "tst_collapsedbusy.moc"
