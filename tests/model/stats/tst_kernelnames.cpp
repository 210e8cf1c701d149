// nsys' kernel reports under their `:base` and `:mangled` arguments: each
// names every kernel by the export's short name, or by its mangled symbol
// (else its demangled name), and counts the same kernels under each name
// as SQL over the real runs' kernel tables does.
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
                for (const char *naming : {"", "base", "mangled"})
                    QTest::addRow("%s %s%s%s", qPrintable(QFileInfo(path).fileName()), report, *naming ? ":" : "", naming)
                        << path << QString::fromLatin1(report) << QString::fromLatin1(naming);
    }

    void kernelsCountedUnderTheNamesAsked()
    {
        QFETCH(QString, path);
        QFETCH(QString, report);
        QFETCH(QString, naming);
        const QString column = naming == QLatin1String("base")      ? QStringLiteral("k.shortName")
                               : naming == QLatin1String("mangled") ? QStringLiteral("coalesce(k.mangledName, k.demangledName)")
                                                                    : QStringLiteral("k.demangledName");
        // The exec reports list the kernels whose launch the export has.
        const bool launched = report.startsWith(QLatin1String("cuda_kern_exec"));
        std::map<QString, qint64> expected;
        for (const QStringList &g :
             queryRows(path, QStringLiteral("SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k%1"
                                            " JOIN StringIds s ON s.id = %2 GROUP BY 1")
                                 .arg(launched ? QStringLiteral(" JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId ="
                                                                " k.correlationId AND k.globalPid = (r.globalTid & 0xFFFFFFFFFF000000)")
                                               : QString(),
                                      column)))
            expected[g[0]] = g[1].toLongLong();
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
