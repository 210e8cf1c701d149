// What nsys records on the host besides CUDA, NVTX, OS runtime and MPI:
// cuDNN and cuBLAS calls (--trace=cudnn,cublas), OpenACC and OpenMP events
// (--trace=openacc,openmp). Read from a generated export
// (rankscope-tracegen --domains cudnn,cublas,openacc,openmp) as ranges on
// their calling thread, found by search, described in Details, summed by
// cuda_lib_sum, openacc_sum and openmp_sum, against SQL over the export and
// the generator's rules; an export whose tables lack columns or rows still
// opens.
#include "core/report.h"
#include "load/traceloader.h"
#include "nsysfixture.h"
#include "session/eventdetails.h"
#include "session/eventsearch.h"
#include "sqlquery.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// "total,count,name" of each group of an SQL query listing (name, count, total).
QStringList totalsOf(const QList<QStringList> &groups)
{
    QStringList out;
    for (const QStringList &g : groups)
        out << g[2] + QLatin1Char(',') + g[1] + QLatin1Char(',') + g[0];
    return out;
}

// The same of a summary table in osrt_sum's columns (its count column named `countHeader`).
QStringList totalsOf(const ResultTable &table, const QString &countHeader)
{
    const QList<QStringList> rows = parseCsv(table.toCsv());
    if (rows.value(0).join(QLatin1Char(','))
        != QStringLiteral("Time (%),Total Time (ns),%1,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name").arg(countHeader))
        return {QStringLiteral("unexpected header: ") + rows.value(0).join(QLatin1Char(','))};
    QStringList out;
    for (qsizetype i = 1; i < rows.size(); ++i)
        out << rows[i][1] + QLatin1Char(',') + rows[i][2] + QLatin1Char(',') + rows[i][8];
    return out;
}

} // namespace

class TestHostDomains : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::shared_ptr<Session> m_session;

private slots:
    void initTestCase()
    {
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN),
                                   {QStringLiteral("--format"), QStringLiteral("nsys"), QStringLiteral("--profile"), QStringLiteral("pytorch"),
                                    QStringLiteral("--domains"), QStringLiteral("cudnn,cublas,openacc,openmp"), QStringLiteral("--events"),
                                    QStringLiteral("20000"), QStringLiteral("--ranks"), QStringLiteral("1"), m_dir.path()}),
                 0);
        m_path = m_dir.filePath(QStringLiteral("pytorch_rank0.sqlite"));
        m_session = std::make_shared<Session>(Session::load({m_path}));
        QCOMPARE(m_session->ranks().size(), std::size_t(1));
    }

    // The generator's rule: a cuDNN call around each CUDA call whose
    // correlation id is a multiple of 3, a cuBLAS call around each other
    // multiple of 5; every one read, on the CUDA call's thread.
    void everyPlantedCallIsARangeOnItsThread()
    {
        const QList<QStringList> planted =
            queryRows(m_path, QStringLiteral("SELECT sum(correlationId % 3 = 0), sum(correlationId % 3 <> 0 AND correlationId % 5 = 0)"
                                             " FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
        const qint64 cudnn = planted.value(0).value(0).toLongLong(), cublas = planted.value(0).value(1).toLongLong();
        QVERIFY(cudnn > 100 && cublas > 50);
        const Report &r = *m_session->ranks().front().report;
        QCOMPARE(qint64(r.eventCount(TrackKind::CudaLibrary)), cudnn + cublas);
        // Each encloses its CUDA call on the same thread: as many calls
        // inside library ranges as ranges.
        std::size_t enclosed = 0;
        for (const Track &library : r.tracks) {
            if (library.kind != TrackKind::CudaLibrary)
                continue;
            const auto api = std::find_if(r.tracks.begin(), r.tracks.end(), [&](const Track &t) {
                return t.kind == TrackKind::CudaApi && t.pid == library.pid && t.tid == library.tid;
            });
            QVERIFY(api != r.tracks.end());
            for (std::size_t i = 0; i < library.slices.size(); ++i)
                for (const std::uint32_t c : api->slices.overlapping(library.slices.start(i), library.slices.end(i)))
                    enclosed += api->slices.start(c) >= library.slices.start(i) && api->slices.end(c) <= library.slices.end(i);
        }
        QCOMPARE(qint64(enclosed), cudnn + cublas);
    }

    // Search finds them by name; Details names their kind.
    void searchAndDetailsShowThem()
    {
        const std::vector<EventLocation> found = findEvents(*m_session, {QStringLiteral("cublasGemmEx"), false, true});
        const QList<QStringList> count = queryRows(
            m_path, QStringLiteral("SELECT count(*) FROM CUBLAS_EVENTS e JOIN StringIds s ON s.id = e.nameId WHERE s.value = 'cublasGemmEx'"));
        QCOMPARE(QString::number(found.size()), count.value(0).value(0));
        QVERIFY(!found.empty());
        const EventDetails d = describeEvent(*m_session, found.front());
        QCOMPARE(d.title, QStringLiteral("cublasGemmEx"));
        QCOMPARE(d.kind, QStringLiteral("cuDNN/cuBLAS"));
    }

    // cuda_lib_sum: the calls by name, as SQL groups them.
    void summaryIsSqlOverTheCalls()
    {
        const QStringList expected = totalsOf(
            queryRows(m_path, QStringLiteral("SELECT s.value, count(*), sum(e.end - e.start) FROM (SELECT * FROM CUDNN_EVENTS UNION ALL"
                                             " SELECT * FROM CUBLAS_EVENTS) e JOIN StringIds s ON s.id = e.nameId GROUP BY 1 ORDER BY 3 DESC")));
        QCOMPARE(expected.size(), 4);
        const auto table = stats::runReport(QStringLiteral("cuda_lib_sum"), *m_session->ranks().front().report);
        QVERIFY(table);
        const QStringList actual = totalsOf(*table, QStringLiteral("Num Calls"));
        QCOMPARE(actual, expected);
    }

    // The generator's OpenACC rules (tests/bench/nsysdomains.h): a launch
    // event around each call with a correlation id that is a multiple of 7,
    // a data event around each other multiple of 11, an event without a
    // source file around each other multiple of 13; openacc_sum groups them
    // by name and source place over the three tables, as SQL does.
    void openAccEventsAndTheirSummary()
    {
        const QList<QStringList> planted =
            queryRows(m_path, QStringLiteral("SELECT sum(correlationId % 7 = 0), sum(correlationId % 7 <> 0 AND correlationId % 11 = 0),"
                                             " sum(correlationId % 7 <> 0 AND correlationId % 11 <> 0 AND correlationId % 13 = 0)"
                                             " FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
        const qint64 launches = planted.value(0).value(0).toLongLong(), uploads = planted.value(0).value(1).toLongLong(),
                     waits = planted.value(0).value(2).toLongLong();
        QVERIFY(launches > 50 && uploads > 20 && waits > 10);
        const Report &r = *m_session->ranks().front().report;
        QCOMPARE(qint64(r.eventCount(TrackKind::OpenAcc)), launches + uploads + waits);
        const QStringList expected = totalsOf(queryRows(
            m_path,
            QStringLiteral("SELECT CASE WHEN e.srcFile IS NOT NULL THEN n.value || '@' || f.value || ':' || e.lineNo ELSE n.value END,"
                           " count(*), sum(e.end - e.start) FROM (SELECT start, end, nameId, srcFile, lineNo FROM CUPTI_ACTIVITY_KIND_OPENACC_DATA"
                           " UNION ALL SELECT start, end, nameId, srcFile, lineNo FROM CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH"
                           " UNION ALL SELECT start, end, nameId, srcFile, lineNo FROM CUPTI_ACTIVITY_KIND_OPENACC_OTHER) e"
                           " JOIN StringIds n ON n.id = e.nameId LEFT JOIN StringIds f ON f.id = e.srcFile GROUP BY 1 ORDER BY 3 DESC, 2, 1")));
        QCOMPARE(expected.size(), 5); // three launch lines, the upload, the wait
        const auto table = stats::runReport(QStringLiteral("openacc_sum"), r);
        QVERIFY(table);
        const QStringList actual = totalsOf(*table, QStringLiteral("Num Calls"));
        QCOMPARE(actual, expected);
        QVERIFY(actual.join(QLatin1Char('\n')).contains(QLatin1String("acc_enqueue_launch@saxpy.c:41")));
    }

    // OpenMP: a parallel region around each call with a correlation id that
    // is a multiple of 4 and a barrier wait inside it, a track per thread
    // and event kind; openmp_sum sums each kind's table apart.
    void openMpEventsAndTheirSummary()
    {
        const qint64 planted =
            queryRows(m_path, QStringLiteral("SELECT sum(correlationId % 4 = 0) FROM CUPTI_ACTIVITY_KIND_RUNTIME")).value(0).value(0).toLongLong();
        QVERIFY(planted > 100);
        const Report &r = *m_session->ranks().front().report;
        QCOMPARE(qint64(r.eventCount(TrackKind::OpenMp)), 2 * planted);
        QStringList kinds;
        for (const Track &t : r.tracks)
            if (t.kind == TrackKind::OpenMp)
                kinds << trackName(r, t);
        kinds.removeDuplicates();
        kinds.sort();
        QCOMPARE(kinds, (QStringList{QStringLiteral("OpenMP: parallel"), QStringLiteral("OpenMP: sync region wait")}));
        const QStringList expected = totalsOf(queryRows(
            m_path, QStringLiteral("SELECT n.value, count(*), sum(e.end - e.start) FROM (SELECT 1 AS t, * FROM OPENMP_EVENT_KIND_PARALLEL"
                                   " UNION ALL SELECT 2 AS t, start, end, eventClass, globalTid, correlationId, nameId, eventKind, parallelId,"
                                   " taskId FROM OPENMP_EVENT_KIND_SYNC_REGION_WAIT) e JOIN StringIds n ON n.id = e.nameId GROUP BY e.t, 1"
                                   " ORDER BY 3 DESC")));
        QCOMPARE(expected.size(), 2);
        const auto table = stats::runReport(QStringLiteral("openmp_sum"), r);
        QVERIFY(table);
        const QStringList actual = totalsOf(*table, QStringLiteral("Count"));
        QCOMPARE(actual, expected);
        const std::vector<EventLocation> found = findEvents(*m_session, {QStringLiteral("OpenMP Barrier Wait"), false, true}, 1);
        QCOMPARE(found.size(), std::size_t(1));
        const EventDetails d = describeEvent(*m_session, found.front());
        QCOMPARE(d.kind, QStringLiteral("OpenMP: sync region wait"));
    }

    // Tables without rows, without a name column, with a row without an
    // end, or without a start column: the file opens, the calls that can be
    // read are.
    void damagedTablesStillOpen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.sqlite"));
        QVERIFY(writableCopy(slowFixture(), path));
        {
            NsysFixture db(path);
            db.exec(QStringLiteral("CREATE TABLE CUDNN_EVENTS(start INTEGER NOT NULL, end INTEGER, globalTid INTEGER);"
                                   "INSERT INTO CUDNN_EVENTS VALUES (1000, 2000, 281492643120157), (3000, NULL, 281492643120157);"
                                   "CREATE TABLE CUBLAS_EVENTS(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER, globalTid INTEGER,"
                                   " nameId INTEGER, extraColumnOfALaterNsys TEXT);"
                                   "CREATE TABLE CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH(start INTEGER, end INTEGER, nameId INTEGER, globalTid INTEGER);"
                                   "INSERT INTO CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH VALUES (5000, 6000, 999999, 281492643120157);"
                                   "CREATE TABLE OPENMP_EVENT_KIND_TARGET(start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER);"
                                   "INSERT INTO OPENMP_EVENT_KIND_TARGET VALUES (7000, 8000, 281492643120157);"
                                   "CREATE TABLE OPENMP_EVENT_KIND_PARALLEL(end INTEGER, globalTid INTEGER);"
                                   "INSERT INTO OPENMP_EVENT_KIND_PARALLEL VALUES (9000, 281492643120157);"));
            db.close();
        }
        const LoadResult loaded = loadTraceFile(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.report->eventCount(TrackKind::CudaLibrary), std::size_t(2)); // the one without an end as an instant, noted
        // An OpenACC event named by an id the string table lacks, an OpenMP
        // table of a kind this nsys did not have; one without a start is
        // left out with a note.
        QCOMPARE(loaded.report->eventCount(TrackKind::OpenAcc), std::size_t(1));
        QCOMPARE(loaded.report->eventCount(TrackKind::OpenMp), std::size_t(1));
        QVERIFY(std::any_of(loaded.report->diagnostics.begin(), loaded.report->diagnostics.end(),
                            [](const Diagnostic &d) { return d.text.contains(QLatin1String("OPENMP_EVENT_KIND_PARALLEL has no start column")); }));
        QVERIFY(loaded.report->eventCount(TrackKind::Kernel) > 0);
    }
};

QTEST_GUILESS_MAIN(TestHostDomains)
#include "tst_hostdomains.moc"
