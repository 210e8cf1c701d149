#include "gzipreader.h"

#include <QFile>
#include <zlib.h>

namespace rankscope {

bool isGzipFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray magic = f.read(2);
    return magic.size() == 2 && quint8(magic[0]) == 0x1f && quint8(magic[1]) == 0x8b;
}

bool readMaybeGzip(const QString &path, std::string &out, std::size_t extraCapacity, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read: %1").arg(file.errorString());
        return false;
    }
    const QByteArray raw = file.readAll();
    const bool gzip = raw.size() >= 2 && quint8(raw[0]) == 0x1f && quint8(raw[1]) == 0x8b;
    if (!gzip) {
        out.reserve(std::size_t(raw.size()) + extraCapacity);
        out.append(raw.constData(), std::size_t(raw.size()));
        return true;
    }
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        *error = QStringLiteral("cannot start gzip decompression");
        return false;
    }
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(raw.constData()));
    zs.avail_in = uInt(raw.size());
    out.reserve(std::size_t(raw.size()) * 8 + extraCapacity);
    int rc = Z_OK;
    while (true) {
        if (out.capacity() - out.size() < (1u << 20))
            out.reserve(out.capacity() * 2);
        const std::size_t before = out.size();
        const std::size_t room = out.capacity() - before;
        out.resize(out.capacity()); // write directly into the string
        zs.next_out = reinterpret_cast<Bytef *>(out.data() + before);
        zs.avail_out = uInt(std::min<std::size_t>(room, 1u << 30));
        rc = inflate(&zs, Z_NO_FLUSH);
        out.resize(before + (std::min<std::size_t>(room, 1u << 30) - zs.avail_out));
        if (rc == Z_STREAM_END) {
            if (zs.avail_in == 0)
                break;
            // Another gzip member follows.
            if (inflateReset(&zs) != Z_OK)
                break;
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
    if (out.capacity() - out.size() < extraCapacity)
        out.reserve(out.size() + extraCapacity);
    return true;
}

} // namespace rankscope
