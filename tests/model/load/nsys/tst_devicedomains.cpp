// What nsys records of devices and networks beyond kernels, copies and
// GPU metrics: unified-memory page faults and migrations
// (--cuda-um-cpu-page-faults, --cuda-um-gpu-page-faults), CUDA graphs
// (--cuda-graph-trace=graph or node) and NIC counters (--nic-metrics).
// Read from a generated export (rankscope-tracegen --domains um,graphs,nic)
// and from a real export with graph launches planted in it; checked
// against SQL over the export and the generator's rules
// (tests/bench/nsysdomains.h), never against the code's own numbers.
#include "core/report.h"
#include "load/traceloader.h"
#include "nsysfixture.h"
#include "session/eventdetails.h"
#include "session/eventlinks.h"
#include "session/eventsearch.h"
#include "sqlquery.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// A report's rows as CSV lines, after its header (checked against `header`).
QStringList csvRows(const std::optional<ResultTable> &table, const QString &header)
{
    if (!table)
        return {QStringLiteral("no table")};
    const QList<QStringList> rows = parseCsv(table->toCsv());
    if (rows.value(0).join(QLatin1Char(',')) != header)
        return {QStringLiteral("unexpected header: ") + rows.value(0).join(QLatin1Char(','))};
    QStringList out;
    for (qsizetype i = 1; i < rows.size(); ++i)
        out << rows[i].join(QLatin1Char(','));
    return out;
}

QStringList joined(const QList<QStringList> &rows)
{
    QStringList out;
    for (const QStringList &row : rows)
        out << row.join(QLatin1Char(','));
    return out;
}

QString field(const EventDetails &d, const QString &label)
{
    for (const DetailField &f : d.fields)
        if (f.label == label)
            return f.value;
    return {};
}

// um_sum's rows by SQL over the export: every address that faulted or
// migrated, its bytes each way, its faults, and the throughput as integers
// (bytes times 10^9 divided, truncating, by the migrations' total time),
// the highest first, then the address.
const char *const kUmSumSql =
    "WITH cpu AS (SELECT address, count(*) AS n FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS GROUP BY 1),"
    " gpu AS (SELECT address, sum(numberOfPageFaults) AS n FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS GROUP BY 1),"
    // A migration without an address is a row of its own per direction (keys -2 and -1).
    " h2d AS (SELECT ifnull(virtualAddress, -2) AS address, sum(bytes) AS b, sum(end - start) AS d FROM CUPTI_ACTIVITY_KIND_MEMCPY"
    "  WHERE copyKind = 11 GROUP BY 1),"
    " d2h AS (SELECT ifnull(virtualAddress, -1) AS address, sum(bytes) AS b, sum(end - start) AS d FROM CUPTI_ACTIVITY_KIND_MEMCPY"
    "  WHERE copyKind = 12 GROUP BY 1),"
    " addresses AS (SELECT address FROM cpu UNION SELECT address FROM gpu UNION SELECT address FROM h2d UNION SELECT address FROM d2h)"
    " SELECT CASE WHEN a.address >= 0 THEN a.address END, h2d.b, d2h.b, cpu.n, gpu.n,"
    "  CASE WHEN h2d.b IS NULL AND d2h.b IS NULL THEN NULL ELSE (ifnull(h2d.b, 0) + ifnull(d2h.b, 0))"
    "  * (1000000000 / (ifnull(h2d.d, 0) + ifnull(d2h.d, 0))) END AS tput"
    " FROM addresses a LEFT JOIN cpu USING(address) LEFT JOIN gpu USING(address) LEFT JOIN h2d USING(address) LEFT JOIN d2h USING(address)"
    " ORDER BY tput IS NULL, tput DESC, a.address";

const QString kUmSumHeader =
    QStringLiteral("Virtual Address,HtoD Migration size,DtoH Migration size,CPU Page Faults, GPU Page Faults,Migration Throughput");

} // namespace

class TestDeviceDomains : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::shared_ptr<Session> m_session;

    const Report &report() const { return *m_session->ranks().front().report; }

private slots:
    void initTestCase()
    {
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN),
                                   {QStringLiteral("--format"), QStringLiteral("nsys"), QStringLiteral("--profile"), QStringLiteral("pytorch"),
                                    QStringLiteral("--domains"), QStringLiteral("um,graphs,nic"), QStringLiteral("--events"), QStringLiteral("20000"),
                                    QStringLiteral("--ranks"), QStringLiteral("1"), m_dir.path()}),
                 0);
        m_path = m_dir.filePath(QStringLiteral("pytorch_rank0.sqlite"));
        m_session = std::make_shared<Session>(Session::load({m_path}));
        QCOMPARE(m_session->ranks().size(), std::size_t(1));
    }

    // The generator's rules: a CPU fault before each call whose correlation
    // id is a multiple of 6, on its process's own row (no thread); a GPU
    // fault after each multiple of 9, on GPU 0 of the process.
    void pageFaultsAreRowsPerProcessAndGpu()
    {
        const QStringList planted =
            queryRows(m_path, QStringLiteral("SELECT sum(correlationId % 6 = 0), sum(correlationId % 9 = 0)"
                                             " FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId > 0 AND correlationId < 50000000"))
                .value(0);
        QVERIFY(planted.value(0).toLongLong() > 100 && planted.value(1).toLongLong() > 50);
        const Report &r = report();
        QCOMPARE(QString::number(r.eventCount(TrackKind::UmCpuPageFault)), planted[0]);
        QCOMPARE(QString::number(r.eventCount(TrackKind::UmGpuPageFault)), planted[1]);
        for (const Track &t : r.tracks) {
            if (t.kind == TrackKind::UmCpuPageFault) {
                QCOMPARE(t.tid, 0u);
                QVERIFY(r.process(t.pid));
                QVERIFY(!r.thread(t.pid, 0)); // no thread 0 made up for it
            }
            if (t.kind == TrackKind::UmGpuPageFault)
                QCOMPARE(t.deviceId, 0);
        }
        // Details: the page, the faulting function and its source line.
        const std::vector<EventLocation> cpu = findEvents(*m_session, {QStringLiteral("CPU page fault"), false, true}, 1);
        QCOMPARE(cpu.size(), std::size_t(1));
        const EventDetails d = describeEvent(*m_session, cpu.front());
        QCOMPARE(d.kind, QStringLiteral("Unified memory CPU page faults"));
        const QStringList first =
            queryRows(m_path,
                      QStringLiteral("SELECT printf('0x%x', e.address), f.value, 'saxpy.cu:' || e.sourceLine FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS e"
                                     " JOIN StringIds f ON f.id = e.CpuInstruction ORDER BY e.start LIMIT 1"))
                .value(0);
        QCOMPARE(field(d, QStringLiteral("Virtual address")), first.value(0));
        QCOMPARE(field(d, QStringLiteral("CPU instruction")), first.value(1));
        QCOMPARE(field(d, QStringLiteral("Source")), first.value(2));
        QCOMPARE(field(d, QStringLiteral("Module")), QStringLiteral("saxpy"));
        QVERIFY(field(d, QStringLiteral("Thread")).isEmpty());
        const std::vector<EventLocation> gpu = findEvents(*m_session, {QStringLiteral("GPU page fault"), false, true}, 1);
        QCOMPARE(gpu.size(), std::size_t(1));
        const EventDetails g = describeEvent(*m_session, gpu.front());
        const QStringList firstGpu = queryRows(m_path, QStringLiteral("SELECT numberOfPageFaults, faultAccessType FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS"
                                                                      " ORDER BY start LIMIT 1"))
                                         .value(0);
        QCOMPARE(field(g, QStringLiteral("Page faults")), firstGpu.value(0));
        QCOMPARE(field(g, QStringLiteral("Access")), firstGpu.value(1) == QLatin1String("1") ? QStringLiteral("Read") : QStringLiteral("Write"));
        QVERIFY(field(g, QStringLiteral("Stream")).isEmpty());
        // A migration names its page.
        const std::vector<EventLocation> migration = findEvents(*m_session, {QStringLiteral("[CUDA memcpy Unified Host-to-Device]"), false, true}, 1);
        QCOMPARE(migration.size(), std::size_t(1));
        QVERIFY(field(describeEvent(*m_session, migration.front()), QStringLiteral("Virtual address")).startsWith(QLatin1String("0x7f")));
    }

    void umSumIsSqlOverFaultsAndMigrations()
    {
        const QStringList expected = joined(queryRows(m_path, QString::fromLatin1(kUmSumSql)));
        QCOMPARE(expected.size(), 8); // the generator's eight pages
        QCOMPARE(csvRows(stats::runReport(QStringLiteral("um_sum"), report()), kUmSumHeader), expected);
        QCOMPARE(csvRows(stats::runReport(QStringLiteral("um_sum:rows=3"), report()), kUmSumHeader), expected.mid(0, 3));
        QVERIFY(stats::reportArgumentError(QStringLiteral("um_sum:rows=three")).contains(QLatin1String("rows=N")));
        QVERIFY(!stats::reportArgumentError(QStringLiteral("um_total_sum:rows=3")).isEmpty());
    }

    void umTotalSumIsSql()
    {
        const QStringList expected = joined(queryRows(
            m_path,
            QStringLiteral(
                "SELECT (SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 11),"
                " (SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 12),"
                " (SELECT count(*) FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS),"
                " (SELECT sum(numberOfPageFaults) FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS),"
                " (SELECT min(a) FROM (SELECT address AS a FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS UNION ALL SELECT address FROM"
                "  CUDA_UM_GPU_PAGE_FAULT_EVENTS UNION ALL SELECT virtualAddress FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN (11, 12))),"
                " (SELECT max(a) FROM (SELECT address AS a FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS UNION ALL SELECT address FROM"
                "  CUDA_UM_GPU_PAGE_FAULT_EVENTS UNION ALL SELECT virtualAddress FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN (11, 12)))")));
        QCOMPARE(csvRows(stats::runReport(QStringLiteral("um_total_sum"), report()),
                         QStringLiteral("Total HtoD Migration Size,Total DtoH Migration Size,Total CPU Page Faults,Total GPU PageFaults,"
                                        "Minimum Virtual Address,Maximum Virtual Address")),
                 expected);
    }

    void umCpuPageFaultsSumIsSql()
    {
        const QStringList expected =
            joined(queryRows(m_path, QStringLiteral("SELECT count(*), f.value, s.value, e.sourceLine FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS e"
                                                    " JOIN StringIds f ON f.id = e.CpuInstruction LEFT JOIN StringIds s ON s.id = e.sourceFile"
                                                    " GROUP BY 2, 3, 4 ORDER BY 1 DESC, 2, 3, 4")));
        QCOMPARE(expected.size(), 2); // init_data at line 20, check_result at 60
        QCOMPARE(csvRows(stats::runReport(QStringLiteral("um_cpu_page_faults_sum"), report()),
                         QStringLiteral("CPU Page Faults,CPU Instruction Address,Source File,Source Line")),
                 expected);
    }

    // nsys 2022's CPU fault table (no source columns), a migration without
    // an address, one of a page that never faulted, and a table of faults
    // without rows: the file opens and the reports still agree with SQL.
    void olderAndOddUnifiedMemoryTables()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("um.sqlite"));
        QVERIFY(writableCopy(m_path, path));
        {
            NsysFixture db(path);
            db.exec(
                QStringLiteral("ALTER TABLE CUDA_UM_CPU_PAGE_FAULT_EVENTS DROP COLUMN sourceFile;"
                               "ALTER TABLE CUDA_UM_CPU_PAGE_FAULT_EVENTS DROP COLUMN sourceLine;"
                               "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes,"
                               " copyKind, virtualAddress) VALUES (1000, 1500, 0, 1, 0, 0, 72057611217797120, 8192, 12, NULL),"
                               " (2000, 2400, 0, 1, 0, 0, 72057611217797120, 4096, 11, 4096);"
                               "DELETE FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS;"));
            db.close();
        }
        const LoadResult loaded = loadTraceFile(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const Report &r = *loaded.report;
        QCOMPARE(r.eventCount(TrackKind::UmGpuPageFault), std::size_t(0));
        // NULL addresses: a group of their own that no fault joins, as in SQL.
        QStringList expected = joined(queryRows(path, QString::fromLatin1(kUmSumSql)));
        QCOMPARE(expected.size(), 10);
        QCOMPARE(csvRows(stats::runReport(QStringLiteral("um_sum:rows=-1"), r), kUmSumHeader), expected);
        const QStringList bySource = csvRows(stats::runReport(QStringLiteral("um_cpu_page_faults_sum"), r),
                                             QStringLiteral("CPU Page Faults,CPU Instruction Address,Source File,Source Line"));
        QCOMPARE(bySource, joined(queryRows(path, QStringLiteral("SELECT count(*), f.value, '', '' FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS e"
                                                                 " JOIN StringIds f ON f.id = e.CpuInstruction GROUP BY 2 ORDER BY 1 DESC, 2"))));
        // No GPU faults: nsys' range over the four sources is empty, the GPU total too.
        const QStringList totals = csvRows(stats::runReport(QStringLiteral("um_total_sum"), r),
                                           QStringLiteral("Total HtoD Migration Size,Total DtoH Migration Size,Total CPU Page Faults,"
                                                          "Total GPU PageFaults,Minimum Virtual Address,Maximum Virtual Address"));
        QCOMPARE(totals.size(), 1);
        QVERIFY2(totals[0].endsWith(QLatin1String(",,,")), qPrintable(totals[0]));
    }

    // Graphs traced whole: a range per launch on its stream (13, as
    // planted), linked to its cudaGraphLaunch call; Details names the graph.
    void graphLaunchesAreRangesOnTheirStream()
    {
        const Report &r = report();
        const QString launches = queryRows(m_path, QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE")).value(0).value(0);
        QVERIFY(launches.toInt() > 100);
        QCOMPARE(QString::number(r.eventCount(TrackKind::CudaGraph)), launches);
        for (const Track &t : r.tracks)
            if (t.kind == TrackKind::CudaGraph)
                QCOMPARE(t.streamId, 13u);
        const std::vector<EventLocation> calls = findEvents(*m_session, {QStringLiteral("cudaGraphLaunch_v10000"), false, true}, 1);
        QCOMPARE(calls.size(), std::size_t(1));
        const std::vector<EventLocation> work = launchedGpuWork(*m_session, calls.front());
        QCOMPARE(work.size(), std::size_t(1));
        const EventDetails d = describeEvent(*m_session, work.front());
        QCOMPARE(d.kind, QStringLiteral("CUDA graphs"));
        const QStringList planted =
            queryRows(m_path, QStringLiteral("SELECT g.graphId, g.graphExecId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE g"
                                             " JOIN CUPTI_ACTIVITY_KIND_RUNTIME a USING(correlationId) ORDER BY a.start LIMIT 1"))
                .value(0);
        QCOMPARE(d.title, QStringLiteral("Graph ") + planted.value(0));
        QCOMPARE(field(d, QStringLiteral("Graph id")), planted.value(0));
        QCOMPARE(field(d, QStringLiteral("Executable graph id")), planted.value(1));
        const QStringList sums = csvRows(stats::runReport(QStringLiteral("cuda_graph_sum"), r),
                                         QStringLiteral("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),"
                                                        "Kernels,Name"));
        QStringList totals;
        for (const QString &row : sums) {
            const QStringList cells = row.split(QLatin1Char(','));
            totals << cells[1] + QLatin1Char(',') + cells[2] + QLatin1Char(',') + cells[8] + QLatin1Char(',') + cells[9];
        }
        QCOMPARE(totals, joined(queryRows(m_path, QStringLiteral("SELECT sum(end - start), count(*), 0, 'Graph ' || graphId"
                                                                 " FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE GROUP BY graphId ORDER BY 1 DESC, 2, 4"))));
    }

    // Node-level tracing: a graph's kernels share their launch's correlation
    // id and keep their node. Planted in the real slow run: kernels 1-4 of
    // stream 7 as one launch (an export without the kernels' graphId: named
    // by its first node), 5-7 as another of graph 7.
    void nodeLevelGraphsSpanTheirKernels()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("graphs.sqlite"));
        QVERIFY(writableCopy(slowFixture(), path));
        {
            NsysFixture db(path);
            db.exec(QStringLiteral("CREATE TEMP TABLE firsts AS SELECT rowid AS r, row_number() OVER (ORDER BY start) AS n"
                                   " FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE streamId = 7 ORDER BY start LIMIT 7;"
                                   "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphId INTEGER;"
                                   "UPDATE CUPTI_ACTIVITY_KIND_KERNEL AS k SET graphNodeId = 100 + (SELECT n FROM firsts WHERE r = k.rowid),"
                                   " correlationId = 900000 + ((SELECT n FROM firsts WHERE r = k.rowid) > 4),"
                                   " graphId = CASE WHEN (SELECT n FROM firsts WHERE r = k.rowid) > 4 THEN 7 END"
                                   " WHERE k.rowid IN (SELECT r FROM firsts);"));
            db.close();
        }
        const LoadResult loaded = loadTraceFile(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const Report &r = *loaded.report;
        const QList<QStringList> expected = queryRows(
            path, QStringLiteral("SELECT min(start), max(end), count(*), CASE WHEN max(graphId) IS NULL THEN 'Graph of node ' || min(graphNodeId)"
                                 " ELSE 'Graph ' || max(graphId) END FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL"
                                 " GROUP BY correlationId ORDER BY 1"));
        QCOMPARE(expected.size(), 2);
        QStringList actual;
        for (const Track &t : r.tracks)
            if (t.kind == TrackKind::CudaGraph) {
                QCOMPARE(t.streamId, 7u);
                for (std::size_t i = 0; i < t.slices.size(); ++i)
                    actual << QStringLiteral("%1,%2,%3")
                                  .arg(t.slices.start(i) + r.meta.rawTimeOrigin)
                                  .arg(t.slices.end(i) + r.meta.rawTimeOrigin)
                                  .arg(QString::fromUtf8(r.strings.view(t.slices.name(i))));
            }
        QStringList wanted;
        for (const QStringList &e : expected)
            wanted << e[0] + QLatin1Char(',') + e[1] + QLatin1Char(',') + e[3];
        QCOMPARE(actual, wanted);
        // cuda_graph_sum counts the kernels each launch ran.
        QStringList kernels;
        for (const QString &row : csvRows(stats::runReport(QStringLiteral("cuda_graph_sum"), r),
                                          QStringLiteral("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),"
                                                         "Kernels,Name")))
            kernels << row.section(QLatin1Char(','), 8, 9);
        kernels.sort();
        QCOMPARE(kernels, (QStringList{QStringLiteral("3,Graph 7"), QStringLiteral("4,Graph of node 101")}));
    }

    // NIC counters: one per NIC, port and metric, each sample the amount
    // counted over its interval as a rate per second, in B/s or packets/s.
    void nicMetricsAreRatesPerNic()
    {
        const Report &r = report();
        const QList<QStringList> samples =
            queryRows(m_path, QStringLiteral("SELECT m.name, s.start, s.value * 1e9 / (s.end - s.start) FROM NET_NIC_METRIC s JOIN"
                                             " TARGET_INFO_NETWORK_METRICS m USING(metricsListId, metricsIdx) ORDER BY 1, 2"));
        QVERIFY(samples.size() > 40);
        QStringList names;
        for (const CounterTrack &c : r.counters)
            if (c.name.startsWith(QStringLiteral("mlx5_0 port 1 · ")))
                names << c.name + QLatin1Char(' ') + c.unit;
        names.sort();
        QCOMPARE(names, (QStringList{QStringLiteral("mlx5_0 port 1 · Bytes received B/s"), QStringLiteral("mlx5_0 port 1 · Bytes sent B/s"),
                                     QStringLiteral("mlx5_0 port 1 · Packets received packets/s"),
                                     QStringLiteral("mlx5_0 port 1 · Packets sent packets/s")}));
        for (const QStringList &s : samples) {
            const auto counter = std::find_if(r.counters.begin(), r.counters.end(),
                                              [&](const CounterTrack &c) { return c.name == QStringLiteral("mlx5_0 port 1 · ") + s[0]; });
            QVERIFY(counter != r.counters.end());
            const std::optional<double> value = counter->valueAt(s[1].toLongLong() - r.meta.rawTimeOrigin);
            QVERIFY(value);
            QCOMPARE(*value, s[2].toDouble());
        }
        // After the last interval the port counts nothing.
        const QString last = queryRows(m_path, QStringLiteral("SELECT max(end) FROM NET_NIC_METRIC")).value(0).value(0);
        for (const CounterTrack &c : r.counters)
            if (c.name.startsWith(QLatin1String("mlx5_0")))
                QCOMPARE(c.valueAt(last.toLongLong() - r.meta.rawTimeOrigin).value_or(-1), 0.0);
    }

    // Graph and NIC tables of another shape: without their ids or names,
    // with a row without an end; the rest opens, the rows that can be read are.
    void damagedGraphAndNicTablesStillOpen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.sqlite"));
        QVERIFY(writableCopy(slowFixture(), path));
        {
            NsysFixture db(path);
            db.exec(QStringLiteral("CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE(start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER);"
                                   "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES (1000, 2000, 0, 7), (3000, NULL, 0, 7);"
                                   "CREATE TABLE NET_NIC_METRIC(start INTEGER, end INTEGER, globalId INTEGER, value REAL);"
                                   "INSERT INTO NET_NIC_METRIC VALUES (1000, 2000, 5, 10.0), (2000, 2000, 5, 3.0);"
                                   "CREATE TABLE CUDA_UM_GPU_PAGE_FAULT_EVENTS(start INTEGER, end INTEGER, address INTEGER);"
                                   "INSERT INTO CUDA_UM_GPU_PAGE_FAULT_EVENTS VALUES (1000, 1100, 4096);"));
            db.close();
        }
        const LoadResult loaded = loadTraceFile(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.report->eventCount(TrackKind::CudaGraph), std::size_t(2)); // the one without an end as an instant, noted
        QCOMPARE(loaded.report->eventCount(TrackKind::UmGpuPageFault), std::size_t(1));
        const auto nic = std::find_if(loaded.report->counters.begin(), loaded.report->counters.end(),
                                      [](const CounterTrack &c) { return c.name.startsWith(QLatin1String("NIC 0x5 port 0")); });
        QVERIFY(nic != loaded.report->counters.end());
        QCOMPARE(nic->valueAt(1000).value_or(-1), 1e7); // 10 per µs; the empty interval left out
        QVERIFY(loaded.report->eventCount(TrackKind::Kernel) > 0);
    }
};

QTEST_GUILESS_MAIN(TestDeviceDomains)
#include "tst_devicedomains.moc"
