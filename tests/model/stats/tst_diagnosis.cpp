// Diagnosis: the findings on the real runs (data-loader-bound, fast,
// 2-rank NCCL) and on generated traces that plant one problem each.
#include "analysisinputs.h"
#include "session/session.h"
#include "stats/diagnosis/diagnosis.h"
#include "stats/kernelclasses.h"
#include "testdata.h"

#include <QProcess>
#include <QtTest>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

QStringList ids(const Diagnosis &d)
{
    QStringList out;
    for (const Finding &f : d.findings)
        out << f.id;
    return out;
}

const Finding *findingOf(const Diagnosis &d, const QString &id)
{
    for (const Finding &f : d.findings)
        if (f.id == id)
            return &f;
    return nullptr;
}

} // namespace

class TestDiagnosis : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString generate(const QString &profile, const QString &format, const QStringList &extra = {}, const QString &events = QStringLiteral("20000"))
    {
        const QString dir = m_dir.filePath(profile + QLatin1Char('_') + format + QString::number(extra.size()));
        QStringList args{"--profile", profile, "--format", format, "--events", events};
        args << extra << dir;
        if (QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), args) != 0)
            return {};
        return dir;
    }

private slots:
    void dataLoaderBoundRunStarvesForInput_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("nsys") << slowFixture();
        QTest::newRow("kineto") << dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"));
    }
    void dataLoaderBoundRunStarvesForInput()
    {
        QFETCH(QString, path);
        const Session session = Session::load({path});
        const Diagnosis d = diagnosed(session);
        QVERIFY2(!d.findings.empty(), qPrintable(d.notes.join(QLatin1Char('\n'))));
        // The top finding, and most of the loop's idle time: the GPU waits
        // for data_loading (num_workers=0 in this run).
        QCOMPARE(d.findings.front().id, QStringLiteral("input_starvation"));
        const Finding &input = d.findings.front();
        QCOMPARE(input.severity, Severity::High);
        QVERIFY2(input.share > 0.5, qPrintable(QString::number(input.share)));
        QCOMPARE(input.ranks, QStringLiteral("rank 0"));
        for (const FindingInstance &i : input.instances)
            QVERIFY2(i.what.contains(QLatin1String("data_loading")), qPrintable(i.what));
        QVERIFY(input.advice.contains(QLatin1String("num_workers")));
    }

    void dataLoaderBoundRunCopiesFromPageableMemory()
    {
        // nsys analyze's cuda_memcpy_async lists the run's pageable copies;
        // the ones inside the loop are the finding's instances.
        const Session session = Session::load({slowFixture()});
        const Diagnosis d = diagnosed(session);
        const Finding *copies = findingOf(d, QStringLiteral("blocking_copies"));
        QVERIFY(copies);
        QVERIFY(copies->instances.size() >= 10);
        for (const FindingInstance &i : copies->instances)
            QVERIFY2(i.what.contains(QLatin1String("Pageable")), qPrintable(i.what));
        QVERIFY(copies->advice.contains(QLatin1String("pin_memory")));
    }

    void fastRunHasNeither()
    {
        // The same loop with workers, pinned memory and non_blocking copies.
        const Session session = Session::load({dataPath(QStringLiteral("kineto/fast_rank0.pt.trace.json.gz"))});
        const QStringList found = ids(diagnosed(session));
        QVERIFY2(!found.contains(QLatin1String("input_starvation")), qPrintable(found.join(QLatin1Char(','))));
        QVERIFY2(!found.contains(QLatin1String("blocking_copies")), qPrintable(found.join(QLatin1Char(','))));
    }

    void plantedProblemIsTheOnlyFinding_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("expected");
        for (const char *format : {"nsys", "kineto"}) {
            QTest::addRow("launchbound/%s", format) << QStringLiteral("launchbound") << QString::fromLatin1(format) << QStringLiteral("launch_bound");
            QTest::addRow("synchost/%s", format) << QStringLiteral("synchost") << QString::fromLatin1(format) << QStringLiteral("synchronisation");
        }
    }
    void plantedProblemIsTheOnlyFinding()
    {
        QFETCH(QString, profile);
        QFETCH(QString, format);
        QFETCH(QString, expected);
        const QString dir = generate(profile, format);
        QVERIFY(!dir.isEmpty());
        const Diagnosis d = diagnosed(Session::load({dir}));
        QCOMPARE(ids(d), QStringList{expected});
        const Finding &f = d.findings.front();
        if (profile == QLatin1String("launchbound")) {
            // 3 µs kernels every 8.5 µs: the GPU idles 5.5 of every 8.5 µs.
            QVERIFY2(std::abs(f.share - 5.5 / 8.5) < 0.02, qPrintable(QString::number(f.share)));
            // The last kernel starts after the last step ends: out of the loop.
            QVERIFY(f.evidence.contains(QLatin1String("9999 of 9999 kernels shorter than their launch call")));
        } else {
            // 2 ms of host work after each step's sync, in 12 ms steps; every
            // instance drains the GPU for about 2 ms.
            QVERIFY2(std::abs(f.share - 2.0 / 12.0) < 0.01, qPrintable(QString::number(f.share)));
            for (const FindingInstance &i : f.instances)
                QVERIFY2(std::abs(i.cost - 2'006'000) < 1'000, qPrintable(QString::number(i.cost)));
            QCOMPARE(f.severity, Severity::Medium);
        }
    }

    // A sync that drains the GPU every step, behind a 20 s warm-up whose
    // GPU idles between launches: the warm-up is left out (and said so), the
    // planted cause is the only finding, its share that of the steps after.
    void warmUpIsLeftOutAndThePlantedCauseNamed()
    {
        const QString dir = generate(QStringLiteral("synchost"), QStringLiteral("nsys"), {"--warmup-ms", "20000"});
        QVERIFY(!dir.isEmpty());
        const Diagnosis d = diagnosed(Session::load({dir}));
        QCOMPARE(ids(d), QStringList{QStringLiteral("synchronisation")});
        QVERIFY2(std::abs(d.findings.front().share - 2.0 / 12.0) < 0.01, qPrintable(QString::number(d.findings.front().share)));
        const QString notes = d.notes.join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("Left out as warm-up, as the Steps panel leaves them out of its chart: 1 step(s) over 3 times")),
                 qPrintable(notes));
        QVERIFY(notes.contains(QLatin1String("busy")) && notes.contains(QLatin1String("after warm-up")));
    }

    // The 4-rank DDP run: each rank's step 0 (1.4 s against 84 ms steps) is
    // warm-up; after it the GPU is busy most of the loop, and no finding
    // blames idle time the warm-up caused.
    void ddpRunLeavesItsWarmUpOut()
    {
        QStringList files;
        for (int r = 0; r < 4; ++r)
            files << ddpFixture(r);
        const Diagnosis d = diagnosed(Session::load(files));
        const QString notes = d.notes.join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("4 step(s) over 3 times the median step")), qPrintable(notes));
        const QStringList found = ids(d);
        QVERIFY2(!found.contains(QLatin1String("low_utilisation")), qPrintable(found.join(QLatin1Char(','))));
        QVERIFY2(!found.contains(QLatin1String("synchronisation")), qPrintable(found.join(QLatin1Char(','))));
    }

    void stragglerIsNamed()
    {
        // 4 ranks; rank 2 computes 2 ms more before every all-reduce.
        const QString dir = generate(QStringLiteral("ddp"), QStringLiteral("nsys"),
                                     {"--ranks", "4", "--straggler", "2:2000:1", "--clock-offsets-us", "0,1500,-700,200"}, QStringLiteral("1720"));
        QVERIFY(!dir.isEmpty());
        const Session session = Session::load({dir});
        const Diagnosis d = diagnosed(session);
        const Finding *straggler = findingOf(d, QStringLiteral("straggler"));
        QVERIFY(straggler);
        QCOMPARE(straggler->ranks, QStringLiteral("rank 2 only"));
        QVERIFY(straggler->instances.size() >= 39);
        // The others wait 2 ms each at each of the 40 all-reduces.
        QVERIFY2(std::abs(straggler->cost - 40 * 3 * 2'000'000) < 40 * 3 * 2'000, qPrintable(QString::number(straggler->cost)));
    }

    void reportsSayTheSame()
    {
        const Session session = Session::load({slowFixture()});
        const Diagnosis d = diagnosed(session);
        const ResultTable table = findingsTable(d);
        QCOMPARE(table.headers, (QStringList{"Severity", "Finding", "Ranks", "Cost (ns)", "Share (%)", "Instances", "Evidence", "Advice"}));
        QCOMPARE(table.rowCount(), d.findings.size());
        const QString md = findingsMarkdown(session, d);
        for (const Finding &f : d.findings)
            QVERIFY(md.contains(f.title));
        const ResultTable instances = findingInstancesTable(session, d.findings.front());
        QCOMPARE(instances.rowCount(), d.findings.front().instances.size());
    }
};

QTEST_GUILESS_MAIN(TestDiagnosis)
#include "tst_diagnosis.moc"
