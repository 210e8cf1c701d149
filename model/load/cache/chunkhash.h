#pragma once
// The checksum of an index cache's body: the body cut into 1 MiB chunks,
// each hashed with XXH3-64, and the chunks' hashes hashed again. Chunks let
// the reader check a body on every core at once, and check only the chunks
// it reads (a first open checks the outline and the summaries, a few MiB of
// a report's tens: cachefile.h); XXH3 runs at memory speed (zlib's CRC-32
// was a third of a 1M-event open; XXH3 is ~1/10 of that). It finds damage,
// it does not stop forgery: the checks of cachechecks.h stand between a
// cache and any index a reader follows.
#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

struct XXH3_state_s;

namespace rankscope {

constexpr std::uint64_t kCacheChecksumChunk = std::uint64_t(1) << 20;

// How many chunks a body of `bytes` has (an empty body has one, empty).
constexpr std::uint64_t cacheChunkCount(std::uint64_t bytes)
{
    return bytes == 0 ? 1 : (bytes + kCacheChecksumChunk - 1) / kCacheChecksumChunk;
}

// Streams bytes in, in any pieces; finish() gives the body's checksum.
class ChunkedHasher {
public:
    ChunkedHasher();
    ~ChunkedHasher();
    ChunkedHasher(const ChunkedHasher &) = delete;
    ChunkedHasher &operator=(const ChunkedHasher &) = delete;

    void update(const void *data, std::size_t bytes);
    // The checksum; with `chunkHashes`, the chunks' own hashes too.
    std::uint64_t finish(std::vector<std::uint64_t> *chunkHashes = nullptr);

    // The checksum of bytes that are all at hand.
    static std::uint64_t of(std::span<const char> bytes);
    // Of the chunks' own hashes, in order.
    static std::uint64_t combine(const std::vector<std::uint64_t> &chunkHashes);

private:
    XXH3_state_s *m_state;
    std::uint64_t m_inChunk = 0;
    std::vector<std::uint64_t> m_chunkHashes;
};

// Checks a mapped body chunk by chunk against the hashes recorded for its
// chunks, each chunk once: for an open that reads only part of a body. The
// chunks are read with pread from `fd` (the mapped file, readahead off), so
// a cold disk gives exactly them: faults on the mapping read around by the
// device's readahead window (8 MiB here), and a first open of a 70 MiB
// cache brought 33 MiB into the page cache instead of 6 MiB.
class ChunkVerifier {
public:
    // `chunkHashes` must be the body's (their combination its checksum);
    // `body` is its mapping, at `bodyOffset` in the file open as `fd`.
    ChunkVerifier(std::span<const std::uint8_t> body, int fd, std::uint64_t bodyOffset, std::vector<std::uint64_t> chunkHashes);

    // Whether the chunks holding `bytes` bytes at `at` (in the body) match
    // their hashes; false also when they are not all in the body.
    bool verify(const void *at, std::size_t bytes);

private:
    std::span<const std::uint8_t> m_body;
    int m_fd;
    std::uint64_t m_bodyOffset;
    std::vector<std::uint64_t> m_chunkHashes;
    std::vector<bool> m_verified;
};

// The hashes of every chunk of the `bytes` bytes of the open file `fd`
// from `offset`, read with pread in parallel on the load pool (the pages go
// to the page cache, not to this process's resident memory). Empty when
// the file cannot be read.
std::optional<std::vector<std::uint64_t>> chunkHashesOfFileRange(int fd, std::uint64_t offset, std::uint64_t bytes);

// The hash of a whole file's content, its first `bytes` bytes (what binds
// an index cache others may have written to the trace it is for): the
// chunks' hashes combined, as a cache body's checksum.
std::optional<std::uint64_t> contentHashOfFile(int fd, std::uint64_t bytes);

} // namespace rankscope
