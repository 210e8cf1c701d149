#pragma once
// Files in folders other users may write (a team's shared cache folder, a
// group-writable output folder): a name there can be a planted symbolic
// link, a FIFO that blocks a reader forever, a device, a hard link to
// someone's file, or a file another user owns and can rewrite at any time.
// Reading opens the name without following a link at its last component
// and without blocking, and takes only a regular file; writing never opens
// the name at all: a new file is created under a temporary name only this
// process can have made (O_EXCL, O_NOFOLLOW), given its mode explicitly,
// synced and renamed over the name, so a planted link is replaced, never
// followed, and a planted file's mode is never kept.
#include <QIODevice>
#include <QString>
#include <optional>

#include <sys/stat.h>
#include <sys/types.h>

namespace rankscope {

// An open file descriptor, closed when it goes.
class FileDescriptor {
public:
    FileDescriptor() = default;
    explicit FileDescriptor(int fd) : m_fd(fd) { }
    FileDescriptor(FileDescriptor &&other) noexcept : m_fd(other.release()) { }
    FileDescriptor &operator=(FileDescriptor &&other) noexcept;
    FileDescriptor(const FileDescriptor &) = delete;
    FileDescriptor &operator=(const FileDescriptor &) = delete;
    ~FileDescriptor();

    int get() const { return m_fd; }
    bool isOpen() const { return m_fd >= 0; }
    int release()
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }

private:
    int m_fd = -1;
};

// Opens `path` to read if it is a regular file: a symbolic link at its last
// component is not followed, a FIFO or device is not waited on, a
// directory, socket or device is refused. `status` receives the open
// file's own status (fstat, not the name's). On failure the descriptor is
// closed and `whyNot` says why in a few words ("a symbolic link, not
// followed", "a FIFO, not a file", "none yet" when nothing has the name).
// `followLinks`: for a name the user chose (a trace), a link to a regular
// file is followed; never for a name in a folder others may write.
FileDescriptor openRegularFileToRead(const QString &path, struct stat *status, QString *whyNot, bool followLinks = false);

// What kind of file `mode` is, in a few words ("a FIFO", "a directory").
QString fileKindOf(mode_t mode);

// Whether only this user can change the file `status` describes: owned by
// this user, writable by neither group nor others, and with no other name
// (a hard link planted elsewhere is another way in).
bool onlyThisUserMayWrite(const struct stat &status);

// Whether `folder` is a folder (not a link) of this user's that no one
// else can write in.
bool isPrivateFolder(const QString &folder);

// The mode of a file derived from another (a trace's cache, a report's
// export): read and write for this user, read for group and others only
// where the source gives it, never writable by others.
mode_t modeReadableLike(mode_t sourceMode);

// Makes the folder `path` and the folders above it that are missing, each
// new one with `mode` (0700: this user's alone); false if it cannot.
bool makeFolderPath(const QString &path, mode_t mode = 0700);

// The login name of `uid`, else the number.
QString userNameOf(uid_t uid);
// The user id of a login name, or of a number given as one; none for a
// name no user has.
std::optional<std::uint32_t> userIdOf(const QString &name);

// Reads `bytes` bytes at `offset` of `fd` into `into`, retrying short
// reads; false on an error or an early end of file.
bool readFully(int fd, void *into, std::size_t bytes, std::uint64_t offset);
// Writes `bytes` bytes at `offset` of `fd`, retrying short writes; 0 on
// success, else the errno.
int writeFully(int fd, const void *from, std::size_t bytes, std::uint64_t offset);

// The permission bits a new file gets when nothing narrower is asked for:
// 0666 less this process's umask, as open(2) would give (read from
// /proc/self/status: setting the umask to read it would race with files
// other threads create).
mode_t defaultNewFileMode();

// A file written whole and put in place under its name at commit(), as one
// rename: readers see the old file or the whole new one, never part of it.
// The new file is made in the name's folder with O_CREAT | O_EXCL |
// O_NOFOLLOW under a random temporary name (a name planted there is passed
// over), its mode set to `mode` exactly (fchmod: the umask cannot widen
// it, a planted file's mode is not kept), and synced before the rename.
// Whatever held the name (a link, another user's file) is replaced, not
// written through; where the folder forbids that (another user's file in a
// sticky folder), commit() fails and says so. Seekable, for a header
// filled in last. Dropped without commit(), the temporary file is removed.
class AtomicFileWriter final : public QIODevice {
public:
    AtomicFileWriter(QString path, mode_t mode = defaultNewFileMode());
    ~AtomicFileWriter() override;

    // Creates the temporary file; false with errorString() set on failure.
    bool open(OpenMode mode = QIODevice::WriteOnly) override;
    // Syncs the file and renames it over the name; false (errorString())
    // and the temporary file removed if any step fails.
    bool commit();
    // Removes the temporary file; nothing is put in place.
    void cancel();
    bool isSequential() const override { return false; }
    int handle() const { return m_fd.get(); }
    const QString &path() const { return m_path; }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 bytes) override;

private:
    QString m_path;
    QString m_temporaryPath;
    mode_t m_mode;
    FileDescriptor m_fd;
    bool m_failed = false;
};

// Writes `bytes` to `path` with an AtomicFileWriter; an error, empty on success.
QString writeFileAtomically(const QString &path, const QByteArray &bytes, mode_t mode = defaultNewFileMode());

} // namespace rankscope
