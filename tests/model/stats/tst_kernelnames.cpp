// nsys' kernel reports under their `:base`, `:mangled` and `:nvtx-name`
// arguments: each names every kernel by the export's short name, or by its
// mangled symbol (else its demangled name), after the innermost NVTX range
// holding its launch ("range/kernel") when asked, and counts the same
// kernels under each name as SQL over the real runs' tables does.
#include "load/traceloader.h"
#include "sqlquery.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>

#include <map>

using namespace rankscope;
using namespace rankscope::test;

class TestKernelNames : public QObject {
    Q_OBJECT

    std::map<QString, ReportPtr> m_reports;

private slots:
    void initTestCase()
    {
        for (const QString &path : {slowFixture(), ddpFixture(0)}) {
            const LoadResult r = loadTraceFile(path);
            QVERIFY2(r.ok(), qPrintable(r.error));
            m_reports[path] = r.report;
        }
    }

    void kernelsCountedUnderTheNamesAsked_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("report");
        QTest::addColumn<QString>("naming");
        for (const QString &path : {slowFixture(), ddpFixture(0)})
            for (const char *report : {"cuda_gpu_kern_sum", "cuda_gpu_sum", "cuda_api_gpu_sum", "cuda_gpu_kern_gb_sum", "cuda_gpu_trace",
                                       "cuda_kern_exec_trace", "cuda_kern_exec_sum", "nvtx_kern_sum"})
                for (const char *naming : {"", "base", "mangled", "nvtx-name", "nvtx-name:base"}) {
                    if (QByteArray(naming).startsWith("nvtx-name") && QByteArray(report) == "nvtx_kern_sum")
                        continue; // nsys gives it :base and :mangled only
                    QTest::addRow("%s %s%s%s", qPrintable(QFileInfo(path).fileName()), report, *naming ? ":" : "", naming)
                        << path << QString::fromLatin1(report) << QString::fromLatin1(naming);
                }
    }

    void kernelsCountedUnderTheNamesAsked()
    {
        QFETCH(QString, path);
        QFETCH(QString, report);
        QFETCH(QString, naming);
        const QString column = naming.endsWith(QLatin1String("base"))      ? QStringLiteral("k.shortName")
                               : naming.endsWith(QLatin1String("mangled")) ? QStringLiteral("coalesce(k.mangledName, k.demangledName)")
                                                                           : QStringLiteral("k.demangledName");
        // nvtx-name: the innermost push/pop range on the launching thread
        // holding the launch (the latest to start, then the shortest).
        const QString prefix = naming.startsWith(QLatin1String("nvtx-name")) ? QStringLiteral(
                                   "coalesce((SELECT coalesce(n.text, t.value) FROM NVTX_EVENTS n LEFT JOIN StringIds t ON t.id = n.textId"
                                   " WHERE n.eventType = 59 AND n.globalTid = r.globalTid AND n.start <= r.start AND n.end >= r.end"
                                   " ORDER BY n.start DESC, n.end LIMIT 1) || '/', '') || ")
                                                                             : QString();
        // The exec reports list the kernels whose launch the export has.
        const bool launched = report.startsWith(QLatin1String("cuda_kern_exec"));
        std::map<QString, qint64> expected;
        for (const QStringList &g : queryRows(path, QStringLiteral("SELECT %1s.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
                                                                   " %2 JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId"
                                                                   " AND k.globalPid = (r.globalTid & 0xFFFFFFFFFF000000)"
                                                                   " JOIN StringIds s ON s.id = %3 GROUP BY 1")
                                                        .arg(prefix, launched ? QStringLiteral("") : QStringLiteral("LEFT"), column)))
            expected[g[0]] = g[1].toLongLong();
        if (naming.startsWith(QLatin1String("nvtx-name"))) // some kernels are named after a range
            QVERIFY(std::any_of(expected.begin(), expected.end(), [](const auto &e) { return e.first.contains(QLatin1Char('/')); }));
        QVERIFY(expected.size() > 3);
        const QString request = naming.isEmpty() ? report : report + QLatin1Char(':') + naming;
        QVERIFY(stats::isKnownReport(request));
        const auto table = stats::runReport(request, *m_reports[path]);
        QVERIFY(table);
        QCOMPARE(table->name, QString(request).replace(QLatin1Char(':'), QLatin1Char('_'))); // its files' names
        const QList<QStringList> rows = parseCsv(table->toCsv());
        const QStringList header = rows.value(0);
        // Where each report keeps the kernel's name and how many kernels a row counts.
        const qsizetype nameColumn = header.indexOf(QStringLiteral("Kernel Name")) >= 0 ? header.indexOf(QStringLiteral("Kernel Name"))
                                     : header.indexOf(QStringLiteral("Operation")) >= 0 ? header.indexOf(QStringLiteral("Operation"))
                                                                                        : header.indexOf(QStringLiteral("Name"));
        const qsizetype countColumn =
            header.indexOf(QStringLiteral("Instances")) >= 0 ? header.indexOf(QStringLiteral("Instances")) : header.indexOf(QStringLiteral("Count"));
        QVERIFY(nameColumn >= 0);
        if (report == QLatin1String("nvtx_kern_sum")) { // counted per range in tst_nvtxreports; here its names
            for (qsizetype r = 1; r < rows.size(); ++r)
                QVERIFY2(expected.count(rows[r][nameColumn]), qPrintable(rows[r][nameColumn]));
            return;
        }
        std::map<QString, qint64> actual;
        for (qsizetype r = 1; r < rows.size(); ++r) {
            const QStringList &row = rows[r];
            if (header.contains(QStringLiteral("Category")) && row[header.indexOf(QStringLiteral("Category"))] != QLatin1String("CUDA_KERNEL"))
                continue;
            if (report == QLatin1String("cuda_gpu_trace") && row[header.indexOf(QStringLiteral("GrdX"))].isEmpty())
                continue; // a copy or memset
            actual[row[nameColumn]] += countColumn >= 0 ? row[countColumn].toLongLong() : 1;
        }
        QCOMPARE(actual, expected);
    }
};

QTEST_GUILESS_MAIN(TestKernelNames)
#include "tst_kernelnames.moc"
