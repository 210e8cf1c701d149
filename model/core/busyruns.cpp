#include "core/busyruns.h"

#include <algorithm>
#include <queue>

namespace rankscope {

SliceTrack busyRuns(const Report &report, std::span<const std::uint32_t> tracks)
{
    // Each track is sorted by start: merge them with a heap of cursors.
    struct Cursor {
        TimeNs start;
        std::uint32_t track;
        std::size_t next;
        bool operator>(const Cursor &o) const { return start > o.start; }
    };
    std::priority_queue<Cursor, std::vector<Cursor>, std::greater<>> heap;
    for (std::uint32_t t : tracks)
        if (!report.tracks[t].slices.isEmpty())
            heap.push({report.tracks[t].slices.start(0), t, 0});
    SliceTrack runs;
    TimeNs runStart = 0, runEnd = kTimeMin;
    while (!heap.empty()) {
        const Cursor c = heap.top();
        heap.pop();
        const SliceTrack &slices = report.tracks[c.track].slices;
        const TimeNs end = slices.end(c.next);
        if (c.start > runEnd) {
            if (runEnd > runStart)
                runs.append(runStart, runEnd, StringTable::kEmpty, 0);
            runStart = c.start;
            runEnd = end;
        } else {
            runEnd = std::max(runEnd, end);
        }
        if (c.next + 1 < slices.size())
            heap.push({slices.start(c.next + 1), c.track, c.next + 1});
    }
    if (runEnd > runStart)
        runs.append(runStart, runEnd, StringTable::kEmpty, 0);
    runs.finalize();
    return runs;
}

} // namespace rankscope
