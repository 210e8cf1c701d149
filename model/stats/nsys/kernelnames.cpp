#include "stats/nsys/kernelnames.h"

#include "stats/nsys/nvtxranges.h"

namespace rankscope::stats {

namespace {

// Each kernel's innermost NVTX range around its launch: the ranges are
// visited parents first, so a range inside another names the kernels it
// holds after the one around it did.
std::vector<std::vector<StringId>> kernelRanges(const Report &report)
{
    std::vector<std::vector<StringId>> ranges(report.tracks.size());
    for (std::size_t t = 0; t < report.tracks.size(); ++t)
        if (report.tracks[t].kind == TrackKind::Kernel)
            ranges[t].assign(report.tracks[t].slices.size(), KernelLabel::kNoRange);
    const NvtxRangeForest forest = nvtxRangeForest(report, false);
    const std::vector<std::uint32_t> apiTracks = apiTrackOfEachTrack(report);
    for (const NvtxRangeNode &node : forest.nodes) {
        const StringId name = report.tracks[node.at.track].slices.name(node.at.event);
        forEachLaunchInside(report, apiTracks, node, [&](const TrackEvent &op, std::uint32_t) {
            if (report.tracks[op.track].kind == TrackKind::Kernel)
                ranges[op.track][op.event] = name;
        });
    }
    return ranges;
}

} // namespace

KernelLabel KernelLabels::of(const Report &report, const Track &track, std::size_t event)
{
    KernelLabel label;
    label.name = kernelName(report, track, event, m_naming);
    if (!m_nvtxPrefix)
        return label;
    auto ranges = m_ranges.find(&report);
    if (ranges == m_ranges.end())
        ranges = m_ranges.emplace(&report, kernelRanges(report)).first;
    label.range = ranges->second[std::size_t(&track - report.tracks.data())][event];
    return label;
}

QString KernelLabels::text(const Report &report, const KernelLabel &label)
{
    const QString name = report.strings.string(label.name);
    return label.range == KernelLabel::kNoRange ? name : report.strings.string(label.range) + QLatin1Char('/') + name;
}

} // namespace rankscope::stats
