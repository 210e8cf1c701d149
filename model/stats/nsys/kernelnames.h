#pragma once
// A kernel's name as nsys' kernel reports print it under their `:base`,
// `:mangled` (KernelNaming) and `:nvtx-name` arguments.
#include "core/report.h"
#include "stats/analysissettings.h"

#include <QString>

#include <compare>
#include <map>
#include <vector>

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

// A kernel's name in a report: its name under the naming and, under
// `:nvtx-name`, the NVTX range around its launch; both the report's strings.
struct KernelLabel {
    static constexpr StringId kNoRange = ~StringId(0);
    StringId range = kNoRange;
    StringId name = 0;
    auto operator<=>(const KernelLabel &) const = default;
};

// The labels of a report's kernels. Under `:nvtx-name` a kernel is named
// "<range>/<kernel>" after the innermost NVTX range (push/pop, or start/end
// ending on its thread; its message) that holds its launching call on that
// thread; a kernel launched outside every range keeps its name. The ranges
// are found once per report, when first asked.
class KernelLabels {
public:
    KernelLabels(KernelNaming naming, bool nvtxPrefix) : m_naming(naming), m_nvtxPrefix(nvtxPrefix) { }
    // `track` is one of report.tracks, a Kernel track.
    KernelLabel of(const Report &report, const Track &track, std::size_t event);
    static QString text(const Report &report, const KernelLabel &label);
    bool prefixed() const { return m_nvtxPrefix; }

private:
    KernelNaming m_naming;
    bool m_nvtxPrefix;
    // Per report, per track, per kernel: its range (kNoRange: none).
    std::map<const Report *, std::vector<std::vector<StringId>>> m_ranges;
};

} // namespace rankscope::stats
