#include "core/safefiles.h"

#include "core/outputnames.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

namespace rankscope {

namespace {

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// How many temporary names are tried before giving up: each is 64 random
// bits, so a second try is needed only when one was planted.
constexpr int kTemporaryNameTries = 16;

} // namespace

FileDescriptor &FileDescriptor::operator=(FileDescriptor &&other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = other.release();
    }
    return *this;
}

FileDescriptor::~FileDescriptor()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

QString fileKindOf(mode_t mode)
{
    if (S_ISREG(mode))
        return QStringLiteral("a file");
    if (S_ISDIR(mode))
        return QStringLiteral("a directory");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return QStringLiteral("a device");
    if (S_ISLNK(mode))
        return QStringLiteral("a symbolic link");
    return QStringLiteral("not a file");
}

FileDescriptor openRegularFileToRead(const QString &path, struct stat *status, QString *whyNot, bool followLinks)
{
    FileDescriptor fd(::open(QFile::encodeName(path).constData(), O_RDONLY | (followLinks ? 0 : O_NOFOLLOW) | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (!fd.isOpen()) {
        const int error = errno;
        struct stat named { };
        if (whyNot)
            *whyNot = error == ENOENT  ? QStringLiteral("none yet")
                      : error == ELOOP ? QStringLiteral("a symbolic link, not followed")
                      // A socket cannot be opened at all (ENXIO): say what it is.
                      : ::lstat(QFile::encodeName(path).constData(), &named) == 0 && !S_ISREG(named.st_mode)
                          ? fileKindOf(named.st_mode) + QStringLiteral(", not a file")
                          : errnoText(error);
        return {};
    }
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0) {
        if (whyNot)
            *whyNot = errnoText(errno);
        return {};
    }
    if (!S_ISREG(st.st_mode)) {
        if (whyNot)
            *whyNot = fileKindOf(st.st_mode) + QStringLiteral(", not a file");
        return {};
    }
    // A regular file never blocks; reads after this are ordinary.
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    if (status)
        *status = st;
    return fd;
}

bool onlyThisUserMayWrite(const struct stat &status)
{
    return status.st_uid == ::geteuid() && (status.st_mode & (S_IWGRP | S_IWOTH)) == 0 && status.st_nlink == 1;
}

bool isPrivateFolder(const QString &folder)
{
    struct stat st { };
    return ::lstat(QFile::encodeName(folder).constData(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid()
           && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

mode_t modeReadableLike(mode_t sourceMode)
{
    return 0600 | (sourceMode & 0044);
}

bool makeFolderPath(const QString &path, mode_t mode)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (QFileInfo(absolute).isDir())
        return true;
    const QString parent = QFileInfo(absolute).path();
    if (parent != absolute && !makeFolderPath(parent, mode))
        return false;
    return ::mkdir(QFile::encodeName(absolute).constData(), mode) == 0 || (errno == EEXIST && QFileInfo(absolute).isDir());
}

QString userNameOf(uid_t uid)
{
    struct passwd entry { };
    struct passwd *found = nullptr;
    char buffer[4096];
    if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found && found->pw_name)
        return QString::fromLocal8Bit(found->pw_name);
    return QStringLiteral("uid %1").arg(uid);
}

std::optional<std::uint32_t> userIdOf(const QString &name)
{
    bool number = false;
    const uint id = name.toUInt(&number);
    if (number)
        return std::uint32_t(id);
    struct passwd entry { };
    struct passwd *found = nullptr;
    char buffer[4096];
    const QByteArray encoded = name.toLocal8Bit();
    if (::getpwnam_r(encoded.constData(), &entry, buffer, sizeof buffer, &found) == 0 && found)
        return std::uint32_t(found->pw_uid);
    return std::nullopt;
}

bool readFully(int fd, void *into, std::size_t bytes, std::uint64_t offset)
{
    auto *at = static_cast<char *>(into);
    while (bytes > 0) {
        const ssize_t got = ::pread(fd, at, bytes, off_t(offset));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        at += got;
        bytes -= std::size_t(got);
        offset += std::uint64_t(got);
    }
    return true;
}

int writeFully(int fd, const void *from, std::size_t bytes, std::uint64_t offset)
{
    const auto *at = static_cast<const char *>(from);
    while (bytes > 0) {
        const ssize_t n = ::pwrite(fd, at, bytes, off_t(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : ENOSPC;
        at += n;
        bytes -= std::size_t(n);
        offset += std::uint64_t(n);
    }
    return 0;
}

mode_t defaultNewFileMode()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (status.open(QIODevice::ReadOnly))
        for (const QByteArray &line : status.readAll().split('\n'))
            if (line.startsWith("Umask:")) {
                bool ok = false;
                const unsigned mask = line.mid(6).trimmed().toUInt(&ok, 8);
                if (ok)
                    return 0666 & ~mode_t(mask);
            }
    return 0644; // the usual umask, 022, where the kernel does not say
}

AtomicFileWriter::AtomicFileWriter(QString path, mode_t mode) : m_path(std::move(path)), m_mode(mode & 07777) { }

AtomicFileWriter::~AtomicFileWriter()
{
    cancel();
}

bool AtomicFileWriter::open(OpenMode mode)
{
    if (isOpen() || !(mode & QIODevice::WriteOnly) || (mode & QIODevice::ReadOnly)) {
        setErrorString(QStringLiteral("opened for writing once only"));
        return false;
    }
    const QFileInfo target(m_path);
    const QString folder = target.absolutePath();
    int lastError = 0;
    for (int attempt = 0; attempt < kTemporaryNameTries; ++attempt) {
        // A name of up to 255 bytes still gets a temporary name that fits.
        const QString candidate = folder + QStringLiteral("/.") + fileNameThatFits(target.fileName())
                                  + QStringLiteral(".%1.tmp").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
        // 0600 until the mode is set: nobody else may open it meanwhile.
        FileDescriptor fd(::open(QFile::encodeName(candidate).constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600));
        if (!fd.isOpen()) {
            lastError = errno;
            if (lastError == EEXIST || lastError == ELOOP)
                continue; // a name someone planted: take another
            break;
        }
        if (::fchmod(fd.get(), m_mode) != 0) {
            lastError = errno;
            ::unlink(QFile::encodeName(candidate).constData());
            break;
        }
        m_fd = std::move(fd);
        m_temporaryPath = candidate;
        m_failed = false;
        return QIODevice::open(mode | QIODevice::Unbuffered);
    }
    setErrorString(QStringLiteral("cannot create a file in %1: %2")
                       .arg(folder, lastError ? errnoText(lastError) : QStringLiteral("every temporary name was taken")));
    return false;
}

qint64 AtomicFileWriter::writeData(const char *data, qint64 bytes)
{
    if (const int error = writeFully(m_fd.get(), data, std::size_t(bytes), std::uint64_t(pos())); error != 0) {
        setErrorString(errnoText(error));
        m_failed = true;
        return -1;
    }
    return bytes;
}

bool AtomicFileWriter::commit()
{
    if (!isOpen() || !m_fd.isOpen())
        return false;
    auto fail = [this](const QString &why) {
        setErrorString(why);
        cancel();
        return false;
    };
    if (m_failed)
        return fail(errorString());
    if (::fsync(m_fd.get()) != 0)
        return fail(errnoText(errno));
    if (::rename(QFile::encodeName(m_temporaryPath).constData(), QFile::encodeName(m_path).constData()) != 0) {
        const int error = errno;
        struct stat holder { };
        if ((error == EPERM || error == EACCES) && ::lstat(QFile::encodeName(m_path).constData(), &holder) == 0 && holder.st_uid != ::geteuid())
            return fail(QStringLiteral("the name is held by %1 of user %2, and the folder lets only its owner replace it")
                            .arg(fileKindOf(holder.st_mode), userNameOf(holder.st_uid)));
        return fail(errnoText(error));
    }
    m_temporaryPath.clear();
    m_fd = {};
    QIODevice::close();
    return true;
}

void AtomicFileWriter::cancel()
{
    if (!m_temporaryPath.isEmpty())
        ::unlink(QFile::encodeName(m_temporaryPath).constData());
    m_temporaryPath.clear();
    m_fd = {};
    if (isOpen())
        QIODevice::close();
}

QString writeFileAtomically(const QString &path, const QByteArray &bytes, mode_t mode)
{
    AtomicFileWriter file(path, mode);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    if (file.write(bytes) != bytes.size() || !file.commit())
        return file.errorString();
    return {};
}

} // namespace rankscope
