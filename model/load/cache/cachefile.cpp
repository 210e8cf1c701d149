#include "load/cache/cachefile.h"

#include "load/cache/cachechecks.h"
#include "load/cache/cachestreams.h"
#include "load/cache/checkedcaches.h"
#include "load/cache/reportfields.h"

#include "core/safefiles.h"
#include "core/units.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace rankscope {

namespace {

constexpr char kMagic[8] = {'R', 'S', 'I', 'N', 'D', 'E', 'X', '\0'};
constexpr std::uint32_t kByteOrderMark = 0x01020304u;

struct CacheHeader {
    char magic[8] = {};
    std::uint32_t formatVersion = 0;
    std::uint32_t byteOrder = 0;
    std::uint64_t bodyOffset = 0;
    std::uint64_t bodyBytes = 0;
    std::int64_t sourceBytes = 0;
    std::int64_t sourceModifiedNs = 0;
    std::uint64_t bodyChecksum = 0;      // chunkhash.h
    std::uint64_t sourceContentHash = 0; // CacheKey::sourceContentHash
    std::uint32_t headerCrc = 0;         // CRC-32 of the header with this field 0
    std::uint32_t reserved = 0;
};
static_assert(sizeof(CacheHeader) == 72 && std::is_trivially_copyable_v<CacheHeader>);

std::uint32_t headerCrcOf(CacheHeader header)
{
    header.headerCrc = 0;
    return std::uint32_t(crc32_z(0, reinterpret_cast<const Bytef *>(&header), sizeof header));
}

// The file stays mapped while any column of the report points into it.
struct MappedCacheFile final : MappedPages {
    FileDescriptor file;
    uchar *data = nullptr;
    std::uint64_t size = 0;
    ~MappedCacheFile() override
    {
        if (data)
            ::munmap(data, std::size_t(size));
    }
    std::uint64_t bytes() const override { return size; }
    // The mapping is read-only and backed by the file (this user's own, or
    // a private copy), so dropping its pages loses nothing: a later read
    // faults them back in.
    void release() const override
    {
        if (data)
            ::madvise(data, std::size_t(size), MADV_DONTNEED);
    }
    void expectScatteredReads() const override
    {
        if (data)
            ::madvise(data, std::size_t(size), MADV_RANDOM);
    }
};

// A private file for a copy of a cache others may write: unnamed
// (O_TMPFILE) in this user's own cache folder, so the page cache can drop
// its pages as it would the cache's, else in memory (memfd). Either way no
// other process can open it.
FileDescriptor newPrivateFile()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    if (!base.isEmpty()) {
        const QString folder = base + QStringLiteral("/rankscope");
        if (makeFolderPath(folder) && isPrivateFolder(folder)) {
            FileDescriptor fd(::open(QFile::encodeName(folder).constData(), O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600));
            if (fd.isOpen())
                return fd;
        }
    }
    return FileDescriptor(::memfd_create("rankscope-cache-copy", MFD_CLOEXEC));
}

// Copies the `bytes` bytes of `from` into a new private file, which it
// returns (closed, with `whyNot`, when the copy fails).
FileDescriptor privateCopyOf(int from, std::uint64_t bytes, QString *whyNot)
{
    FileDescriptor copy = newPrivateFile();
    if (!copy.isOpen()) {
        *whyNot = QStringLiteral("cannot make a private copy of it: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return {};
    }
    constexpr std::size_t kPiece = std::size_t(1) << 20;
    std::unique_ptr<char[]> buffer(new char[kPiece]);
    for (std::uint64_t done = 0; done < bytes;) {
        const std::size_t piece = std::size_t(std::min<std::uint64_t>(kPiece, bytes - done));
        if (!readFully(from, buffer.get(), piece, done)) {
            *whyNot = QStringLiteral("changed while it was copied");
            return {};
        }
        if (const int error = writeFully(copy.get(), buffer.get(), piece, done); error != 0) {
            *whyNot = QStringLiteral("cannot make a private copy of it: %1").arg(QString::fromLocal8Bit(std::strerror(error)));
            return {};
        }
        done += piece;
    }
    return copy;
}

// Remembers the cache just renamed to `cachePath` as checked
// (CheckedCaches::rememberWritten), if it is still the file this process
// wrote and no one but its owner, this user, may write it.
void rememberWrittenCache(const QString &cachePath, const struct stat &written, std::uint64_t bodyChecksum, const CheckedCaches &checked)
{
    struct stat now { };
    const FileDescriptor cache = openRegularFileToRead(cachePath, &now, nullptr);
    if (!cache.isOpen())
        return;
    const bool sameFile = now.st_dev == written.st_dev && now.st_ino == written.st_ino && now.st_size == written.st_size;
    if (!sameFile || !onlyThisUserMayWrite(now))
        return;
    if (const std::optional<CacheFileIdentity> identity = identityOfCacheFile(cache.get(), bodyChecksum, kIndexCacheFormatVersion))
        checked.rememberWritten(cachePath, *identity);
}

// What an open of the summaries keeps (CacheOpenDepth::Summaries): every
// column of the events goes, so nothing can read a byte that was not
// checked; the tracks and counters stay, as the view lays them out.
void keepOnlySummaries(Report &r)
{
    for (Track &t : r.tracks)
        ReportCacheAccess::dropEvents(t.slices);
    for (CounterTrack &c : r.counters)
        ReportCacheAccess::dropSamples(c);
    r.kernels = {};
    r.kernelConfigs = {};
    r.memcpys = {};
    r.memsets = {};
    r.syncs = {};
    r.apiCalls = {};
    r.nvtx = {};
    r.nvtxProjections = {};
    r.collectives = {};
    r.flows = {};
    r.communication = {};
    r.sampling = {};
    r.byName = {};
    r.hostBusy = {}; // a collapsed rank draws its GPUs' summaries
    r.apiByCorrelation = {};
    r.gpuByCorrelation = {};
    r.summariesOnly = true;
}

// Checks the chunks of the columns a summaries open keeps besides the
// string table (which the reader checked): the GPU busy summaries'.
struct SummaryColumnsVerifier {
    static constexpr bool kWriting = false;
    ChunkVerifier &verifier;
    bool sound = true;

    template <class T>
    void operator()(const Column<T> &column)
    {
        sound = sound && verifier.verify(column.data(), column.size() * sizeof(T));
    }
    template <class T>
    void operator()(const T &)
    {
    }
    template <class T, class Each>
    void list(const std::vector<T> &items, Each &&each)
    {
        for (const T &item : items)
            each(item);
    }
};

bool summariesVerified(const Report &r, ChunkVerifier &verifier)
{
    SummaryColumnsVerifier columns{verifier};
    for (const BusySummary &g : r.gpuBusy)
        ReportCacheAccess::busySummary(columns, g);
    return columns.sound;
}

QString trustedCacheWritersHint()
{
    return QStringLiteral("name them in RANKSCOPE_TRUSTED_CACHE_WRITERS or the setting cache/trustedWriters to use their caches");
}

// Why the header of the cache open as `fd` (`fileBytes` long) does not
// serve `key`'s trace, empty when it does; reads it into `header`.
QString headerProblem(int fd, std::uint64_t fileBytes, const CacheKey &key, CacheHeader &header)
{
    if (fileBytes < sizeof header || !readFully(fd, &header, sizeof header, 0))
        return QStringLiteral("too short to be an index cache");
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0)
        return QStringLiteral("not an index cache");
    if (header.headerCrc != headerCrcOf(header))
        return QStringLiteral("its header is damaged");
    if (header.byteOrder != kByteOrderMark)
        return QStringLiteral("written on a machine of another byte order");
    if (header.formatVersion != kIndexCacheFormatVersion)
        return QStringLiteral("written by another version of Rankscope (cache format %1, this one reads %2)")
            .arg(header.formatVersion)
            .arg(kIndexCacheFormatVersion);
    const std::uint64_t chunks = cacheChunkCount(header.bodyBytes);
    if (header.bodyOffset != sizeof header || header.bodyBytes > fileBytes - sizeof header
        || fileBytes - sizeof header - header.bodyBytes != chunks * sizeof(std::uint64_t))
        return QStringLiteral("truncated or extended (%1 bytes, the header says %2)")
            .arg(fileBytes)
            .arg(header.bodyOffset + header.bodyBytes + std::min(chunks, fileBytes) * sizeof(std::uint64_t));
    if (header.sourceBytes != key.sourceBytes || header.sourceModifiedNs != key.sourceModifiedNs)
        return QStringLiteral("written for another version of the trace (its size or modification time changed)");
    return {};
}

} // namespace

CacheKey CacheKey::of(const QString &tracePath)
{
    CacheKey key;
    const QFileInfo info(tracePath);
    key.sourcePath = info.canonicalFilePath().isEmpty() ? info.absoluteFilePath() : info.canonicalFilePath();
    struct stat st { };
    if (::stat(QFile::encodeName(tracePath).constData(), &st) == 0) {
        key.sourceBytes = std::int64_t(st.st_size);
        key.sourceModifiedNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        key.sourceMode = std::uint32_t(st.st_mode & 0777);
    }
    return key;
}

bool CacheKey::hashContent()
{
    // The trace is the user's choice: a link to it is followed, but only a
    // regular file is read (not a FIFO someone named like a trace).
    struct stat st { };
    const FileDescriptor fd = openRegularFileToRead(sourcePath, &st, nullptr, true);
    if (!fd.isOpen() || std::int64_t(st.st_size) != sourceBytes
        || std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec != sourceModifiedNs)
        return false;
    sourceContentHash = contentHashOfFile(fd.get(), std::uint64_t(st.st_size));
    return sourceContentHash.has_value();
}

std::uint32_t cacheModeFor(const CacheKey &key)
{
    return std::uint32_t(modeReadableLike(mode_t(key.sourceMode)));
}

QString writeIndexCache(const Report &report, const CacheKey &key, const QString &cachePath, const CheckedCaches *checked)
{
    CacheKey hashed = key;
    if (!hashed.sourceContentHash && !hashed.hashContent())
        return QStringLiteral("cannot write %1: the trace could not be read again to bind the cache to its content").arg(cachePath);
    AtomicFileWriter file(cachePath, mode_t(cacheModeFor(key)));
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(cachePath, file.errorString());
    CacheHeader header;
    try {
        file.write(reinterpret_cast<const char *>(&header), sizeof header); // filled in last
        CacheWriter writer(file, sizeof header);
        writer(key.sourcePath);
        ReportCacheAccess::report(writer, report);
        writer.finishOutline();
        std::memcpy(header.magic, kMagic, sizeof kMagic);
        header.formatVersion = kIndexCacheFormatVersion;
        header.byteOrder = kByteOrderMark;
        header.bodyOffset = sizeof header;
        header.bodyBytes = writer.offset() - sizeof header;
        header.sourceBytes = key.sourceBytes;
        header.sourceModifiedNs = key.sourceModifiedNs;
        header.sourceContentHash = *hashed.sourceContentHash;
        std::vector<std::uint64_t> chunkHashes;
        header.bodyChecksum = writer.finishChecksum(&chunkHashes);
        const auto tableBytes = qint64(chunkHashes.size() * sizeof(std::uint64_t));
        if (file.write(reinterpret_cast<const char *>(chunkHashes.data()), tableBytes) != tableBytes)
            throw std::runtime_error(file.errorString().toStdString());
        header.headerCrc = headerCrcOf(header);
        if (!file.seek(0) || file.write(reinterpret_cast<const char *>(&header), sizeof header) != qint64(sizeof header))
            return QStringLiteral("cannot write %1: %2").arg(cachePath, file.errorString());
    } catch (const std::runtime_error &e) {
        file.cancel();
        return QStringLiteral("cannot write %1: %2").arg(cachePath, QString::fromStdString(e.what()));
    }
    // The file this process wrote, whatever name it has until the commit.
    struct stat written { };
    const bool statted = ::fstat(file.handle(), &written) == 0;
    if (!file.commit())
        return QStringLiteral("cannot write %1: %2").arg(cachePath, file.errorString());
    if (checked && statted)
        rememberWrittenCache(cachePath, written, header.bodyChecksum, *checked);
    return {};
}

void resealIndexCache(std::span<char> bytes, const CacheKey *key)
{
    CacheHeader header;
    if (bytes.size() < sizeof header)
        return;
    std::memcpy(&header, bytes.data(), sizeof header);
    if (key) {
        header.sourceBytes = key->sourceBytes;
        header.sourceModifiedNs = key->sourceModifiedNs;
        if (key->sourceContentHash)
            header.sourceContentHash = *key->sourceContentHash;
    }
    const std::uint64_t afterHeader = bytes.size() - sizeof header;
    const std::uint64_t tableBytes = cacheChunkCount(header.bodyBytes) * sizeof(std::uint64_t);
    if (header.bodyBytes <= afterHeader && afterHeader - header.bodyBytes == tableBytes) {
        ChunkedHasher hasher;
        hasher.update(bytes.data() + sizeof header, std::size_t(header.bodyBytes));
        std::vector<std::uint64_t> chunkHashes;
        header.bodyChecksum = hasher.finish(&chunkHashes);
        std::memcpy(bytes.data() + sizeof header + header.bodyBytes, chunkHashes.data(), std::size_t(tableBytes));
    } else { // the open finds the lengths wrong before it looks at checksums
        header.bodyChecksum = ChunkedHasher::of(bytes.subspan(sizeof header));
    }
    header.headerCrc = headerCrcOf(header);
    std::memcpy(bytes.data(), &header, sizeof header);
}

std::uint64_t largestCacheFor(std::int64_t sourceBytes)
{
    constexpr std::uint64_t kTimesTheTrace = 64, kAtLeast = std::uint64_t(256) << 20;
    const auto bytes = std::uint64_t(std::max<std::int64_t>(sourceBytes, 0));
    return bytes > (std::numeric_limits<std::uint64_t>::max() - kAtLeast) / kTimesTheTrace ? std::numeric_limits<std::uint64_t>::max()
                                                                                           : bytes * kTimesTheTrace + kAtLeast;
}

CacheOpenResult openIndexCache(const QString &cachePath, const CacheKey &key, const CheckedCaches *checked, CacheOpenDepth depth,
                               std::span<const std::uint32_t> trustedWriters)
{
    QElapsedTimer timer;
    timer.start();
    auto mapped = std::make_shared<MappedCacheFile>();
    struct stat status { };
    QString whyNot;
    mapped->file = openRegularFileToRead(cachePath, &status, &whyNot);
    if (!mapped->file.isOpen())
        return {nullptr, whyNot == QLatin1String("none yet") ? whyNot : QStringLiteral("cannot read it: %1").arg(whyNot), false, {}, false};
    const bool ownCache = onlyThisUserMayWrite(status);
    const QString writtenBy = ownCache ? QString() : userNameOf(status.st_uid);
    auto refused = [&writtenBy](QString why) { return CacheOpenResult{nullptr, std::move(why), false, writtenBy, false}; };
    // A cache someone else can write is read only when the user trusts its
    // writer and only that writer may write it (openIndexCache in cachefile.h).
    if (!ownCache) {
        const bool trusted = status.st_uid == ::geteuid()
                             || std::find(trustedWriters.begin(), trustedWriters.end(), std::uint32_t(status.st_uid)) != trustedWriters.end();
        if (!trusted || (status.st_mode & (S_IWGRP | S_IWOTH)) != 0 || status.st_nlink != 1) {
            CacheOpenResult untrusted = refused(
                !trusted ? QStringLiteral("written by %1, who is not among your trusted cache writers (%2)").arg(writtenBy, trustedCacheWritersHint())
                : status.st_nlink != 1 ? QStringLiteral("a file of %1 with another name, which anyone who holds that name may change").arg(writtenBy)
                                       : QStringLiteral("a file of %1 that others may write too").arg(writtenBy));
            untrusted.untrustedWriter = true;
            return untrusted;
        }
    }
    CacheHeader header;
    if (QString problem = headerProblem(mapped->file.get(), std::uint64_t(status.st_size), key, header); !problem.isEmpty())
        return refused(std::move(problem));
    // A cache someone else can write may change after any check. It must
    // be of this trace's content, which its writer may not even have been
    // able to read, and of a size a cache of it can have; then (so nothing
    // else is copied) only a private copy of it is checked and read, whose
    // header must be the one just checked.
    if (!ownCache) {
        if (std::uint64_t(status.st_size) > largestCacheFor(key.sourceBytes))
            return refused(QStringLiteral("written by %1 and %2 long, more than a cache of this %3 trace can be: not copied")
                               .arg(writtenBy, formatBinarySize(std::uint64_t(status.st_size)),
                                    formatBinarySize(std::uint64_t(std::max<std::int64_t>(key.sourceBytes, 0)))));
        CacheKey hashed = key;
        if (!hashed.sourceContentHash && !hashed.hashContent())
            return refused(QStringLiteral("written by %1, and the trace cannot be read to check that the cache is of its content").arg(writtenBy));
        if (*hashed.sourceContentHash != header.sourceContentHash)
            return refused(QStringLiteral("written by %1 for another file of the same path, size and time (its content differs)").arg(writtenBy));
        mapped->file = privateCopyOf(mapped->file.get(), std::uint64_t(status.st_size), &whyNot);
        if (!mapped->file.isOpen() || ::fstat(mapped->file.get(), &status) != 0)
            return refused(whyNot);
        CacheHeader copied;
        if (!headerProblem(mapped->file.get(), std::uint64_t(status.st_size), key, copied).isEmpty()
            || std::memcmp(&copied, &header, sizeof header) != 0)
            return refused(QStringLiteral("changed while it was copied"));
    }
    const int fd = mapped->file.get();
    const auto fileBytes = std::uint64_t(status.st_size);
    const std::uint64_t chunks = cacheChunkCount(header.bodyBytes);
    const std::optional<CacheFileIdentity> identity = ownCache ? identityOfCacheFile(fd, header.bodyChecksum, header.formatVersion) : std::nullopt;
    const bool passedBefore = checked && identity && checked->passed(cachePath, *identity);
    const bool summariesOnly = !passedBefore && depth == CacheOpenDepth::Summaries;
    std::vector<std::uint64_t> chunkHashes;
    if (!passedBefore) {
        chunkHashes.resize(std::size_t(chunks));
        if (!readFully(fd, chunkHashes.data(), std::size_t(chunks * sizeof(std::uint64_t)), header.bodyOffset + header.bodyBytes))
            return refused(QStringLiteral("cannot read it: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
        if (ChunkedHasher::combine(chunkHashes) != header.bodyChecksum)
            return refused(QStringLiteral("damaged (checksum mismatch)"));
        if (!summariesOnly) { // every chunk now, in parallel, through the page cache
            const std::optional<std::vector<std::uint64_t>> read = chunkHashesOfFileRange(fd, header.bodyOffset, header.bodyBytes);
            if (!read || *read != chunkHashes)
                return refused(QStringLiteral("damaged (checksum mismatch)"));
        }
    }

    void *mapping = ::mmap(nullptr, std::size_t(fileBytes), PROT_READ, MAP_SHARED, fd, 0);
    if (mapping == MAP_FAILED)
        return refused(QStringLiteral("cannot map it: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
    mapped->data = static_cast<uchar *>(mapping);
    mapped->size = fileBytes;
    const std::span<const std::uint8_t> body{mapped->data + header.bodyOffset, std::size_t(header.bodyBytes)};
    std::optional<ChunkVerifier> verifier;
    if (summariesOnly) {
        verifier.emplace(body, fd, header.bodyOffset, std::move(chunkHashes));
        // What is read through the mapping was just read by the verifier:
        // a fault must not read around it (the device's readahead window).
        ::madvise(mapped->data, std::size_t(fileBytes), MADV_RANDOM);
    }
    auto report = std::make_shared<Report>();
    try {
        CacheReader reader(body, header.bodyOffset, mapped, !passedBefore, verifier ? &*verifier : nullptr);
        QString sourcePath;
        reader(sourcePath);
        if (sourcePath != key.sourcePath)
            return refused(
                QStringLiteral("written for another file (%1)").arg(sourcePath.simplified().left(300))); // one line, whatever the cache holds
        ReportCacheAccess::report(reader, *report);
        if (!reader.atEnd())
            throw CacheDamaged("bytes are left over after the report");
        if (summariesOnly) {
            keepOnlySummaries(*report);
            if (!summariesVerified(*report, *verifier))
                throw CacheDamaged("checksum mismatch");
        }
    } catch (const CacheDamaged &e) {
        return refused(QStringLiteral("damaged (%1)").arg(QString::fromLatin1(e.what())));
    }
    if (summariesOnly) {
        if (const QString problem = checkCachedSummaries(*report); !problem.isEmpty())
            return refused(QStringLiteral("damaged (%1)").arg(problem));
    } else if (!passedBefore) {
        if (const QString problem = checkCachedReport(*report); !problem.isEmpty())
            return refused(QStringLiteral("damaged (%1)").arg(problem));
        if (checked && identity) // this user's own cache, as it is now
            checked->remember(cachePath, *identity);
    }
    // Reading the tables (and the checks, which read every index column)
    // brought pages in; what reads them next (a view, a statistic) brings
    // back only the pages it needs.
    mapped->release();
    report->loadSeconds = double(timer.nsecsElapsed()) / 1e9;
    report->indexCache = mapped;
    return {std::move(report), {}, !passedBefore && !summariesOnly, writtenBy};
}

} // namespace rankscope
