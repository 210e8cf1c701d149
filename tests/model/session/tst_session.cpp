// Multi-rank sessions: rank assignment, time alignment, parallel loading.
#include "load/workerpool.h"
#include "nsysfixture.h"
#include "session/filesplit.h"
#include "session/session.h"
#include "testdata.h"

#include <QtTest>
#include <mutex>
#include <set>
#include <thread>

#include "sanitizers.h"
#ifdef RANKSCOPE_ASAN
#include <sanitizer/allocator_interface.h>
#else
#include <malloc.h>
#endif

namespace {

// Bytes the program holds on the heap right now (every thread's arena).
std::size_t heapInUse()
{
#ifdef RANKSCOPE_ASAN
    return __sanitizer_get_current_allocated_bytes();
#else
    return mallinfo2().uordblks;
#endif
}

} // namespace

using namespace rankscope;
using namespace rankscope::test;

class TestSession : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString kernelOnlyExport(const QString &name, const std::vector<int> &pids, const QString &environment = {})
    {
        const QString path = m_dir.filePath(name);
        NsysFixture f(path);
        f.createSchema2025();
        f.addString(1, QStringLiteral("k"));
        f.exec(QStringLiteral("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(1000000000,'','');"));
        for (int pid : pids)
            f.exec(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start,end,deviceId,contextId,streamId,correlationId,globalPid,"
                                  "demangledName,shortName,registersPerThread,gridX,gridY,gridZ,blockX,blockY,blockZ,staticSharedMemory,"
                                  "dynamicSharedMemory,localMemoryPerThread,localMemoryTotal,gridId) "
                                  "VALUES(10,20,0,1,7,1,%1,1,1,8,1,1,1,1,1,1,0,0,0,0,1);")
                       .arg(globalId(pid)));
        if (!environment.isEmpty())
            f.exec(
                QStringLiteral("CREATE TABLE TARGET_INFO_SYSTEM_ENV(globalVid INTEGER, devStateName TEXT, name TEXT, nameEnum INTEGER, value TEXT);"
                               "INSERT INTO TARGET_INFO_SYSTEM_ENV(name, value) VALUES('DeviceEnvironment','%1');")
                    .arg(environment));
        return path;
    }

private slots:
    void filesSplitOverProcessesBySize()
    {
        // Largest first, each to the least loaded process: 9 | 7+1 | 6+2
        // (bytes 9, 8, 8), answered in the input's order.
        const std::vector<std::int64_t> sizes{1, 9, 6, 2, 7};
        QCOMPARE(splitFilesBySize(sizes, 3), (std::vector<int>{1, 0, 2, 2, 1}));
        QCOMPARE(splitFilesBySize(sizes, 1), (std::vector<int>(5, 0)));
        // More processes than files: one file each, the rest idle.
        QCOMPARE(splitFilesBySize({5, 5}, 4), (std::vector<int>{0, 1}));
        // Equal sizes alternate in input order.
        QCOMPARE(splitFilesBySize({4, 4, 4, 4}, 2), (std::vector<int>{0, 1, 0, 1}));
    }

    void rankFromFileName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("rank");
        QTest::newRow("rank3") << "report_rank3.sqlite" << 3;
        QTest::newRow("rank_3") << "train_rank_3.sqlite" << 3;
        QTest::newRow("RANK-12") << "RANK-12.sqlite" << 12;
        QTest::newRow("%q{RANK}") << "profile_7.sqlite" << 7;
        QTest::newRow("ddp4 is not a rank") << "ddp4_rank2.sqlite" << 2;
        QTest::newRow("none") << "profile.sqlite" << -1;
        QTest::newRow("digits inside") << "resnet50.sqlite" << -1;
    }

    void rankFromFileName()
    {
        QFETCH(QString, name);
        QFETCH(int, rank);
        QCOMPARE(rankscope::rankFromFileName(QStringLiteral("/tmp/") + name).value_or(-1), rank);
    }

    void demoDirectoryGivesFourAlignedRanks()
    {
        const Session s = Session::load({demoPath()});
        QCOMPARE(s.failures().size(), std::size_t(0));
        QCOMPARE(s.ranks().size(), std::size_t(4));
        std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
        for (const RankEntry &e : s.ranks())
            earliest = std::min(earliest, e.report->meta.utcStartNs);
        for (int i = 0; i < 4; ++i) {
            const RankEntry &e = s.ranks()[std::size_t(i)];
            QCOMPARE(e.rank, i);
            QVERIFY(e.report->filePath.endsWith(QStringLiteral("ddp4_rank%1.sqlite").arg(i)));
            // Offsets come from the absolute UTC starts of the captures.
            QCOMPARE(e.sessionOffset, e.report->meta.utcStartNs - earliest);
        }
        // rank 3 started first (utcEpochNs ...348233110), so its offset is 0.
        QCOMPARE(s.ranks()[3].sessionOffset, 0);
        QCOMPARE(s.ranks()[0].sessionOffset, 1795351401368916198LL - 1795351401348233110LL);
    }

    void oneBadFileDoesNotStopTheOthers()
    {
        const QString bad = m_dir.filePath(QStringLiteral("broken_rank9.sqlite"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a database");
        f.close();
        const Session s = Session::load({ddpFixture(0), ddpFixture(1), bad, ddpFixture(2), ddpFixture(3)});
        QCOMPARE(s.ranks().size(), std::size_t(4));
        QCOMPARE(s.failures().size(), std::size_t(1));
        QCOMPARE(s.failures()[0].path, bad);
        QVERIFY(!s.failures()[0].error.isEmpty());
    }

    void rankFromLaunchEnvironment()
    {
        const QString path = kernelOnlyExport(QStringLiteral("worker.sqlite"), {10}, QStringLiteral("HOME=/root;LOCAL_RANK=0;RANK=5;WORLD_SIZE=8"));
        const Session s = Session::load({path});
        QCOMPARE(s.ranks().size(), std::size_t(1));
        QCOMPARE(s.ranks()[0].rank, 5);
    }

    void oneExportWithSeveralProcessesGivesOneRankEach()
    {
        const QString path = kernelOnlyExport(QStringLiteral("torchrun_all.sqlite"), {300, 100, 200});
        const Session s = Session::load({path});
        QCOMPARE(s.ranks().size(), std::size_t(3));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(s.ranks()[std::size_t(i)].rank, i);
            QCOMPARE(s.ranks()[std::size_t(i)].pid.value_or(0), std::uint32_t(100 * (i + 1)));
        }
    }

    void unnamedFilesGoByOrderAroundClaimedRanks()
    {
        const QString a = kernelOnlyExport(QStringLiteral("a.sqlite"), {1});
        const QString b = kernelOnlyExport(QStringLiteral("b_rank0.sqlite"), {2});
        const QString c = kernelOnlyExport(QStringLiteral("c.sqlite"), {3});
        const Session s = Session::load({a, b, c});
        QCOMPARE(s.ranks().size(), std::size_t(3));
        QVERIFY(s.ranks()[0].report->filePath.endsWith(QLatin1String("b_rank0.sqlite")));
        QVERIFY(s.ranks()[1].report->filePath.endsWith(QLatin1String("a.sqlite")));
        QVERIFY(s.ranks()[2].report->filePath.endsWith(QLatin1String("c.sqlite")));
    }

    void cancelledBeforeStartLoadsNothing()
    {
        std::atomic<bool> cancel{true};
        LoadControl control;
        control.cancel = &cancel;
        const Session s = Session::load({ddpFixture(0), ddpFixture(1)}, control);
        QVERIFY(s.wasCancelled());
        QCOMPARE(s.ranks().size(), std::size_t(0));
        QCOMPARE(s.failures().size(), std::size_t(0));
    }

    void cancellingMidwayFreesEverything_data()
    {
        QTest::addColumn<QString>("path");
        const QString nsys = m_dir.filePath(QStringLiteral("big.sqlite"));
        {
            NsysFixture f(nsys);
            f.fillWithCalls(300000);
        }
        QByteArray json = "{\"traceEvents\": [";
        for (int i = 0; i < 300000; ++i)
            json += QByteArray("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": ")
                    + QByteArray::number(i * 10) + ", \"dur\": 5},";
        json.chop(1);
        json += "]}";
        QTest::newRow("nsys") << nsys;
        QTest::newRow("kineto") << writeFile(m_dir, QStringLiteral("big.json"), json);
    }

    void cancellingMidwayFreesEverything()
    {
        QFETCH(QString, path);
        // One whole load first, so one-time allocations (SQLite's and Qt's
        // statics) are not counted against the cancelled one.
        const Session whole = Session::load({path});
        QCOMPARE(whole.ranks().size(), std::size_t(1));
        QVERIFY(whole.reports()[0]->eventCount() >= 300000);
        const std::size_t modelBytes = whole.reports()[0]->memoryBytes();

        const std::size_t before = heapInUse();
        std::atomic<bool> cancel{false};
        LoadControl control;
        control.cancel = &cancel;
        // Cancels once the file is open and reading has begun.
        control.progress = [&](double fraction) {
            if (fraction > 0.0)
                cancel = true;
        };
        QElapsedTimer timer;
        timer.start();
        {
            const Session s = Session::load({path}, control);
            QVERIFY(s.wasCancelled());
            QCOMPARE(s.ranks().size(), std::size_t(0));
            QCOMPARE(s.failures().size(), std::size_t(0));
        }
        const std::size_t after = heapInUse();
        // Nothing of the half-built report survives: far less than its size.
        QVERIFY2(after < before + modelBytes / 20,
                 qPrintable(QStringLiteral("heap %1 -> %2 bytes (model %3)").arg(before).arg(after).arg(modelBytes)));
        QCOMPARE(whole.ranks().size(), std::size_t(1)); // the earlier session is untouched
        QVERIFY(whole.reports()[0]->eventCount() >= 300000);
    }

    void loadingUsesOneBoundedPool()
    {
        // Five files, each read on two connections and finalised in
        // parallel: all of it on the load pool's threads and the caller's.
        std::mutex mutex;
        std::set<std::thread::id> threads;
        LoadControl control;
        control.statementRun = [&](const QString &, const std::string &) {
            const std::lock_guard lock(mutex);
            threads.insert(std::this_thread::get_id());
        };
        const Session s = Session::load({demoPath(), slowFixture()}, control);
        QCOMPARE(s.ranks().size(), std::size_t(5));
        const int bound = loadThreadPool()->maxThreadCount() + 1;
        QVERIFY2(int(threads.size()) <= bound, qPrintable(QStringLiteral("%1 threads > %2").arg(threads.size()).arg(bound)));
        QCOMPARE(loadThreadPool()->maxThreadCount(), std::max(1, QThread::idealThreadCount()));
    }

    void implausibleUtcStartsDoNotOverflowOffsets()
    {
        // baseTimeNanoseconds near INT64_MAX once made base + origin wrap to
        // a negative start and a negative offset for the other rank.
        QTemporaryDir dir;
        auto trace = [](int rank, const char *base) {
            return QByteArray("{\"distributedInfo\": {\"rank\": ") + QByteArray::number(rank) + "}, \"baseTimeNanoseconds\": " + base
                   + ", \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
                     "\"ts\": 5000000.0, \"dur\": 10.0, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 1}}]}";
        };
        writeFile(dir, QStringLiteral("a.json"), trace(0, "9223372036854775000"));
        writeFile(dir, QStringLiteral("b.json"), trace(1, "1700000000000000000"));
        const Session s = Session::load({dir.path()});
        QCOMPARE(s.ranks().size(), std::size_t(2));
        for (const RankEntry &e : s.ranks()) {
            QVERIFY(e.sessionOffset >= 0);
            QVERIFY(e.report->meta.utcStartNs >= 0);
        }
        const Report &bad = *s.ranks()[0].report;
        QCOMPARE(bad.meta.utcStartNs, 0);
        bool said = false;
        for (const Diagnostic &d : bad.diagnostics)
            said |= d.text.contains(QLatin1String("baseTimeNanoseconds"));
        QVERIFY(said);
        QCOMPARE(s.ranks()[1].report->meta.utcStartNs, 1700000000000000000LL + 5000000000LL);
    }

    void poolLoopsHandTheirExceptionsToTheCaller()
    {
        // A file too big for the machine throws std::bad_alloc on whichever
        // thread finalises its tracks; the loader must see it to fail that file.
        std::atomic<int> ran{0};
        QVERIFY_THROWS_EXCEPTION(std::bad_alloc, parallelFor(200, [&](std::size_t i) {
                                     ++ran;
                                     if (i == 57)
                                         throw std::bad_alloc();
                                 }));
        QVERIFY(ran >= 58);
        // Nested, as a file's tracks inside the session's files.
        QVERIFY_THROWS_EXCEPTION(std::bad_alloc, parallelFor(4, [](std::size_t) {
                                     parallelFor(50, [](std::size_t j) {
                                         if (j == 10)
                                             throw std::bad_alloc();
                                     });
                                 }));
    }

    void progressReachesOne()
    {
        std::atomic<double> last{0.0};
        LoadControl control;
        control.progress = [&](double f) { last = f; };
        Session::load({ddpFixture(0), ddpFixture(1)}, control);
        QCOMPARE(last.load(), 1.0);
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
