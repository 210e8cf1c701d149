#include "timeline/collapsedbusy.h"

#include "core/busyruns.h"
#include "load/derivedtracks.h"
#include "session/residentbudget.h"
#include "timeline/busyshare.h"

namespace rankscope {

CollapsedBusy::CollapsedBusy(const Report &report, std::span<const std::uint32_t> summaryTracks)
{
    const BusySummary *summary = gpuBusySummaryOf(report, summaryTracks);
    if (!summary)
        summary = hostBusySummaryOf(report, summaryTracks);
    if (summary) {
        m_runs = &summary->runs;
        return;
    }
    ResidentBudget::process().use(report); // its events are read
    m_made = std::make_unique<SliceTrack>(busyRuns(report, summaryTracks));
    m_runs = m_made.get();
}

bool CollapsedBusy::hasShare(const TimeScale &view, int width, TimeNs sessionOffset, std::uint64_t stretch) const
{
    return width == m_width && view.start == m_view.start && view.nsPerPixel == m_view.nsPerPixel && sessionOffset == m_sessionOffset
           && stretch == m_stretch;
}

const std::vector<float> &CollapsedBusy::share(const DisplayTime &display, int rank, const TimeScale &view, int width, TimeNs sessionOffset,
                                               std::uint64_t stretch)
{
    if (hasShare(view, width, sessionOffset, stretch))
        return m_share;
    std::vector<float> share(std::size_t(std::max(width, 0)), 0.0f);
    for (const DisplayTime::Piece &piece : display.pieces(rank, view, width))
        addBusyShare(*m_runs, sessionOffset, piece.scale, share, piece.x0, piece.x1);
    adoptShare(std::move(share), view, width, sessionOffset, stretch);
    return m_share;
}

void CollapsedBusy::leaveOut(const std::vector<stats::Interval> &waits)
{
    auto made = std::make_unique<SliceTrack>();
    auto wait = waits.begin();
    for (std::size_t i = 0; i < m_runs->size(); ++i) {
        TimeNs from = m_runs->start(i);
        const TimeNs to = m_runs->end(i);
        while (wait != waits.end() && wait->second <= from)
            ++wait;
        for (auto w = wait; w != waits.end() && w->first < to && from < to; ++w) {
            if (w->first > from)
                made->append(from, w->first, StringTable::kEmpty, 0);
            from = std::max(from, w->second);
        }
        if (from < to)
            made->append(from, to, StringTable::kEmpty, 0);
    }
    made->finalize();
    m_made = std::move(made); // not the report's: drawn on the window's thread
    m_runs = m_made.get();
    m_width = -1; // computed again
}

void CollapsedBusy::adoptShare(std::vector<float> share, const TimeScale &view, int width, TimeNs sessionOffset, std::uint64_t stretch)
{
    m_share = std::move(share);
    m_view = view;
    m_width = width;
    m_sessionOffset = sessionOffset;
    m_stretch = stretch;
}

} // namespace rankscope
