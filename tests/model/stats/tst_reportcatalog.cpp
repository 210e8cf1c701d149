// The report registry: each declaration is whole, its tables carry its
// name and title, and the settings it declares are the ones it reads (a
// setting changed leaves every report that does not declare it as it was),
// on HTA's two real PyTorch ranks (NCCL collectives, steps) with rank 1's
// clock moved 500 ms (beyond the ranks' residuals), so aligning on collectives has something to correct.
#include "analysisinputs.h"
#include "load/traceloader.h"
#include "session/session.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>
#include <functional>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

class TestReportCatalog : public QObject {
    Q_OBJECT

    std::optional<Session> m_session;

    // Every declared report's CSV for `options`, by name.
    std::map<QString, QString> tablesFor(const AnalysisSettings &options)
    {
        std::map<QString, QString> csv;
        for (const ReportDeclaration &d : reportDeclarations()) {
            QString &text = csv[d.name];
            if (d.perFile)
                for (const ReportPtr &r : m_session->reports())
                    text += d.perFile(*r, options).toCsv();
            else
                text = sessionReport(d.name, *m_session, options)->toCsv();
        }
        return csv;
    }

private slots:
    void initTestCase()
    {
        const Session recorded = Session::load({dataPath(QStringLiteral("third-party/hta"))}, LoadControl{});
        QCOMPARE(recorded.ranks().size(), std::size_t(2));
        m_session = recorded.withShiftedRanks({0, 500'000'000});
    }

    void declarationsAreWhole()
    {
        QSet<QString> names;
        bool sessionSeen = false;
        for (const ReportDeclaration &d : reportDeclarations()) {
            QVERIFY2(!d.name.isEmpty() && !d.title.isEmpty(), qPrintable(d.name));
            QVERIFY2(!names.contains(d.name), qPrintable(d.name));
            names.insert(d.name);
            QVERIFY2(bool(d.perFile) != bool(d.perSession), qPrintable(d.name)); // exactly one compute
            QVERIFY2(d.isSessionReport() || d.gathers == 0, qPrintable(d.name)); // MPI gathers only for session reports
            QVERIFY2(!d.gathersPart(RankPart::OtherGpuWork) || d.gathersPart(RankPart::CollectiveOps), qPrintable(d.name));
            sessionSeen |= d.isSessionReport();
            QVERIFY2(!sessionSeen || d.isSessionReport(), qPrintable(d.name)); // per-file reports first
            QCOMPARE(findReport(d.name), &d);
        }
        QCOMPARE(findReport(QStringLiteral("no_such_report")), nullptr);
        QCOMPARE(reportNames().size(), qsizetype(reportDeclarations().size()));
        QVERIFY(!runReport(QStringLiteral("rank_summary"), *m_session->reports().front()));
        QVERIFY(!sessionReport(QStringLiteral("cuda_gpu_kern_sum"), *m_session));
    }

    void tablesCarryTheirDeclaration()
    {
        for (const ReportDeclaration &d : reportDeclarations()) {
            const ResultTable t = d.perFile ? d.perFile(*m_session->reports().front(), {}) : *sessionReport(d.name, *m_session);
            QCOMPARE(t.name, d.name);
            QCOMPARE(t.title, d.title);
        }
    }

    // Changes one setting from its default and checks which reports moved:
    // those that do not declare it must not, and at least one that declares
    // it must (so the change is one the fixture can show).
    void declaredSettingsAreTheOnesRead_data()
    {
        QTest::addColumn<int>("setting");
        QTest::addColumn<std::function<void(AnalysisSettings &)>>("change");
        const auto add = [](const char *name, ReportSetting s, std::function<void(AnalysisSettings &)> change) {
            QTest::newRow(name) << int(s) << change;
        };
        add("gap threshold", ReportSetting::GapThreshold, [](AnalysisSettings &o) { o.gapThresholdMs = 0.01; });
        add("util threshold", ReportSetting::UtilThreshold, [](AnalysisSettings &o) { o.utilThresholdPercent = 100; });
        add("rule rows", ReportSetting::RuleRows, [](AnalysisSettings &o) { o.ruleRowLimit = 1; });
        add("map bins", ReportSetting::MapBins, [](AnalysisSettings &o) { o.mapBins = 7; });
        add("communication pattern", ReportSetting::CommunicationPattern,
            [](AnalysisSettings &o) { o.communicationPattern = QStringLiteral("^no kernel is named so$"); });
        add("alignment", ReportSetting::Alignment, [](AnalysisSettings &o) { o.alignOnCollectives = true; });
        add("step", ReportSetting::Step, [](AnalysisSettings &o) { o.step = 1; });
        add("step names", ReportSetting::StepNames, [](AnalysisSettings &o) { o.stepNames = QStringLiteral("no step is named so"); });
        add("what-if", ReportSetting::WhatIf, [](AnalysisSettings &o) { o.whatIfs = {QStringLiteral("kernel:.=0.5")}; });
    }

    void declaredSettingsAreTheOnesRead()
    {
        QFETCH(int, setting);
        QFETCH(std::function<void(AnalysisSettings &)>, change);
        static const std::map<QString, QString> defaults = tablesFor({});
        AnalysisSettings changed;
        change(changed);
        const std::map<QString, QString> tables = tablesFor(changed);
        QStringList moved;
        for (const ReportDeclaration &d : reportDeclarations()) {
            const bool differs = tables.at(d.name) != defaults.at(d.name);
            if (differs)
                moved << d.name;
            QVERIFY2(!differs || d.reads(ReportSetting(setting)), qPrintable(d.name + QStringLiteral(" reads it undeclared")));
        }
        QVERIFY2(!moved.isEmpty(), "no declared reader changed: the fixture does not show this setting");
        QCOMPARE(reportsReading(ReportSetting(setting)).isEmpty(), false);
    }
};

QTEST_GUILESS_MAIN(TestReportCatalog)
#include "tst_reportcatalog.moc"
