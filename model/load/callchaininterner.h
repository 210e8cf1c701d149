#pragma once
// Builds a report's CpuSampling callchains while a loader reads them: each
// distinct frame stored once, each distinct chain of frames stored once.
#include "core/cpusampling.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace rankscope {

class CallchainInterner {
public:
    // The deepest chain kept: nsys unwinds at most a few hundred frames, so
    // deeper is a damaged table; the innermost frames are the ones kept.
    static constexpr std::size_t kMaxFrames = 1024;

    explicit CallchainInterner(CpuSampling &sampling);

    std::uint32_t frame(const CallFrame &frame);
    // The row of the chain of these frame rows (innermost first), added if new.
    std::uint32_t chain(const std::vector<std::uint32_t> &frames);

private:
    CpuSampling &m_sampling;
    std::unordered_map<std::uint64_t, std::uint32_t> m_frames; // (function, module) -> rows by flags below
    std::unordered_map<std::string, std::uint32_t> m_chains;   // frame rows as bytes -> chain row
};

} // namespace rankscope
