// Every statistics report against the CSV that nsys itself printed for the
// same real export, value by value.
#include "load/nsys/nsysloader.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

class TestNsysStats : public QObject {
    Q_OBJECT

    std::map<QString, ReportPtr> m_reports;

private slots:
    void initTestCase()
    {
        for (const auto &[name, path] : {std::pair{QStringLiteral("slow_1gpu"), slowFixture()},
                                         std::pair{QStringLiteral("ddp4"), ddpFixture(0)}}) {
            const LoadResult r = NsysSqliteLoader::load(path);
            QVERIFY2(r.ok(), qPrintable(r.error));
            m_reports[name] = r.report;
        }
    }

    void matchesNsys_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("report");
        for (const char *fixture : {"slow_1gpu", "ddp4"})
            for (const QString &report : stats::fileReportNames())
                QTest::addRow("%s/%s", fixture, qPrintable(report)) << QString::fromLatin1(fixture) << report;
    }

    void matchesNsys()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, report);
        const QList<QStringList> expected = parseCsv(readText(referenceCsv(fixture, report)));
        QVERIFY2(expected.size() >= 1, "reference CSV missing");
        const auto table = stats::runReport(report, *m_reports[fixture]);
        QVERIFY(table);
        const QList<QStringList> actual = parseCsv(table->toCsv());
        QCOMPARE(actual.value(0), expected.value(0)); // header, column order
        QCOMPARE(actual.size(), expected.size());
        for (qsizetype row = 1; row < expected.size(); ++row)
            for (qsizetype col = 0; col < expected[row].size(); ++col)
                QVERIFY2(actual[row].value(col) == expected[row][col],
                         qPrintable(QStringLiteral("row %1 column '%2': got '%3', nsys printed '%4'")
                                        .arg(row).arg(expected[0].value(col), actual[row].value(col), expected[row][col])));
    }

    void csvIsByteIdentical_data() { matchesNsys_data(); }

    void csvIsByteIdentical()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, report);
        QString expected = readText(referenceCsv(fixture, report));
        expected.remove(QLatin1Char('\r'));
        QCOMPARE(stats::runReport(report, *m_reports[fixture])->toCsv(), expected);
    }

    void gapThresholdIsInMilliseconds()
    {
        // 500 ms finds the one 3.65 s gap; 5 s finds none.
        stats::ReportOptions options;
        options.gapThresholdMs = 5000.0;
        QCOMPARE(stats::runReport(QStringLiteral("gpu_gaps"), *m_reports["slow_1gpu"], options)->rows.size(), std::size_t(0));
        options.gapThresholdMs = 1.0;
        QVERIFY(stats::runReport(QStringLiteral("gpu_gaps"), *m_reports["slow_1gpu"], options)->rows.size() > 1);
    }
};

QTEST_GUILESS_MAIN(TestNsysStats)
#include "tst_nsysstats.moc"
