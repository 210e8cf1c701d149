// Correlation, NVTX projection and NCCL tracks built after loading.
#include "load/derivedtracks.h"
#include "load/nsys/nsysloader.h"
#include "load/sidetableorder.h"
#include "session/eventlinks.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

class TestDerivedTracks : public QObject {
    Q_OBJECT
    std::shared_ptr<Session> m_session;

    const Report &report() const { return *m_session->ranks()[0].report; }

private slots:
    void initTestCase()
    {
        m_session = std::make_shared<Session>(Session::load({slowFixture()}));
        QCOMPARE(m_session->ranks().size(), std::size_t(1));
    }

    // API calls on two threads and kernels on two streams, each in id order
    // (merged), and a stream out of id order (sorted): every call finds its
    // kernels, a repeated call id keeps its first call.
    void correlationsMergedOrSorted_data()
    {
        QTest::addColumn<bool>("streamInOrder");
        QTest::newRow("every track in id order") << true;
        QTest::newRow("a stream out of id order") << false;
    }
    void correlationsMergedOrSorted()
    {
        QFETCH(bool, streamInOrder);
        Report r;
        const auto addTrack = [&](TrackKind kind, std::uint32_t tid, std::uint32_t stream) {
            Track t;
            t.kind = kind;
            t.pid = 9;
            t.tid = tid;
            t.streamId = stream;
            r.tracks.push_back(std::move(t));
            return r.tracks.size() - 1;
        };
        const std::size_t api[2] = {addTrack(TrackKind::CudaApi, 1, 0), addTrack(TrackKind::CudaApi, 2, 0)};
        const std::size_t gpu[2] = {addTrack(TrackKind::Kernel, 0, 7), addTrack(TrackKind::Kernel, 0, 8)};
        for (std::uint32_t id = 1; id <= 20; ++id) {
            const TimeNs t = TimeNs(id) * 100;
            r.tracks[api[id % 2]].slices.append(t, t + 10, StringTable::kEmpty, std::uint32_t(r.apiCalls.size()));
            ApiCallRecord call;
            call.correlationId = id;
            r.apiCalls.push_back(call);
            // Stream 8 runs its kernels in reverse launch order when asked.
            const TimeNs k = id % 3 == 0 && !streamInOrder ? TimeNs(5000 - id * 100) : t + 50;
            r.tracks[gpu[id % 3 == 0 ? 1 : 0]].slices.append(k, k + 20, StringTable::kEmpty, std::uint32_t(r.kernels.size()));
            KernelRecord kernel;
            kernel.correlationId = id;
            r.kernels.push_back(kernel);
        }
        // A call with a repeated id on the second thread, later.
        r.tracks[api[1]].slices.append(9000, 9010, StringTable::kEmpty, std::uint32_t(r.apiCalls.size()));
        ApiCallRecord again;
        again.correlationId = 4;
        r.apiCalls.push_back(again);
        for (Track &t : r.tracks)
            t.slices.finalize();
        buildCorrelations(r);
        QCOMPARE(r.apiByCorrelation.size(), std::size_t(20));
        QCOMPARE(r.gpuByCorrelation.size(), std::size_t(20));
        for (std::uint32_t id = 1; id <= 20; ++id) {
            const std::optional<TrackEvent> call = r.apiCallFor(Report::correlationKey(9, id));
            QVERIFY(call);
            QCOMPARE(r.correlationIdOf(r.tracks[call->track], call->event), id);
            QCOMPARE(r.tracks[call->track].slices.start(call->event), TimeNs(id) * 100); // the first call of id 4
            const std::span<const TrackEvent> ops = r.gpuOpsFor(Report::correlationKey(9, id));
            QCOMPARE(ops.size(), std::size_t(1));
            QCOMPARE(r.correlationIdOf(r.tracks[ops[0].track], ops[0].event), id);
        }
    }

    // The lookups that gallop from a hint (a step's calls in time order)
    // answer as the plain binary search does, for every key present or
    // absent, from every hint (before, at and past the answer, and past the
    // end), and leave the hint where the key is or would be.
    void hintedLookupsAnswerAsTheSearch()
    {
        Report r;
        Track api, gpu;
        api.kind = TrackKind::CudaApi;
        gpu.kind = TrackKind::Kernel;
        api.pid = gpu.pid = 3;
        r.tracks = {api, gpu};
        std::uint32_t call = 0;
        for (std::uint32_t id = 2; id <= 120; id += 2) { // even ids; kernels of id % 3 == 0: none; id % 5 == 0: two
            r.tracks[0].slices.append(TimeNs(id) * 10, TimeNs(id) * 10 + 5, StringTable::kEmpty, call++);
            ApiCallRecord record;
            record.correlationId = id;
            r.apiCalls.push_back(record);
            for (int k = 0; k < (id % 3 == 0 ? 0 : id % 5 == 0 ? 2 : 1); ++k) {
                r.tracks[1].slices.append(TimeNs(id) * 10 + 6 + k, TimeNs(id) * 10 + 7 + k, StringTable::kEmpty, std::uint32_t(r.kernels.size()));
                KernelRecord kernel;
                kernel.correlationId = id;
                r.kernels.push_back(kernel);
            }
        }
        for (Track &t : r.tracks)
            t.slices.finalize();
        buildCorrelations(r);
        const std::size_t most = std::max(r.apiByCorrelation.size(), r.gpuByCorrelation.size()) + 2;
        for (std::uint32_t id = 0; id <= 123; ++id) {
            const std::uint64_t key = Report::correlationKey(3, id);
            const std::optional<TrackEvent> call = r.apiCallFor(key);
            const std::span<const TrackEvent> ops = r.gpuOpsFor(key);
            QCOMPARE(bool(call), id >= 2 && id <= 120 && id % 2 == 0);
            QCOMPARE(ops.size(), std::size_t(!call || id % 3 == 0 ? 0 : id % 5 == 0 ? 2 : 1));
            for (std::size_t from = 0; from <= most; ++from) {
                std::size_t hint = from;
                const std::optional<TrackEvent> hinted = r.apiCallFor(key, hint);
                QCOMPARE(bool(hinted), bool(call));
                if (call)
                    QCOMPARE(*hinted, *call);
                QCOMPARE(hint, std::size_t(std::lower_bound(r.apiByCorrelation.begin(), r.apiByCorrelation.end(), key,
                                                            [&](const TrackEvent &e, std::uint64_t k) { return r.correlationKeyOf(e) < k; })
                                           - r.apiByCorrelation.begin()));
                hint = from;
                const std::span<const TrackEvent> hintedOps = r.gpuOpsFor(key, hint);
                QCOMPARE(hintedOps.data(), ops.data());
                QCOMPARE(hintedOps.size(), ops.size());
            }
        }
    }

    // Two streams whose kernels were recorded interleaved: stored in track
    // order, each slice still reads its own record, with no row column.
    void sideTablesInTrackOrder()
    {
        Report r;
        for (int stream = 0; stream < 2; ++stream) {
            Track t;
            t.kind = TrackKind::Kernel;
            t.streamId = std::uint32_t(stream + 7);
            r.tracks.push_back(std::move(t));
        }
        for (std::uint32_t k = 0; k < 40; ++k) {
            KernelRecord record;
            record.correlationId = 1000 + k;
            const TimeNs start = TimeNs(40 - k) * 100; // later rows start earlier: finalize() reorders them
            r.tracks[k % 2].slices.append(start, start + 50, StringTable::kEmpty, std::uint32_t(r.kernels.size()));
            r.kernels.push_back(record);
        }
        for (Track &t : r.tracks)
            t.slices.finalize();
        QVERIFY(r.tracks[0].slices.memoryParts().payloads > 0);
        storeSideTablesInTrackOrder(r);
        for (const Track &t : r.tracks) {
            QCOMPARE(t.slices.memoryParts().payloads, std::size_t(0));
            for (std::size_t i = 0; i < t.slices.size(); ++i) {
                const std::uint32_t k = 40 - std::uint32_t(t.slices.start(i) / 100);
                QCOMPARE(r.kernels[t.slices.payload(i)].correlationId, 1000 + k);
                QCOMPARE(k % 2, t.streamId - 7);
            }
        }
        // A row two slices read keeps the table as it was.
        Report shared;
        Track t;
        t.kind = TrackKind::CudaApi;
        t.slices.append(0, 1, StringTable::kEmpty, 1);
        t.slices.append(2, 3, StringTable::kEmpty, 0);
        t.slices.append(4, 5, StringTable::kEmpty, 1);
        t.slices.finalize();
        shared.tracks.push_back(std::move(t));
        shared.apiCalls.push_back({});
        shared.apiCalls.push_back({});
        storeSideTablesInTrackOrder(shared);
        QCOMPARE(shared.tracks[0].slices.payload(0), 1u);
        QCOMPARE(shared.tracks[0].slices.payload(1), 0u);
        QCOMPARE(shared.tracks[0].slices.payload(2), 1u);
    }

    void asyncCopiesLinkToTheCallNsysNames()
    {
        // nsys analyze cuda_memcpy_async lists each async copy's start and
        // the API call that issued it.
        const QList<QStringList> rows = parseCsv(readText(referenceCsv(QStringLiteral("slow_1gpu"), QStringLiteral("cuda_memcpy_async"))));
        const QStringList h = rows.value(0);
        QVERIFY(rows.size() > 1);
        for (qsizetype r = 1; r < rows.size(); ++r) {
            const TimeNs start = rows[r][h.indexOf(QStringLiteral("Start (ns)"))].toLongLong();
            std::optional<EventLocation> copy;
            for (std::uint32_t t = 0; t < report().tracks.size(); ++t) {
                const Track &track = report().tracks[t];
                if (track.kind != TrackKind::Memcpy)
                    continue;
                for (std::uint32_t i : track.slices.overlapping(start, start))
                    if (track.slices.start(i) == start)
                        copy = EventLocation{0, t, i};
            }
            QVERIFY2(copy, qPrintable(QString::number(start)));
            const auto api = launchingApiCall(*m_session, *copy);
            QVERIFY(api);
            QCOMPARE(report().strings.string(m_session->track(*api).slices.name(api->event)), rows[r][h.indexOf(QStringLiteral("API Name"))]);
            // And back: the call's GPU work holds the copy.
            const auto work = launchedGpuWork(*m_session, *api);
            QVERIFY(std::find(work.begin(), work.end(), *copy) != work.end());
        }
    }

    void everyKernelHasItsLaunch()
    {
        std::size_t kernels = 0, linked = 0;
        for (std::uint32_t t = 0; t < report().tracks.size(); ++t)
            if (report().tracks[t].kind == TrackKind::Kernel)
                for (std::uint32_t i = 0; i < report().tracks[t].slices.size(); ++i) {
                    ++kernels;
                    linked += launchingApiCall(*m_session, {0, t, i}).has_value();
                }
        QCOMPARE(kernels, std::size_t(574));
        QCOMPARE(linked, kernels);
    }

    void projectionMatchesABruteForce()
    {
        // For each "step N" range: the GPU ops whose launching call lies
        // wholly inside it on the same thread, found by scanning everything.
        const Track *projected = nullptr;
        for (const Track &t : report().tracks)
            if (t.kind == TrackKind::NvtxGpuProjection)
                projected = &t;
        QVERIFY(projected);
        int checked = 0;
        for (const Track &nvtx : report().tracks) {
            if (nvtx.kind != TrackKind::Nvtx)
                continue;
            for (std::size_t r = 0; r < nvtx.slices.size(); ++r) {
                const QString name = report().strings.string(nvtx.slices.name(r));
                if (!name.startsWith(QLatin1String("step ")))
                    continue;
                TimeNs first = kTimeMax, last = kTimeMin;
                for (std::uint32_t t = 0; t < report().tracks.size(); ++t) {
                    const Track &gpu = report().tracks[t];
                    if (gpu.kind != TrackKind::Kernel && gpu.kind != TrackKind::Memcpy && gpu.kind != TrackKind::Memset)
                        continue;
                    for (std::uint32_t i = 0; i < gpu.slices.size(); ++i) {
                        const auto api = launchingApiCall(*m_session, {0, t, i});
                        if (!api)
                            continue;
                        const Track &calls = m_session->track(*api);
                        if (calls.tid != nvtx.tid || calls.pid != nvtx.pid || calls.slices.start(api->event) < nvtx.slices.start(r)
                            || calls.slices.end(api->event) > nvtx.slices.end(r))
                            continue;
                        first = std::min(first, gpu.slices.start(i));
                        last = std::max(last, gpu.slices.end(i));
                    }
                }
                bool found = false;
                for (std::size_t p = 0; p < projected->slices.size(); ++p)
                    if (projected->slices.name(p) == nvtx.slices.name(r))
                        found |= projected->slices.start(p) == first && projected->slices.end(p) == last;
                QVERIFY2(found, qPrintable(name));
                ++checked;
            }
        }
        QCOMPARE(checked, 8);
    }

    void ncclKernelNames()
    {
        QVERIFY(isNcclKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"));
        QVERIFY(isNcclKernelName("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"));
        QVERIFY(isNcclKernelName("void ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"));
        QVERIFY(!isNcclKernelName("void at::native::vectorized_elementwise_kernel<4>"));
        // The demo run used gloo: no NCCL kernels, so no NCCL tracks.
        for (const Track &t : report().tracks)
            QVERIFY(t.kind != TrackKind::NcclKernels);
    }
};

QTEST_GUILESS_MAIN(TestDerivedTracks)
#include "tst_derivedtracks.moc"
