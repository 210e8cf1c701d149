#include "load/textsource.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace rankscope {

namespace {

constexpr std::size_t kCompressedChunkBytes = std::size_t(1) << 20;

} // namespace

struct TextSource::Inflater {
    z_stream stream{};
    std::vector<unsigned char> input = std::vector<unsigned char>(kCompressedChunkBytes);
    bool started = false;
    bool inputEnded = false;              // the file has no more compressed bytes
    std::int64_t earlierMembersBytes = 0; // compressed bytes of the members before this one
    std::int64_t compressedOffset() const { return earlierMembersBytes + std::int64_t(stream.total_in); }
    ~Inflater()
    {
        if (started)
            inflateEnd(&stream);
    }
};

TextSource::TextSource(const QString &path) : m_file(path)
{
    if (!m_file.open(QIODevice::ReadOnly)) {
        fail(QStringLiteral("cannot read: %1").arg(m_file.errorString()));
        return;
    }
    m_fileSize = m_file.size();
    const QByteArray magic = m_file.peek(2);
    m_gzip = magic.size() == 2 && quint8(magic[0]) == 0x1f && quint8(magic[1]) == 0x8b;
    if (!m_gzip)
        return;
    m_inflater = std::make_unique<Inflater>();
    if (inflateInit2(&m_inflater->stream, 16 + MAX_WBITS) != Z_OK) {
        fail(QStringLiteral("cannot start gzip decompression"));
        return;
    }
    m_inflater->started = true;
}

TextSource::TextSource(std::string_view bytes) : m_fileSize(qint64(bytes.size())), m_memory(bytes), m_fromMemory(true) { }

double TextSource::fractionRead() const
{
    return m_fractionRead.load(std::memory_order_relaxed);
}

void TextSource::noteRead()
{
    const qint64 at = m_fromMemory ? m_fileSize - qint64(m_memory.size()) : m_file.pos();
    m_fractionRead.store(m_fileSize > 0 ? std::min(1.0, double(at) / double(m_fileSize)) : 1.0, std::memory_order_relaxed);
}

TextSource::~TextSource() = default;

bool TextSource::fail(const QString &error)
{
    m_error = error;
    m_atEnd = true;
    return false;
}

std::size_t TextSource::read(char *to, std::size_t capacity)
{
    if (m_atEnd || capacity == 0)
        return 0;
    struct NoteAfter {
        TextSource *source;
        ~NoteAfter() { source->noteRead(); }
    } note{this};
    if (m_fromMemory) {
        const std::size_t n = std::min(capacity, m_memory.size());
        if (n)
            std::memcpy(to, m_memory.data(), n);
        m_memory.remove_prefix(n);
        m_atEnd = m_memory.empty();
        return n;
    }
    if (m_gzip)
        return inflateInto(to, capacity);
    std::size_t got = 0;
    while (got < capacity) {
        // QIODevice::read takes a qint64 count; a few GiB at a time is plenty.
        const qint64 n = m_file.read(to + got, qint64(std::min<std::size_t>(capacity - got, std::size_t(1) << 30)));
        if (n < 0) {
            fail(QStringLiteral("cannot read: %1").arg(m_file.errorString()));
            return got;
        }
        if (n == 0) {
            m_atEnd = true;
            break;
        }
        got += std::size_t(n);
    }
    return got;
}

std::size_t TextSource::inflateInto(char *to, std::size_t capacity)
{
    z_stream &zs = m_inflater->stream;
    std::size_t got = 0;
    while (got < capacity) {
        if (zs.avail_in == 0 && !m_inflater->inputEnded) {
            const qint64 n = m_file.read(reinterpret_cast<char *>(m_inflater->input.data()), qint64(m_inflater->input.size()));
            if (n < 0) {
                fail(QStringLiteral("cannot read: %1").arg(m_file.errorString()));
                return got;
            }
            m_inflater->inputEnded = n == 0;
            zs.next_in = m_inflater->input.data();
            zs.avail_in = uInt(n);
        }
        const uInt offered = uInt(std::min<std::size_t>(capacity - got, std::size_t(1) << 30));
        zs.next_out = reinterpret_cast<Bytef *>(to + got);
        zs.avail_out = offered;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        got += offered - zs.avail_out;
        if (rc == Z_STREAM_END) {
            // Another gzip member may follow (concatenated files).
            if (zs.avail_in == 0 && !m_inflater->inputEnded) {
                const qint64 n = m_file.read(reinterpret_cast<char *>(m_inflater->input.data()), qint64(m_inflater->input.size()));
                m_inflater->inputEnded = n <= 0;
                zs.next_in = m_inflater->input.data();
                zs.avail_in = uInt(std::max<qint64>(n, 0));
            }
            m_inflater->earlierMembersBytes += std::int64_t(zs.total_in);
            if (zs.avail_in == 0 || inflateReset(&zs) != Z_OK) {
                m_atEnd = true;
                return got;
            }
            continue;
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && m_inflater->inputEnded) {
            fail(QStringLiteral("truncated gzip data: the stream ends at compressed byte %1 before its end marker")
                     .arg(m_inflater->compressedOffset()));
            return got;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            fail(QStringLiteral("corrupt gzip data at compressed byte %1 (%2)")
                     .arg(m_inflater->compressedOffset())
                     .arg(QString::fromLatin1(zs.msg ? zs.msg : "inflate failed")));
            return got;
        }
    }
    return got;
}

} // namespace rankscope
