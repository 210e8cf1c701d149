#include "load/cache/chunkhash.h"

#include "load/workerpool.h"

#include <QFile>

#include <algorithm>
#include <atomic>
#include <fcntl.h>
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

std::uint64_t ChunkedHasher::finish()
{
    if (m_inChunk > 0 || m_chunkHashes.empty())
        m_chunkHashes.push_back(XXH3_64bits_digest(m_state));
    XXH3_64bits_reset(m_state);
    m_inChunk = 0;
    const std::uint64_t checksum = combine(m_chunkHashes);
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

std::optional<std::uint64_t> checksumOfFileRange(const QString &path, std::uint64_t offset, std::uint64_t bytes)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    const std::size_t chunks = std::max<std::size_t>(1, std::size_t((bytes + kCacheChecksumChunk - 1) / kCacheChecksumChunk));
    std::vector<std::uint64_t> hashes(chunks, 0);
    std::atomic<bool> failed{false};
    parallelFor(chunks, [&](std::size_t c) {
        const std::uint64_t begin = offset + c * kCacheChecksumChunk;
        const std::uint64_t length = std::min(kCacheChecksumChunk, bytes - std::min(bytes, c * kCacheChecksumChunk));
        std::vector<char> buffer(std::size_t(std::min<std::uint64_t>(std::max<std::uint64_t>(length, 1), std::uint64_t(1) << 20)));
        XXH3_state_t *state = XXH3_createState();
        if (!state) {
            failed = true;
            return;
        }
        XXH3_64bits_reset(state);
        for (std::uint64_t done = 0; done < length && !failed;) {
            const std::size_t want = std::size_t(std::min<std::uint64_t>(buffer.size(), length - done));
            const ssize_t got = ::pread(fd, buffer.data(), want, off_t(begin + done));
            if (got <= 0) {
                failed = true;
                break;
            }
            XXH3_64bits_update(state, buffer.data(), std::size_t(got));
            done += std::uint64_t(got);
        }
        hashes[c] = XXH3_64bits_digest(state);
        XXH3_freeState(state);
    });
    ::close(fd);
    if (failed)
        return std::nullopt;
    return ChunkedHasher::combine(hashes);
}

} // namespace rankscope
