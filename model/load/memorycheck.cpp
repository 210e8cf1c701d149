#include "load/memorycheck.h"

#include "core/memoryusage.h"
#include "core/units.h"

#include <algorithm>
#include <cstdint>

namespace rankscope {

std::uint64_t availableMemoryFor(const LoadControl &control)
{
    return control.availableMemory ? control.availableMemory() : availableMemoryBytes();
}

QString memoryShortfall(const MemoryNeed &need, const LoadControl &control)
{
    const std::uint64_t available = availableMemoryFor(control);
    if (available == 0 || need.bytes <= available)
        return {};
    const QString events =
        need.events ? QStringLiteral(" (%1 events)").arg(formatInteger(std::int64_t(std::min<std::uint64_t>(need.events, INT64_MAX)))) : QString();
    return QStringLiteral("needs about %1 of memory to load%2; %3 is available")
        .arg(formatBinarySize(need.bytes), events, formatBinarySize(available));
}

} // namespace rankscope
