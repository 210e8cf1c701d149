// A shared index cache folder is a trust boundary (load/cache/cachefile.h,
// core/safefiles.h): whatever another user left under a cache's name (a
// link, a FIFO, a socket, a directory, a device, a hard link, a file of
// theirs) is never followed, waited on or written through; a cache anyone
// else could write is read from a private copy, must be of the trace's
// content and is never recorded as checked; caches get the mode of their
// trace, not the umask's or a planted file's. A cache not the user's alone
// is read only when its writer is one the user named as trusted; any other
// is left where it is and the user's own cache is built privately. Parts that need a second user
// (chown) run as root, as CI does, and are skipped otherwise.
#include "core/safefiles.h"
#include "load/cache/cachefile.h"
#include "load/cache/checkedcaches.h"
#include "load/cache/indexcache.h"
#include "load/traceloader.h"
#include "reportcsv.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace rankscope;
using namespace rankscope::test;

namespace {

constexpr uid_t kOtherUser = 1001;

LoadControl cachedIn(const QTemporaryDir &dir)
{
    LoadControl control;
    control.indexCacheDirectory = dir.path();
    return control;
}

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

mode_t modeOf(const QString &path)
{
    struct stat st { };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode : 0;
}

// A small Kineto trace whose one kernel is called `kernel`; traces with
// names of the same length have the same size.
QByteArray kinetoTrace(const QByteArray &kernel)
{
    return R"({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":100,"dur":50},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":110,"dur":5,"args":{"correlation":7}},
{"ph":"X","cat":"kernel","name":")"
           + kernel + R"(","pid":0,"tid":7,"ts":120,"dur":20,"args":{"correlation":7,"device":0,"stream":7}}
]})";
}

void setModifiedTime(const QString &path, std::int64_t ns)
{
    const timespec times[2] = {{0, UTIME_OMIT}, {time_t(ns / 1'000'000'000), long(ns % 1'000'000'000)}};
    QVERIFY(::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0) == 0);
}

} // namespace

class TestCacheTrust : public QObject {
    Q_OBJECT

    // The cache name a trace gets in `dir`.
    static QString cacheNameFor(const QTemporaryDir &dir, const QString &trace) { return indexCachePathFor(dir.path(), CacheKey::of(trace)); }

private slots:
    // A link planted under the cache's name, pointing at one of the
    // victim's files or nowhere: the cache is written as a new file
    // renamed over the link, and the victim's file is left as it was.
    void aPlantedLinkIsReplacedNotFollowed_data()
    {
        QTest::addColumn<bool>("dangling");
        QTest::newRow("to a file of the victim's") << false;
        QTest::newRow("dangling") << true;
    }

    void aPlantedLinkIsReplacedNotFollowed()
    {
        QFETCH(bool, dangling);
        QTemporaryDir dir, home;
        const QString trace = ddpFixture(0);
        const QString victim = home.filePath(QStringLiteral("bashrc"));
        const QByteArray victimBytes = "export PATH=$HOME/bin:$PATH\n";
        if (!dangling)
            QVERIFY(writeBytes(victim, victimBytes));
        const QString cache = cacheNameFor(dir, trace);
        QVERIFY(QFile::link(victim, cache));

        const LoadResult loaded = loadTraceFile(trace, cachedIn(dir));
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.indexCache, LoadResult::IndexCache::Rebuilt);
        QVERIFY2(loaded.report->diagnostics.back().text.contains(QLatin1String("a symbolic link, not followed")),
                 qPrintable(loaded.report->diagnostics.back().text));
        QVERIFY(S_ISREG(modeOf(cache)));
        if (dangling)
            QVERIFY(!QFileInfo::exists(victim));
        else
            QCOMPARE(readBytes(victim), victimBytes);
        QCOMPARE(loadTraceFile(trace, cachedIn(dir)).indexCache, LoadResult::IndexCache::Opened);
    }

    // What is not a file under the name is refused at once (a FIFO would
    // block a reader for good), the trace is parsed, and the name gets the
    // cache where it can be replaced.
    void whatIsNotAFileIsNeitherReadNorWaitedOn_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("why");
        QTest::addColumn<bool>("replaced");
        QTest::newRow("FIFO") << "fifo"
                              << "a FIFO, not a file" << true;
        QTest::newRow("socket") << "socket"
                                << "a socket, not a file" << true;
        QTest::newRow("directory") << "directory"
                                   << "a directory, not a file" << false;
        QTest::newRow("device") << "device"
                                << "a device, not a file" << true;
    }

    void whatIsNotAFileIsNeitherReadNorWaitedOn()
    {
        QFETCH(QString, kind);
        QFETCH(QString, why);
        QFETCH(bool, replaced);
        QTemporaryDir dir;
        const QString trace = ddpFixture(1);
        const QString cache = cacheNameFor(dir, trace);
        const QByteArray name = QFile::encodeName(cache);
        int socketFd = -1;
        if (kind == QLatin1String("fifo")) {
            QVERIFY(::mkfifo(name.constData(), 0666) == 0);
        } else if (kind == QLatin1String("socket")) {
            socketFd = ::socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un address{};
            address.sun_family = AF_UNIX;
            if (name.size() >= qsizetype(sizeof address.sun_path))
                QSKIP("the temporary folder's path is too long for a socket");
            std::memcpy(address.sun_path, name.constData(), std::size_t(name.size()));
            QVERIFY(::bind(socketFd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
        } else if (kind == QLatin1String("directory")) {
            QVERIFY(QDir().mkdir(cache));
        } else if (::mknod(name.constData(), S_IFCHR | 0666, makedev(1, 3)) != 0) { // /dev/null's numbers
            QSKIP("cannot make a device node here (needs CAP_MKNOD)");
        }
        const CacheOpenResult direct = openIndexCache(cache, CacheKey::of(trace));
        QVERIFY(!direct.report);
        QVERIFY2(direct.whyNot.contains(why), qPrintable(direct.whyNot));

        const LoadResult loaded = loadTraceFile(trace, cachedIn(dir));
        if (socketFd >= 0)
            ::close(socketFd);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.indexCache, replaced ? LoadResult::IndexCache::Rebuilt : LoadResult::IndexCache::NotWritten);
        if (replaced) {
            QVERIFY(S_ISREG(modeOf(cache)));
            QCOMPARE(loadTraceFile(trace, cachedIn(dir)).indexCache, LoadResult::IndexCache::Opened);
        } else {
            QVERIFY2(loaded.report->diagnostics.back().text.contains(QLatin1String("could not write its index cache")),
                     qPrintable(loaded.report->diagnostics.back().text));
        }
    }

    // A hard link to another of the user's files has two names, so someone
    // else may hold the other: it is read only as a private copy (and is no
    // cache), and the rebuilt cache replaces the name, not the file.
    void aHardLinkIsNotWrittenThrough()
    {
        QTemporaryDir dir, home;
        const QString trace = ddpFixture(2);
        const QString victim = home.filePath(QStringLiteral("notes.txt"));
        const QByteArray victimBytes(100'000, 'v');
        QVERIFY(writeBytes(victim, victimBytes));
        const QString cache = cacheNameFor(dir, trace);
        QVERIFY(::link(QFile::encodeName(victim).constData(), QFile::encodeName(cache).constData()) == 0);
        const CacheOpenResult direct = openIndexCache(cache, CacheKey::of(trace));
        QVERIFY(!direct.report);
        QVERIFY(!direct.writtenBy.isEmpty()); // not this user's alone
        QVERIFY(direct.untrustedWriter);
        QVERIFY2(direct.whyNot.contains(QLatin1String("with another name")), qPrintable(direct.whyNot));
        const LoadResult loaded = loadTraceFile(trace, cachedIn(dir));
        QCOMPARE(loaded.indexCache, LoadResult::IndexCache::Rebuilt);
        QCOMPARE(readBytes(victim), victimBytes);
        struct stat st { };
        QVERIFY(::stat(QFile::encodeName(victim).constData(), &st) == 0);
        QCOMPARE(st.st_nlink, nlink_t(1));
    }

    // A cache others may write (here: this user's, writable by the group)
    // is not read, whoever owns it: the trace is parsed and its cache is
    // written to the user's private folder, where the next open finds it.
    void aCacheOthersMayWriteIsNotRead()
    {
        QTemporaryDir dir, own, store;
        const QString trace = ddpFixture(3);
        LoadControl control = cachedIn(dir);
        control.checkedCachesDirectory = store.path();
        control.privateIndexCacheDirectory = own.path();
        const LoadResult parsed = loadTraceFile(trace, control);
        QCOMPARE(parsed.indexCache, LoadResult::IndexCache::Written);
        QVERIFY(::chmod(QFile::encodeName(parsed.indexCachePath).constData(), 0664) == 0); // group-writable

        const CacheOpenResult opened = openIndexCache(parsed.indexCachePath, CacheKey::of(trace));
        QVERIFY(!opened.report);
        QVERIFY(opened.untrustedWriter);
        QVERIFY2(opened.whyNot.contains(QLatin1String("others may write too")), qPrintable(opened.whyNot));

        const LoadResult rebuilt = loadTraceFile(trace, control);
        QCOMPARE(rebuilt.indexCache, LoadResult::IndexCache::Written);
        QVERIFY(rebuilt.indexCachePath.startsWith(own.path()));
        QVERIFY2(rebuilt.report->diagnostics.back().text.contains(QLatin1String("did not use the index cache")),
                 qPrintable(rebuilt.report->diagnostics.back().text));
        const LoadResult again = loadTraceFile(trace, control);
        QCOMPARE(again.indexCache, LoadResult::IndexCache::Opened);
        QCOMPARE(again.indexCachePath, rebuilt.indexCachePath);
        QVERIFY(again.report->indexCacheWrittenBy.isEmpty());
        QCOMPARE(allFileReports(*again.report), allFileReports(*parsed.report));
    }

    // The audit's attack: another user who can read the trace indexes it,
    // rewrites a kernel name in the cache's body, reseals the checksums
    // and plants the cache in the shared folder. Every check the cache can
    // pass it passes (it is of the trace's content), so it is read only
    // when the victim named its writer as trusted, and then the
    // diagnostics say what was not checked. As root (CI).
    void aForgedCacheOfAnUntrustedWriterIsNotRead()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to give a file to another user");
        QTemporaryDir shared, own, traces;
        const QString trace = traces.filePath(QStringLiteral("rank0.pt.trace.json"));
        QVERIFY(writeBytes(trace, kinetoTrace("honest_kernel")));
        const LoadResult indexed = loadTraceFile(trace, cachedIn(shared));
        QCOMPARE(indexed.indexCache, LoadResult::IndexCache::Written);
        QByteArray cache = readBytes(indexed.indexCachePath);
        QVERIFY(cache.contains("honest_kernel"));
        cache.replace("honest_kernel", "EVIL::FORGED_"); // as long as the honest name
        CacheKey key = CacheKey::of(trace);
        QVERIFY(key.hashContent());
        resealIndexCache(std::span<char>(cache.data(), std::size_t(cache.size())), &key);
        QVERIFY(QFile::remove(indexed.indexCachePath));
        QVERIFY(writeBytes(indexed.indexCachePath, cache));
        QVERIFY(::chown(QFile::encodeName(indexed.indexCachePath).constData(), kOtherUser, kOtherUser) == 0);
        QVERIFY(::chmod(QFile::encodeName(indexed.indexCachePath).constData(), 0644) == 0);

        LoadControl victim = cachedIn(shared);
        victim.privateIndexCacheDirectory = own.path();
        const LoadResult loaded = loadTraceFile(trace, victim);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.indexCache, LoadResult::IndexCache::Written);
        QVERIFY(loaded.indexCachePath.startsWith(own.path()));
        QVERIFY(loaded.report->indexCacheWrittenBy.isEmpty());
        const QString kernels = stats::runReport(QStringLiteral("cuda_gpu_kern_sum"), *loaded.report)->toCsv();
        QVERIFY2(kernels.contains(QLatin1String("honest_kernel")) && !kernels.contains(QLatin1String("FORGED")), qPrintable(kernels));
        QVERIFY2(loaded.report->diagnostics.back().text.contains(QLatin1String("not among your trusted cache writers")),
                 qPrintable(loaded.report->diagnostics.back().text));
        QCOMPARE(readBytes(indexed.indexCachePath), cache); // theirs, left as it was
        const LoadResult reopened = loadTraceFile(trace, victim);
        QCOMPARE(reopened.indexCache, LoadResult::IndexCache::Opened);
        QVERIFY(reopened.indexCachePath.startsWith(own.path()));
        QVERIFY2(reopened.report->diagnostics.front().text.contains(QLatin1String("; not from ")),
                 qPrintable(reopened.report->diagnostics.front().text));

        // Trusted by name: the victim's decision, and said for what it is.
        victim.trustedCacheWriters = cacheWritersNamed(QString::number(kOtherUser));
        const LoadResult trusted = loadTraceFile(trace, victim);
        QCOMPARE(trusted.indexCache, LoadResult::IndexCache::Opened);
        QCOMPARE(trusted.indexCachePath, indexed.indexCachePath);
        QCOMPARE(trusted.report->indexCacheWrittenBy, userNameOf(kOtherUser));
        QVERIFY2(trusted.report->diagnostics.front().text.contains(QLatin1String("was not compared with the trace")),
                 qPrintable(trusted.report->diagnostics.front().text));
    }

    // A trusted writer's cache that claims far more than a cache of its
    // trace can be (a sparse file: 4 GiB that cost its writer nothing) is
    // refused before a byte of it is copied. As root (CI).
    void aSparseCacheClaimIsNotCopied()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to give a file to another user");
        QTemporaryDir shared, traces;
        const QString trace = traces.filePath(QStringLiteral("rank0.pt.trace.json"));
        QVERIFY(writeBytes(trace, kinetoTrace("honest_kernel")));
        const LoadResult indexed = loadTraceFile(trace, cachedIn(shared));
        QByteArray header = readBytes(indexed.indexCachePath).left(72);
        constexpr std::uint64_t kClaimedBody = std::uint64_t(4) << 30;       // 4,096 chunks of 1 MiB
        std::memcpy(header.data() + 24, &kClaimedBody, sizeof kClaimedBody); // CacheHeader::bodyBytes
        CacheKey key = CacheKey::of(trace);
        QVERIFY(key.hashContent());
        resealIndexCache(std::span<char>(header.data(), std::size_t(header.size())), &key);
        QVERIFY(QFile::remove(indexed.indexCachePath));
        QVERIFY(writeBytes(indexed.indexCachePath, header));
        QVERIFY(::truncate(QFile::encodeName(indexed.indexCachePath).constData(), off_t(72 + kClaimedBody + 4096 * 8)) == 0);
        QVERIFY(::chown(QFile::encodeName(indexed.indexCachePath).constData(), kOtherUser, kOtherUser) == 0);

        const std::uint32_t writer = kOtherUser;
        QElapsedTimer timer;
        timer.start();
        const CacheOpenResult opened = openIndexCache(indexed.indexCachePath, key, nullptr, CacheOpenDepth::Whole, std::span(&writer, 1));
        QVERIFY(!opened.report);
        QVERIFY2(opened.whyNot.contains(QLatin1String("more than a cache of this")) && opened.whyNot.contains(QLatin1String("not copied")),
                 qPrintable(opened.whyNot));
        qInfo("refused in %lld ms", timer.elapsed());
        QVERIFY(largestCacheFor(key.sourceBytes) < kClaimedBody);
    }

    // A trusted writer indexed a forged file of the same path, size and
    // modification time (a bind mount in a namespace of theirs): their
    // cache is refused for its content, and the trace is parsed. As root (CI).
    void aCacheOfAForgedTraceOfTheSameSizeAndTimeIsRefused()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to give a file to another user");
        QTemporaryDir dir, traces;
        const QString trace = traces.filePath(QStringLiteral("rank0.pt.trace.json"));
        constexpr std::int64_t when = 1'700'000'000'123'456'789;
        QVERIFY(writeBytes(trace, kinetoTrace("forged_kernel")));
        setModifiedTime(trace, when);
        const LoadResult forged = loadTraceFile(trace, cachedIn(dir));
        QCOMPARE(forged.indexCache, LoadResult::IndexCache::Written);
        QVERIFY(::chown(QFile::encodeName(forged.indexCachePath).constData(), kOtherUser, kOtherUser) == 0);

        QVERIFY(writeBytes(trace, kinetoTrace("honest_kernel")));
        setModifiedTime(trace, when);
        const CacheKey key = CacheKey::of(trace);
        QCOMPARE(key.sourceBytes, std::int64_t(kinetoTrace("forged_kernel").size()));
        QCOMPARE(key.sourceModifiedNs, when);
        const std::uint32_t writer = kOtherUser;
        const CacheOpenResult opened = openIndexCache(forged.indexCachePath, key, nullptr, CacheOpenDepth::Whole, std::span(&writer, 1));
        QVERIFY(!opened.report);
        QVERIFY2(opened.whyNot.contains(QLatin1String("its content differs")), qPrintable(opened.whyNot));

        LoadControl control = cachedIn(dir);
        control.trustedCacheWriters = {kOtherUser};
        const LoadResult loaded = loadTraceFile(trace, control);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const QString kernels = stats::runReport(QStringLiteral("cuda_gpu_kern_sum"), *loaded.report)->toCsv();
        QVERIFY2(kernels.contains(QLatin1String("honest_kernel")) && !kernels.contains(QLatin1String("forged_kernel")), qPrintable(kernels));
    }

    // As root (CI): a cache another user owns is named as theirs, read
    // only when they are trusted, and then from a private copy: rewriting
    // it after its checks changes nothing the report shows, and it is
    // never recorded as checked.
    void aCacheOfAnotherUserIsNamedAsTheirs()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to give a file to another user");
        QTemporaryDir dir, store;
        const QString trace = ddpFixture(0);
        const LoadResult written = loadTraceFile(trace, cachedIn(dir));
        const QString expected = allFileReports(*written.report);
        QVERIFY(::chown(QFile::encodeName(written.indexCachePath).constData(), kOtherUser, kOtherUser) == 0);
        const CacheOpenResult refused = openIndexCache(written.indexCachePath, CacheKey::of(trace));
        QVERIFY(!refused.report);
        QVERIFY(refused.untrustedWriter);
        QCOMPARE(refused.writtenBy, userNameOf(kOtherUser));

        const CheckedCaches checked(store.path());
        const std::uint32_t writer = kOtherUser;
        const CacheOpenResult opened =
            openIndexCache(written.indexCachePath, CacheKey::of(trace), &checked, CacheOpenDepth::Whole, std::span(&writer, 1));
        QVERIFY2(opened.report, qPrintable(opened.whyNot));
        QVERIFY(opened.checkedInFull);
        QCOMPARE(opened.writtenBy, userNameOf(kOtherUser));
        QVERIFY(QDir(store.path()).entryList(QDir::Files).isEmpty()); // not remembered
        QFile shared(written.indexCachePath);                         // the owner rewrites it in place after the checks
        QVERIFY(shared.open(QIODevice::ReadWrite));
        const QByteArray zeros(int(shared.size()), '\0');
        QVERIFY(shared.write(zeros) == zeros.size());
        shared.close();
        QCOMPARE(allFileReports(*opened.report), expected);
    }

    // A cache is no more readable than its trace, whatever the umask or a
    // file planted under its name with a wider mode.
    void aCacheHasItsTracesMode_data()
    {
        QTest::addColumn<int>("traceMode");
        QTest::addColumn<int>("cacheMode");
        QTest::newRow("private trace") << 0600 << 0600;
        QTest::newRow("readable by all") << 0644 << 0644;
        QTest::newRow("readable by the group") << 0640 << 0640;
        QTest::newRow("writable by all") << 0666 << 0644;
    }

    void aCacheHasItsTracesMode()
    {
        QFETCH(int, traceMode);
        QFETCH(int, cacheMode);
        QTemporaryDir dir, traces;
        const QString trace = traces.filePath(QStringLiteral("rank0.sqlite"));
        QVERIFY(QFile::copy(ddpFixture(0), trace));
        QVERIFY(::chmod(QFile::encodeName(trace).constData(), mode_t(traceMode)) == 0);
        const QString cache = cacheNameFor(dir, trace);
        QVERIFY(writeBytes(cache, "planted"));
        QVERIFY(::chmod(QFile::encodeName(cache).constData(), 0666) == 0);
        const mode_t umaskBefore = ::umask(0);
        const LoadResult loaded = loadTraceFile(trace, cachedIn(dir));
        ::umask(umaskBefore);
        QCOMPARE(loaded.indexCache, LoadResult::IndexCache::Rebuilt);
        QCOMPARE(int(modeOf(cache) & 07777), cacheMode);
    }

    // The writer leaves no temporary file behind, on success or not.
    void anAtomicWriteLeavesOnlyItsFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("table.csv"));
        QCOMPARE(writeFileAtomically(path, "a,b\n1,2\n", 0640), QString());
        QCOMPARE(readBytes(path), QByteArray("a,b\n1,2\n"));
        QCOMPARE(int(modeOf(path) & 07777), 0640);
        {
            AtomicFileWriter dropped(path);
            QVERIFY(dropped.open(QIODevice::WriteOnly));
            QVERIFY(dropped.write("half") == 4);
        } // not committed
        QCOMPARE(readBytes(path), QByteArray("a,b\n1,2\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("table.csv")});
        QVERIFY(!writeFileAtomically(dir.filePath(QStringLiteral("no/such/folder/x.csv")), "x").isEmpty());
    }

    // In a sticky folder (the shared folder's recommended set-up) another
    // user's file under the name cannot be replaced: the write fails with
    // a note naming its owner, and nothing is written through it.
    void anotherUsersFileInAStickyFolderIsNamed()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to act as two users");
        QTemporaryDir dir;
        QVERIFY(::chmod(QFile::encodeName(dir.path()).constData(), 01777) == 0);
        const QString path = dir.filePath(QStringLiteral("shared.rsindex"));
        QVERIFY(writeBytes(path, "theirs"));
        QVERIFY(::chown(QFile::encodeName(path).constData(), kOtherUser, kOtherUser) == 0);
        const pid_t child = ::fork();
        if (child == 0) { // as a third user
            if (::setgid(1002) != 0 || ::setuid(1002) != 0)
                ::_exit(3);
            const QString error = writeFileAtomically(path, "mine", 0600);
            ::_exit(error.contains(QLatin1String("held by a file of user")) ? 0 : 1);
        }
        int status = 0;
        QVERIFY(::waitpid(child, &status, 0) == child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QCOMPARE(readBytes(path), QByteArray("theirs"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("shared.rsindex")});
    }
};

QTEST_GUILESS_MAIN(TestCacheTrust)
#include "tst_cachetrust.moc"
