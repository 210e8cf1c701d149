// Opening .nsys-rep / .qdrep reports: exported through nsys (a stub script
// here, on PATH or under NSYS_HOME, that writes a real export) into the
// cache, reused while the report is unchanged, and a clear message when no
// nsys is installed.
#include "load/nsys/nsysreportexport.h"
#include "load/traceloader.h"
#include "session/session.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// Answers `nsys export --type sqlite --force-overwrite true --output OUT REPORT`
// the way nsys does: progress lines, then the SQLite file at OUT.
constexpr const char *kStubNsys = R"(#!/bin/sh
echo "$@" >> "$RANKSCOPE_STUB_LOG"
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "--output" ]; then out="$2"; shift 2; else shift; fi
done
if [ -n "$RANKSCOPE_STUB_SLEEP" ]; then sleep "$RANKSCOPE_STUB_SLEEP"; fi
if [ -n "$RANKSCOPE_STUB_FAIL" ]; then echo "Error: report is corrupt"; exit 1; fi
echo "Exporting [=====      ] 50%"
cp "$RANKSCOPE_STUB_FIXTURE" "$out"
echo "Exporting [===========] 100%"
)";

} // namespace

class TestNsysReport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_stubBin;
    QString m_log;
    QByteArray m_path;

    QString writeReport(const QString &name, const QByteArray &bytes = "NSYS fake report body") { return writeFile(m_dir, name, bytes); }
    int stubCalls() const
    {
        const QString text = readText(m_log);
        return int(text.count(QLatin1Char('\n')));
    }

private slots:
    void initTestCase()
    {
        m_path = qgetenv("PATH");
        m_stubBin = m_dir.filePath(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(m_stubBin));
        const QString stub = writeFile(m_dir, QStringLiteral("bin/nsys"), kStubNsys);
        QVERIFY(QFile::setPermissions(stub, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        m_log = m_dir.filePath(QStringLiteral("stub.log"));
        qputenv("RANKSCOPE_STUB_LOG", m_log.toLocal8Bit());
        qputenv("RANKSCOPE_STUB_FIXTURE", slowFixture().toLocal8Bit());
        qputenv("XDG_CACHE_HOME", m_dir.filePath(QStringLiteral("cache")).toLocal8Bit());
    }

    void init()
    {
        QFile::remove(m_log);
        qputenv("PATH", m_stubBin.toLocal8Bit() + ':' + m_path);
        qunsetenv("NSYS_HOME");
        qunsetenv("RANKSCOPE_STUB_FAIL");
        qunsetenv("RANKSCOPE_STUB_SLEEP");
    }

    void withoutNsysSaysHowToExport()
    {
        qputenv("PATH", "/usr/bin:/bin"); // the system's tools, no nsys
        QVERIFY(findNsys().isEmpty());
        const QString report = writeReport(QStringLiteral("run.nsys-rep"));
        const LoadResult r = loadTraceFile(report);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QLatin1String("nsys is not installed")), qPrintable(r.error));
        QVERIFY2(r.error.contains(QLatin1String("nsys export --type sqlite --output run.sqlite run.nsys-rep")), qPrintable(r.error));
        QVERIFY(!r.error.contains(QLatin1Char('\n')));
    }

    void exportsThroughNsysThenReusesTheExport()
    {
        const QString report = writeReport(QStringLiteral("train_rank2.nsys-rep"));
        QVERIFY(QFile::setPermissions(report, QFileDevice::ReadOwner | QFileDevice::WriteOwner)); // 0600
        const QByteArray before = fileHash(report);
        std::vector<double> progress;
        LoadControl control;
        control.progress = [&](double f) { progress.push_back(f); };
        const LoadResult first = loadTraceFile(report, control);
        QVERIFY2(first.ok(), qPrintable(first.error));
        QCOMPARE(stubCalls(), 1);
        QVERIFY(readText(m_log).startsWith(QLatin1String("export --type sqlite")));
        QCOMPARE(first.report->filePath, report); // the user's file, not the cache
        QCOMPARE(first.report->eventCount(TrackKind::Kernel), loadTraceFile(slowFixture()).report->eventCount(TrackKind::Kernel));
        QVERIFY(first.report->diagnostics.front().text.contains(QLatin1String("exported with nsys")));
        // nsys' own percentages drive the first half of the progress.
        QVERIFY(std::find(progress.begin(), progress.end(), 0.25) != progress.end());
        QCOMPARE(progress.back(), 1.0);
        QVERIFY(QFileInfo::exists(nsysExportCachePath(report)));
        // It holds the report's names: no more readable than the report.
        QCOMPARE(QFileInfo(nsysExportCachePath(report)).permissions() & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner);

        const LoadResult second = loadTraceFile(report);
        QVERIFY(second.ok());
        QCOMPARE(stubCalls(), 1); // reused
        QVERIFY(second.report->diagnostics.front().text.contains(QLatin1String("read from")));
        QCOMPARE(fileHash(report), before); // never written

        // A changed report is exported again: its size differs, and its
        // modification time is set apart (a rewrite within the file
        // system's clock tick keeps the old one).
        writeReport(QStringLiteral("train_rank2.nsys-rep"), "NSYS a different, longer report body");
        {
            QFile changed(report);
            QVERIFY(changed.open(QIODevice::ReadWrite));
            QVERIFY(changed.setFileTime(changed.fileTime(QFileDevice::FileModificationTime).addSecs(2), QFileDevice::FileModificationTime));
        }
        QVERIFY(loadTraceFile(report).ok());
        QCOMPARE(stubCalls(), 2);

        // The rank still comes from the report's own name.
        const Session s = Session::load({report});
        QCOMPARE(s.ranks().size(), std::size_t(1));
        QCOMPARE(s.ranks()[0].rank, 2);
    }

    void nsysHomeIsUsedWhenNotOnPath()
    {
        qputenv("PATH", "/usr/bin:/bin");
        qputenv("NSYS_HOME", m_dir.path().toLocal8Bit()); // holds bin/nsys
        QCOMPARE(findNsys(), QFileInfo(m_dir.filePath(QStringLiteral("bin/nsys"))).absoluteFilePath());
        const LoadResult r = loadTraceFile(writeReport(QStringLiteral("old.qdrep")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(stubCalls(), 1);
    }

    void failingExportGivesNsysMessage()
    {
        qputenv("RANKSCOPE_STUB_FAIL", "1");
        const LoadResult r = loadTraceFile(writeReport(QStringLiteral("broken.nsys-rep")));
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QLatin1String("nsys export failed (exit 1): Error: report is corrupt")), qPrintable(r.error));
        QVERIFY(!QFileInfo::exists(nsysExportCachePath(m_dir.filePath(QStringLiteral("broken.nsys-rep")))));
    }

    void cancellingStopsNsys()
    {
        qputenv("RANKSCOPE_STUB_SLEEP", "30");
        const QString report = writeReport(QStringLiteral("slow.nsys-rep"));
        std::atomic<bool> cancel{false};
        LoadControl control;
        control.cancel = &cancel;
        QElapsedTimer timer;
        timer.start();
        QTimer::singleShot(300, [&] { cancel = true; });
        LoadResult r;
        std::thread loader([&] { r = loadTraceFile(report, control); });
        while (!cancel)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        loader.join();
        QVERIFY(r.cancelled);
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!QFileInfo::exists(nsysExportCachePath(report)));
    }

    void directoryPrefersTheExportBesideItsReport()
    {
        QTemporaryDir dir;
        writeFile(dir, QStringLiteral("a.nsys-rep"), "NSYS");
        QVERIFY(QFile::copy(slowFixture(), dir.filePath(QStringLiteral("a.sqlite"))));
        writeFile(dir, QStringLiteral("b.nsys-rep"), "NSYS");
        const QStringList files = traceFilesIn(dir.path());
        QCOMPARE(files, QStringList({dir.filePath(QStringLiteral("a.sqlite")), dir.filePath(QStringLiteral("b.nsys-rep"))}));
    }
};

QTEST_GUILESS_MAIN(TestNsysReport)
#include "tst_nsysreport.moc"
