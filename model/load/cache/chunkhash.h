#pragma once
// The checksum of an index cache's body: the body cut into 8 MiB chunks,
// each hashed with XXH3-64, and the chunks' hashes hashed again. Chunks let
// the reader check a body on every core at once, and XXH3 runs at memory
// speed (zlib's CRC-32 was a third of a 1M-event open; XXH3 is ~1/10 of
// that). It finds damage, it does not stop forgery: the checks of
// cachechecks.h stand between a cache and any index a reader follows.
#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

struct XXH3_state_s;

namespace rankscope {

constexpr std::uint64_t kCacheChecksumChunk = std::uint64_t(8) << 20;

// Streams bytes in, in any pieces; finish() gives the body's checksum.
class ChunkedHasher {
public:
    ChunkedHasher();
    ~ChunkedHasher();
    ChunkedHasher(const ChunkedHasher &) = delete;
    ChunkedHasher &operator=(const ChunkedHasher &) = delete;

    void update(const void *data, std::size_t bytes);
    std::uint64_t finish();

    // The checksum of bytes that are all at hand.
    static std::uint64_t of(std::span<const char> bytes);
    // Of the chunks' own hashes, in order.
    static std::uint64_t combine(const std::vector<std::uint64_t> &chunkHashes);

private:
    XXH3_state_s *m_state;
    std::uint64_t m_inChunk = 0;
    std::vector<std::uint64_t> m_chunkHashes;
};

// The checksum of `bytes` bytes of the file from `offset`, read with pread
// in parallel on the load pool (the pages go to the page cache, not to this
// process's resident memory). Empty when the file cannot be read.
std::optional<std::uint64_t> checksumOfFileRange(const QString &path, std::uint64_t offset, std::uint64_t bytes);

} // namespace rankscope
