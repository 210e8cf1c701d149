#include "load/gzipreader.h"

#include <QFile>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

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
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read: %1").arg(file.errorString());
        return false;
    }
    const QByteArray magic = file.peek(2);
    const bool gzip = magic.size() == 2 && quint8(magic[0]) == 0x1f && quint8(magic[1]) == 0x8b;
    if (!gzip) {
        // Straight into the buffer: a multi-gigabyte trace is read once.
        const auto size = std::size_t(file.size());
        out.reserve(out.size() + size + extraCapacity);
        if (file.read(out.grow(size), qint64(size)) != qint64(size)) {
            *error = QStringLiteral("cannot read: %1").arg(file.errorString());
            return false;
        }
        out.commit(size);
        return true;
    }
    const QByteArray raw = file.readAll();
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        *error = QStringLiteral("cannot start gzip decompression");
        return false;
    }
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(raw.constData()));
    zs.avail_in = uInt(raw.size());
    out.reserve(out.size() + std::size_t(raw.size()) * 8 + extraCapacity);
    const std::size_t begin = out.size();
    const std::size_t limit = ByteBuffer::inflateBudget();
    bool startChecked = !plausibleStart;
    while (true) {
        const std::size_t room = std::max<std::size_t>(out.capacity() - out.size(), 1u << 20);
        const uInt chunk = uInt(std::min<std::size_t>(room, 1u << 30));
        zs.next_out = reinterpret_cast<Bytef *>(out.grow(chunk));
        zs.avail_out = chunk;
        // The first round inflates at most 4 KiB, for plausibleStart.
        if (!startChecked)
            zs.avail_out = std::min<uInt>(chunk, 4096);
        const uInt offered = zs.avail_out;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        out.commit(offered - zs.avail_out);
        if (!startChecked && (out.size() - begin >= 4096 || rc == Z_STREAM_END)) {
            startChecked = true;
            if (!plausibleStart(std::string_view(out.data() + begin, out.size() - begin))) {
                inflateEnd(&zs);
                *error = QStringLiteral("the gzip data does not hold what was expected (not JSON text)");
                return false;
            }
        }
        // Counted over every file loading now: two files that each inflate
        // to 40% of the memory do not both fit.
        if (ByteBuffer::liveBytes() > limit) {
            inflateEnd(&zs);
            *error = QStringLiteral("the gzip data inflates past what this machine can hold for the files loading now "
                                    "(%1 GiB, half of its memory, for all of them); not read")
                         .arg(double(limit) / double(1 << 30), 0, 'f', 1);
            return false;
        }
        if (rc == Z_STREAM_END) {
            if (zs.avail_in == 0 || inflateReset(&zs) != Z_OK)
                break; // done, or another gzip member follows
            continue;
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
            const auto offset = std::int64_t(zs.total_in);
            inflateEnd(&zs);
            *error = QStringLiteral("truncated gzip data: the stream ends at compressed byte %1 before its end marker").arg(offset);
            return false;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            const auto offset = std::int64_t(zs.total_in);
            inflateEnd(&zs);
            *error = QStringLiteral("corrupt gzip data at compressed byte %1 (%2)").arg(offset).arg(QString::fromLatin1(zs.msg ? zs.msg : "inflate failed"));
            return false;
        }
    }
    inflateEnd(&zs);
    out.reserve(out.size() + extraCapacity);
    return true;
}

} // namespace rankscope
