#include "core/busyruns.h"

#include <algorithm>
#include <queue>

namespace rankscope {

SliceTrack busyRuns(const Report &report, std::span<const std::uint32_t> tracks, std::span<const TrackEvent> leaveOut)
{
    // Each track is sorted by start: merge them with a heap of cursors.
    // A cursor steps over its track's events in `leaveOut`, which lists
    // them in event order after the previous track's.
    struct Cursor {
        TimeNs start;
        std::uint32_t track;
        std::size_t next;
        std::size_t leftOut; // the next of leaveOut that may be ahead of it
        bool operator>(const Cursor &o) const { return start > o.start; }
    };
    std::priority_queue<Cursor, std::vector<Cursor>, std::greater<>> heap;
    // Moves a cursor to its first event at or after `from` not left out;
    // false past the track's end.
    auto settle = [&](Cursor &c, std::size_t from) {
        const SliceTrack &slices = report.tracks[c.track].slices;
        c.next = from;
        while (c.leftOut < leaveOut.size() && leaveOut[c.leftOut].track == c.track && leaveOut[c.leftOut].event <= c.next) {
            if (leaveOut[c.leftOut].event == c.next)
                ++c.next;
            ++c.leftOut;
        }
        if (c.next >= slices.size())
            return false;
        c.start = slices.start(c.next);
        return true;
    };
    for (std::uint32_t t : tracks) {
        const auto firstLeftOut =
            std::lower_bound(leaveOut.begin(), leaveOut.end(), t, [](const TrackEvent &e, std::uint32_t track) { return e.track < track; });
        Cursor c{0, t, 0, std::size_t(firstLeftOut - leaveOut.begin())};
        if (settle(c, 0))
            heap.push(c);
    }
    SliceTrack runs;
    TimeNs runStart = 0, runEnd = kTimeMin;
    bool open = false;
    while (!heap.empty()) {
        Cursor c = heap.top();
        heap.pop();
        const TimeNs end = report.tracks[c.track].slices.end(c.next);
        if (!open || c.start > runEnd) {
            if (open)
                runs.append(runStart, runEnd, StringTable::kEmpty, 0);
            runStart = c.start;
            runEnd = end;
            open = true;
        } else {
            runEnd = std::max(runEnd, end);
        }
        if (settle(c, c.next + 1))
            heap.push(c);
    }
    if (open)
        runs.append(runStart, runEnd, StringTable::kEmpty, 0);
    runs.finalize();
    return runs;
}

} // namespace rankscope
