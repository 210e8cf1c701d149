#include "load/kernelconfigs.h"

namespace rankscope {

std::size_t KernelConfigInterner::Hash::operator()(const KernelConfig &c) const
{
    std::size_t h = 1469598103934665603ull;
    for (std::uint32_t v : {c.gridX, c.gridY, c.gridZ, c.blockX, c.blockY, c.blockZ, c.registersPerThread, c.staticSharedMemory,
                            c.dynamicSharedMemory, std::uint32_t(c.launchType)})
        h = (h ^ v) * 1099511628211ull;
    return h;
}

std::uint32_t KernelConfigInterner::intern(const KernelConfig &config)
{
    const auto [it, added] = m_ids.try_emplace(config, std::uint32_t(m_configs.size()));
    if (added)
        m_configs.push_back(config);
    return it->second;
}

} // namespace rankscope
