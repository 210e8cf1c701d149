#include "load/gzipreader.h"

#include "load/textsource.h"

#include <QFile>
#include <QFileInfo>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace rankscope {

bool isGzipFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray magic = f.read(2);
    return magic.size() == 2 && quint8(magic[0]) == 0x1f && quint8(magic[1]) == 0x8b;
}

std::uint64_t contentBytesAtLeast(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const qint64 size = f.size();
    const QByteArray magic = f.read(2);
    const bool gzip = magic.size() == 2 && quint8(magic[0]) == 0x1f && quint8(magic[1]) == 0x8b;
    if (!gzip)
        return std::uint64_t(std::max<qint64>(size, 0));
    // A gzip member ends with ISIZE, its inflated size modulo 2^32 (RFC
    // 1952): the true size is ISIZE + k * 2^32, never less. With several
    // members it is the last one's, still a lower bound of the whole.
    if (size < 18 || !f.seek(size - 4))
        return 0;
    const QByteArray trailer = f.read(4);
    if (trailer.size() != 4)
        return 0;
    return std::uint64_t(quint8(trailer[0])) | std::uint64_t(quint8(trailer[1])) << 8 | std::uint64_t(quint8(trailer[2])) << 16
           | std::uint64_t(quint8(trailer[3])) << 24;
}

namespace {

std::atomic<std::size_t> g_liveBytes{0};

std::size_t halfOfPhysicalMemory()
{
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? std::size_t(pages) * std::size_t(pageSize) / 2 : std::size_t(8) << 30;
}

std::atomic<std::size_t> g_inflateBudget{halfOfPhysicalMemory()};

} // namespace

std::size_t ByteBuffer::liveBytes()
{
    return g_liveBytes.load(std::memory_order_relaxed);
}

std::size_t ByteBuffer::inflateBudget()
{
    return g_inflateBudget.load(std::memory_order_relaxed);
}

void ByteBuffer::setInflateBudget(std::size_t bytes)
{
    g_inflateBudget = bytes;
}

void ByteBuffer::commit(std::size_t n)
{
    m_size += n;
    g_liveBytes += n;
}

ByteBuffer &ByteBuffer::operator=(ByteBuffer &&other) noexcept
{
    if (this != &other) {
        release();
        m_data = std::move(other.m_data);
        m_size = std::exchange(other.m_size, 0);
        m_capacity = std::exchange(other.m_capacity, 0);
    }
    return *this;
}

void ByteBuffer::dropFront(std::size_t n)
{
    n = std::min(n, m_size);
    if (n < m_size)
        std::memmove(m_data.get(), m_data.get() + n, m_size - n);
    m_size -= n;
    g_liveBytes -= n;
}

void ByteBuffer::release()
{
    g_liveBytes -= m_size;
    m_data.reset();
    m_size = m_capacity = 0;
}

void ByteBuffer::reserve(std::size_t capacity)
{
    if (capacity <= m_capacity)
        return;
    auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
#ifdef MADV_HUGEPAGE
    // Huge pages turn ~250k page faults per GiB into ~500 (this machine's
    // kernel only gives them on request).
    if (capacity >= (std::size_t(32) << 20)) {
        const auto page = std::uintptr_t(4096);
        const auto first = (reinterpret_cast<std::uintptr_t>(bigger.get()) + page - 1) & ~(page - 1);
        const auto last = (reinterpret_cast<std::uintptr_t>(bigger.get()) + capacity) & ~(page - 1);
        if (last > first)
            madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
    }
#endif
    if (m_size)
        std::memcpy(bigger.get(), m_data.get(), m_size);
    m_data = std::move(bigger);
    m_capacity = capacity;
}

char *ByteBuffer::grow(std::size_t n)
{
    if (m_capacity - m_size < n)
        reserve(std::max(m_capacity * 2, m_size + n));
    return m_data.get() + m_size;
}

bool readMaybeGzip(const QString &path, ByteBuffer &out, std::size_t extraCapacity, QString *error,
                   const std::function<bool(std::string_view start)> &plausibleStart)
{
    TextSource source(path);
    if (source.failed()) {
        *error = source.error();
        return false;
    }
    if (!source.isGzip()) {
        // Straight into the buffer: a multi-gigabyte trace is read once.
        const auto size = std::size_t(std::max<qint64>(QFileInfo(path).size(), 0));
        out.reserve(out.size() + size + extraCapacity);
    } else {
        out.reserve(out.size() + std::size_t(std::max<qint64>(QFileInfo(path).size(), 0)) * 8 + extraCapacity);
    }
    const std::size_t begin = out.size();
    const std::size_t limit = ByteBuffer::inflateBudget();
    bool startChecked = !plausibleStart || !source.isGzip();
    while (!source.atEnd()) {
        // The first round inflates at most 4 KiB, for plausibleStart.
        const std::size_t room = std::max<std::size_t>(out.capacity() - out.size(), 1u << 20);
        const std::size_t chunk = startChecked ? room : std::min<std::size_t>(room, 4096);
        out.commit(source.read(out.grow(chunk), chunk));
        if (source.failed()) {
            *error = source.error();
            return false;
        }
        if (!startChecked && (out.size() - begin >= 4096 || source.atEnd())) {
            startChecked = true;
            if (!plausibleStart(std::string_view(out.data() + begin, out.size() - begin))) {
                *error = QStringLiteral("the gzip data does not hold what was expected (not JSON text)");
                return false;
            }
        }
        // Counted over every file loading now: two files that each inflate
        // to 40% of the memory do not both fit.
        if (source.isGzip() && ByteBuffer::liveBytes() > limit) {
            *error = QStringLiteral("the gzip data inflates past what this machine can hold for the files loading now "
                                    "(%1 GiB, half of its memory, for all of them); not read")
                         .arg(double(limit) / double(1 << 30), 0, 'f', 1);
            return false;
        }
    }
    out.reserve(out.size() + extraCapacity);
    return true;
}

} // namespace rankscope
