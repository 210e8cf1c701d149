// Exports from other nsys versions and partial exports, built as small
// synthetic files with each era's table shapes. Expected statistics are
// worked out by hand in the comments.
#include "core/units.h"
#include "load/nsys/nsysloader.h"
#include "nsysfixture.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>

#include <map>

using namespace rankscope;
using namespace rankscope::test;

namespace {

QList<QStringList> csvOf(const Report &r, const char *report)
{
    const QList<QStringList> rows = parseCsv(stats::runReport(QString::fromLatin1(report), r)->toCsv());
    return rows.mid(1); // without the header
}

} // namespace

class TestSchemaVariants : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString fixturePath(const char *name) { return m_dir.filePath(QString::fromLatin1(name)); }

    static ReportPtr load(const QString &path)
    {
        const LoadResult r = NsysSqliteLoader::load(path);
        if (!r.ok())
            qWarning("load failed: %s", qPrintable(r.error));
        return r.report;
    }

private slots:
    void schema2022()
    {
        NsysFixture f(fixturePath("nsys2022.sqlite"));
        f.createSchema2022();
        const std::int64_t tid = globalId(100, 100), pid = globalId(100);
        f.addString(1, QStringLiteral("gemm_kernel(float*, int)"));
        f.addString(2, QStringLiteral("gemm_kernel"));
        f.addString(3, QStringLiteral("cudaLaunchKernel_v7000"));
        f.addString(4, QStringLiteral("cudaMemcpy_v3020"));
        f.addString(5, QStringLiteral("python"));
        f.addString(6, QStringLiteral("poll"));
        f.exec(QStringLiteral("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(1650000000000000000,'','');"
                              "INSERT INTO TARGET_INFO_CUDA_GPU VALUES(0,'Tesla V100-SXM2-16GB','0000:06:00.0',16945512448,80,7,0);"
                              "INSERT INTO ThreadNames VALUES(5,0,%1);")
                   .arg(tid));
        // Kernels of 100, 200 and 300 ns.
        for (int i = 0; i < 3; ++i)
            f.exec(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(%1,%2,0,1,7,%3,%4,1,2,0,0,32,128,1,1,256,1,1,0,0,0,0,%3,0);")
                       .arg(1000 * (i + 1))
                       .arg(1000 * (i + 1) + 100 * (i + 1))
                       .arg(10 + i)
                       .arg(pid));
        f.exec(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES(500,600,0,1,7,9,%1,1000,1,0,0,2,0,0,0,1,0);").arg(pid));
        f.exec(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES(4000,4100,0,1,7,20,%1,3,0);").arg(pid));
        for (int i = 0; i < 3; ++i)
            f.exec(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(%1,%2,0,%3,%4,3,0);")
                       .arg(900 * (i + 1))
                       .arg(900 * (i + 1) + 50)
                       .arg(tid)
                       .arg(10 + i));
        f.exec(QStringLiteral("INSERT INTO NVTX_EVENTS VALUES(100,5000,59,0,0,0,'step 0',%1,0,0,0,0,0,0,0,0,0);").arg(tid));
        f.exec(QStringLiteral("INSERT INTO OSRT_API VALUES(10,20,%1,6,0,0,0);").arg(tid));
        f.close();

        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QCOMPARE(r->meta.schemaVersion, QStringLiteral("2.9.0"));
        QCOMPARE(r->meta.productVersion, QStringLiteral("2022.1.1.61"));
        QCOMPARE(r->gpus.size(), std::size_t(1));
        QCOMPARE(r->gpus[0].name, QStringLiteral("Tesla V100-SXM2-16GB"));
        QCOMPARE(r->gpus[0].smCount, 80);
        QCOMPARE(r->process(100)->name, QStringLiteral("python")); // no PROCESSES table: main thread's name
        QCOMPARE(r->eventCount(TrackKind::Sync), std::size_t(1));
        QCOMPARE(r->eventCount(TrackKind::OsRuntime), std::size_t(1));
        // Total 600, 3 instances, avg 200, median 200, sample stddev 100.
        QCOMPARE(csvOf(*r, "cuda_gpu_kern_sum"),
                 (QList<QStringList>{{"100.0", "600", "3", "200.0", "200.0", "100", "300", "100.0", "gemm_kernel(float*, int)"}}));
        // No ENUM tables: the built-in label names the copy kind.
        QCOMPARE(csvOf(*r, "cuda_gpu_mem_size_sum"),
                 (QList<QStringList>{{"0.001", "1", "0.001", "0.001", "0.001", "0.001", "0.000", "[CUDA memcpy Host-to-Device]"}}));
        QCOMPARE(csvOf(*r, "cuda_api_sum"), (QList<QStringList>{{"100.0", "150", "3", "50.0", "50.0", "50", "50", "0.0", "cudaLaunchKernel"}}));
        QCOMPARE(csvOf(*r, "nvtx_sum"),
                 (QList<QStringList>{{"100.0", "4900", "1", "4900.0", "4900.0", "4900", "4900", "0.0", "PushPop", ":step 0"}}));
        const MemcpyRecord &m = r->memcpys.at(0);
        QCOMPARE(m.srcKind, MemoryKind::Pageable);
        QCOMPARE(m.dstKind, MemoryKind::Device);
        QCOMPARE(m.copyCount, 1u); // column absent before 3.17.2
        QCOMPARE(r->launch(r->kernels.at(0)).gridX, 128u);
        QCOMPARE(r->launch(r->kernels.at(0)).blockX, 256u);
        QCOMPARE(r->kernels.at(0).graphNodeId, -1); // column absent
    }

    void noGpuTableFallsBackToDeviceIds()
    {
        NsysFixture f(fixturePath("nogpu.sqlite"));
        f.createSchema2025();
        f.exec(QStringLiteral("DROP TABLE TARGET_INFO_GPU;"));
        f.addString(1, QStringLiteral("k"));
        f.exec(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start,end,deviceId,contextId,streamId,correlationId,globalPid,"
                              "demangledName,shortName,registersPerThread,gridX,gridY,gridZ,blockX,blockY,blockZ,staticSharedMemory,"
                              "dynamicSharedMemory,localMemoryPerThread,localMemoryTotal,gridId) "
                              "VALUES(10,20,3,1,7,1,%1,1,1,8,1,1,1,1,1,1,0,0,0,0,1);")
                   .arg(globalId(5)));
        f.close();
        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QVERIFY(r->gpu(3));
        QCOMPARE(r->gpu(3)->name, QStringLiteral("GPU 3"));
    }

    void nvtxOnly()
    {
        NsysFixture f(fixturePath("nvtxonly.sqlite"));
        f.addMetadata(QStringLiteral("META_DATA_EXPORT"), QStringLiteral("2024.6.2.225"), QStringLiteral("3.16.1"));
        f.exec(QStringLiteral("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
                              "CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,"
                              " category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,"
                              " domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,"
                              " int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);"));
        f.addString(1, QStringLiteral("ncclAllReduce"));
        const std::int64_t main = globalId(42, 42), other = globalId(42, 43);
        const QString insert =
            QStringLiteral("INSERT INTO NVTX_EVENTS(start,end,eventType,text,textId,globalTid,endGlobalTid,domainId,color,uint64Value) VALUES");
        f.exec(insert + QStringLiteral("(10,NULL,75,'NCCL',NULL,%1,NULL,1,NULL,NULL);").arg(main));
        f.exec(insert + QStringLiteral("(100,400,59,'forward',NULL,%1,NULL,0,4278190335,NULL);").arg(main)); // 0xFF0000FF
        f.exec(insert + QStringLiteral("(150,250,59,'conv',NULL,%1,NULL,0,NULL,NULL);").arg(main));
        f.exec(insert + QStringLiteral("(50,900,60,'epoch',NULL,%1,%2,0,NULL,NULL);").arg(main).arg(other));
        f.exec(insert + QStringLiteral("(300,NULL,34,'checkpoint',NULL,%1,NULL,0,NULL,NULL);").arg(main));
        f.exec(insert + QStringLiteral("(500,520,59,NULL,1,%1,NULL,1,NULL,1048576);").arg(main));
        f.exec(insert + QStringLiteral("(800,NULL,59,'tail',NULL,%1,NULL,0,NULL,NULL);").arg(main));
        f.close();

        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QCOMPARE(r->eventCount(), r->eventCount(TrackKind::Nvtx));
        QCOMPARE(r->eventCount(TrackKind::Nvtx), std::size_t(6)); // 5 ranges + 1 mark
        QVERIFY(r->gpus.empty());
        // Totals: epoch 850, forward 300, conv 100, tail 100 (open: ends at
        // the last NVTX timestamp, 900), NCCL:ncclAllReduce 20; sum 1370.
        QCOMPARE(csvOf(*r, "nvtx_sum"), (QList<QStringList>{{"62.0", "850", "1", "850.0", "850.0", "850", "850", "0.0", "StartEnd", ":epoch"},
                                                            {"21.9", "300", "1", "300.0", "300.0", "300", "300", "0.0", "PushPop", ":forward"},
                                                            {"7.3", "100", "1", "100.0", "100.0", "100", "100", "0.0", "PushPop", ":conv"},
                                                            {"7.3", "100", "1", "100.0", "100.0", "100", "100", "0.0", "PushPop", ":tail"},
                                                            {"1.5", "20", "1", "20.0", "20.0", "20", "20", "0.0", "PushPop", "NCCL:ncclAllReduce"}}));
        bool sawNccl = false, sawEpoch = false, sawColour = false;
        for (const Track &t : r->tracks)
            for (std::size_t i = 0; i < t.slices.size(); ++i) {
                const NvtxRecord &n = r->nvtx[t.slices.payload(i)];
                const QString name = r->strings.string(t.slices.name(i));
                if (name == QLatin1String("ncclAllReduce")) {
                    sawNccl = true;
                    QCOMPARE(r->strings.string(t.domainName), QStringLiteral("NCCL"));
                    QCOMPARE(n.payloadKind, NvtxRecord::PayloadKind::Unsigned);
                    QCOMPARE(n.intPayload, 1048576);
                } else if (name == QLatin1String("epoch")) {
                    sawEpoch = true;
                    QCOMPARE(n.endTid, 43u);
                } else if (name == QLatin1String("forward")) {
                    sawColour = n.hasColor && n.color == 0xFF0000FFu;
                } else if (name == QLatin1String("conv")) {
                    QCOMPARE(t.slices.depth(i), std::uint16_t(2)); // inside epoch and forward
                } else if (name == QLatin1String("tail")) {
                    QVERIFY(n.openAtEnd);
                }
            }
        QVERIFY(sawNccl && sawEpoch && sawColour);
    }

    void osrtOnly()
    {
        NsysFixture f(fixturePath("osrtonly.sqlite"));
        f.addMetadata(QStringLiteral("META_DATA_EXPORT"), QStringLiteral("2023.4.1.97"), QStringLiteral("3.11.7"));
        f.exec(QStringLiteral("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
                              "CREATE TABLE OSRT_API(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,"
                              " globalTid INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, nestingLevel INTEGER,"
                              " callchainId INTEGER NOT NULL);"));
        f.addString(1, QStringLiteral("read"));
        f.addString(0, QStringLiteral("[Unknown]"));
        const std::int64_t tid = globalId(7, 8);
        f.exec(QStringLiteral("INSERT INTO OSRT_API VALUES(0,1000,27,%1,1,0,0,0),(2000,4000,27,%1,1,0,0,0),"
                              "(5000,5000,31,%1,0,0,NULL,0),(6000,6000,32,%1,0,0,NULL,0);")
                   .arg(tid));
        f.close();
        const ReportPtr r = load(f.path());
        QVERIFY(r);
        // The two marker rows (classes 31/32) are not calls.
        QCOMPARE(csvOf(*r, "osrt_sum"), (QList<QStringList>{{"100.0", "3000", "2", "1500.0", "1500.0", "1000", "2000", "707.1", "read"}}));
    }

    void memcpyWithoutKernels()
    {
        NsysFixture f(fixturePath("memcpyonly.sqlite"));
        f.createSchema2025();
        const std::int64_t pid = globalId(9);
        const QString insert = QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(start,end,deviceId,contextId,streamId,correlationId,"
                                              "globalPid,bytes,copyKind,srcKind,dstKind) VALUES");
        f.exec(insert + QStringLiteral("(1000,2000,0,1,13,1,%1,4194304,1,0,2);").arg(pid));
        f.exec(insert + QStringLiteral("(1000000000,1000000500,0,1,13,2,%1,1000000,2,2,1);").arg(pid));
        f.close();
        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QCOMPARE(r->eventCount(TrackKind::Kernel), std::size_t(0));
        QCOMPARE(csvOf(*r, "cuda_gpu_mem_size_sum"),
                 (QList<QStringList>{{"4.194", "1", "4.194", "4.194", "4.194", "4.194", "0.000", "[CUDA memcpy Host-to-Device]"},
                                     {"1.000", "1", "1.000", "1.000", "1.000", "1.000", "0.000", "[CUDA memcpy Device-to-Host]"}}));
        // Idle from 2000 to 1e9: 999,998,000 ns, over the 500 ms default.
        QCOMPARE(csvOf(*r, "gpu_gaps"), (QList<QStringList>{{"1", "999998000", "2000", "9", "0", "1"}}));
        // All 30 chunks are nearly idle and merge into one row spanning
        // first start to last end; 1500 busy ns of 999,999,500.
        QCOMPARE(csvOf(*r, "gpu_time_util"), (QList<QStringList>{{"1", "0.0", "999999500", "1000", "9", "0", "1"}}));
    }

    void gpuMetricsBecomeCounters()
    {
        NsysFixture f(fixturePath("metrics.sqlite"));
        f.createSchema2026();
        const std::int64_t typeId = (std::int64_t(1) << 56) | (0x10 << 8) | 1; // gpu 1
        f.exec(
            QStringLiteral("CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER, sourceId INTEGER, typeName TEXT, metricId INTEGER, metricName TEXT);"
                           "CREATE TABLE GPU_METRICS(rawTimestamp INTEGER, timestamp INTEGER, typeId INTEGER, metricId INTEGER, value INTEGER);"
                           "INSERT INTO TARGET_INFO_GPU_METRICS VALUES(%1,0,'GH100',5,'SMs Active [Throughput %]');"
                           "INSERT INTO GPU_METRICS VALUES(0,300,%1,5,80),(0,100,%1,5,20),(0,200,%1,5,50);")
                .arg(typeId));
        f.close();
        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QCOMPARE(r->counters.size(), std::size_t(1));
        const CounterTrack &c = r->counters[0];
        QCOMPARE(c.name, QStringLiteral("SMs Active [Throughput %]"));
        QCOMPARE(c.deviceId, 1);
        QCOMPARE(c.unit, QStringLiteral("%"));
        QCOMPARE(c.time, (std::vector<TimeNs>{100, 200, 300}));
        QCOMPARE(c.value, (std::vector<double>{20, 50, 80}));
        QCOMPARE(formatCounterValue(80, c.unit), QStringLiteral("80.0 %"));
    }

    // What a metric's bracket says: "[Avg]" and "[Avg Warps per Cycle]"
    // are how it was taken, not a unit; a metric the export holds as a
    // signed byte that wrapped past 127 is read as 0 to 255, and said so.
    void metricQualifiersAreNoUnitsAndWrappedBytesUnwrap()
    {
        NsysFixture f(fixturePath("metrics_units.sqlite"));
        f.createSchema2026();
        const std::int64_t typeId = (std::int64_t(1) << 56) | (0x10 << 8);
        f.exec(QStringLiteral(
                   "CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER, sourceId INTEGER, typeName TEXT, metricId INTEGER, metricName TEXT);"
                   "CREATE TABLE GPU_METRICS(rawTimestamp INTEGER, timestamp INTEGER, typeId INTEGER, metricId INTEGER, value INTEGER);"
                   "INSERT INTO TARGET_INFO_GPU_METRICS VALUES(%1,0,'GH100',1,'Compute Warps in Flight [Avg]'),"
                   "(%1,0,'GH100',2,'Unallocated Warps in Active SMs [Avg Warps per Cycle]'),(%1,0,'GH100',3,'PCIe RX Throughput [Throughput %]');"
                   "INSERT INTO GPU_METRICS VALUES(0,100,%1,1,25600000),(0,200,%1,1,100),"
                   "(0,100,%1,2,100),(0,200,%1,2,-128),(0,300,%1,2,-1),(0,100,%1,3,5),(0,200,%1,3,-3);")
                   .arg(typeId));
        f.close();
        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QCOMPARE(r->counters.size(), std::size_t(3));
        std::map<QString, const CounterTrack *> byName;
        for (const CounterTrack &c : r->counters)
            byName[c.name] = &c;
        const CounterTrack &warps = *byName.at(QStringLiteral("Compute Warps in Flight [Avg]"));
        QCOMPARE(warps.unit, QString());
        QCOMPARE(formatCounterValue(25600000, warps.unit), QStringLiteral("25.6 M"));
        const CounterTrack &perCycle = *byName.at(QStringLiteral("Unallocated Warps in Active SMs [Avg Warps per Cycle]"));
        QCOMPARE(perCycle.unit, QString());
        QCOMPARE(perCycle.value, (std::vector<double>{100, 128, 255}));
        // A percentage with a negative sample is no byte: left as it is.
        QCOMPARE(byName.at(QStringLiteral("PCIe RX Throughput [Throughput %]"))->value, (std::vector<double>{5, -3}));
        QCOMPARE(r->diagnostics.size(), std::size_t(1));
        QVERIFY(r->diagnostics[0].text.contains(QLatin1String("Unallocated Warps in Active SMs")));
    }

    // Repeats are dropped as rows are read in time order; a row out of
    // order after that makes the metric be read again whole, so the value
    // in force at every time is the one the rows say.
    void repeatedMetricSamplesInAnyRowOrder_data()
    {
        QTest::addColumn<QString>("rows"); // (timestamp, value) of metric 5
        QTest::addColumn<std::vector<TimeNs>>("times");
        QTest::addColumn<std::vector<double>>("values");
        QTest::newRow("in order") << "(100,20),(200,20),(300,20),(400,50),(500,50)" << std::vector<TimeNs>{100, 400} << std::vector<double>{20, 50};
        QTest::newRow("out of order after repeats")
            << "(100,20),(200,20),(300,20),(400,20),(250,50)" << std::vector<TimeNs>{100, 250, 300} << std::vector<double>{20, 50, 20};
        QTest::newRow("out of order before repeats")
            << "(100,20),(50,50),(200,50),(300,20),(400,20)" << std::vector<TimeNs>{50, 100, 200, 300} << std::vector<double>{50, 20, 50, 20};
    }
    void repeatedMetricSamplesInAnyRowOrder()
    {
        QFETCH(QString, rows);
        QFETCH(std::vector<TimeNs>, times);
        QFETCH(std::vector<double>, values);
        NsysFixture f(fixturePath(QByteArray("metrics_order_" + QByteArray(QTest::currentDataTag()).replace(' ', '_') + ".sqlite").constData()));
        f.createSchema2026();
        const std::int64_t typeId = (std::int64_t(1) << 56) | (0x10 << 8);
        QStringList tuples;
        for (const QString &tuple : rows.mid(1, rows.size() - 2).split(QStringLiteral("),("))) {
            const QStringList tv = tuple.split(QLatin1Char(','));
            tuples << QStringLiteral("(0,%1,%2,5,%3)").arg(tv[0]).arg(typeId).arg(tv[1]);
            // A second metric between them, as GPUs write rows metric by metric.
            tuples << QStringLiteral("(0,%1,%2,6,7)").arg(tv[0]).arg(typeId);
        }
        f.exec(QStringLiteral(
                   "CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER, sourceId INTEGER, typeName TEXT, metricId INTEGER, metricName TEXT);"
                   "CREATE TABLE GPU_METRICS(rawTimestamp INTEGER, timestamp INTEGER, typeId INTEGER, metricId INTEGER, value INTEGER);"
                   "INSERT INTO TARGET_INFO_GPU_METRICS VALUES(%1,0,'GH100',5,'SMs Active [Throughput %]'),(%1,0,'GH100',6,'Other [Throughput %]');"
                   "INSERT INTO GPU_METRICS VALUES %2;")
                   .arg(typeId)
                   .arg(tuples.join(QLatin1Char(','))));
        f.close();
        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QCOMPARE(r->counters.size(), std::size_t(2));
        const CounterTrack &c = r->counters[0].name.startsWith(QLatin1String("SMs")) ? r->counters[0] : r->counters[1];
        QCOMPARE(c.time, times);
        QCOMPARE(c.value, values);
        const CounterTrack &other = &c == &r->counters[0] ? r->counters[1] : r->counters[0];
        QCOMPARE(other.value, std::vector<double>{7});
    }

    void clockMetricsAreInHertz_data()
    {
        QTest::addColumn<double>("stored");
        QTest::newRow("Hz, as nsys writes them") << 2010000000.0;
        QTest::newRow("MHz, as the name says") << 2010.0;
    }
    void clockMetricsAreInHertz()
    {
        QFETCH(double, stored);
        NsysFixture f(fixturePath(stored > 1e6 ? "clocks_hz.sqlite" : "clocks_mhz.sqlite"));
        f.createSchema2026();
        const std::int64_t typeId = (std::int64_t(1) << 56) | (0x10 << 8);
        f.exec(QStringLiteral(
                   "CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER, sourceId INTEGER, typeName TEXT, metricId INTEGER, metricName TEXT);"
                   "CREATE TABLE GPU_METRICS(rawTimestamp INTEGER, timestamp INTEGER, typeId INTEGER, metricId INTEGER, value REAL);"
                   "INSERT INTO TARGET_INFO_GPU_METRICS VALUES(%1,0,'GH100',1,'GPC Clock Frequency [MHz]'),(%1,0,'GH100',2,'NVLink RX [bytes]');"
                   "INSERT INTO GPU_METRICS VALUES(0,100,%1,1,%2),(0,200,%1,1,%2),(0,100,%1,2,0),(0,200,%1,2,0);")
                   .arg(typeId)
                   .arg(stored, 0, 'f', 1));
        f.close();
        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QCOMPARE(r->counters.size(), std::size_t(2));
        const CounterTrack &clock = r->counters[0].name.startsWith(QLatin1String("GPC")) ? r->counters[0] : r->counters[1];
        QCOMPARE(clock.unit, QStringLiteral("Hz"));
        QCOMPARE(clock.value[0], 2010000000.0);
        QCOMPARE(formatCounterValue(clock.value[0], clock.unit), QStringLiteral("2.01 GHz"));
        const CounterTrack &link = &clock == &r->counters[0] ? r->counters[1] : r->counters[0];
        QCOMPARE(link.unit, QStringLiteral("B"));
    }

    void schema2026()
    {
        NsysFixture f(fixturePath("nsys2026.sqlite"));
        f.createSchema2026();
        f.addString(1, QStringLiteral("void flash_fwd<128>(Params)"));
        f.addString(2, QStringLiteral("flash_fwd"));
        f.addString(3, QStringLiteral("_Z9flash_fwdILi128EEv6Params"));
        const std::int64_t pid = globalId(77);
        f.exec(QStringLiteral("INSERT INTO TARGET_INFO_GPU VALUES(0,0,'NVIDIA B200',191000000000,148);"
                              "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(100,300,0,1,NULL,7,5,%1,1,2,3,0,64,132,1,1,128,1,1,0,"
                              "  49152,11,12,2,1,1,0,0);"
                              // new-style row: deprecatedSyncType 1 (old meaning), syncType 3 = stream sync
                              "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES(400,450,0,1,NULL,7,6,%1,1,3,0,9);"
                              "INSERT INTO NVTX_EVENTS(start,end,eventType,text,globalTid,domainId,eventId) VALUES(50,500,59,'iter',%2,0,1);")
                   .arg(pid)
                   .arg(globalId(77, 77)));
        f.close();
        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QCOMPARE(r->meta.schemaVersion, QStringLiteral("3.28.1"));
        const KernelRecord &k = r->kernels.at(0);
        QCOMPARE(r->strings.string(k.shortName), QStringLiteral("flash_fwd"));
        QCOMPARE(r->strings.string(k.mangledName), QStringLiteral("_Z9flash_fwdILi128EEv6Params"));
        QCOMPARE(r->launch(k).dynamicSharedMemory, 49152u);
        QCOMPARE(k.graphNodeId, 11);
        QCOMPARE(r->syncs.at(0).kind, SyncKind::StreamSync);
        QCOMPARE(r->eventCount(TrackKind::Nvtx), std::size_t(1));
    }

    // A stream wait names the cudaEventRecord it waited for
    // (CUPTI_ACTIVITY_KIND_CUDA_EVENT, as the nsys-ai export declares it):
    // by eventSyncId where both rows carry one, else the event's last
    // record called before the wait; none when no record came before.
    void streamWaitsNameTheirRecord()
    {
        NsysFixture f(fixturePath("streamwaits.sqlite"));
        f.createSchema2026();
        const std::int64_t pid = globalId(77);
        f.exec(QStringLiteral(
                   "CREATE TABLE CUPTI_ACTIVITY_KIND_CUDA_EVENT(timestamp INTEGER, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
                   "  greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, eventId INTEGER NOT NULL, "
                   "  eventSyncId INTEGER);"
                   // event 5 recorded on stream 7 (call 10), again on stream 9 (call 20); event 6 on stream 13 (call 30, sync id 500)
                   "INSERT INTO CUPTI_ACTIVITY_KIND_CUDA_EVENT VALUES(0,0,1,NULL,7,10,%1,5,NULL),(0,0,1,NULL,9,20,%1,5,NULL),"
                   "  (0,0,1,NULL,13,30,%1,6,500);"
                   // waits (syncType 2) on stream 21: for event 5 at call 15 and 25, for event 6 by its sync id, for event 5 before any record
                   "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES(100,101,0,1,NULL,21,15,%1,NULL,2,5,NULL),"
                   "  (200,201,0,1,NULL,21,25,%1,NULL,2,5,NULL),(300,301,0,1,NULL,21,40,%1,NULL,2,6,500),"
                   "  (400,401,0,1,NULL,21,5,%1,NULL,2,5,NULL);")
                   .arg(pid));
        f.close();
        const ReportPtr r = load(f.path());
        QVERIFY(r);
        QCOMPARE(r->syncs.size(), std::size_t(4));
        std::map<std::uint32_t, std::pair<std::int32_t, std::uint32_t>> byWait; // wait call -> (stream, record call)
        for (const SyncRecord &s : r->syncs) {
            QCOMPARE(s.kind, SyncKind::StreamWaitEvent);
            byWait[s.correlationId] = {s.awaitedStream, s.recordCorrelationId};
        }
        QCOMPARE(byWait[15], std::make_pair(std::int32_t(7), 10u));
        QCOMPARE(byWait[25], std::make_pair(std::int32_t(9), 20u));
        QCOMPARE(byWait[40], std::make_pair(std::int32_t(13), 30u));
        QCOMPARE(byWait[5], std::make_pair(std::int32_t(-1), 0u));
    }
};

QTEST_GUILESS_MAIN(TestSchemaVariants)
#include "tst_schemavariants.moc"
