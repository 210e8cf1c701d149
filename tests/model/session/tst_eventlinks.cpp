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
    const char *sql = "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN ("
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

// An NVTX range of process 7's thread `tid` (one track per thread), as
// emit_nvtx writes them.
void addNvtxRange(Report &report, std::uint32_t tid, TimeNs start, TimeNs end, const char *name)
{
    Track *track = nullptr;
    for (Track &t : report.tracks)
        if (t.tid == tid)
            track = &t;
    if (!track) {
        report.tracks.push_back({TrackKind::Nvtx, 7, tid, -1, 0, 0, 0, StringTable::kEmpty, {}});
        track = &report.tracks.back();
    }
    track->slices.append(start, end, report.strings.intern(name), 0);
}

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

    // PyTorch's own fwdbwd flow #1 in the real slow Kineto trace: the
    // forward op aten::nll_loss_forward (thread 430, ts 4493981677012.465
    // µs) to NllLossBackward0 (autograd thread 456, ts 4493981677680.478 µs).
    void kinetoFlowsLinkAForwardOpToItsBackwardOp()
    {
        const Session kineto = Session::load({dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"))});
        const Report &r = *kineto.ranks()[0].report;
        QCOMPARE(r.flows.size(), std::size_t(96)); // the file's 96 fwdbwd start/finish pairs
        const TimeNs forwardAt = 4493981677012465 - r.meta.rawTimeOrigin;
        const TimeNs backwardAt = 4493981677680478 - r.meta.rawTimeOrigin;
        std::optional<EventLocation> forward;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t)
            if (r.tracks[t].kind == TrackKind::CpuOp && r.tracks[t].tid == 430)
                for (std::uint32_t e = 0; e < r.tracks[t].slices.size(); ++e)
                    if (r.tracks[t].slices.start(e) == forwardAt
                        && r.strings.string(r.tracks[t].slices.name(e)) == QStringLiteral("aten::nll_loss_forward"))
                        forward = EventLocation{0, t, e};
        QVERIFY(forward);
        const std::vector<EventLocation> partners = flowPartners(kineto, *forward);
        QCOMPARE(partners.size(), std::size_t(1));
        const Track &bt = kineto.track(partners[0]);
        QCOMPARE(bt.tid, 456u);
        QCOMPARE(bt.slices.start(partners[0].event), backwardAt);
        QCOMPARE(r.strings.string(bt.slices.name(partners[0].event)), QStringLiteral("NllLossBackward0"));
        // And back.
        QCOMPARE(flowPartners(kineto, partners[0]), std::vector<EventLocation>{*forward});
        // Details link them.
        bool linked = false;
        for (const auto &field : describeEvent(kineto, *forward).fields)
            linked |= field.label == QStringLiteral("Backward op") && field.link == partners[0];
        QVERIFY(linked);
        // A Kineto CPU op is what the trace calls it, not "NVTX".
        const EventDetails details = describeEvent(kineto, *forward);
        QCOMPARE(details.kind, QStringLiteral("cpu_op"));
        const auto track =
            std::find_if(details.fields.begin(), details.fields.end(), [](const DetailField &f) { return f.label == QLatin1String("Track"); });
        QVERIFY(track != details.fields.end());
        QCOMPARE(track->value, QStringLiteral("cpu_op"));
    }

    // torch.autograd.profiler.emit_nvtx names forward ops "…, seq = N" and
    // the backward op made for them "…, stashed seq = N".
    void emitNvtxSequenceNumbersPairForwardAndBackward()
    {
        auto report = std::make_shared<Report>();
        report->filePath = QStringLiteral("emit_nvtx.sqlite");
        auto addRange = [&](std::uint32_t tid, TimeNs start, TimeNs end, const char *name) { addNvtxRange(*report, tid, start, end, name); };
        addRange(7, 100, 200, "aten::linear, seq = 12");
        addRange(7, 300, 400, "aten::relu, seq = 13");
        addRange(7, 500, 600, "aten::linear, seq = 120"); // not 12
        addRange(9, 1000, 1100, "ReluBackward0, stashed seq = 13");
        addRange(9, 1200, 1300, "AddmmBackward0, stashed seq = 12");
        for (Track &t : report->tracks)
            t.slices.finalize();
        const Session session = Session::fromReports({report});
        const std::vector<EventLocation> partners = flowPartners(session, {0, 0, 0});
        QCOMPARE(partners.size(), std::size_t(1));
        QCOMPARE(report->strings.string(session.track(partners[0]).slices.name(partners[0].event)),
                 QStringLiteral("AddmmBackward0, stashed seq = 12"));
        const std::vector<EventLocation> forwardOnly{EventLocation{0, 0, 0}};
        QCOMPARE(flowPartners(session, partners[0]), forwardOnly);
        QVERIFY(flowPartners(session, {0, 0, 2}).empty()); // seq 120 has no backward op
    }

    // Current PyTorch writes no "stashed": the backward op is the autograd
    // node "…Backward<k>" with the forward's "seq = N" (and an op_id of its
    // own), on the autograd thread.
    void currentEmitNvtxPairsByBackwardNodeNames()
    {
        auto report = std::make_shared<Report>();
        report->filePath = QStringLiteral("emit_nvtx_2_5.sqlite");
        auto addRange = [&](std::uint32_t tid, TimeNs start, TimeNs end, const char *name) { addNvtxRange(*report, tid, start, end, name); };
        addRange(7, 100, 200, "aten::scaled_dot_product_attention, seq = 20, op_id = 115");
        addRange(7, 300, 400, "aten::linear, seq = 21, op_id = 120");
        addRange(9, 1000, 1100, "ScaledDotProductCudnnAttentionBackward0, seq = 20, op_id = 3071");
        addRange(9, 1010, 1090, "aten::_cudnn_attention_backward, op_id = 3072"); // inside it: no seq
        addRange(9, 1200, 1300, "autograd::engine::evaluate_function: AddmmBackward0, seq = 21, op_id = 3080");
        for (Track &t : report->tracks)
            t.slices.finalize();
        const Session session = Session::fromReports({report});
        const auto nameOf = [&](const EventLocation &e) { return report->strings.string(session.track(e).slices.name(e.event)); };
        const std::vector<EventLocation> attention = flowPartners(session, {0, 0, 0});
        QCOMPARE(attention.size(), std::size_t(1));
        QCOMPARE(nameOf(attention[0]), QStringLiteral("ScaledDotProductCudnnAttentionBackward0, seq = 20, op_id = 3071"));
        QCOMPARE(flowPartners(session, attention[0]), (std::vector<EventLocation>{{0, 0, 0}}));
        const std::vector<EventLocation> linear = flowPartners(session, {0, 0, 1});
        QCOMPARE(linear.size(), std::size_t(1));
        QVERIFY(nameOf(linear[0]).contains(QLatin1String("AddmmBackward0")));
        // Details name the other end.
        bool linked = false;
        for (const auto &field : describeEvent(session, {0, 0, 0}).fields)
            linked |= field.label == QStringLiteral("Backward op") && field.link == attention[0];
        QVERIFY(linked);
    }
};

QTEST_GUILESS_MAIN(TestEventLinks)
#include "tst_eventlinks.moc"
