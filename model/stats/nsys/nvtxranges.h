#pragma once
// NVTX ranges as nsys' NVTX trace reports see them (nvtx_pushpop_trace,
// nvtx_gpu_proj_trace, nvtx_gpu_proj_sum, nvtx_kern_sum): each range with
// its tightest enclosing range on its thread, its depth and its children,
// and the GPU work launched inside it.
#include "core/report.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::stats {

struct NvtxRangeNode {
    static constexpr std::uint32_t kNoParent = 0xFFFFFFFFu;
    TrackEvent at; // the NVTX track and slice
    TimeNs start = 0, end = 0;
    bool pushPop = true;              // else start/end
    std::uint32_t parent = kNoParent; // index of the tightest enclosing range on its thread
    std::uint32_t level = 0;          // 0 at a root
    std::uint32_t children = 0;       // ranges whose parent this is
    TimeNs childDuration = 0;         // their lengths, summed
};

struct NvtxRangeForest {
    // By thread, then start, then longer first: every parent before its
    // children. A node's RangeId in the reports is its index + 1.
    std::vector<NvtxRangeNode> nodes;
    // The name nsys prints: "domain:text" (":text" in the default domain).
    std::string nameOf(const Report &report, const NvtxRangeNode &node) const;
};

// The push/pop ranges (`pushPopOnly`), or the push/pop and start/end ranges
// that end on the thread they started on, of every NVTX track. A range's
// parent is the shortest range of the set on its thread that contains it
// (start <= its start, end >= its end: what nsys calls the tightest); of
// two equal ranges the one listed first is the parent. Ranges left open
// end where the loader ended them (the last NVTX time).
NvtxRangeForest nvtxRangeForest(const Report &report, bool pushPopOnly);

// The GPU operations (kernels, copies, memsets) whose launching CUDA API
// call lies wholly inside `node` on its thread: `visit(const TrackEvent &op,
// std::uint32_t correlationId)` for each.
template <class Visit>
void forEachLaunchInside(const Report &report, const std::vector<std::uint32_t> &apiTrackOfNvtxTrack, const NvtxRangeNode &node, Visit &&visit)
{
    const std::uint32_t apiTrack = apiTrackOfNvtxTrack[node.at.track];
    if (apiTrack == NvtxRangeNode::kNoParent)
        return;
    const Track &api = report.tracks[apiTrack];
    const auto starts = api.slices.starts();
    for (auto at = std::lower_bound(starts.begin(), starts.end(), node.start); at != starts.end() && *at <= node.end; ++at) {
        const auto call = std::size_t(at - starts.begin());
        if (api.slices.end(call) > node.end)
            continue;
        const std::uint32_t id = report.apiCalls[api.slices.payload(call)].correlationId;
        if (id == 0)
            continue;
        for (const TrackEvent &op : report.gpuOpsFor(Report::correlationKey(api.pid, id)))
            if (isGpuOperation(report.tracks[op.track].kind))
                visit(op, id);
    }
}

// For each track, the CUDA API track of the same thread (kNoParent: none).
std::vector<std::uint32_t> apiTrackOfEachTrack(const Report &report);

} // namespace rankscope::stats
