// Bad input gets a clear one-line reason or a report with diagnostics,
// never a crash, and the file is never modified. (The whole bad-input
// corpus runs in tst_badcorpus; these are the cases that need a closer look.)
#include "core/memoryusage.h"
#include "load/gzipreader.h"
#include "load/nsys/nsysloader.h"
#include "load/traceloader.h"
#include "nsysfixture.h"
#include "session/session.h"
#include "testdata.h"

#include <QtTest>

#include <mutex>

#include <random>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

using namespace rankscope;
using namespace rankscope::test;

class TestBadInput : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString writeFile(const QString &name, const QByteArray &bytes) { return test::writeFile(m_dir, name, bytes); }

private slots:
    void openingAFileLeavesProcessSettingsAlone()
    {
        // The SQLite heap limit is the process's: the executables set it at
        // start-up; loading a file never does.
        QCOMPARE(sqliteHeapLimit(), std::int64_t(0));
        QVERIFY(loadTraceFile(slowFixture()).ok());
        QCOMPARE(sqliteHeapLimit(), std::int64_t(0));
        QCOMPARE(configureProcessForUntrustedTraces(), std::int64_t(1) << 30);
        QCOMPARE(sqliteHeapLimit(), std::int64_t(1) << 30);
    }

    void tooBigForTheMachineIsRefusedBeforeReading_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("countsEvents");
        QTest::newRow("nsys export: its row counts") << slowFixture() << true;
        QTest::newRow("gzip JSON: its trailer's size") << dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz")) << false;
        QTest::newRow("plain JSON: its size") << dataPath(QStringLiteral("kineto/variants/nccl_rank1.json")) << false;
    }

    void tooBigForTheMachineIsRefusedBeforeReading()
    {
        QFETCH(QString, path);
        QFETCH(bool, countsEvents);
        LoadControl control;
        std::atomic<int> progressCalls{0};
        control.progress = [&](double) { ++progressCalls; };
        control.availableMemory = [] { return std::uint64_t(512); };
        const LoadResult refused = loadTraceFile(path, control);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error.startsWith(QLatin1String("needs about ")), qPrintable(refused.error));
        QVERIFY2(refused.error.endsWith(QLatin1String("; 512 B is available")), qPrintable(refused.error));
        QCOMPARE(refused.error.contains(QLatin1String(" events)")), countsEvents);
        QCOMPARE(progressCalls.load(), 0); // nothing was read
        // With the memory there, the same file loads.
        control.availableMemory = [] { return std::uint64_t(1) << 34; };
        QVERIFY(loadTraceFile(path, control).ok());
    }

    void aRefusedFileLeavesTheRestOfTheSession()
    {
        // The export's rows (24,478 events, 954 counter samples, 4 rows the
        // loader drops) need at least 25,436 x 24 B; the small JSON fits.
        LoadControl control;
        control.availableMemory = [] { return std::uint64_t(100) << 10; };
        const Session session = Session::load({slowFixture(), dataPath(QStringLiteral("kineto/variants/nccl_rank1.json"))}, control);
        QCOMPARE(session.ranks().size(), std::size_t(1));
        QCOMPARE(session.failures().size(), std::size_t(1));
        QCOMPARE(session.failures()[0].path, slowFixture());
        QVERIFY2(session.failures()[0].error.contains(QLatin1String("(25,436 events); 100.00 KiB is available")),
                 qPrintable(session.failures()[0].error));
    }

    // A gzip of tiny events inflates a hundredfold and more, and the model
    // built from the text is larger than the text: the text's size (its
    // trailer) passes, and as the text is read (never held whole) the
    // events counted so far outgrow the memory: refused, saying how many
    // it had read; with the memory there, it loads.
    void aGzipOfTinyEventsIsBudgetedByTheModelItBuilds()
    {
        constexpr int kEvents = 200'000;
        QByteArray text = "{\"traceEvents\":[";
        text.reserve(kEvents * 64);
        for (int i = 0; i < kEvents; ++i)
            text += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},";
        text.chop(1);
        text += "]}";
        const QString path = m_dir.filePath(QStringLiteral("tiny.pt.trace.json.gz"));
        gzFile gz = gzopen(QFile::encodeName(path).constData(), "wb9");
        QVERIFY(gz);
        QCOMPARE(gzwrite(gz, text.constData(), unsigned(text.size())), int(text.size()));
        QCOMPARE(gzclose(gz), Z_OK);
        QVERIFY(QFileInfo(path).size() * 100 < text.size()); // inflates 100x and more
        QCOMPARE(contentBytesAtLeast(path), std::uint64_t(text.size()));

        LoadControl control;
        const auto available = std::uint64_t(text.size()) + (std::uint64_t(1) << 20);
        control.availableMemory = [available] { return available; };
        const LoadResult refused = loadTraceFile(path, control);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error.startsWith(QLatin1String("needs more than ")), qPrintable(refused.error));
        QVERIFY2(refused.error.contains(QLatin1String("(more than 196,608 events, and its JSON text goes on)")), qPrintable(refused.error));
        QVERIFY2(refused.error.endsWith(QLatin1String(" is available")), qPrintable(refused.error));
        control.availableMemory = [] { return std::uint64_t(1) << 34; };
        const LoadResult loaded = loadTraceFile(path, control);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.report->eventCount(), std::size_t(kEvents));
        // The same text plain: progress follows the bytes read while it is parsed.
        const QString plain = writeFile(QStringLiteral("tiny.pt.trace.json"), text);
        std::vector<double> progress;
        control.progress = [&](double fraction) { progress.push_back(fraction); };
        QCOMPARE(loadTraceFile(plain, control).report->eventCount(), std::size_t(kEvents));
        QVERIFY(std::is_sorted(progress.begin(), progress.end()));
        QVERIFY(std::count_if(progress.begin(), progress.end(), [](double f) { return f > 0.05 && f < 0.8; }) >= 2);
    }

    // An nsys export's load reports the rows read of its event tables, not a
    // jump from 20 % to 80 %: the demo's rank 0 holds 37,000 of them.
    void anExportsProgressFollowsTheRowsRead()
    {
        LoadControl control;
        std::mutex guard; // two connections read tables at once
        std::vector<double> progress;
        control.progress = [&](double fraction) {
            const std::lock_guard<std::mutex> lock(guard);
            progress.push_back(fraction);
        };
        const LoadResult loaded = loadTraceFile(ddpFixture(0), control);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QVERIFY(std::is_sorted(progress.begin(), progress.end()));
        const auto between = std::count_if(progress.begin(), progress.end(), [](double f) { return f > 0.2 && f < 0.8; });
        QVERIFY2(between >= 5, qPrintable(QString::number(between)));
        QCOMPARE(progress.back(), 1.0);
    }

    // What the messages and the checks call available respects the
    // process's address-space limit (ulimit -v), not only the machine's
    // free memory: under a limit 100 MiB above what it maps now, a child
    // process sees at most those 100 MiB.
    void theMemoryAvailableRespectsTheAddressSpaceLimit()
    {
        const pid_t child = ::fork();
        if (child == 0) {
            QFile status(QStringLiteral("/proc/self/status"));
            std::uint64_t mappedKiB = 0;
            if (status.open(QIODevice::ReadOnly))
                for (const QByteArray &line : status.readAll().split('\n'))
                    if (line.startsWith("VmSize:"))
                        mappedKiB = line.mid(7).trimmed().split(' ').value(0).toULongLong();
            const rlimit limit{rlim_t(mappedKiB * 1024 + (std::uint64_t(100) << 20)), RLIM_INFINITY};
            if (mappedKiB == 0 || ::setrlimit(RLIMIT_AS, &limit) != 0)
                ::_exit(3);
            const std::uint64_t available = availableMemoryBytes();
            ::_exit(available > 0 && available <= (std::uint64_t(101) << 20) ? 0 : 1);
        }
        int status = 0;
        QVERIFY(::waitpid(child, &status, 0) == child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QVERIFY(availableMemoryBytes() > (std::uint64_t(100) << 20)); // this process has no such limit
    }

    void theEstimateIsALowerBound()
    {
        // A gzip trailer states the inflated size exactly (under 4 GiB).
        const QString gz = dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz"));
        ByteBuffer text;
        QString error;
        QVERIFY(readMaybeGzip(gz, text, 0, &error));
        QCOMPARE(contentBytesAtLeast(gz), std::uint64_t(text.size()));
        // The export's estimate stays under what its model holds.
        const LoadResult loaded = loadTraceFile(slowFixture());
        QVERIFY(loaded.ok());
        LoadControl control;
        control.availableMemory = [&] { return std::uint64_t(loaded.report->memoryBytes()); };
        QVERIFY(loadTraceFile(slowFixture(), control).ok());
    }

    void rejectsWithAReason_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        std::mt19937 rng(7);
        QByteArray noise(4096, '\0');
        for (char &c : noise)
            c = char(rng());
        QTest::newRow("missing") << m_dir.filePath(QStringLiteral("nope.sqlite")) << "no such file";
        QTest::newRow("empty") << writeFile(QStringLiteral("empty.sqlite"), {}) << "empty";
        QTest::newRow("random bytes") << writeFile(QStringLiteral("noise.sqlite"), noise) << "not a trace";
        QTest::newRow("text") << writeFile(QStringLiteral("notes.sqlite"), "hello, world\n") << "not a trace";
        QTest::newRow("sqlite header then noise") << writeFile(QStringLiteral("header.sqlite"), QByteArray("SQLite format 3\0", 16) + noise)
                                                  << "SQLite";
        QTest::newRow("nsys-rep") << writeFile(QStringLiteral("run.nsys-rep"), "NSYS binary") << "nsys export --type sqlite";
        QTest::newRow("directory") << m_dir.path() << "directory";
    }

    void rejectsWithAReason()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        const LoadResult r = loadTraceFile(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(reason, Qt::CaseInsensitive), qPrintable(r.error));
        QVERIFY(!r.error.contains(QLatin1Char('\n')));
    }

    void sqliteButNotNsys()
    {
        const QString path = m_dir.filePath(QStringLiteral("other.sqlite"));
        {
            NsysFixture f(path);
            f.exec(QStringLiteral("CREATE TABLE customers(id INTEGER, name TEXT); INSERT INTO customers VALUES(1,'a');"));
        }
        const LoadResult r = loadTraceFile(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QLatin1String("not an Nsight Systems export")), qPrintable(r.error));
    }

    void nullAndReversedEndsBecomeDiagnostics()
    {
        const QString path = m_dir.filePath(QStringLiteral("oddends.sqlite"));
        {
            NsysFixture f(path);
            f.addMetadata(QStringLiteral("META_DATA_EXPORT"), QStringLiteral("2025.3.2.0"), QStringLiteral("3.20.3"));
            f.exec(QStringLiteral("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
                                  "INSERT INTO StringIds VALUES(1,'k');"
                                  "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,"
                                  " streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER);"
                                  "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(100,NULL,0,1,7,1,%1,1,1),(200,150,0,1,7,2,%1,1,1),"
                                  " (300,400,0,1,7,3,%1,1,1),(500,600,0,1,7,4,%1,99,99);")
                       .arg(globalId(3)));
        }
        const LoadResult r = NsysSqliteLoader::load(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.report->eventCount(TrackKind::Kernel), std::size_t(4));
        QStringList messages;
        for (const Diagnostic &d : r.report->diagnostics)
            messages << d.text;
        const QString all = messages.join(QLatin1Char('|'));
        QVERIFY2(all.contains(QLatin1String("1 rows without an end")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("1 rows end before they start")), qPrintable(all));
    }

    void realFixtureIsNeverWritten()
    {
        const QByteArray before = fileHash(slowFixture());
        const QDateTime modified = QFileInfo(slowFixture()).lastModified();
        QVERIFY(NsysSqliteLoader::load(slowFixture()).ok());
        QCOMPARE(fileHash(slowFixture()), before);
        QCOMPARE(QFileInfo(slowFixture()).lastModified(), modified);
        QVERIFY(!QFileInfo::exists(slowFixture() + QStringLiteral("-journal")));
        QVERIFY(!QFileInfo::exists(slowFixture() + QStringLiteral("-wal")));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
