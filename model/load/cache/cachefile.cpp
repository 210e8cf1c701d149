#include "load/cache/cachefile.h"

#include "load/cache/cachechecks.h"
#include "load/cache/cachestreams.h"
#include "load/cache/reportfields.h"
#include "load/workerpool.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <atomic>
#include <cstring>
#include <optional>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>
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
    std::uint32_t bodyCrc = 0;
    std::uint32_t headerCrc = 0; // of the header with this field 0
    std::uint64_t reserved = 0;
};
static_assert(sizeof(CacheHeader) == 64 && std::is_trivially_copyable_v<CacheHeader>);

std::uint32_t headerCrcOf(CacheHeader header)
{
    header.headerCrc = 0;
    return std::uint32_t(crc32_z(0, reinterpret_cast<const Bytef *>(&header), sizeof header));
}

// CRC-32 of `bytes` bytes from `offset`, read in chunks on the load pool
// (pread: the checked pages go to the page cache, not to this process).
std::optional<std::uint32_t> crcOfFileRange(const QString &path, std::uint64_t offset, std::uint64_t bytes)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    constexpr std::uint64_t kChunk = std::uint64_t(8) << 20;
    const std::size_t chunks = std::size_t((bytes + kChunk - 1) / kChunk);
    std::vector<std::uint32_t> crcs(chunks, 0);
    std::vector<std::uint64_t> lengths(chunks, 0);
    std::atomic<bool> failed{false};
    parallelFor(chunks, [&](std::size_t c) {
        const std::uint64_t begin = offset + c * kChunk;
        const std::uint64_t length = std::min(kChunk, bytes - c * kChunk);
        std::vector<Bytef> buffer(std::size_t(std::min<std::uint64_t>(length, std::uint64_t(1) << 20)));
        uLong crc = crc32_z(0, nullptr, 0);
        for (std::uint64_t done = 0; done < length && !failed;) {
            const std::size_t want = std::size_t(std::min<std::uint64_t>(buffer.size(), length - done));
            const ssize_t got = ::pread(fd, buffer.data(), want, off_t(begin + done));
            if (got <= 0) {
                failed = true;
                break;
            }
            crc = crc32_z(crc, buffer.data(), std::size_t(got));
            done += std::uint64_t(got);
        }
        crcs[c] = std::uint32_t(crc);
        lengths[c] = length;
    });
    ::close(fd);
    if (failed)
        return std::nullopt;
    uLong crc = crc32_z(0, nullptr, 0);
    for (std::size_t c = 0; c < chunks; ++c)
        crc = crc32_combine64(crc, crcs[c], z_off64_t(lengths[c]));
    return std::uint32_t(crc);
}

// The file stays mapped while any column of the report points into it.
struct MappedCacheFile {
    QFile file;
    uchar *data = nullptr;
    ~MappedCacheFile()
    {
        if (data)
            file.unmap(data);
    }
};

} // namespace

CacheKey CacheKey::of(const QString &tracePath)
{
    CacheKey key;
    const QFileInfo info(tracePath);
    key.sourcePath = info.canonicalFilePath().isEmpty() ? info.absoluteFilePath() : info.canonicalFilePath();
    struct stat st {};
    if (::stat(QFile::encodeName(tracePath).constData(), &st) == 0) {
        key.sourceBytes = std::int64_t(st.st_size);
        key.sourceModifiedNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    }
    return key;
}

QString writeIndexCache(const Report &report, const CacheKey &key, const QString &cachePath)
{
    QSaveFile file(cachePath);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(cachePath, file.errorString());
    try {
        CacheHeader header;
        file.write(reinterpret_cast<const char *>(&header), sizeof header); // filled in last
        CacheWriter writer(file, sizeof header);
        writer(key.sourcePath);
        ReportCacheAccess::report(writer, report);
        std::memcpy(header.magic, kMagic, sizeof kMagic);
        header.formatVersion = kIndexCacheFormatVersion;
        header.byteOrder = kByteOrderMark;
        header.bodyOffset = sizeof header;
        header.bodyBytes = writer.offset() - sizeof header;
        header.sourceBytes = key.sourceBytes;
        header.sourceModifiedNs = key.sourceModifiedNs;
        header.bodyCrc = writer.crc();
        header.headerCrc = headerCrcOf(header);
        if (!file.seek(0) || file.write(reinterpret_cast<const char *>(&header), sizeof header) != qint64(sizeof header))
            return QStringLiteral("cannot write %1: %2").arg(cachePath, file.errorString());
    } catch (const std::runtime_error &e) {
        file.cancelWriting();
        return QStringLiteral("cannot write %1: %2").arg(cachePath, QString::fromStdString(e.what()));
    }
    if (!file.commit())
        return QStringLiteral("cannot write %1: %2").arg(cachePath, file.errorString());
    return {};
}

CacheOpenResult openIndexCache(const QString &cachePath, const CacheKey &key)
{
    QElapsedTimer timer;
    timer.start();
    auto mapped = std::make_shared<MappedCacheFile>();
    mapped->file.setFileName(cachePath);
    if (!mapped->file.exists())
        return {nullptr, QStringLiteral("none yet")};
    if (!mapped->file.open(QIODevice::ReadOnly))
        return {nullptr, QStringLiteral("cannot read it: %1").arg(mapped->file.errorString())};
    const auto fileBytes = std::uint64_t(mapped->file.size());
    CacheHeader header;
    if (fileBytes < sizeof header || mapped->file.read(reinterpret_cast<char *>(&header), sizeof header) != qint64(sizeof header))
        return {nullptr, QStringLiteral("too short to be an index cache")};
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0)
        return {nullptr, QStringLiteral("not an index cache")};
    if (header.headerCrc != headerCrcOf(header))
        return {nullptr, QStringLiteral("its header is damaged")};
    if (header.byteOrder != kByteOrderMark)
        return {nullptr, QStringLiteral("written on a machine of another byte order")};
    if (header.formatVersion != kIndexCacheFormatVersion)
        return {nullptr, QStringLiteral("written by another version of Rankscope (cache format %1, this one reads %2)").arg(header.formatVersion).arg(kIndexCacheFormatVersion)};
    if (header.bodyOffset != sizeof header || header.bodyBytes != fileBytes - sizeof header)
        return {nullptr, QStringLiteral("truncated or extended (%1 bytes, the header says %2)").arg(fileBytes).arg(header.bodyOffset + header.bodyBytes)};
    if (header.sourceBytes != key.sourceBytes || header.sourceModifiedNs != key.sourceModifiedNs)
        return {nullptr, QStringLiteral("written for another version of the trace (its size or modification time changed)")};
    const std::optional<std::uint32_t> crc = crcOfFileRange(cachePath, header.bodyOffset, header.bodyBytes);
    if (!crc || *crc != header.bodyCrc)
        return {nullptr, QStringLiteral("damaged (checksum mismatch)")};

    mapped->data = mapped->file.map(0, qint64(fileBytes));
    if (!mapped->data)
        return {nullptr, QStringLiteral("cannot map it: %1").arg(mapped->file.errorString())};
    auto report = std::make_shared<Report>();
    try {
        CacheReader reader({mapped->data + header.bodyOffset, std::size_t(header.bodyBytes)}, header.bodyOffset, mapped);
        QString sourcePath;
        reader(sourcePath);
        if (sourcePath != key.sourcePath)
            return {nullptr, QStringLiteral("written for another file (%1)").arg(sourcePath.simplified().left(300))}; // one line, whatever the cache holds
        ReportCacheAccess::report(reader, *report);
        if (!reader.atEnd())
            throw CacheDamaged("bytes are left over after the report");
    } catch (const CacheDamaged &e) {
        return {nullptr, QStringLiteral("damaged (%1)").arg(QString::fromLatin1(e.what()))};
    }
    if (const QString problem = checkCachedReport(*report); !problem.isEmpty())
        return {nullptr, QStringLiteral("damaged (%1)").arg(problem)};
    report->loadSeconds = double(timer.nsecsElapsed()) / 1e9;
    report->indexCacheBytes = fileBytes;
    return {std::move(report), {}};
}

} // namespace rankscope
