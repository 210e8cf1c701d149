#include "load/callchaininterner.h"

#include <cstring>

namespace rankscope {

CallchainInterner::CallchainInterner(CpuSampling &sampling) : m_sampling(sampling)
{
    if (m_sampling.chainStarts.empty())
        m_sampling.chainStarts.push_back(0);
}

std::uint32_t CallchainInterner::frame(const CallFrame &frame)
{
    // function and module are 32-bit string ids; the flags take the top
    // bits of the key's module half, which no string table reaches.
    const std::uint64_t key =
        (std::uint64_t(frame.function) << 32) | (std::uint64_t(frame.module) & 0x0FFFFFFFu) | (std::uint64_t(frame.flags & 0x0F) << 28);
    if (frame.module <= 0x0FFFFFFFu) {
        if (const auto it = m_frames.find(key); it != m_frames.end())
            return it->second;
    }
    const auto row = std::uint32_t(m_sampling.frames.size());
    m_sampling.frames.push_back(frame);
    if (frame.module <= 0x0FFFFFFFu)
        m_frames.emplace(key, row);
    return row;
}

std::uint32_t CallchainInterner::chain(const std::vector<std::uint32_t> &frames)
{
    std::string key(frames.size() * sizeof(std::uint32_t), '\0');
    if (!frames.empty())
        std::memcpy(key.data(), frames.data(), key.size());
    if (const auto it = m_chains.find(key); it != m_chains.end())
        return it->second;
    const auto row = std::uint32_t(m_sampling.chainCount());
    for (std::uint32_t f : frames)
        m_sampling.chainFrames.push_back(f);
    m_sampling.chainStarts.push_back(std::uint32_t(m_sampling.chainFrames.size()));
    m_chains.emplace(std::move(key), row);
    return row;
}

} // namespace rankscope
