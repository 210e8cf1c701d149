#pragma once
// Stores each distinct kernel launch configuration once while loading.
#include "core/report.h"

#include <unordered_map>

namespace rankscope {

class KernelConfigInterner {
public:
    explicit KernelConfigInterner(Column<KernelConfig> &configs) : m_configs(configs) { }
    std::uint32_t intern(const KernelConfig &config);

private:
    struct Hash {
        std::size_t operator()(const KernelConfig &c) const;
    };
    Column<KernelConfig> &m_configs;
    std::unordered_map<KernelConfig, std::uint32_t, Hash> m_ids;
};

} // namespace rankscope
