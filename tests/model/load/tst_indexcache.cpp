// Index caches (load/cache/): a report opened from its cache is the report
// that was parsed (tst_nsysstats checks its statistics against nsys' own
// CSVs); a stale, damaged, truncated, foreign or crafted cache is never
// used, the trace is parsed again and the cache replaced.
#include "analysisinputs.h"
#include "core/busyruns.h"
#include "load/cache/cachefile.h"
#include "load/cache/checkedcaches.h"
#include "load/cache/chunkhash.h"
#include "load/cache/indexcache.h"
#include "load/cache/reportfields.h"
#include "load/traceloader.h"
#include "reportcsv.h"
#include "session/session.h"
#include "stats/nsys/nsysreports.h"
#include "stats/reportcatalog.h"
#include "stats/storedsummaries.h"
#include "testdata.h"

#include <QtTest>
#include <cstring>
#include <limits>
#include <sys/stat.h>
#include <type_traits>

using namespace rankscope;
using namespace rankscope::test;

namespace {

QString nsysAiFixture(const char *which)
{
    return dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_%1.sqlite").arg(QLatin1String(which)));
}

QString kinetoFixture()
{
    return dataPath(QStringLiteral("kineto/variants/nccl_rank1.json"));
}

template <class T>
bool sameBytes(const Column<T> &a, const Column<T> &b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Every side table forEachSideTable lists, in its order: its size, and its
// bytes where a record has no padding (padding is not written alike).
std::vector<QByteArray> sideTableBytes(const Report &r)
{
    std::vector<QByteArray> tables;
    forEachSideTable(r, [&](const auto &table, std::initializer_list<TrackKind>) {
        using Record = std::decay_t<decltype(table[0])>;
        if constexpr (std::has_unique_object_representations_v<Record>)
            tables.emplace_back(reinterpret_cast<const char *>(table.data()), qsizetype(table.size() * sizeof(Record)));
        else
            tables.push_back(QByteArray::number(qulonglong(table.size())));
    });
    return tables;
}

QString allSessionReports(const Session &session)
{
    QString all;
    for (const QString &name : stats::reportNames())
        if (stats::isSessionReport(name))
            if (const auto table = sessionReport(name, session))
                all += name + QLatin1Char('\n') + table->toCsv();
    return all;
}

// The summary tables over a scope of a session, as CSV.
QString summaryTables(const Session &session, const stats::StatsScope &scope)
{
    const stats::Slices slices = stats::slicesOf(session, scope);
    QString all;
    for (const auto &table : {stats::cudaGpuKernSum(slices), stats::cudaGpuMemTimeSum(slices), stats::cudaGpuMemSizeSum(slices),
                              stats::cudaApiSum(slices), stats::nvtxSum(slices), stats::osrtSum(slices)})
        all += table.name + QLatin1Char('\n') + table.toCsv();
    return all;
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

// The header's checksums after an edit, as the writer computes them: a
// cache that passes its checksums but lies.
// The cache header's size (cachefile.cpp's CacheHeader, format 11).
constexpr qsizetype kHeaderBytes = 72;

void refreshChecksums(QByteArray &bytes)
{
    resealIndexCache({bytes.data(), std::size_t(bytes.size())}, nullptr);
}

// Where a cache's body ends (its chunks' hashes follow): the header's
// body length, 8 bytes at 24, after the 72-byte header.
qsizetype bodyEndOf(const QByteArray &bytes)
{
    std::uint64_t bodyBytes = 0;
    std::memcpy(&bodyBytes, bytes.constData() + 24, 8);
    return kHeaderBytes + qsizetype(bodyBytes);
}

// Cuts a cache to its first `bodyBytes` of body, with a header and chunk
// hashes that say so.
void cutBody(QByteArray &bytes, std::uint64_t bodyBytes)
{
    bytes.truncate(kHeaderBytes + qsizetype(bodyBytes));
    std::memcpy(bytes.data() + 24, &bodyBytes, 8);
    bytes.append(QByteArray(qsizetype(cacheChunkCount(bodyBytes) * 8), '\0'));
    refreshChecksums(bytes);
}

// A cache with a byte of its body flipped, its header and chunk hashes as
// they were: damage the checksums find.
void flipBodyByte(QByteArray &bytes, qsizetype at)
{
    bytes[kHeaderBytes + at] = char(bytes[kHeaderBytes + at] ^ 0x40);
}

} // namespace

class TestIndexCache : public QObject {
    Q_OBJECT

    LoadControl cachedIn(const QTemporaryDir &dir)
    {
        LoadControl control;
        control.indexCacheDirectory = dir.path();
        return control;
    }

private slots:
    void openedReportIsTheParsedOne_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addRow("nsys-ai NCCL export") << nsysAiFixture("before");
        QTest::addRow("kineto NCCL trace") << kinetoFixture();
        QTest::addRow("demo ddp rank") << ddpFixture(2);
    }

    void openedReportIsTheParsedOne()
    {
        QFETCH(QString, file);
        QTemporaryDir dir;
        const LoadResult parsed = loadTraceFile(file);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(loadTraceFile(file, cachedIn(dir)).indexCache, LoadResult::IndexCache::Written);
        const LoadResult opened = loadTraceFile(file, cachedIn(dir));
        QCOMPARE(opened.indexCache, LoadResult::IndexCache::Opened);
        const Report &a = *parsed.report, &b = *opened.report;

        QCOMPARE(b.filePath, a.filePath);
        QCOMPARE(b.eventCount(), a.eventCount());
        QCOMPARE(b.tracks.size(), a.tracks.size());
        QCOMPARE(b.counters.size(), a.counters.size());
        QCOMPARE(b.strings.size(), a.strings.size());
        for (StringId id = 0; id < a.strings.size(); ++id)
            QCOMPARE(b.strings.view(id), a.strings.view(id));
        QCOMPARE(b.strings.find("no such text"), std::nullopt);
        QCOMPARE(b.strings.find(a.strings.view(StringId(a.strings.size() - 1))), std::optional<StringId>(StringId(a.strings.size() - 1)));
        for (std::size_t t = 0; t < a.tracks.size(); ++t) {
            const SliceTrack &x = a.tracks[t].slices, &y = b.tracks[t].slices;
            QCOMPARE(b.tracks[t].kind, a.tracks[t].kind);
            QCOMPARE(b.tracks[t].domainName, a.tracks[t].domainName);
            QCOMPARE(y.size(), x.size());
            QVERIFY(std::equal(x.starts().begin(), x.starts().end(), y.starts().begin()));
            QVERIFY(std::equal(x.ends().begin(), x.ends().end(), y.ends().begin()));
            QVERIFY(std::equal(x.names().begin(), x.names().end(), y.names().begin()));
            QCOMPARE(y.maxDepth(), x.maxDepth());
            QCOMPARE(y.lod().levels().size(), x.lod().levels().size());
            QCOMPARE(y.depthRows().size(), x.depthRows().size());
            for (std::size_t i = 0; i < x.size(); ++i)
                QVERIFY(y.payload(i) == x.payload(i) && y.depth(i) == x.depth(i));
            if (!x.isEmpty())
                QCOMPARE(y.overlapping(x.extent().start, x.extent().end).size(), x.size());
        }
        QVERIFY(sideTableBytes(b) == sideTableBytes(a));
        QVERIFY(sameBytes(b.collectives, a.collectives));
        QVERIFY(sameBytes(b.apiByCorrelation, a.apiByCorrelation));
        QVERIFY(sameBytes(b.gpuByCorrelation, a.gpuByCorrelation));
        // The GPU busy summaries the rank x time map reads, and those of
        // the work beside communication with the communication kernels
        // matching collectives reads.
        auto sameSummaries = [](const std::vector<BusySummary> &got, const std::vector<BusySummary> &expected) {
            QCOMPARE(got.size(), expected.size());
            for (std::size_t g = 0; g < expected.size(); ++g) {
                QVERIFY(got[g].pid == expected[g].pid && got[g].deviceId == expected[g].deviceId);
                QVERIFY(got[g].span.start == expected[g].span.start && got[g].span.end == expected[g].span.end);
                QCOMPARE(got[g].busy, expected[g].busy);
                const SliceTrack &x = expected[g].runs, &y = got[g].runs;
                QCOMPARE(y.size(), x.size());
                QVERIFY(std::equal(x.starts().begin(), x.starts().end(), y.starts().begin()));
                QVERIFY(std::equal(x.ends().begin(), x.ends().end(), y.ends().begin()));
                QCOMPARE(y.lod().levels().size(), x.lod().levels().size());
                for (std::size_t l = 0; l < x.lod().levels().size(); ++l)
                    QVERIFY(sameBytes(y.lod().levels()[l].busy, x.lod().levels()[l].busy));
            }
        };
        sameSummaries(b.gpuBusy, a.gpuBusy);
        QVERIFY(a.communication.present && b.communication.present);
        QCOMPARE(a.communication.kernels.empty(), !QByteArray(QTest::currentDataTag()).contains("NCCL"));
        QVERIFY(sameBytes(b.communication.kernels, a.communication.kernels));
        sameSummaries(b.communication.otherGpuBusy, a.communication.otherGpuBusy);
        // Each process's threads, summarised as the cache was written: the
        // union of its host tracks, found again by exactly those tracks.
        QVERIFY(a.hostBusy.empty() && !b.hostBusy.empty());
        sameSummaries(b.hostBusy, hostBusySummaries(a));
        for (const BusySummary &process : b.hostBusy) {
            const std::vector<std::uint32_t> tracks = hostTracksOf(b, process.pid);
            QVERIFY(!tracks.empty() && process.deviceId == -1);
            QCOMPARE(hostBusySummaryOf(b, tracks), &process);
            QCOMPARE(busyRuns(a, tracks).size(), process.runs.size());
            if (tracks.size() > 1) // one thread's tracks are not the process's
                QVERIFY(!hostBusySummaryOf(b, std::span(tracks).first(tracks.size() - 1)));
        }
        QCOMPARE(b.meta.utcStartNs, a.meta.utcStartNs);
        QCOMPARE(b.meta.sourceEventCounts, a.meta.sourceEventCounts);
        // The summary tables of `b` come from its stored groups, `a`'s from
        // its events (tst_nsysstats checks those against nsys' CSVs).
        QVERIFY(!a.byName.present && b.byName.present && !b.byName.groups.empty());
        QCOMPARE(allFileReports(b), allFileReports(a));
        // The GPU time splits the rank comparison reads (tst_collectives
        // checks them against the rows from the events).
        QVERIFY(a.timeSplits.empty());
        QVERIFY(b.timeSplits == builtInTimeSplits(a));
        // Mapped, not copied: the columns cost this process nothing until read.
        QVERIFY(b.kernels.empty() || b.kernels.isMapped());
        QVERIFY2(b.memoryBytes() < a.memoryBytes() && (a.memoryBytes() < (1 << 20) || b.memoryBytes() * 10 < a.memoryBytes()),
                 qPrintable(QStringLiteral("%1 vs %2").arg(b.memoryBytes()).arg(a.memoryBytes())));
        QVERIFY(b.diagnostics.front().text.startsWith(QLatin1String("opened from the index cache")));
    }

    // The registry the cache writes from: each kind of track declared once,
    // in TrackKind's order, and each kind whose payloads are rows read by
    // exactly one side table (a kind added without its table, or a table
    // without its kind, would be cached wrong or checked wrong).
    void eachTrackKindIsDeclaredOnce()
    {
        const Report empty;
        for (std::size_t k = 0; k < kTrackKindCount; ++k) {
            const auto kind = TrackKind(k);
            QCOMPARE(trackKindInfo(kind).kind, kind);
            QVERIFY(!trackKindName(kind).isEmpty());
            int tables = 0;
            forEachSideTable(empty, [&](const auto &, std::initializer_list<TrackKind> readers) {
                tables += int(std::count(readers.begin(), readers.end(), kind));
            });
            const SlicePayload payload = trackKindInfo(kind).payload;
            QCOMPARE(tables, payload == SlicePayload::Row || payload == SlicePayload::OptionalRow ? 1 : 0);
        }
        QVERIFY(!isKnownTrackKind(std::uint8_t(kTrackKindCount)));
    }

    // Kineto's CPU scopes are a kind of their own, their External ids kept
    // as their payloads (a real trace's; the test above compares payloads
    // through the cache).
    void kinetoCpuScopesAreTheirOwnKind()
    {
        const LoadResult parsed = loadTraceFile(dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz")));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        const Report &r = *parsed.report;
        QVERIFY(r.eventCount(TrackKind::CpuOp) > 0);
        QCOMPARE(r.eventCount(TrackKind::Nvtx), std::size_t(0));
        // The categories Kineto writes its CPU scopes under, as counted
        // when read (older traces capitalise them).
        std::size_t scopes = 0;
        for (const auto &[category, count] : r.meta.sourceEventCounts)
            if (QStringList{QStringLiteral("cpu_op"), QStringLiteral("operator"), QStringLiteral("user_annotation"),
                            QStringLiteral("python_function")}
                    .contains(category.toLower()))
                scopes += count;
        QCOMPARE(r.eventCount(TrackKind::CpuOp), scopes);
        bool externalIds = false;
        for (const Track &t : r.tracks)
            if (t.kind == TrackKind::CpuOp) {
                const QString category = trackName(r, t);
                QVERIFY2(category == QLatin1String("cpu_op") || category == QLatin1String("user_annotation")
                             || category == QLatin1String("python_function"),
                         qPrintable(category));
                for (std::size_t i = 0; i < t.slices.size(); ++i)
                    externalIds |= t.slices.payload(i) != 0;
            }
        QVERIFY(externalIds);
    }

    void sessionOfCachedRanksMatchesCollectives()
    {
        // Cross-rank matching (collectives, waits) reads the cached records
        // (one export, two ranks).
        QTemporaryDir dir;
        const QStringList files{nsysAiFixture("before")};
        const Session parsed = Session::load(files);
        (void)Session::load(files, cachedIn(dir));
        const Session opened = Session::load(files, cachedIn(dir));
        QCOMPARE(opened.ranks().size(), std::size_t(2));
        QCOMPARE(allSessionReports(opened), allSessionReports(parsed));
    }

    void summariesOverCachedRanksAreThoseOverTheEvents_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addRow("4 DDP ranks, a file each") << QStringList{ddpFixture(0), ddpFixture(1), ddpFixture(2), ddpFixture(3)};
        QTest::addRow("2 ranks in one export") << QStringList{nsysAiFixture("before")};
        QTest::addRow("kineto") << QStringList{kinetoFixture()};
    }

    void summariesOverCachedRanksAreThoseOverTheEvents()
    {
        // Over all ranks and over one (one process of a shared export), the
        // tables merged from the caches' stored groups are those over the
        // events; a time range reads the events of both.
        QFETCH(QStringList, files);
        QTemporaryDir dir;
        const Session parsed = Session::load(files);
        (void)Session::load(files, cachedIn(dir));
        const Session opened = Session::load(files, cachedIn(dir));
        QVERIFY(stats::storedGroupsCover(stats::slicesOf(opened, {})));
        QVERIFY(!stats::storedGroupsCover(stats::slicesOf(parsed, {})));
        QCOMPARE(summaryTables(opened, {}), summaryTables(parsed, {}));
        for (int rank = 0; rank < int(opened.ranks().size()); ++rank)
            QCOMPARE(summaryTables(opened, {std::nullopt, rank}), summaryTables(parsed, {std::nullopt, rank}));
        const TimeRange span = parsed.extent();
        const TimeRange half{span.start, span.start + span.duration() / 2};
        QVERIFY(!stats::storedGroupsCover(stats::slicesOf(opened, {half, std::nullopt})));
        QCOMPARE(summaryTables(opened, {half, std::nullopt}), summaryTables(parsed, {half, std::nullopt}));
    }

    void staleCacheIsRebuilt()
    {
        QTemporaryDir dir, traces;
        const QString file = traces.filePath(QStringLiteral("rank.sqlite"));
        QVERIFY(QFile::copy(ddpFixture(1), file));
        QCOMPARE(loadTraceFile(file, cachedIn(dir)).indexCache, LoadResult::IndexCache::Written);
        QFile touched(file);
        QVERIFY(touched.open(QIODevice::ReadWrite));
        QVERIFY(touched.setFileTime(QDateTime::currentDateTimeUtc().addSecs(60), QFileDevice::FileModificationTime));
        touched.close();
        const LoadResult again = loadTraceFile(file, cachedIn(dir));
        QCOMPARE(again.indexCache, LoadResult::IndexCache::Rebuilt);
        QVERIFY(again.report->diagnostics.back().text.contains(QLatin1String("another version of the trace")));
        QCOMPARE(loadTraceFile(file, cachedIn(dir)).indexCache, LoadResult::IndexCache::Opened);
    }

    void damagedCacheIsRebuilt_data()
    {
        QTest::addColumn<int>("damage");
        QTest::addColumn<QString>("why");
        QTest::addRow("a body byte flipped") << 0 << "checksum mismatch";
        QTest::addRow("truncated") << 1 << "truncated";
        QTest::addRow("bytes appended") << 2 << "truncated or extended";
        QTest::addRow("a foreign file") << 3 << "not an index cache";
        QTest::addRow("empty") << 4 << "too short";
        QTest::addRow("a header byte flipped") << 5 << "header is damaged";
        QTest::addRow("another format version") << 6 << "another version of Rankscope";
        QTest::addRow("half the body, checksums refreshed") << 7 << "damaged (";
        QTest::addRow("an outline longer than the file") << 8 << "outline is longer than the file";
        QTest::addRow("a column placed past the columns") << 9 << "a column runs past the end of the file";
        QTest::addRow("a column placed off its alignment") << 10 << "a column is not aligned";
    }

    void damagedCacheIsRebuilt()
    {
        QFETCH(int, damage);
        QFETCH(QString, why);
        QTemporaryDir dir;
        const QString file = ddpFixture(3);
        const LoadResult written = loadTraceFile(file, cachedIn(dir));
        QCOMPARE(written.indexCache, LoadResult::IndexCache::Written);
        const QString cachePath = written.indexCachePath;
        QByteArray bytes = readBytes(cachePath);
        QVERIFY(bytes.size() > 4096);
        switch (damage) {
        case 0:
            bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x40);
            break;
        case 1:
            bytes.truncate(bytes.size() - 1000);
            break;
        case 2:
            bytes.append(QByteArray(100, 'x'));
            break;
        case 3:
            bytes = readBytes(file).left(100000);
            break;
        case 4:
            bytes.clear();
            break;
        case 5:
            bytes[20] = char(bytes[20] ^ 1);
            break;
        case 6:
            bytes[8] = char(bytes[8] + 1);
            refreshChecksums(bytes);
            break;
        case 7: {
            // Half the body, with a header and checksums that say so: the
            // reader runs out of bytes mid-report and must notice.
            cutBody(bytes, std::uint64_t(bodyEndOf(bytes) - kHeaderBytes) / 2);
            break;
        }
        case 8: {
            const std::uint64_t outlineBytes = std::uint64_t(bytes.size());
            std::memcpy(bytes.data() + bodyEndOf(bytes) - 8, &outlineBytes, 8);
            refreshChecksums(bytes);
            break;
        }
        case 9:
        case 10: {
            // The string table's offsets: the first column in the outline
            // whose length is the number of strings and one.
            const std::uint64_t strings = loadTraceFile(file).report->strings.size() + 1;
            const qsizetype bodyEnd = bodyEndOf(bytes);
            std::uint64_t outlineBytes = 0;
            std::memcpy(&outlineBytes, bytes.constData() + bodyEnd - 8, 8);
            const qsizetype outline = bodyEnd - 8 - qsizetype(outlineBytes);
            qsizetype at = outline;
            for (; at + 16 <= bodyEnd - 8; ++at) {
                std::uint64_t count = 0, place = 0;
                std::memcpy(&count, bytes.constData() + at, 8);
                std::memcpy(&place, bytes.constData() + at + 8, 8);
                if (count == strings && place % 64 == 0 && place >= 64 && place < std::uint64_t(outline))
                    break;
            }
            QVERIFY(at + 16 <= bodyEnd - 8);
            const std::uint64_t place = damage == 9 ? std::uint64_t(outline) : std::uint64_t(64 + 8);
            std::memcpy(bytes.data() + at + 8, &place, 8);
            refreshChecksums(bytes);
            break;
        }
        }
        writeAll(cachePath, bytes);
        const CacheOpenResult direct = openIndexCache(cachePath, CacheKey::of(file));
        QVERIFY(!direct.report);
        QVERIFY2(direct.whyNot.contains(why), qPrintable(direct.whyNot));
        const LoadResult again = loadTraceFile(file, cachedIn(dir));
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.indexCache, LoadResult::IndexCache::Rebuilt);
        QVERIFY2(again.report->diagnostics.back().text.contains(why), qPrintable(again.report->diagnostics.back().text));
        QCOMPARE(loadTraceFile(file, cachedIn(dir)).indexCache, LoadResult::IndexCache::Opened);
    }

    void craftedCacheIsRejected_data()
    {
        QTest::addColumn<int>("lie");
        QTest::addColumn<QString>("why");
        QTest::addRow("kernel launch out of range") << 0 << "launch, collective or string";
        QTest::addRow("projection of a missing range") << 1 << "NVTX record";
        QTest::addRow("correlation to a missing track") << 2 << "correlation";
        QTest::addRow("copy of an unknown kind") << 3 << "copy of an unknown kind";
        QTest::addRow("track of an unknown kind") << 4 << "unknown kind";
        QTest::addRow("grouped values out of range") << 5 << "not where the groups say";
        QTest::addRow("grouped values out of order") << 6 << "out of order";
        QTest::addRow("groups out of order") << 7 << "groups of events out of order";
        QTest::addRow("group total not its values' sum") << 8 << "total is not the sum";
        QTest::addRow("grouped duration beyond any trace") << 9 << "value no event could have";
        QTest::addRow("fewer grouped values than events") << 10 << "as many values as the tracks have events";
        QTest::addRow("communication kernel on a copy track") << 11 << "not a kernel";
        QTest::addRow("communication kernels out of order") << 12 << "communication kernels out of order";
        QTest::addRow("communication kernel's collective not its kernel's") << 13 << "unlike its kernel record";
        QTest::addRow("communication kernel launched beyond any trace") << 14 << "unlike its kernel record";
        QTest::addRow("a communication kernel left out") << 15 << "left out of their list";
        QTest::addRow("GPU time split with more compute than busy time") << 16 << "do not fit in it";
        QTest::addRow("GPU time split of a process not there") << 17 << "other processes than the tracks name";
        QTest::addRow("communication kernel's end not its event's") << 18 << "unlike its kernel record";
        QTest::addRow("a track's range without its events") << 19 << "range is not its events'";
        QTest::addRow("a summary's longest event drawn longer than it is") << 20 << "longest event has other times";
        QTest::addRow("a process's busy summary on a GPU") << 21 << "out of order or on a GPU";
        QTest::addRow("a process busier than its span") << 22 << "busy summary outside its span";
    }

    void craftedCacheIsRejected()
    {
        // A cache its checksums vouch for, written from a report that lies:
        // the checks refuse it before anything indexes with it.
        QFETCH(int, lie);
        QFETCH(QString, why);
        QTemporaryDir dir;
        const QString file = lie >= 11 ? nsysAiFixture("before") : ddpFixture(0); // the demo runs no NCCL
        const LoadResult parsed = loadTraceFile(file);
        Report &r = *parsed.report;
        QVERIFY(!r.kernels.empty() && !r.nvtxProjections.empty() && !r.apiByCorrelation.empty() && !r.memcpys.empty());
        switch (lie) {
        case 0:
            r.kernels[0].config = std::uint32_t(r.kernelConfigs.size());
            break;
        case 1:
            r.nvtxProjections[0].nvtxRow = std::uint32_t(r.nvtx.size()) + 5;
            break;
        case 2:
            r.apiByCorrelation[0].track = 9999;
            break;
        case 3:
            r.memcpys[0].copyKind = MemcpyKind(200);
            break;
        case 4:
            r.tracks[0].kind = TrackKind(200);
            break;
        case 5:
            r.byName = summarizeByName(r);
            r.byName.groups[r.byName.groups.size() - 1].count += 1;
            break;
        case 6: {
            r.byName = summarizeByName(r);
            const auto many = std::find_if(r.byName.groups.begin(), r.byName.groups.end(), [&](const NameGroup &g) {
                return g.count > 1 && r.byName.values[g.first] < r.byName.values[g.first + g.count - 1];
            });
            QVERIFY(many != r.byName.groups.end());
            std::swap(r.byName.values[many->first], r.byName.values[many->first + many->count - 1]);
            break;
        }
        case 7:
            r.byName = summarizeByName(r);
            QVERIFY(r.byName.groups.front().kind != r.byName.groups.back().kind);
            std::swap(r.byName.groups[0], r.byName.groups[r.byName.groups.size() - 1]);
            break;
        case 8:
            r.byName = summarizeByName(r);
            r.byName.groups[0].total += 1;
            break;
        case 9: {
            r.byName = summarizeByName(r);
            const NameGroup &durations = r.byName.groups[0];
            QCOMPARE(durations.value, GroupedValue::Duration);
            r.byName.values[durations.first + durations.count - 1] = std::numeric_limits<std::int64_t>::max();
            break;
        }
        case 10: {
            // The last group and its values left out: consistent in itself,
            // but some events would be missing from the tables.
            r.byName = summarizeByName(r);
            const NameGroup last = r.byName.groups[r.byName.groups.size() - 1];
            r.byName.groups = Column<NameGroup>(std::vector<NameGroup>(r.byName.groups.begin(), r.byName.groups.end() - 1));
            r.byName.values =
                Column<std::int64_t>(std::vector<std::int64_t>(r.byName.values.begin(), r.byName.values.begin() + std::ptrdiff_t(last.first)));
            break;
        }
        case 11: {
            const auto copies = std::find_if(r.tracks.begin(), r.tracks.end(), [](const Track &t) { return t.kind == TrackKind::Memcpy; });
            QVERIFY(copies != r.tracks.end() && !r.communication.kernels.empty());
            r.communication.kernels[0].track = std::uint32_t(copies - r.tracks.begin());
            r.communication.kernels[0].event = 0;
            break;
        }
        case 12:
            QVERIFY(r.communication.kernels.size() >= 2);
            std::swap(r.communication.kernels[0], r.communication.kernels[1]);
            break;
        case 13:
            r.communication.kernels[0].collective = std::uint32_t(r.collectives.size());
            break;
        case 14:
            r.communication.kernels[0].launch = kTimeMax;
            break;
        case 15:
            r.communication.kernels =
                Column<CommunicationKernel>(std::vector<CommunicationKernel>(r.communication.kernels.begin() + 1, r.communication.kernels.end()));
            break;
        case 16:
            r.timeSplits = builtInTimeSplits(r);
            r.timeSplits[0].compute = r.timeSplits[0].busy + 1;
            break;
        case 17:
            // The export holds two processes: one split each after the whole.
            r.timeSplits = builtInTimeSplits(r);
            QVERIFY(r.timeSplits.size() >= 3);
            r.timeSplits[2].pid += 1;
            break;
        case 18:
            r.communication.kernels[0].end += 1;
            break;
        case 19: {
            // What a summaries-only open keeps of a track, passed off as a whole report.
            const auto withEvents = std::find_if(r.tracks.begin(), r.tracks.end(), [](const Track &t) { return !t.slices.isEmpty(); });
            QVERIFY(withEvents != r.tracks.end());
            ReportCacheAccess::dropEvents(withEvents->slices);
            break;
        }
        case 20: {
            // The timeline draws a zoomed-out row from its summary's times alone.
            const auto withEvents = std::find_if(r.tracks.begin(), r.tracks.end(), [](const Track &t) { return !t.slices.isEmpty(); });
            QVERIFY(withEvents != r.tracks.end() && !withEvents->slices.lod().levels().empty());
            auto &level = const_cast<LodSummary::Level &>(withEvents->slices.lod().levels().front()); // parsed: owned, not mapped
            level.longestEnd[0] += 1000;
            break;
        }
        case 21:
            r.hostBusy = hostBusySummaries(r);
            QVERIFY(!r.hostBusy.empty());
            r.hostBusy.back().deviceId = 0;
            break;
        case 22:
            r.hostBusy = hostBusySummaries(r);
            QVERIFY(!r.hostBusy.empty());
            r.hostBusy.front().busy = r.hostBusy.front().span.duration() + 1;
            break;
        }
        const CacheKey key = CacheKey::of(file);
        const QString cachePath = indexCachePathFor(dir.path(), key);
        QCOMPARE(writeIndexCache(r, key, cachePath), QString());
        const CacheOpenResult opened = openIndexCache(cachePath, key);
        QVERIFY(!opened.report);
        QVERIFY2(opened.whyNot.contains(why), qPrintable(opened.whyNot));
        QCOMPARE(loadTraceFile(file, cachedIn(dir)).indexCache, LoadResult::IndexCache::Rebuilt);
    }

    void cacheOfAnotherPathIsNotUsed()
    {
        // Two traces whose caches collide (one copied over the other's name)
        // are told apart by the path recorded inside.
        QTemporaryDir dir;
        const QString a = ddpFixture(0), b = ddpFixture(1);
        const LoadResult first = loadTraceFile(a, cachedIn(dir));
        const QString cacheOfB = indexCachePathFor(dir.path(), CacheKey::of(b));
        QVERIFY(QFile::copy(first.indexCachePath, cacheOfB));
        const CacheOpenResult opened = openIndexCache(cacheOfB, CacheKey::of(b));
        QVERIFY(!opened.report);
    }

    // A cache that passed every check, unchanged since, is opened again
    // without reading it (checkedcaches.h); any write to it (here one byte
    // of its body, in place) makes the next open check it in full.
    // A first open of a cache not checked before, for a first frame, reads
    // its outline, string table and GPU busy summaries, each checked by its
    // chunks, and keeps nothing else: what it keeps is the whole open's,
    // and damage in any other chunk is left for the whole open to find.
    void summariesOpenReadsOnlyWhatItKeeps()
    {
        QTemporaryDir dir;
        const QString file = nsysAiFixture("after");
        const LoadResult written = loadTraceFile(file, cachedIn(dir));
        QCOMPARE(written.indexCache, LoadResult::IndexCache::Written);
        const QString cachePath = written.indexCachePath;
        const CacheKey key = CacheKey::of(file);
        const CacheOpenResult whole = openIndexCache(cachePath, key);
        const CacheOpenResult first = openIndexCache(cachePath, key, nullptr, CacheOpenDepth::Summaries);
        QVERIFY2(whole.report && first.report, qPrintable(whole.whyNot + first.whyNot));
        const Report &w = *whole.report, &f = *first.report;
        QVERIFY(f.summariesOnly && !w.summariesOnly);
        QVERIFY(!first.checkedInFull);
        QCOMPARE(f.eventCount(), std::size_t(0));
        QVERIFY(w.eventCount() > 0);
        QVERIFY(f.kernels.empty() && f.memcpys.empty() && f.apiCalls.empty() && !f.communication.present);
        QCOMPARE(f.tracks.size(), w.tracks.size());
        for (std::size_t t = 0; t < w.tracks.size(); ++t) {
            QCOMPARE(f.tracks[t].kind, w.tracks[t].kind);
            QCOMPARE(f.tracks[t].pid, w.tracks[t].pid);
            QCOMPARE(f.tracks[t].slices.extent().start, w.tracks[t].slices.extent().start);
            QCOMPARE(f.tracks[t].slices.extent().end, w.tracks[t].slices.extent().end);
        }
        QCOMPARE(f.cudaProcesses(), w.cudaProcesses());
        const Session shownFirst = Session::fromReports({first.report}), shownWhole = Session::fromReports({whole.report});
        QCOMPARE(shownFirst.ranks().size(), shownWhole.ranks().size());
        QVERIFY(shownFirst.hasSummariesOnlyRanks() && !shownWhole.hasSummariesOnlyRanks());
        QCOMPARE(shownFirst.extent().start, shownWhole.extent().start);
        QCOMPARE(shownFirst.extent().end, shownWhole.extent().end);
        QCOMPARE(f.strings.size(), w.strings.size());
        QCOMPARE(f.timeSplits.size(), w.timeSplits.size());
        for (std::size_t i = 0; i < w.timeSplits.size(); ++i)
            QCOMPARE(f.timeSplits[i].busy, w.timeSplits[i].busy);
        const auto sameBusy = [](const Report &a, const Report &b) {
            if (a.gpuBusy.size() != b.gpuBusy.size() || a.gpuBusy.empty())
                return false;
            for (std::size_t g = 0; g < a.gpuBusy.size(); ++g) {
                const SliceTrack &x = a.gpuBusy[g].runs, &y = b.gpuBusy[g].runs;
                if (a.gpuBusy[g].busy != b.gpuBusy[g].busy || x.size() != y.size() || x.lod().levels().size() != y.lod().levels().size()
                    || !std::equal(x.starts().begin(), x.starts().end(), y.starts().begin())
                    || !std::equal(x.ends().begin(), x.ends().end(), y.ends().begin()))
                    return false;
            }
            return true;
        };
        QVERIFY(sameBusy(f, w));

        // A byte flipped in each 1 MiB chunk in turn, the header and the
        // chunks' hashes left as written.
        const QByteArray clean = readBytes(cachePath);
        const qsizetype body = bodyEndOf(clean) - kHeaderBytes, chunk = qsizetype(kCacheChecksumChunk);
        const qsizetype chunks = (body + chunk - 1) / chunk;
        QVERIFY(chunks >= 4);
        int unread = 0;
        for (qsizetype c = 0; c < chunks; ++c) {
            QByteArray bytes = clean;
            flipBodyByte(bytes, std::min(body - 1, c * chunk + chunk / 2));
            writeAll(cachePath, bytes);
            const CacheOpenResult damagedWhole = openIndexCache(cachePath, key);
            QVERIFY2(!damagedWhole.report && damagedWhole.whyNot.contains("checksum mismatch"), qPrintable(damagedWhole.whyNot));
            const CacheOpenResult damagedFirst = openIndexCache(cachePath, key, nullptr, CacheOpenDepth::Summaries);
            if (damagedFirst.report) {
                ++unread;
                QVERIFY(sameBusy(*damagedFirst.report, w));
                QVERIFY(c < chunks - 1); // the outline ends the body
            } else {
                QVERIFY2(damagedFirst.whyNot.contains("checksum mismatch"), qPrintable(damagedFirst.whyNot));
            }
        }
        // This small export is mostly strings, and a chunk holding a track's
        // header is read: "after" has a chunk of event columns alone (a
        // 1M-event rank reads a few MiB of ~70, docs/performance.md).
        QVERIFY(unread > 0);
        // A damaged table of chunk hashes is damage too.
        QByteArray table = clean;
        table[table.size() - 3] = char(table[table.size() - 3] ^ 1);
        writeAll(cachePath, table);
        QVERIFY(!openIndexCache(cachePath, key, nullptr, CacheOpenDepth::Summaries).report);
        QVERIFY(!openIndexCache(cachePath, key).report);
        writeAll(cachePath, clean);
    }

    // Loading for a first frame: caches checked before open whole (that
    // costs no more), the others with their summaries; a trace without a
    // cache is parsed and its cache written.
    void firstFrameLoadOpensUncheckedCachesBySummaries()
    {
        QTemporaryDir dir, store, other;
        const QStringList files{ddpFixture(0), nsysAiFixture("before")};
        LoadControl control = cachedIn(dir);
        control.checkedCachesDirectory = store.path();
        control.summariesOfUncheckedCaches = true;
        const Session parsed = Session::load(files, control);
        QCOMPARE(parsed.reports().size(), std::size_t(2));
        QVERIFY(!parsed.hasSummariesOnlyRanks()); // parsed now, their caches written and remembered
        const Session again = Session::load(files, control);
        QVERIFY(!again.hasSummariesOnlyRanks());
        // Another user's record: nothing checked yet.
        control.checkedCachesDirectory = other.path();
        const Session first = Session::load(files, control);
        QCOMPARE(first.reports().size(), std::size_t(2));
        QVERIFY(first.failures().empty());
        QVERIFY(first.hasSummariesOnlyRanks());
        QCOMPARE(first.ranks().size(), again.ranks().size());
        QCOMPARE(first.extent().start, again.extent().start);
        QCOMPARE(first.extent().end, again.extent().end);
        control.summariesOfUncheckedCaches = false;
        const Session whole = Session::load(files, control);
        QVERIFY(!whole.hasSummariesOnlyRanks());
        QCOMPARE(whole.reports()[1]->eventCount(), again.reports()[1]->eventCount());
    }

    void aCachePassedBeforeIsOnlyMappedUntilItChanges()
    {
        QTemporaryDir dir, store;
        const QString file = ddpFixture(1);
        const LoadResult written = loadTraceFile(file, cachedIn(dir));
        QCOMPARE(written.indexCache, LoadResult::IndexCache::Written);
        const QString cachePath = written.indexCachePath;
        const CacheKey key = CacheKey::of(file);
        constexpr std::int64_t settleNs = 200'000'000;
        const CheckedCaches checked(store.path(), settleNs);

        // Just written: too recent to remember (its change time could still be the clock's current tick).
        QVERIFY(openIndexCache(cachePath, key, &checked).checkedInFull);
        QVERIFY(openIndexCache(cachePath, key, &checked).checkedInFull);
        // Once its change time has settled, a full check is remembered and
        // the open after it only maps the cache.
        QTRY_VERIFY_WITH_TIMEOUT(!openIndexCache(cachePath, key, &checked).checkedInFull, 10000);
        const CacheOpenResult again = openIndexCache(cachePath, key, &checked);
        QVERIFY2(again.report, qPrintable(again.whyNot));
        QVERIFY(!again.checkedInFull);
        QCOMPARE(again.report->eventCount(), written.report->eventCount());
        QCOMPARE(again.report->tracks.size(), written.report->tracks.size());
        // Without the record, the same cache is checked in full.
        QVERIFY(openIndexCache(cachePath, key).checkedInFull);
        const CheckedCaches none{QString()};
        QVERIFY(openIndexCache(cachePath, key, &none).checkedInFull);

        QFile cache(cachePath);
        QVERIFY(cache.open(QIODevice::ReadWrite));
        QVERIFY(cache.seek(cache.size() / 2));
        char byte = 0;
        QVERIFY(cache.getChar(&byte));
        QVERIFY(cache.seek(cache.size() / 2));
        QVERIFY(cache.putChar(char(byte ^ 0x5a)));
        cache.close();
        const CacheOpenResult damaged = openIndexCache(cachePath, key, &checked);
        QVERIFY(!damaged.report); // read and refused, not taken on the record's word
        QVERIFY2(damaged.whyNot.contains(QStringLiteral("checksum")), qPrintable(damaged.whyNot));
    }

    // A cache this user's process has just written is remembered as it is
    // written (CheckedCaches::rememberWritten): `index` then the viewer
    // opens it without reading it. One others may write is not.
    void aCacheWrittenHereIsOnlyMappedNextTime()
    {
        QTemporaryDir dir, store;
        const QString file = ddpFixture(1);
        LoadControl control = cachedIn(dir);
        control.checkedCachesDirectory = store.path();
        const CheckedCaches checked(store.path());
        const CacheKey key = CacheKey::of(file);

        const LoadResult written = loadTraceFile(file, control);
        QCOMPARE(written.indexCache, LoadResult::IndexCache::Written);
        const CacheOpenResult opened = openIndexCache(written.indexCachePath, key, &checked);
        QVERIFY2(opened.report, qPrintable(opened.whyNot));
        QVERIFY(!opened.checkedInFull);
        QCOMPARE(opened.report->eventCount(), written.report->eventCount());
        QCOMPARE(loadTraceFile(file, control).indexCache, LoadResult::IndexCache::Opened);

        // Made group-writable afterwards: no longer the user's alone, so not read.
        QFile cache(written.indexCachePath);
        QVERIFY(cache.setPermissions(cache.permissions() | QFileDevice::WriteGroup));
        QVERIFY(openIndexCache(written.indexCachePath, key, &checked).untrustedWriter);
        QVERIFY(cache.setPermissions(cache.permissions() & ~QFileDevice::WriteGroup));
        QVERIFY(openIndexCache(written.indexCachePath, key, &checked).checkedInFull); // the change (time) voided the record

        // A umask that lets the group write does not: the cache's mode is
        // set, not taken from the umask, so it is remembered as written.
        QVERIFY(QFile::remove(written.indexCachePath));
        const mode_t umaskBefore = ::umask(002);
        const LoadResult shared = loadTraceFile(file, control);
        ::umask(umaskBefore);
        QCOMPARE(shared.indexCache, LoadResult::IndexCache::Written);
        QVERIFY(!(QFileInfo(shared.indexCachePath).permissions() & QFileDevice::WriteGroup));
        QVERIFY(!openIndexCache(shared.indexCachePath, key, &checked).checkedInFull);
    }

    void withoutAFolderNothingIsWritten()
    {
        const LoadResult r = loadTraceFile(ddpFixture(0));
        QCOMPARE(r.indexCache, LoadResult::IndexCache::Unused);
    }
};

QTEST_GUILESS_MAIN(TestIndexCache)
#include "tst_indexcache.moc"
