#include "load/cache/checkedcaches.h"

#include "core/safefiles.h"
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>

#include <ctime>
#include <sys/stat.h>
#include <unistd.h>

namespace rankscope {

namespace {

// What a record holds: the identity, and the path it is for (a record
// file named by a hash of another path is not taken as this one's).
constexpr char kRecordMagic[8] = {'R', 'S', 'C', 'H', 'E', 'C', 'K', '1'};

std::int64_t nsOf(const timespec &t)
{
    return std::int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

std::int64_t nowNs()
{
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return nsOf(now);
}

QByteArray recordOf(const QString &cachePath, const CacheFileIdentity &identity)
{
    QByteArray record(kRecordMagic, sizeof kRecordMagic);
    record.append(reinterpret_cast<const char *>(&identity), sizeof identity);
    record.append(QFileInfo(cachePath).absoluteFilePath().toUtf8());
    return record;
}

} // namespace

std::optional<CacheFileIdentity> identityOfCacheFile(int fd, std::uint64_t bodyChecksum, std::uint32_t formatVersion)
{
    struct stat st { };
    if (::fstat(fd, &st) != 0)
        return std::nullopt;
    CacheFileIdentity identity;
    identity.device = std::uint64_t(st.st_dev);
    identity.inode = std::uint64_t(st.st_ino);
    identity.bytes = std::int64_t(st.st_size);
    identity.modifiedNs = nsOf(st.st_mtim);
    identity.changedNs = nsOf(st.st_ctim);
    identity.bodyChecksum = bodyChecksum;
    identity.formatVersion = formatVersion;
    return identity;
}

QString CheckedCaches::recordPathFor(const QString &cachePath) const
{
    const QByteArray digest = QCryptographicHash::hash(QFileInfo(cachePath).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1).toHex();
    return QDir(m_directory).filePath(QString::fromLatin1(digest.left(24)) + QStringLiteral(".checked"));
}

bool CheckedCaches::passed(const QString &cachePath, const CacheFileIdentity &identity) const
{
    if (!isEnabled())
        return false;
    // A record is taken only from a file of this user's that no one else
    // can write: one planted in a folder others share would skip the checks.
    struct stat status { };
    const FileDescriptor record = openRegularFileToRead(recordPathFor(cachePath), &status, nullptr);
    if (!record.isOpen() || !onlyThisUserMayWrite(status))
        return false;
    const QByteArray expected = recordOf(cachePath, identity);
    if (status.st_size != expected.size())
        return false;
    QByteArray stored(expected.size(), Qt::Uninitialized);
    return readFully(record.get(), stored.data(), std::size_t(stored.size()), 0) && stored == expected;
}

void CheckedCaches::remember(const QString &cachePath, const CacheFileIdentity &identity) const
{
    if (identity.changedNs > nowNs() - m_settleNs || identity.modifiedNs > nowNs() - m_settleNs)
        return;
    rememberWritten(cachePath, identity);
}

void CheckedCaches::rememberWritten(const QString &cachePath, const CacheFileIdentity &identity) const
{
    if (!isEnabled())
        return;
    if (!makeFolderPath(m_directory))
        return; // nothing remembered: the next open checks in full again
    // Nothing lost when it fails: the next open checks in full again.
    writeFileAtomically(recordPathFor(cachePath), recordOf(cachePath, identity), 0600);
}

} // namespace rankscope
