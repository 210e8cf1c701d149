#pragma once
// What a collapsed group row draws: how busy its GPU work is across each
// pixel column (Nsight Systems draws a collapsed row as a utilisation
// graph). The runs come from the rank's GPU busy summary, or a process's
// busy summary, when the group has one (no event read: hundreds of
// collapsed ranks cost kilobytes each), else are made once from the
// group's tracks. The share is computed once
// per view and kept while the view only scrolls.
#include "core/intervals.h"
#include "core/report.h"
#include "core/slicetrack.h"
#include "timeline/displaytime.h"
#include "timeline/timescale.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace rankscope {

class CollapsedBusy {
public:
    CollapsedBusy(const Report &report, std::span<const std::uint32_t> summaryTracks);

    // Share (0..1) per column of a track area `width` wide, for `view` as
    // `display` draws `rank` (one piece, unless stretched); `stretch` counts
    // the stretches, so a new one computes again.
    const std::vector<float> &share(const DisplayTime &display, int rank, const TimeScale &view, int width, TimeNs sessionOffset,
                                    std::uint64_t stretch);
    // Whether share() has it already; the runs it reads otherwise; and a
    // share computed elsewhere (a worker, from those runs) taken as its own.
    bool hasShare(const TimeScale &view, int width, TimeNs sessionOffset, std::uint64_t stretch) const;
    const SliceTrack &runs() const { return *m_runs; }
    // Whether those runs are the report's own (its GPU busy summary), not
    // made and owned here: only those may be read by a worker.
    bool runsAreTheReports() const { return !m_made; }
    void adoptShare(std::vector<float> share, const TimeScale &view, int width, TimeNs sessionOffset, std::uint64_t stretch);
    // Busy without these times (report time, sorted and disjoint): the
    // rank's waits at collectives, so that a rank waiting for a straggler
    // shows idle and the straggler stands out.
    void leaveOut(const std::vector<stats::Interval> &waits);

private:
    const SliceTrack *m_runs = nullptr;
    std::unique_ptr<SliceTrack> m_made; // when there is no summary
    std::vector<float> m_share;
    TimeScale m_view;
    int m_width = -1;
    TimeNs m_sessionOffset = 0;
    std::uint64_t m_stretch = 0;
};

} // namespace rankscope
