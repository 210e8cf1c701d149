// Loading the real H100 exports: counts, identities, and every GPU op
// checked against the cuda_gpu_trace CSV that nsys printed for the file.
#include "load/nsys/nsysloader.h"
#include "stats/sqlround.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

class TestNsysLoader : public QObject {
    Q_OBJECT

    ReportPtr m_slow;

    const Track *findGpuTrack(TrackKind kind, std::uint32_t stream) const
    {
        for (const Track &t : m_slow->tracks)
            if (t.kind == kind && t.streamId == stream)
                return &t;
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        const QByteArray before = fileHash(slowFixture());
        const LoadResult r = NsysSqliteLoader::load(slowFixture());
        QVERIFY2(r.ok(), qPrintable(r.error));
        m_slow = r.report;
        QCOMPARE(fileHash(slowFixture()), before); // never written
    }

    void metadata()
    {
        QCOMPARE(m_slow->meta.productVersion, QStringLiteral("2025.3.2.0"));
        QCOMPARE(m_slow->meta.schemaVersion, QStringLiteral("3.20.3"));
        QCOMPARE(m_slow->meta.utcStartNs, 1795351360366615481LL);
        QCOMPARE(m_slow->meta.hostName, QStringLiteral("vm"));
        QCOMPARE(m_slow->meta.analysisRange.start, 457622729LL);
        QCOMPARE(m_slow->meta.analysisRange.end, 10036441826LL);
    }

    void countsMatchTheDataReadme()
    {
        // The README that came with these traces: 574 kernels, 61 memcpy incl. 39
        // pageable HtoD, 3,833 CUDA API calls, 19,856 OS runtime rows of
        // which 3 are start/finish markers, 50 NVTX ranges + 1 domain row.
        QCOMPARE(m_slow->eventCount(TrackKind::Kernel), std::size_t(574));
        QCOMPARE(m_slow->eventCount(TrackKind::Memcpy), std::size_t(61));
        QCOMPARE(m_slow->eventCount(TrackKind::Memset), std::size_t(60));
        QCOMPARE(m_slow->eventCount(TrackKind::Sync), std::size_t(47));
        QCOMPARE(m_slow->eventCount(TrackKind::CudaApi), std::size_t(3833));
        QCOMPARE(m_slow->eventCount(TrackKind::OsRuntime), std::size_t(19853));
        QCOMPARE(m_slow->eventCount(TrackKind::Nvtx), std::size_t(50));
        int pageableHtoD = 0;
        for (const MemcpyRecord &m : m_slow->memcpys)
            pageableHtoD += m.copyKind == MemcpyKind::HtoD && m.srcKind == MemoryKind::Pageable;
        QCOMPARE(pageableHtoD, 39);
        int driver = 0;
        for (const ApiCallRecord &a : m_slow->apiCalls)
            driver += a.eventClass == EventClass::CudaDriver;
        QCOMPARE(driver, 2887);
    }

    void identities()
    {
        QCOMPARE(m_slow->gpus.size(), std::size_t(1));
        const GpuInfo &gpu = m_slow->gpus.front();
        QCOMPARE(gpu.name, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(gpu.smCount, 132);
        QCOMPARE(gpu.totalMemory, 85017493504LL);
        QCOMPARE(m_slow->cudaProcesses(), std::vector<std::uint32_t>{1053});
        QCOMPARE(m_slow->process(1053)->name, QStringLiteral("python3"));
        QCOMPARE(m_slow->processes.size(), std::size_t(193));
        bool mainThreadNamed = false;
        for (const ThreadInfo &t : m_slow->threads)
            mainThreadNamed |= t.tid == 1053 && !t.name.isEmpty();
        QVERIFY(mainThreadNamed);
    }

    void nvtxDomainsAndNesting()
    {
        bool cublasDomain = false;
        int maxDepth = 0;
        for (const Track &t : m_slow->tracks) {
            if (t.kind != TrackKind::Nvtx)
                continue;
            cublasDomain |= m_slow->strings.string(t.domainName) == QLatin1String("cuBLAS");
            maxDepth = std::max<int>(maxDepth, t.slices.maxDepth());
        }
        QVERIFY(cublasDomain);
        QVERIFY(maxDepth >= 1); // "step N" encloses data_loading, forward, ...
    }

    void memoryUsageIsARunningTotal()
    {
        QCOMPARE(m_slow->counters.size(), std::size_t(1));
        const CounterTrack &c = m_slow->counters.front();
        QCOMPARE(c.time.size(), std::size_t(954));
        QVERIFY(std::is_sorted(c.time.begin(), c.time.end()));
        QVERIFY(*std::max_element(c.value.begin(), c.value.end()) > 0.0);
        QVERIFY(*std::min_element(c.value.begin(), c.value.end()) >= 0.0);
    }

    void diagnosticEventsAreKept()
    {
        int fromExport = 0;
        for (const Diagnostic &d : m_slow->diagnostics)
            fromExport += d.timestamp.has_value();
        QCOMPARE(fromExport, 24);
    }

    void everyGpuOpMatchesCudaGpuTrace()
    {
        const QList<QStringList> rows = parseCsv(readText(dataPath(QStringLiteral("nsys/slow_1gpu/stats/slow_1gpu_cuda_gpu_trace.csv"))));
        const QStringList h = rows.value(0);
        const auto col = [&](const char *name) { return h.indexOf(QString::fromLatin1(name)); };
        QCOMPARE(rows.size() - 1, 574 + 61 + 60);
        int memcpysChecked = 0;
        for (qsizetype r = 1; r < rows.size(); ++r) {
            const QStringList &row = rows[r];
            const QString name = row[col("Name")];
            const bool isMemcpy = name.startsWith(QLatin1String("[CUDA memcpy"));
            const bool isMemset = name == QLatin1String("[CUDA memset]");
            const TrackKind kind = isMemcpy ? TrackKind::Memcpy : isMemset ? TrackKind::Memset : TrackKind::Kernel;
            const Track *track = findGpuTrack(kind, row[col("Strm")].toUInt());
            QVERIFY2(track, qPrintable(name));
            const TimeNs start = row[col("Start (ns)")].toLongLong();
            const auto hits = track->slices.overlapping(start, start);
            std::optional<std::size_t> at;
            for (auto i : hits)
                if (track->slices.start(i) == start)
                    at = i;
            QVERIFY2(at, qPrintable(QStringLiteral("no %1 starting at %2").arg(name).arg(start)));
            QCOMPARE(track->slices.duration(*at), row[col("Duration (ns)")].toLongLong());
            QCOMPARE(m_slow->strings.string(track->slices.name(*at)), name);
            const std::uint32_t payload = track->slices.payload(*at);
            if (kind == TrackKind::Kernel) {
                const KernelRecord &k = m_slow->kernels[payload];
                const KernelConfig &c = m_slow->launch(k);
                QCOMPARE(k.correlationId, row[col("CorrId")].toUInt());
                QCOMPARE(c.gridX, row[col("GrdX")].toUInt());
                QCOMPARE(c.gridY, row[col("GrdY")].toUInt());
                QCOMPARE(c.gridZ, row[col("GrdZ")].toUInt());
                QCOMPARE(c.blockX, row[col("BlkX")].toUInt());
                QCOMPARE(c.blockY, row[col("BlkY")].toUInt());
                QCOMPARE(c.blockZ, row[col("BlkZ")].toUInt());
                QCOMPARE(c.registersPerThread, row[col("Reg/Trd")].toUInt());
                QCOMPARE(formatRounded(c.staticSharedMemory / 1e6, 3), row[col("StcSMem (MB)")]);
                QCOMPARE(formatRounded(c.dynamicSharedMemory / 1e6, 3), row[col("DymSMem (MB)")]);
            } else if (kind == TrackKind::Memcpy) {
                const MemcpyRecord &m = m_slow->memcpys[payload];
                QCOMPARE(formatRounded(double(m.bytes) / 1e6, 3), row[col("Bytes (MB)")]);
                QCOMPARE(m_slow->memoryKindLabel(int(m.srcKind)), row[col("SrcMemKd")]);
                QCOMPARE(m_slow->memoryKindLabel(int(m.dstKind)), row[col("DstMemKd")]);
                QCOMPARE(m.correlationId, row[col("CorrId")].toUInt());
                ++memcpysChecked;
            } else {
                QCOMPARE(formatRounded(double(m_slow->memsets[payload].bytes) / 1e6, 3), row[col("Bytes (MB)")]);
            }
        }
        QCOMPARE(memcpysChecked, 61);
    }

    void indexFindsWhatABruteForceFinds()
    {
        for (const Track &t : m_slow->tracks) {
            const TimeRange e = t.slices.extent();
            for (TimeNs probe : {e.start, (e.start + e.end) / 2, e.end}) {
                std::vector<std::uint32_t> expected;
                for (std::size_t i = 0; i < t.slices.size(); ++i)
                    if (t.slices.start(i) <= probe && t.slices.end(i) >= probe)
                        expected.push_back(std::uint32_t(i));
                QCOMPARE(t.slices.overlapping(probe, probe), expected);
            }
        }
    }

    void memoryPerEvent()
    {
        // Track storage itself (columns, index, summaries) stays near the
        // 32-byte target; strings and side tables are counted apart.
        std::size_t trackBytes = 0;
        for (const Track &t : m_slow->tracks)
            trackBytes += t.slices.memoryBytes();
        const double perEvent = double(trackBytes) / double(m_slow->eventCount());
        qInfo("track bytes per event: %.1f", perEvent);
        QVERIFY(perEvent < 40.0);
    }
};

QTEST_GUILESS_MAIN(TestNsysLoader)
#include "tst_nsysloader.moc"
