#pragma once
// A kernel's name as nsys' kernel reports print it under their `:base`
// and `:mangled` arguments (KernelNaming).
#include "core/report.h"
#include "stats/analysissettings.h"

namespace rankscope::stats {

// `event` is a slice of a Kernel track. A name the export lacks (no
// mangled symbol, an empty short name) falls back to the demangled one,
// as nsys does.
inline StringId kernelName(const Report &report, const Track &track, std::size_t event, KernelNaming naming)
{
    const StringId demangled = track.slices.name(event);
    if (naming == KernelNaming::Demangled)
        return demangled;
    const KernelRecord &k = report.kernels[track.slices.payload(event)];
    const StringId chosen = naming == KernelNaming::Base ? k.shortName : k.mangledName;
    return chosen != StringTable::kEmpty ? chosen : demangled;
}

} // namespace rankscope::stats
