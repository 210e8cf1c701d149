#pragma once
// Reads a whole file, inflating it when it is gzip (by its magic bytes, not
// its name). Concatenated gzip members are read one after another.
#include <QString>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>

namespace rankscope {

// A byte buffer that grows without zero-filling (a trace is gigabytes; the
// bytes are overwritten at once) and keeps spare capacity after its end.
// The bytes every live buffer holds are counted process-wide, so that gzip
// input is bounded for all the files loading at once, not for each alone.
class ByteBuffer {
public:
    ByteBuffer() = default;
    ~ByteBuffer() { release(); }
    ByteBuffer(const ByteBuffer &) = delete;
    ByteBuffer &operator=(const ByteBuffer &) = delete;
    ByteBuffer(ByteBuffer &&other) noexcept { *this = std::move(other); }
    ByteBuffer &operator=(ByteBuffer &&other) noexcept;
    // The bytes all live buffers hold, and the most gzip input may inflate
    // them to (default: half of the machine's memory).
    static std::size_t liveBytes();
    static std::size_t inflateBudget();
    static void setInflateBudget(std::size_t bytes); // tests
    char *data() { return m_data.get(); }
    const char *data() const { return m_data.get(); }
    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_capacity; }
    std::string_view view() const { return {m_data.get(), m_size}; }
    void reserve(std::size_t capacity);
    // Makes room for `n` more bytes and returns where they go; commit() them.
    char *grow(std::size_t n);
    void commit(std::size_t n);
    // Lets the first `n` bytes go: the rest moves to the front.
    void dropFront(std::size_t n);
    void release();

private:
    std::unique_ptr<char[]> m_data;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0;
};

// Appends the (decompressed) content to `out`, keeping `extraCapacity`
// spare bytes after it (parsers that read past the end need padding).
// On failure returns false and sets `error`, naming the byte offset.
//
// Against gzip bombs: `plausibleStart`, when given, sees the first
// decompressed bytes (up to 4 KiB) and can refuse them before the rest is
// inflated; and the text of all the files loading at once stays within
// ByteBuffer::inflateBudget() (half of the machine's memory).
bool readMaybeGzip(const QString &path, ByteBuffer &out, std::size_t extraCapacity, QString *error,
                   const std::function<bool(std::string_view start)> &plausibleStart = {});
bool isGzipFile(const QString &path);
// What readMaybeGzip() will hold at least, without reading it all: the
// size of a plain file, the size a gzip file's trailer states (0 unknown).
std::uint64_t contentBytesAtLeast(const QString &path);

} // namespace rankscope
