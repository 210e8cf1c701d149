#include "load/cache/chunkhash.h"

#include "load/workerpool.h"

#include <algorithm>
#include <atomic>
#include <fcntl.h>
#include <memory>
#include <unistd.h>
#include <xxhash.h>

namespace rankscope {

ChunkedHasher::ChunkedHasher() : m_state(XXH3_createState())
{
    if (!m_state)
        throw std::bad_alloc();
    XXH3_64bits_reset(m_state);
}

ChunkedHasher::~ChunkedHasher()
{
    XXH3_freeState(m_state);
}

void ChunkedHasher::update(const void *data, std::size_t bytes)
{
    const auto *at = static_cast<const char *>(data);
    while (bytes > 0) {
        const std::size_t take = std::size_t(std::min<std::uint64_t>(bytes, kCacheChecksumChunk - m_inChunk));
        XXH3_64bits_update(m_state, at, take);
        m_inChunk += take;
        at += take;
        bytes -= take;
        if (m_inChunk == kCacheChecksumChunk) {
            m_chunkHashes.push_back(XXH3_64bits_digest(m_state));
            XXH3_64bits_reset(m_state);
            m_inChunk = 0;
        }
    }
}

std::uint64_t ChunkedHasher::finish(std::vector<std::uint64_t> *chunkHashes)
{
    if (m_inChunk > 0 || m_chunkHashes.empty())
        m_chunkHashes.push_back(XXH3_64bits_digest(m_state));
    XXH3_64bits_reset(m_state);
    m_inChunk = 0;
    const std::uint64_t checksum = combine(m_chunkHashes);
    if (chunkHashes)
        *chunkHashes = std::move(m_chunkHashes);
    m_chunkHashes.clear();
    return checksum;
}

std::uint64_t ChunkedHasher::of(std::span<const char> bytes)
{
    ChunkedHasher hasher;
    hasher.update(bytes.data(), bytes.size());
    return hasher.finish();
}

std::uint64_t ChunkedHasher::combine(const std::vector<std::uint64_t> &chunkHashes)
{
    return XXH3_64bits(chunkHashes.data(), chunkHashes.size() * sizeof(std::uint64_t));
}

namespace {

// The hash of `length` (at most a chunk) bytes of `fd` from `offset`; empty
// when they cannot all be read.
std::optional<std::uint64_t> hashOfFileChunk(int fd, std::uint64_t offset, std::uint64_t length)
{
    // One buffer per thread for every chunk it reads, never cleared: a
    // fresh megabyte per chunk was a page fault per 4 KiB of the file.
    thread_local std::unique_ptr<char[]> buffer(new char[kCacheChecksumChunk]);
    for (std::uint64_t done = 0; done < length;) {
        const ssize_t got = ::pread(fd, buffer.get() + done, std::size_t(length - done), off_t(offset + done));
        if (got <= 0)
            return std::nullopt;
        done += std::uint64_t(got);
    }
    return XXH3_64bits(buffer.get(), std::size_t(length));
}

} // namespace

ChunkVerifier::ChunkVerifier(std::span<const std::uint8_t> body, int fd, std::uint64_t bodyOffset, std::vector<std::uint64_t> chunkHashes)
    : m_body(body), m_fd(fd), m_bodyOffset(bodyOffset), m_chunkHashes(std::move(chunkHashes)), m_verified(m_chunkHashes.size(), false)
{
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM); // no readahead past the chunks asked for
}

bool ChunkVerifier::verify(const void *at, std::size_t bytes)
{
    if (bytes == 0) // an empty column may point anywhere: it reads nothing
        return true;
    const auto *begin = static_cast<const std::uint8_t *>(at);
    if (begin < m_body.data() || std::size_t(begin - m_body.data()) > m_body.size() || bytes > m_body.size() - std::size_t(begin - m_body.data()))
        return false;
    const std::size_t offset = std::size_t(begin - m_body.data());
    const std::size_t first = std::size_t(offset / kCacheChecksumChunk), last = std::size_t((offset + bytes - 1) / kCacheChecksumChunk);
    if (last >= m_chunkHashes.size())
        return false;
    for (std::size_t c = first; c <= last; ++c) {
        if (m_verified[c])
            continue;
        const std::size_t from = std::size_t(c * kCacheChecksumChunk);
        const std::size_t length = std::min<std::size_t>(std::size_t(kCacheChecksumChunk), m_body.size() - from);
        if (hashOfFileChunk(m_fd, m_bodyOffset + from, length) != m_chunkHashes[c])
            return false;
        m_verified[c] = true;
    }
    return true;
}

std::optional<std::vector<std::uint64_t>> chunkHashesOfFileRange(int fd, std::uint64_t offset, std::uint64_t bytes)
{
    const auto chunks = std::size_t(cacheChunkCount(bytes));
    std::vector<std::uint64_t> hashes(chunks, 0);
    std::atomic<bool> failed{false};
    parallelFor(chunks, [&](std::size_t c) {
        const std::uint64_t length = std::min(kCacheChecksumChunk, bytes - std::min(bytes, c * kCacheChecksumChunk));
        if (failed)
            return;
        if (const std::optional<std::uint64_t> hash = hashOfFileChunk(fd, offset + c * kCacheChecksumChunk, length))
            hashes[c] = *hash;
        else
            failed = true;
    });
    if (failed)
        return std::nullopt;
    return hashes;
}

std::optional<std::uint64_t> contentHashOfFile(int fd, std::uint64_t bytes)
{
    const std::optional<std::vector<std::uint64_t>> chunks = chunkHashesOfFileRange(fd, 0, bytes);
    if (!chunks)
        return std::nullopt;
    return ChunkedHasher::combine(*chunks);
}

} // namespace rankscope
