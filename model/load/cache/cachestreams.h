#pragma once
// The two walkers of reportfields.h: CacheWriter appends a report's members
// to a file, CacheReader takes them back from a mapped one. Numbers are
// stored as the machine holds them (the header records the byte order).
//
// A body is two parts: the columns' values, each padded to 64 bytes so the
// reader hands out a view of the mapping instead of a copy, then the
// outline: everything else in walking order (counts, numbers, texts, lists)
// with each column's length and place, and last the outline's length.
// Opening walks only the outline, a few contiguous pages, instead of
// touching every column's page scattered through a file of tens of MB: from
// a cold disk that is one read per cache instead of one per column.
#include "core/column.h"
#include "core/timetypes.h"
#include "load/cache/chunkhash.h"

#include <QIODevice>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace rankscope {

constexpr std::size_t kCacheColumnAlignment = 64;

// Why a cache cannot be used; the reader throws it, the caller rebuilds.
struct CacheDamaged : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class CacheWriter {
public:
    static constexpr bool kWriting = true;

    // Appends to `file` from its current position; `offset` is that
    // position's place in the cache file (for the columns' alignment).
    CacheWriter(QIODevice &file, std::uint64_t offset) : m_file(file), m_offset(offset) { }

    template <class T>
    void operator()(const Column<T> &column)
    {
        pad();
        const std::uint64_t count = column.size(), place = m_offset;
        outline(&count, sizeof count);
        outline(&place, sizeof place);
        toFile(column.data(), column.size() * sizeof(T));
    }
    void operator()(const QString &text)
    {
        const QByteArray utf8 = text.toUtf8();
        const auto bytes = std::uint32_t(utf8.size());
        outline(&bytes, sizeof bytes);
        outline(utf8.constData(), std::size_t(utf8.size()));
    }
    void operator()(const std::vector<QString> &texts)
    {
        list(texts, [this](const QString &text) { (*this)(text); });
    }
    template <class T>
    void operator()(const std::optional<T> &value)
    {
        (*this)(value.has_value());
        if (value)
            (*this)(*value);
    }
    template <class K, class T>
    void operator()(const std::map<K, T> &map)
    {
        (*this)(std::uint64_t(map.size()));
        for (const auto &[key, value] : map) {
            (*this)(key);
            (*this)(value);
        }
    }
    void operator()(bool value)
    {
        const std::uint8_t byte = value ? 1 : 0;
        outline(&byte, 1);
    }
    template <class T>
    requires std::is_trivially_copyable_v<T> &&(!std::is_same_v<T, bool>)void operator()(const T &value) { outline(&value, sizeof value); }
    template <class T, class Each>
    void list(const std::vector<T> &items, Each &&each)
    {
        (*this)(std::uint64_t(items.size()));
        for (const T &item : items)
            each(item);
    }
    template <class A, class B, class C>
    void checkStrings(const A &, const B &, const C &)
    {
    }

    // Writes the outline and its length after the columns; call once, last.
    void finishOutline()
    {
        const std::uint64_t bytes = std::uint64_t(m_outline.size());
        toFile(m_outline.constData(), m_outline.size());
        toFile(&bytes, sizeof bytes);
        m_outline.clear();
    }
    std::uint64_t offset() const { return m_offset; }
    // The checksum of everything written and its chunks' hashes
    // (chunkhash.h); call once, at the end.
    std::uint64_t finishChecksum(std::vector<std::uint64_t> *chunkHashes) { return m_hasher.finish(chunkHashes); }

private:
    void outline(const void *data, std::size_t bytes) { m_outline.append(static_cast<const char *>(data), qsizetype(bytes)); }
    void toFile(const void *data, std::size_t bytes)
    {
        if (bytes == 0)
            return;
        if (m_file.write(static_cast<const char *>(data), qint64(bytes)) != qint64(bytes))
            throw std::runtime_error(m_file.errorString().toStdString());
        m_hasher.update(data, bytes);
        m_offset += bytes;
    }
    void pad()
    {
        static constexpr char zeros[kCacheColumnAlignment] = {};
        toFile(zeros, (kCacheColumnAlignment - m_offset % kCacheColumnAlignment) % kCacheColumnAlignment);
    }

    QIODevice &m_file;
    std::uint64_t m_offset;
    QByteArray m_outline;
    ChunkedHasher m_hasher;
};

class CacheReader {
public:
    static constexpr bool kWriting = false;

    // Reads `body`, which starts at `offset` in the file and stays mapped
    // while `mapping` lives. Without `checkStrings`, the string table is
    // taken as it is: for a cache that passed every check before
    // (checkedcaches.h), so opening it reads no text.
    // With `verifier`, the body was not checked whole: the outline and the
    // string table are checked by their chunks before they are read (and
    // the caller checks the other columns it keeps).
    CacheReader(std::span<const std::uint8_t> body, std::uint64_t offset, std::shared_ptr<const void> mapping, bool checkStrings = true,
                ChunkVerifier *verifier = nullptr)
        : m_offset(offset), m_mapping(std::move(mapping)), m_checkStrings(checkStrings), m_verifier(verifier)
    {
        std::uint64_t outlineBytes = 0;
        if (body.size() < sizeof outlineBytes)
            throw CacheDamaged("the file ends early");
        verified(body.data() + body.size() - sizeof outlineBytes, sizeof outlineBytes);
        std::memcpy(&outlineBytes, body.data() + body.size() - sizeof outlineBytes, sizeof outlineBytes);
        if (outlineBytes > body.size() - sizeof outlineBytes)
            throw CacheDamaged("its outline is longer than the file");
        m_columns = body.first(body.size() - sizeof outlineBytes - std::size_t(outlineBytes));
        m_outline = body.subspan(m_columns.size(), std::size_t(outlineBytes));
        verified(m_outline.data(), m_outline.size());
    }

    template <class T>
    void operator()(Column<T> &column)
    {
        const std::uint64_t count = number<std::uint64_t>(), place = number<std::uint64_t>();
        if (place < m_offset || place - m_offset > m_columns.size() || count > (m_columns.size() - (place - m_offset)) / sizeof(T))
            throw CacheDamaged("a column runs past the end of the file");
        const auto *values = reinterpret_cast<const T *>(m_columns.data() + (place - m_offset));
        if (place % kCacheColumnAlignment != 0 || reinterpret_cast<std::uintptr_t>(values) % alignof(T) != 0)
            throw CacheDamaged("a column is not aligned");
        column = Column<T>::mapped({values, std::size_t(count)}, m_mapping);
    }
    void operator()(QString &text)
    {
        const auto bytes = number<std::uint32_t>();
        if (bytes > remaining())
            throw CacheDamaged("a text runs past the end of the file");
        text = QString::fromUtf8(reinterpret_cast<const char *>(m_outline.data() + m_at), qsizetype(bytes));
        m_at += bytes;
    }
    void operator()(std::vector<QString> &texts)
    {
        list(texts, [this](QString &text) { (*this)(text); });
    }
    template <class T>
    void operator()(std::optional<T> &value)
    {
        bool present = false;
        (*this)(present);
        value.reset();
        if (present)
            (*this)(value.emplace());
    }
    template <class K, class T>
    void operator()(std::map<K, T> &map)
    {
        const std::uint64_t count = number<std::uint64_t>();
        if (count > remaining())
            throw CacheDamaged("a table's length runs past the end of the file");
        map.clear();
        for (std::uint64_t i = 0; i < count; ++i) {
            K key{};
            T value{};
            (*this)(key);
            (*this)(value);
            map.emplace(std::move(key), std::move(value));
        }
    }
    void operator()(bool &value)
    {
        const auto byte = number<std::uint8_t>();
        if (byte > 1)
            throw CacheDamaged("a flag is neither 0 nor 1");
        value = byte == 1;
    }
    template <class T>
    requires std::is_trivially_copyable_v<T> &&(!std::is_same_v<T, bool>)void operator()(T &value) { value = number<T>(); }
    template <class T, class Each>
    void list(std::vector<T> &items, Each &&each)
    {
        const std::uint64_t count = number<std::uint64_t>();
        // Every item takes at least a byte: a longer list is damage, not a
        // reason to allocate.
        if (count > remaining())
            throw CacheDamaged("a list's length runs past the end of the file");
        // Grown as items are read, so a damaged length costs the bytes
        // actually there, not count times an item's size.
        items.clear();
        items.reserve(std::size_t(std::min<std::uint64_t>(count, 1024)));
        for (std::uint64_t i = 0; i < count; ++i)
            each(items.emplace_back());
    }
    // The string table's parts agree: offsets ascend within the texts, each
    // text ends with its NUL, and every slot names a string or none (when
    // the reader checks strings).
    void checkStrings(const Column<std::uint64_t> &offsets, const Column<char> &texts, const Column<std::uint32_t> &slotTable) const;

    // The whole outline was read.
    bool atEnd() const { return m_at == m_outline.size(); }

private:
    void verified(const void *at, std::size_t bytes) const
    {
        if (m_verifier && !m_verifier->verify(at, bytes))
            throw CacheDamaged("checksum mismatch");
    }
    std::size_t remaining() const { return m_outline.size() - m_at; }
    template <class T>
    T number()
    {
        if (sizeof(T) > remaining())
            throw CacheDamaged("the file ends early");
        T value;
        std::memcpy(&value, m_outline.data() + m_at, sizeof(T));
        m_at += sizeof(T);
        return value;
    }

    std::span<const std::uint8_t> m_columns; // the body's first part
    std::span<const std::uint8_t> m_outline; // the outline, read in order
    std::uint64_t m_offset;                  // the body's place in the file
    std::size_t m_at = 0;
    std::shared_ptr<const void> m_mapping;
    bool m_checkStrings = true;
    ChunkVerifier *m_verifier = nullptr;
};

} // namespace rankscope
