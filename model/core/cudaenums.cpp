#include "core/cudaenums.h"

#include <array>

namespace rankscope {

namespace {
template <std::size_t N>
QString lookup(const std::array<const char *, N> &labels, int id, const char *fallback)
{
    return id >= 0 && std::size_t(id) < N ? QString::fromLatin1(labels[std::size_t(id)]) : QString::fromLatin1(fallback);
}
} // namespace

QString builtinMemcpyKindLabel(int kind)
{
    static constexpr std::array<const char *, 14> labels{
        "Unknown",        "Host-to-Device",         "Device-to-Host",         "Host-to-Array",           "Array-to-Host",
        "Array-to-Array", "Array-to-Device",        "Device-to-Array",        "Device-to-Device",        "Host-to-Host",
        "Peer-to-Peer",   "Unified Host-to-Device", "Unified Device-to-Host", "Unified Device-to-Device"};
    return lookup(labels, kind, "Unknown");
}

QString builtinMemoryKindLabel(int kind)
{
    static constexpr std::array<const char *, 8> labels{"Pageable", "Pinned",        "Device",         "Array",
                                                        "Managed",  "Device Static", "Managed Static", "Unknown"};
    return lookup(labels, kind, "Unknown");
}

QString builtinSyncKindLabel(int kind)
{
    static constexpr std::array<const char *, 5> labels{"Unknown", "Event sync", "Stream wait event", "Stream sync", "Context sync"};
    return lookup(labels, kind, "Unknown");
}

QString memcpyKindShortName(MemcpyKind kind)
{
    static constexpr std::array<const char *, 14> names{"Unknown", "HtoD", "DtoH", "HtoA", "AtoH",       "AtoA",       "AtoD",
                                                        "DtoA",    "DtoD", "HtoH", "PtoP", "HtoD (UVM)", "DtoH (UVM)", "DtoD (UVM)"};
    return lookup(names, int(kind), "Unknown");
}

} // namespace rankscope
