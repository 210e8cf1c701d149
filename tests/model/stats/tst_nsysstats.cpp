// Every statistics report against the CSV that nsys itself printed for the
// same real export, value by value: the report as parsed, and as opened from
// its index cache (load/cache/), which must give the same bytes.
#include "load/cache/indexcache.h"
#include "load/nsys/nsysloader.h"
#include "load/traceloader.h"
#include "nsysfixture.h"
#include "sqlquery.h"
#include "stats/nsys/apirules.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

class TestNsysStats : public QObject {
    Q_OBJECT

    std::map<QString, ReportPtr> m_reports;       // as parsed
    std::map<QString, ReportPtr> m_cachedReports; // the same, opened from the index cache the first load wrote
    QTemporaryDir m_cacheDir;

    const Report &reportOf(const QString &fixture, bool cached) { return *(cached ? m_cachedReports : m_reports)[fixture]; }

private slots:
    void initTestCase()
    {
        LoadControl control;
        control.indexCacheDirectory = m_cacheDir.path();
        for (const auto &[name, path] : {std::pair{QStringLiteral("slow_1gpu"), slowFixture()}, std::pair{QStringLiteral("ddp4"), ddpFixture(0)}}) {
            const LoadResult r = NsysSqliteLoader::load(path);
            QVERIFY2(r.ok(), qPrintable(r.error));
            m_reports[name] = r.report;
            QCOMPARE(loadTraceFile(path, control).indexCache, LoadResult::IndexCache::Written);
            const LoadResult cached = loadTraceFile(path, control);
            QCOMPARE(cached.indexCache, LoadResult::IndexCache::Opened);
            QVERIFY(cached.report->tracks.front().slices.starts().data() != r.report->tracks.front().slices.starts().data());
            m_cachedReports[name] = cached.report;
        }
    }

    void matchesNsys_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("report");
        QTest::addColumn<bool>("cached");
        for (const bool cached : {false, true})
            for (const char *fixture : {"slow_1gpu", "ddp4"})
                for (const QString &report : stats::fileReportNames()) {
                    if (report.startsWith(QLatin1String("cpu_sampling"))) // not nsys' own: against SQL in tst_cpusampling
                        continue;
                    QTest::addRow("%s%s/%s", fixture, cached ? " from its index cache" : "", qPrintable(report))
                        << QString::fromLatin1(fixture) << report << cached;
                }
    }

    void matchesNsys()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, report);
        QFETCH(bool, cached);
        // The reports nsys printed no CSV of for these runs, checked
        // against its other CSVs or SQL over the exports.
        static const std::map<QString, const char *> checkedElsewhere{
            {QStringLiteral("cuda_gpu_sum"), "against nsys' kern_sum and mem_time_sum CSVs (gpuSumJoinsNsysSummaries)"},
            {QStringLiteral("cuda_api_gpu_sum"), "against nsys' api_sum, kern_sum and mem_time_sum CSVs (gpuSumJoinsNsysSummaries)"},
            {QStringLiteral("nvtx_pushpop_trace"), "against SQL over the ranges (tst_nvtxreports)"},
            {QStringLiteral("nvtx_gpu_proj_trace"), "against SQL over the launches (tst_nvtxreports)"},
            {QStringLiteral("nvtx_gpu_proj_sum"), "against SQL over the launches (tst_nvtxreports)"},
            {QStringLiteral("nvtx_kern_sum"), "against SQL over the launches (tst_nvtxreports)"},
            {QStringLiteral("cuda_lib_sum"), "Rankscope's own: against SQL over generated calls (tst_hostdomains)"},
            {QStringLiteral("cuda_graph_sum"), "Rankscope's own: against SQL over generated and planted launches (tst_devicedomains)"},
            {QStringLiteral("cuda_gpu_kern_gb_sum"), "against SQL over the kernels (kernelGridBlockSummaryIsSqlOverTheKernels)"},
            {QStringLiteral("cuda_kern_exec_trace"), "against SQL over the launches (kernelExecTraceIsSqlOverTheLaunches)"},
            {QStringLiteral("cuda_kern_exec_sum"), "against SQL over the launches (kernelExecSummaryIsSqlOverTheLaunches)"},
            {QStringLiteral("cuda_api_trace"), "against SQL over the calls (apiTraceIsSqlOverTheCalls)"},
            {QStringLiteral("nvtx_pushpop_sum"), "against nsys' nvtx_sum CSV (nvtxStyleSummariesAreNvtxSumRows)"},
            {QStringLiteral("nvtx_startend_sum"), "against nvtx_sum and planted ranges (nvtxStyleSummariesAreNvtxSumRows)"},
        };
        if (const auto it = checkedElsewhere.find(report); it != checkedElsewhere.end())
            QSKIP(it->second);
        if (!QFile::exists(referenceCsv(fixture, report))) {
            // nsys analyze printed "no problems detected" for these rules
            // on both runs (no synchronous copies or memsets), not a table;
            // nsys stats says a run without --trace=mpi "does not contain
            // MPI event data" (tst_mpireports checks those reports), and
            // the same of OpenACC and OpenMP data (tst_hostdomains) and of
            // unified memory (tst_devicedomains).
            QVERIFY2(report == QLatin1String("cuda_memcpy_sync") || report == QLatin1String("cuda_memset_sync")
                         || report.startsWith(QLatin1String("mpi_")) || report == QLatin1String("openacc_sum")
                         || report == QLatin1String("openmp_sum") || report.startsWith(QLatin1String("um_")),
                     "reference CSV missing");
            QCOMPARE(stats::runReport(report, reportOf(fixture, cached))->rowCount(), std::size_t(0));
            return;
        }
        const QList<QStringList> expected = parseCsv(readText(referenceCsv(fixture, report)));
        QVERIFY2(expected.size() >= 1, "reference CSV missing");
        const auto table = stats::runReport(report, reportOf(fixture, cached));
        QVERIFY(table);
        const QList<QStringList> actual = parseCsv(table->toCsv());
        QCOMPARE(actual.value(0), expected.value(0)); // header, column order
        QCOMPARE(actual.size(), expected.size());
        for (qsizetype row = 1; row < expected.size(); ++row)
            for (qsizetype col = 0; col < expected[row].size(); ++col)
                QVERIFY2(actual[row].value(col) == expected[row][col],
                         qPrintable(QStringLiteral("row %1 column '%2': got '%3', nsys printed '%4'")
                                        .arg(row)
                                        .arg(expected[0].value(col), actual[row].value(col), expected[row][col])));
    }

    // cuda_gpu_sum joins cuda_gpu_kern_sum and cuda_gpu_mem_time_sum, and
    // cuda_api_gpu_sum cuda_api_sum with them: their rows are nsys' rows of
    // those CSVs, each with its category, the Time (%) recomputed over
    // them all, the largest total first.
    void gpuSumJoinsNsysSummaries_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<bool>("cached");
        for (const bool cached : {false, true})
            for (const char *fixture : {"slow_1gpu", "ddp4"})
                QTest::addRow("%s%s", fixture, cached ? " from its index cache" : "") << QString::fromLatin1(fixture) << cached;
    }

    void gpuSumJoinsNsysSummaries()
    {
        QFETCH(QString, fixture);
        QFETCH(bool, cached);
        for (const bool withApi : {false, true}) {
            struct Expected {
                QStringList cells; // Total ... StdDev, as nsys printed them
                QString category;
            };
            std::map<QString, Expected> byName;
            double grand = 0;
            std::vector<std::pair<const char *, const char *>> joined{{"cuda_gpu_kern_sum", "CUDA_KERNEL"}, {"cuda_gpu_mem_time_sum", "MEMORY_OPER"}};
            if (withApi)
                joined.emplace_back("cuda_api_sum", "CUDA_API");
            for (const auto &[report, category] : joined) {
                const QList<QStringList> rows = parseCsv(readText(referenceCsv(fixture, QString::fromLatin1(report))));
                for (qsizetype r = 1; r < rows.size(); ++r) {
                    byName[rows[r][8]] = {rows[r].mid(1, 7), QString::fromLatin1(category)};
                    grand += rows[r][1].toDouble();
                }
            }
            const auto table =
                stats::runReport(withApi ? QStringLiteral("cuda_api_gpu_sum") : QStringLiteral("cuda_gpu_sum"), reportOf(fixture, cached));
            QVERIFY(table);
            const QList<QStringList> actual = parseCsv(table->toCsv());
            QCOMPARE(actual.value(0),
                     (QStringList{QStringLiteral("Time (%)"), QStringLiteral("Total Time (ns)"), QStringLiteral("Instances"),
                                  QStringLiteral("Avg (ns)"), QStringLiteral("Med (ns)"), QStringLiteral("Min (ns)"), QStringLiteral("Max (ns)"),
                                  QStringLiteral("StdDev (ns)"), QStringLiteral("Category"), QStringLiteral("Operation")}));
            QCOMPARE(std::size_t(actual.size() - 1), byName.size());
            for (qsizetype r = 1; r < actual.size(); ++r) {
                const auto it = byName.find(actual[r][9]);
                QVERIFY2(it != byName.end(), qPrintable(actual[r][9]));
                QCOMPARE(actual[r].mid(1, 7), it->second.cells);
                QCOMPARE(actual[r][8], it->second.category);
                QCOMPARE(actual[r][0], QString::number(std::round(actual[r][1].toDouble() * 1000.0 / grand) / 10.0, 'f', 1));
                if (r > 1)
                    QVERIFY(actual[r - 1][1].toLongLong() >= actual[r][1].toLongLong());
            }
        }
    }

    // nvtx_pushpop_sum and nvtx_startend_sum are nvtx_sum's rows of their
    // style, without the Style column, the Time (%) over those rows.
    void nvtxStyleSummariesAreNvtxSumRows_data() { gpuSumJoinsNsysSummaries_data(); }

    void nvtxStyleSummariesAreNvtxSumRows()
    {
        QFETCH(QString, fixture);
        QFETCH(bool, cached);
        const QList<QStringList> nvtxSum = parseCsv(readText(referenceCsv(fixture, QStringLiteral("nvtx_sum"))));
        for (const auto &[report, style] : {std::pair{"nvtx_pushpop_sum", "PushPop"}, std::pair{"nvtx_startend_sum", "StartEnd"}}) {
            QList<QStringList> expected;
            double grand = 0;
            for (qsizetype r = 1; r < nvtxSum.size(); ++r)
                if (nvtxSum[r][8] == QLatin1String(style)) {
                    expected << nvtxSum[r].mid(1, 7) + QStringList{nvtxSum[r][9]};
                    grand += nvtxSum[r][1].toDouble();
                }
            const auto table = stats::runReport(QString::fromLatin1(report), reportOf(fixture, cached));
            QVERIFY(table);
            const QList<QStringList> actual = parseCsv(table->toCsv());
            QCOMPARE(actual.value(0).last(), QStringLiteral("Range"));
            QCOMPARE(actual.value(0).size(), 9);
            QCOMPARE(actual.size() - 1, expected.size());
            for (qsizetype r = 1; r < actual.size(); ++r) {
                QCOMPARE(actual[r].mid(1), expected[r - 1]); // in nvtx_sum's order
                QCOMPARE(actual[r][0], QString::number(std::round(actual[r][1].toDouble() * 1000.0 / grand) / 10.0, 'f', 1));
            }
        }
    }

    // The real runs have no start/end ranges: ranges planted into a copy of
    // one (durations 100, 200 and 600 ns of "load", 50 ns of "save" in the
    // default domain; 1000 ns of "io" in a domain named "disk"), summed as
    // nsys' query would by hand.
    void startEndSummaryOfPlantedRanges()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("startend.sqlite"));
        QVERIFY(writableCopy(slowFixture(), path));
        {
            NsysFixture db(path);
            const QString tid = QStringLiteral("281492643120157");
            db.exec(QStringLiteral("INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, domainId) VALUES"
                                   " (1000, 1100, 60, 'load', %1, 0), (2000, 2200, 60, 'load', %1, 0), (3000, 3600, 60, 'load', %1, 0),"
                                   " (4000, 4050, 60, 'save', %1, 0), (900, NULL, 75, 'disk', %1, 77), (5000, 6000, 60, 'io', %1, 77)")
                        .arg(tid));
            db.close();
        }
        const LoadResult loaded = loadTraceFile(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const auto table = stats::runReport(QStringLiteral("nvtx_startend_sum"), *loaded.report);
        QVERIFY(table);
        QCOMPARE(table->toCsv().trimmed().split(QLatin1Char('\n')),
                 (QStringList{QStringLiteral("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Range"),
                              QStringLiteral("51.3,1000,1,1000.0,1000.0,1000,1000,0.0,disk:io"),
                              QStringLiteral("46.2,900,3,300.0,200.0,100,600,264.6,:load"), QStringLiteral("2.6,50,1,50.0,50.0,50,50,0.0,:save")}));
        // nvtx_pushpop_sum is nvtx_sum's push/pop rows, untouched by them.
        const auto pushPop = stats::runReport(QStringLiteral("nvtx_pushpop_sum"), *loaded.report);
        QCOMPARE(pushPop->rowCount(), stats::runReport(QStringLiteral("nvtx_pushpop_sum"), reportOf(QStringLiteral("slow_1gpu"), false))->rowCount());
    }

    // cuda_gpu_kern_gb_sum against SQL over the real exports' kernels:
    // groups by demangled name, grid and block, their counts, totals,
    // extremes, medians and deviations.
    void kernelGridBlockSummaryIsSqlOverTheKernels_data() { gpuSumJoinsNsysSummaries_data(); }

    void kernelGridBlockSummaryIsSqlOverTheKernels()
    {
        QFETCH(QString, fixture);
        QFETCH(bool, cached);
        const QString path = fixture == QLatin1String("slow_1gpu") ? slowFixture() : ddpFixture(0);
        const QString groupBy = QStringLiteral(
            "SELECT s.value, printf('%4d %4d %4d', gridX, gridY, gridZ), printf('%4d %4d %4d', blockX, blockY, blockZ), sum(end - start),"
            " count(*), group_concat(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
            " JOIN StringIds s ON s.id = k.demangledName GROUP BY 1, 2, 3");
        std::map<QStringList, QStringList> expected; // (grid, block, name) -> the summary's cells
        double grand = 0;
        for (const QStringList &g : queryRows(path, groupBy)) {
            expected[{g[1], g[2], g[0]}] = QStringList{g[3], g[4]} + summaryCells(g[5]);
            grand += g[3].toDouble();
        }
        QVERIFY(!expected.empty());
        const auto table = stats::runReport(QStringLiteral("cuda_gpu_kern_gb_sum"), reportOf(fixture, cached));
        QVERIFY(table);
        const QList<QStringList> actual = parseCsv(table->toCsv());
        QCOMPARE(actual.value(0).join(QLatin1Char(',')),
                 QStringLiteral("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),GridXYZ,BlockXYZ,Name"));
        QCOMPARE(std::size_t(actual.size() - 1), expected.size());
        for (qsizetype r = 1; r < actual.size(); ++r) {
            const auto it = expected.find(actual[r].mid(8, 3));
            QVERIFY2(it != expected.end(), qPrintable(actual[r].join(QLatin1Char(','))));
            QCOMPARE(actual[r].mid(1, 7), it->second);
            QCOMPARE(actual[r][0], QString::number(std::round(actual[r][1].toDouble() * 1000.0 / grand) / 10.0, 'f', 1));
            if (r > 1) { // the largest total first, then fewer instances, then by name
                const auto key = [](const QStringList &row) { return std::tuple(-row[1].toLongLong(), row[2].toLongLong(), row[10]); };
                QVERIFY(key(actual[r - 1]) <= key(actual[r]));
            }
        }
    }

    // cuda_kern_exec_trace against SQL joining the real exports' kernels to
    // their launching calls as nsys' query does, row by row.
    void kernelExecTraceIsSqlOverTheLaunches_data() { gpuSumJoinsNsysSummaries_data(); }

    void kernelExecTraceIsSqlOverTheLaunches()
    {
        QFETCH(QString, fixture);
        QFETCH(bool, cached);
        const QString path = fixture == QLatin1String("slow_1gpu") ? slowFixture() : ddpFixture(0);
        QStringList expected{QStringLiteral("API Start (ns),API Dur (ns),Queue Start (ns),Queue Dur (ns),Kernel Start (ns),Kernel Dur (ns),"
                                            "Total Dur (ns),PID,TID,DevId,API Function,GridXYZ,BlockXYZ,Kernel Name")};
        for (QStringList row : queryRows(
                 path, QStringLiteral(
                           "SELECT r.start, r.end - r.start, iif(k.start >= r.end, r.end, NULL), iif(k.start >= r.end, k.start - r.end, NULL),"
                           " k.start, k.end - k.start, max(r.end, k.end) - r.start, (r.globalTid >> 24) & 0xFFFFFF, r.globalTid & 0xFFFFFF,"
                           " k.deviceId, CASE substr(an.value, -6, 2) WHEN '_v' THEN substr(an.value, 1, length(an.value) - 6) ELSE an.value END,"
                           " printf('%4d %4d %4d', k.gridX, k.gridY, k.gridZ), printf('%4d %4d %4d', k.blockX, k.blockY, k.blockZ), kn.value"
                           " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON k.correlationId = r.correlationId"
                           " AND k.globalPid = (r.globalTid & 0xFFFFFFFFFF000000) LEFT JOIN StringIds an ON an.id = r.nameId"
                           " JOIN StringIds kn ON kn.id = k.demangledName ORDER BY r.start, k.start"))) {
            for (QString &cell : row) // quoted as CSV quotes them
                if (cell.contains(QLatin1Char(',')) || cell.contains(QLatin1Char('"')))
                    cell = QLatin1Char('"') + QString(cell).replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"');
            expected << row.join(QLatin1Char(','));
        }
        QVERIFY(expected.size() > 100);
        const auto table = stats::runReport(QStringLiteral("cuda_kern_exec_trace"), reportOf(fixture, cached));
        QVERIFY(table);
        QCOMPARE(table->toCsv().trimmed().split(QLatin1Char('\n')), expected);
    }

    // cuda_kern_exec_sum against SQL over the same launches: each group's
    // counts, and the statistics of its four phases computed here from the
    // durations SQL lists.
    void kernelExecSummaryIsSqlOverTheLaunches_data() { gpuSumJoinsNsysSummaries_data(); }

    void kernelExecSummaryIsSqlOverTheLaunches()
    {
        QFETCH(QString, fixture);
        QFETCH(bool, cached);
        const QString path = fixture == QLatin1String("slow_1gpu") ? slowFixture() : ddpFixture(0);
        std::map<QStringList, QStringList> expected; // (PID, TID, DevId, API Name, Kernel Name) -> the rest
        for (const QStringList &g : queryRows(
                 path, QStringLiteral(
                           "SELECT (r.globalTid >> 24) & 0xFFFFFF, r.globalTid & 0xFFFFFF, k.deviceId,"
                           " CASE substr(an.value, -6, 2) WHEN '_v' THEN substr(an.value, 1, length(an.value) - 6) ELSE an.value END, kn.value,"
                           " count(*), count(iif(k.start >= r.end, 1, NULL)), group_concat(max(r.end, k.end) - r.start),"
                           " group_concat(r.end - r.start), group_concat(iif(k.start >= r.end, k.start - r.end, NULL)), group_concat(k.end - k.start)"
                           " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON k.correlationId = r.correlationId"
                           " AND k.globalPid = (r.globalTid & 0xFFFFFFFFFF000000) LEFT JOIN StringIds an ON an.id = r.nameId"
                           " JOIN StringIds kn ON kn.id = k.demangledName GROUP BY 1, 2, 3, 4, 5")))
            expected[{g[0], g[1], g[2], g[3], g[4]}] =
                QStringList{g[5], g[6]} + summaryCells(g[7]) + summaryCells(g[8]) + summaryCells(g[9]) + summaryCells(g[10]);
        QVERIFY(!expected.empty());
        const auto table = stats::runReport(QStringLiteral("cuda_kern_exec_sum"), reportOf(fixture, cached));
        QVERIFY(table);
        const QList<QStringList> actual = parseCsv(table->toCsv());
        QCOMPARE(actual.value(0).join(QLatin1Char(',')),
                 QStringLiteral("PID,TID,DevId,Count,QCount,TAvg (ns),TMed (ns),TMin (ns),TMax (ns),TStdDev (ns),AAvg (ns),AMed (ns),AMin (ns),"
                                "AMax (ns),AStdDev (ns),QAvg (ns),QMed (ns),QMin (ns),QMax (ns),QStdDev (ns),KAvg (ns),KMed (ns),KMin (ns),"
                                "KMax (ns),KStdDev (ns),API Name,Kernel Name"));
        QCOMPARE(std::size_t(actual.size() - 1), expected.size());
        for (qsizetype r = 1; r < actual.size(); ++r) {
            const auto it = expected.find(actual[r].mid(0, 3) + actual[r].mid(25, 2));
            QVERIFY2(it != expected.end(), qPrintable(actual[r].join(QLatin1Char(','))));
            QCOMPARE(actual[r].mid(3, 22), it->second);
            if (r > 1)
                QVERIFY(actual[r - 1][5].toDouble() >= actual[r][5].toDouble()); // the longest average total first
        }
    }

    // cuda_api_trace against SQL over the real exports' runtime table and
    // thread names, as nsys' query joins them, row by row.
    void apiTraceIsSqlOverTheCalls_data() { gpuSumJoinsNsysSummaries_data(); }

    void apiTraceIsSqlOverTheCalls()
    {
        QFETCH(QString, fixture);
        QFETCH(bool, cached);
        const QString path = fixture == QLatin1String("slow_1gpu") ? slowFixture() : ddpFixture(0);
        QStringList expected{QStringLiteral("Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,T-Pri,Thread Name")};
        for (const QStringList &row : queryRows(
                 path, QStringLiteral("SELECT a.start, a.end - a.start,"
                                      " CASE substr(n.value, -6, 2) WHEN '_v' THEN substr(n.value, 1, length(n.value) - 6) ELSE n.value END,"
                                      " a.returnValue, a.correlationId, (a.globalTid >> 24) & 0xFFFFFF, a.globalTid & 0xFFFFFF, t.priority, tn.value"
                                      " FROM CUPTI_ACTIVITY_KIND_RUNTIME a LEFT JOIN StringIds n ON n.id = a.nameId"
                                      " LEFT JOIN ThreadNames t ON t.globalTid = a.globalTid LEFT JOIN StringIds tn ON tn.id = t.nameId ORDER BY 1")))
            expected << row.join(QLatin1Char(','));
        QVERIFY(expected.size() > 100);
        const auto table = stats::runReport(QStringLiteral("cuda_api_trace"), reportOf(fixture, cached));
        QVERIFY(table);
        QCOMPARE(table->toCsv().trimmed().split(QLatin1Char('\n')), expected);
    }

    void csvIsByteIdentical_data() { matchesNsys_data(); }

    void csvIsByteIdentical()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, report);
        QFETCH(bool, cached);
        if (!QFile::exists(referenceCsv(fixture, report)))
            QSKIP("nsys printed no table (see matchesNsys)");
        QString expected = readText(referenceCsv(fixture, report));
        expected.remove(QLatin1Char('\r'));
        QCOMPARE(stats::runReport(report, reportOf(fixture, cached))->toCsv(), expected);
    }

    // The bytes an MPI process sends process 0 for a table (resulttable.h):
    // read back, it prints exactly what nsys printed; cut short, reading
    // it fails without reading past the bytes.
    void tablesSentAsBytesPrintTheSame_data()
    {
        QTest::addColumn<QString>("report");
        for (const QString &report : stats::fileReportNames())
            QTest::newRow(qPrintable(report)) << report;
    }

    void tablesSentAsBytesPrintTheSame()
    {
        QFETCH(QString, report);
        const ResultTable table = *stats::runReport(report, reportOf(QStringLiteral("slow_1gpu"), false));
        QByteArray bytes;
        {
            QDataStream out(&bytes, QIODevice::WriteOnly);
            out << table;
        }
        ResultTable back;
        QDataStream in(bytes);
        in >> back;
        QCOMPARE(in.status(), QDataStream::Ok);
        QVERIFY(in.atEnd());
        QCOMPARE(back.name, table.name);
        QCOMPARE(back.title, table.title);
        QCOMPARE(back.notes, table.notes);
        QCOMPARE(back.toCsv(), table.toCsv());
        QCOMPARE(back.toJson(), table.toJson());
        if (QFile::exists(referenceCsv(QStringLiteral("slow_1gpu"), report))) {
            QString expected = readText(referenceCsv(QStringLiteral("slow_1gpu"), report));
            expected.remove(QLatin1Char('\r'));
            QCOMPARE(back.toCsv(), expected);
        }
        if (table.allRows().empty())
            return;
        ResultTable cut;
        QDataStream shortIn(bytes.left(bytes.size() - 3));
        shortIn >> cut;
        QVERIFY(shortIn.status() != QDataStream::Ok);
    }

    void syncRulesPickTheirCalls()
    {
        // One call of each kind and a look-alike that each rule must leave
        // out, as nsys' queries select them (names by LIKE, memory kinds by id).
        QTemporaryDir dir;
        test::NsysFixture f(dir.filePath(QStringLiteral("sync.sqlite")));
        f.createSchema2025();
        const char *names[] = {"cudaMemcpy_v3020",          "cudaMemcpyAsync_v3020",       "cudaMemset_v3020",
                               "cudaMemsetAsync_v3020",     "cudaStreamSynchronize_v3020", "cudaDeviceSynchronize_v3020",
                               "cudaEventSynchronize_v3020"};
        for (int i = 0; i < 7; ++i)
            f.addString(i + 1, QString::fromLatin1(names[i]));
        const std::int64_t tid = test::globalId(42, 43), pid = test::globalId(42);
        // Runtime call k (correlation k) uses name nameOf[k].
        const int nameOf[] = {0, 1, 2, 2, 3, 3, 4, 5, 6, 7};
        for (int k = 1; k <= 9; ++k)
            f.exec(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(%1,%2,0,%3,%4,%5,0,0)")
                       .arg(k * 1000)
                       .arg(k * 1000 + 100 * k)
                       .arg(tid)
                       .arg(k)
                       .arg(nameOf[k]));
        // Copies: 1 synchronous pinned -> device; 2 async from pageable; 3 async pinned.
        const char *copies[] = {"1,1,2", "2,0,2", "3,1,2"};
        for (int c = 0; c < 3; ++c)
            f.exec(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY "
                                  "(start,end,deviceId,contextId,streamId,correlationId,globalPid,bytes,copyKind,srcKind,dstKind)"
                                  " VALUES(%1,%2,0,1,7,%3,%4,2000000,1,%5,%6)")
                       .arg(50000 + c * 1000)
                       .arg(50000 + c * 1000 + 300 + c)
                       .arg(QString::fromLatin1(copies[c]).section(QLatin1Char(','), 0, 0))
                       .arg(pid)
                       .arg(QString::fromLatin1(copies[c]).section(QLatin1Char(','), 1, 1),
                            QString::fromLatin1(copies[c]).section(QLatin1Char(','), 2, 2)));
        // Memsets: 4 synchronous of pinned memory; 5 synchronous of device memory; 6 async of pinned.
        for (const auto &[correlation, kind] : {std::pair{4, 1}, std::pair{5, 2}, std::pair{6, 1}})
            f.exec(QStringLiteral(
                       "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start,end,deviceId,contextId,streamId,correlationId,globalPid,value,bytes,memKind)"
                       " VALUES(%1,%2,0,1,7,%3,%4,0,4096,%5)")
                       .arg(60000 + correlation)
                       .arg(60500 + correlation)
                       .arg(correlation)
                       .arg(pid)
                       .arg(kind));
        f.close();
        const LoadResult loaded = NsysSqliteLoader::load(f.path());
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const Report &r = *loaded.report;
        QCOMPARE(stats::cudaMemcpySyncRule(r).toCsv(),
                 QStringLiteral("Duration (ns),Start (ns),Src Kind,Dst Kind,Bytes (MB),PID,Device ID,Context ID,Green Context ID,Stream ID,API Name\n"
                                "300,50000,Pinned,Device,2.000,42,0,1,,7,cudaMemcpy_v3020\n"));
        QCOMPARE(stats::cudaMemcpyAsyncRule(r).rowCount(), std::size_t(1));
        QCOMPARE(stats::cudaMemcpyAsyncRule(r).allRows()[0][1].integer, 51000);
        QCOMPARE(stats::cudaMemsetSyncRule(r).toCsv(),
                 QStringLiteral("Duration (ns),Start (ns),Memory Kind,Bytes (MB),PID,Device ID,Context ID,Green Context ID,Stream ID,API Name\n"
                                "500,60004,Pinned,0.004,42,0,1,,7,cudaMemset_v3020\n"));
        QCOMPARE(stats::cudaApiSyncRule(r).toCsv(), QStringLiteral("Duration (ns),Start (ns),PID,TID,API Name\n"
                                                                   "800,8000,42,43,cudaDeviceSynchronize_v3020\n"
                                                                   "700,7000,42,43,cudaStreamSynchronize_v3020\n"));
        // nsys' `rows` option.
        QCOMPARE(stats::cudaApiSyncRule(r, 1).rowCount(), std::size_t(1));
    }

    void gapThresholdIsInMilliseconds()
    {
        // 500 ms finds the one 3.65 s gap; 5 s finds none.
        AnalysisSettings options;
        options.gapThresholdMs = 5000.0;
        QCOMPARE(stats::runReport(QStringLiteral("gpu_gaps"), *m_reports["slow_1gpu"], options)->rowCount(), std::size_t(0));
        options.gapThresholdMs = 1.0;
        QVERIFY(stats::runReport(QStringLiteral("gpu_gaps"), *m_reports["slow_1gpu"], options)->rowCount() > 1);
    }
};

QTEST_GUILESS_MAIN(TestNsysStats)
#include "tst_nsysstats.moc"
