#include "core/memoryusage.h"

#include <QByteArray>
#include <QFile>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <fcntl.h>
#include <optional>
#include <string_view>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace rankscope {

namespace {

// A "Key:\t  1234 kB" line of a /proc file, in bytes. Read into a buffer on
// the stack and scanned for the one key: a pass over a mapped cache asks
// for its resident size every thousand reads.
std::uint64_t procKilobytes(const char *path, std::string_view key)
{
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    std::array<char, 8192> buffer; // /proc/self/status is ~1.5 KB, /proc/meminfo ~1.5 KB
    std::size_t size = 0;
    for (ssize_t got; size < buffer.size() && (got = ::read(fd, buffer.data() + size, buffer.size() - size)) != 0;) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break;
        size += std::size_t(got);
    }
    ::close(fd);
    const std::string_view text(buffer.data(), size);
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        if (line.substr(0, key.size()) == key) {
            std::uint64_t kilobytes = 0;
            std::size_t i = key.size();
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                ++i;
            const auto [last, error] = std::from_chars(line.data() + i, line.data() + line.size(), kilobytes);
            return error == std::errc() ? kilobytes * 1024 : 0;
        }
        at = end + 1;
    }
    return 0;
}

} // namespace

std::uint64_t residentBytes()
{
    return procKilobytes("/proc/self/status", "VmRSS:");
}

std::uint64_t peakResidentBytes()
{
    return procKilobytes("/proc/self/status", "VmHWM:");
}

std::uint64_t residentFileBytes()
{
    return procKilobytes("/proc/self/status", "RssFile:");
}

namespace {

// A number from a one-line cgroup file ("max": none).
std::optional<std::uint64_t> cgroupValue(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray text = file.readAll().trimmed();
    bool ok = false;
    const std::uint64_t value = text.toULongLong(&ok);
    return ok ? std::optional<std::uint64_t>(value) : std::nullopt;
}

// What this process's cgroup and its ancestors still allow: the least of
// limit - usage on the way up (v2: memory.max and memory.current under the
// unified hierarchy; v1: the memory controller's memory.limit_in_bytes and
// memory.usage_in_bytes); nullopt without a limit.
std::optional<std::uint64_t> cgroupRoom()
{
    QFile self(QStringLiteral("/proc/self/cgroup"));
    if (!self.open(QIODevice::ReadOnly))
        return std::nullopt;
    struct Hierarchy {
        QString root, group, limitFile, usageFile;
    };
    std::vector<Hierarchy> hierarchies;
    for (const QByteArray &line : self.readAll().split('\n')) {
        const QList<QByteArray> fields = line.split(':');
        if (fields.size() < 3)
            continue;
        const QString group = QString::fromUtf8(line.mid(fields[0].size() + fields[1].size() + 2));
        if (fields[0] == "0" && fields[1].isEmpty())
            hierarchies.push_back({QStringLiteral("/sys/fs/cgroup"), group, QStringLiteral("memory.max"), QStringLiteral("memory.current")});
        else if (fields[1].split(',').contains("memory"))
            hierarchies.push_back(
                {QStringLiteral("/sys/fs/cgroup/memory"), group, QStringLiteral("memory.limit_in_bytes"), QStringLiteral("memory.usage_in_bytes")});
    }
    // v1 writes "no limit" as the largest page-aligned 63-bit number.
    constexpr std::uint64_t kNoLimit = std::uint64_t(1) << 62;
    std::optional<std::uint64_t> room;
    for (Hierarchy &h : hierarchies) {
        for (QString group = h.group;;) {
            const QString folder = h.root + (group == QLatin1String("/") ? QString() : group);
            const std::optional<std::uint64_t> limit = cgroupValue(folder + QLatin1Char('/') + h.limitFile);
            const std::optional<std::uint64_t> used = cgroupValue(folder + QLatin1Char('/') + h.usageFile);
            if (limit && used && *limit < kNoLimit)
                room = std::min(room.value_or(UINT64_MAX), *limit > *used ? *limit - *used : 0);
            if (group.isEmpty() || group == QLatin1String("/"))
                break;
            group = group.left(std::max<qsizetype>(1, group.lastIndexOf(QLatin1Char('/'))));
        }
    }
    return room;
}

} // namespace

bool resetPeakResidentBytes()
{
    QFile file(QStringLiteral("/proc/self/clear_refs"));
    return file.open(QIODevice::WriteOnly) && file.write("5") == 1;
}

std::uint64_t availableMemoryBytes()
{
    std::uint64_t available = procKilobytes("/proc/meminfo", "MemAvailable:");
    auto atMost = [&available](std::uint64_t room) { available = available == 0 ? room : std::min(available, room); };
    // The address space this process may still take (ulimit -v): a
    // mapping past it fails however much the machine has free.
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        const std::uint64_t used = procKilobytes("/proc/self/status", "VmSize:");
        atMost(std::uint64_t(limit.rlim_cur) > used ? std::uint64_t(limit.rlim_cur) - used : 0);
    }
    if (const std::optional<std::uint64_t> room = cgroupRoom())
        atMost(*room);
    return available;
}

void releaseFreedMemory()
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

} // namespace rankscope
