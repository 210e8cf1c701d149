#include "core/memoryusage.h"

#include <QByteArray>
#include <QFile>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace rankscope {

namespace {

// A "Key:   1234 kB" line of a /proc file, in bytes.
std::uint64_t procKilobytes(const char *path, const QByteArray &key)
{
    QFile file(QString::fromLatin1(path));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : file.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toULongLong() * 1024;
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

std::uint64_t availableMemoryBytes()
{
    return procKilobytes("/proc/meminfo", "MemAvailable:");
}

void releaseFreedMemory()
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

} // namespace rankscope
