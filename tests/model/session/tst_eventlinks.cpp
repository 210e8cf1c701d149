// What an NVTX range launched on the GPU, checked against the export's own
// tables: the kernels, copies and memsets whose correlation ids belong to
// the CUDA runtime calls its thread made inside it (a query on the real
// slow_1gpu report, read only).
#include "session/eventdetails.h"
#include "session/eventlinks.h"
#include "session/session.h"
#include "testdata.h"

#include <QtTest>
#include <sqlite3.h>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// GPU ops launched by thread `tid`'s runtime calls starting in [from, to].
std::int64_t launchedBy(sqlite3 *db, std::int64_t tid, std::int64_t from, std::int64_t to)
{
    const char *sql =
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN ("
        "  SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL"
        "  SELECT correlationId FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL"
        "  SELECT correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET) g ON g.correlationId = r.correlationId"
        " WHERE r.globalTid % 16777216 = ?1 AND r.start >= ?2 AND r.start <= ?3";
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, tid);
    sqlite3_bind_int64(st, 2, from);
    sqlite3_bind_int64(st, 3, to);
    const std::int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
}

} // namespace

class TestEventLinks : public QObject {
    Q_OBJECT
    std::shared_ptr<Session> m_session;
    sqlite3 *m_db = nullptr;

    // The main thread's NVTX ranges called `name`, in time order.
    std::vector<EventLocation> ranges(const QString &name) const
    {
        std::vector<EventLocation> found;
        const Report &r = *m_session->ranks()[0].report;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
            const Track &track = r.tracks[t];
            if (track.kind != TrackKind::Nvtx || track.tid != 1053)
                continue;
            for (std::uint32_t e = 0; e < track.slices.size(); ++e)
                if (r.strings.string(track.slices.name(e)) == name)
                    found.push_back({0, t, e});
        }
        return found;
    }

private slots:
    void initTestCase()
    {
        m_session = std::make_shared<Session>(Session::load({slowFixture()}));
        QCOMPARE(sqlite3_open_v2(slowFixture().toUtf8().constData(), &m_db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    }
    void cleanupTestCase() { sqlite3_close(m_db); }

    void aForwardRangeListsTheWorkItLaunched()
    {
        const std::vector<EventLocation> forwards = ranges(QStringLiteral("forward"));
        QCOMPARE(forwards.size(), std::size_t(8));
        for (const EventLocation &f : forwards) {
            const SliceTrack &slices = m_session->track(f).slices;
            const std::int64_t expected = launchedBy(m_db, 1053, slices.start(f.event), slices.end(f.event));
            QVERIFY(expected > 0);
            const RangeGpuWork work = gpuWorkOfRange(*m_session, f, 1000000);
            QCOMPARE(std::int64_t(work.opCount), expected);
            // Each listed op is GPU work whose launching call lies inside the range.
            for (const EventLocation &op : work.ops) {
                const auto api = launchingApiCall(*m_session, op);
                QVERIFY(api);
                const TimeNs callStart = m_session->track(*api).slices.start(api->event);
                QVERIFY(callStart >= slices.start(f.event) && callStart <= slices.end(f.event));
            }
        }
        // Details: one link per op, capped with a "more" line.
        const EventDetails d = describeEvent(*m_session, forwards.front());
        int links = 0;
        for (const auto &field : d.fields)
            links += field.link.has_value() && field.label == QStringLiteral("Launched");
        QVERIFY(links > 0 && links <= 50);
    }

    // PyTorch runs backward on its autograd thread: the main thread's
    // "backward" range launched next to nothing itself, and says which
    // thread launched its GPU work.
    void aBackwardRangeNamesTheThreadThatLaunched()
    {
        const std::vector<EventLocation> backwards = ranges(QStringLiteral("backward"));
        QCOMPARE(backwards.size(), std::size_t(8));
        const EventLocation &b = backwards[3];
        const SliceTrack &slices = m_session->track(b).slices;
        const RangeGpuWork work = gpuWorkOfRange(*m_session, b, 50);
        QCOMPARE(std::int64_t(work.opCount), launchedBy(m_db, 1053, slices.start(b.event), slices.end(b.event)));
        QCOMPARE(work.busiestOtherTid, 1090u);
        QCOMPARE(std::int64_t(work.busiestOtherOps), launchedBy(m_db, 1090, slices.start(b.event), slices.end(b.event)));
        const EventDetails d = describeEvent(*m_session, b);
        QString why;
        for (const auto &field : d.fields)
            if (field.label == QStringLiteral("GPU work"))
                why = field.value;
        QVERIFY2(why.contains(QLatin1String("pt_autograd_0")), qPrintable(why));
        QVERIFY(work.busiestOtherOps > 10 * work.opCount);
    }

    // A range whose thread launched nothing says it has no projection.
    void aRangeWithoutGpuWorkSaysWhy()
    {
        const std::vector<EventLocation> loading = ranges(QStringLiteral("data_loading"));
        QVERIFY(!loading.empty());
        const EventLocation &l = loading.front();
        const SliceTrack &slices = m_session->track(l).slices;
        if (launchedBy(m_db, 1053, slices.start(l.event), slices.end(l.event)) != 0)
            QSKIP("this data_loading range launched work");
        const EventDetails d = describeEvent(*m_session, l);
        QString why;
        for (const auto &field : d.fields)
            if (field.label == QStringLiteral("GPU work"))
                why = field.value;
        QVERIFY2(why.startsWith(QLatin1String("no GPU projection")), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestEventLinks)
#include "tst_eventlinks.moc"
