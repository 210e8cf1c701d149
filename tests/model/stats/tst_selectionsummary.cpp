// The area selection's summary: over every kernel track of the real slow
// run and all of its time, each kernel name's count, total and longest are
// the row nsys' cuda_gpu_kern_sum printed; over a range, a slice counts
// when it overlaps it, and its part inside adds up to In Range.
#include "session/session.h"
#include "stats/selectionsummary.h"
#include "testdata.h"

#include <QtTest>
#include <map>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

class TestSelectionSummary : public QObject {
    Q_OBJECT
    std::unique_ptr<Session> m_slow;

    std::vector<TrackRef> tracksOfKind(TrackKind kind) const
    {
        std::vector<TrackRef> tracks;
        const Report &r = *m_slow->ranks()[0].report;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t)
            if (r.tracks[t].kind == kind)
                tracks.push_back({0, t});
        return tracks;
    }

private slots:
    void initTestCase()
    {
        m_slow = std::make_unique<Session>(Session::load({slowFixture()}));
        QCOMPARE(m_slow->ranks().size(), std::size_t(1));
    }

    void everyKernelTrackOverAllTimeIsNsysKernelSummary()
    {
        std::vector<TrackRef> kernels = tracksOfKind(TrackKind::Kernel);
        QVERIFY(!kernels.empty());
        kernels.push_back(kernels.front()); // listed twice: counted once
        const ResultTable t = selectionSummary(*m_slow, kernels, m_slow->extent());
        QCOMPARE(t.headers.join(QLatin1Char(',')), QStringLiteral("Name,Count,Total (ns),Mean (ns),Max (ns),In Range (ns),Rows"));
        std::map<QString, std::size_t> rowOf;
        for (std::size_t r = 0; r < t.rowCount(); ++r)
            rowOf[t.cell(r, 0).text] = r;
        const QList<QStringList> csv = parseCsv(readText(referenceCsv(QStringLiteral("slow_1gpu"), QStringLiteral("cuda_gpu_kern_sum"))));
        QVERIFY(csv.size() > 10);
        for (qsizetype i = 1; i < csv.size(); ++i) {
            const QStringList &row = csv[i];
            if (row.size() < 9)
                continue;
            QVERIFY2(rowOf.count(row[8]), qPrintable(row[8]));
            const std::size_t r = rowOf[row[8]];
            QCOMPARE(t.cell(r, 1).integer, row[2].toLongLong()); // Instances
            QCOMPARE(t.cell(r, 2).integer, row[1].toLongLong()); // Total Time
            QCOMPARE(t.cell(r, 4).integer, row[6].toLongLong()); // Max
            QCOMPARE(t.cell(r, 5).integer, row[1].toLongLong()); // all of it inside
        }
        QCOMPARE(t.rowCount(), std::size_t(csv.size() - 1));
        for (std::size_t r = 1; r < t.rowCount(); ++r) // the largest total first
            QVERIFY(t.cell(r - 1, 2).integer >= t.cell(r, 2).integer);
    }

    void aRangeCountsTheSlicesOverlappingIt()
    {
        const std::vector<TrackRef> api = tracksOfKind(TrackKind::CudaApi);
        const RankEntry &entry = m_slow->ranks()[0];
        // 5 ms from the middle call of the busiest thread: cut calls at both ends.
        const Track *busiest = nullptr;
        for (const TrackRef &ref : api)
            if (!busiest || entry.report->tracks[ref.track].slices.size() > busiest->slices.size())
                busiest = &entry.report->tracks[ref.track];
        const TimeNs middle = busiest->slices.start(std::uint32_t(busiest->slices.size() / 2)) + entry.sessionOffset;
        const TimeRange range{middle - 1'000, middle + 5'000'000};
        const ResultTable t = selectionSummary(*m_slow, api, range);
        // Every slice of those tracks, walked one by one.
        std::map<QString, std::pair<std::int64_t, TimeNs>> expected; // count, in range
        for (const TrackRef &ref : api) {
            const Track &track = entry.report->tracks[ref.track];
            for (std::uint32_t e = 0; e < track.slices.size(); ++e) {
                const TimeNs s = track.slices.start(e) + entry.sessionOffset, x = track.slices.end(e) + entry.sessionOffset;
                if (x <= range.start || s >= range.end)
                    continue;
                const std::string_view name = entry.report->strings.view(track.slices.name(e));
                auto &[count, inside] = expected[QString::fromUtf8(name.data(), qsizetype(name.size()))];
                ++count;
                inside += std::min(x, range.end) - std::max(s, range.start);
            }
        }
        QVERIFY(!expected.empty());
        QCOMPARE(t.rowCount(), expected.size());
        for (std::size_t r = 0; r < t.rowCount(); ++r) {
            const auto &[count, inside] = expected.at(t.cell(r, 0).text);
            QCOMPARE(t.cell(r, 1).integer, count);
            QCOMPARE(t.cell(r, 5).integer, inside);
            QVERIFY(t.cell(r, 5).integer <= t.cell(r, 2).integer);
        }
    }
};

QTEST_GUILESS_MAIN(TestSelectionSummary)
#include "tst_selectionsummary.moc"
