#include "timeline/collapsedbusy.h"

#include "core/busyruns.h"
#include "load/derivedtracks.h"
#include "session/residentbudget.h"
#include "timeline/busyshare.h"

namespace rankscope {

CollapsedBusy::CollapsedBusy(const Report &report, std::span<const std::uint32_t> summaryTracks)
{
    if (const GpuBusySummary *summary = gpuBusySummaryOf(report, summaryTracks)) {
        m_runs = &summary->runs;
        return;
    }
    ResidentBudget::process().use(report); // its events are read
    m_made = std::make_unique<SliceTrack>(busyRuns(report, summaryTracks));
    m_runs = m_made.get();
}

const std::vector<float> &CollapsedBusy::share(const DisplayTime &display, int rank, const TimeScale &view, int width,
                                               TimeNs sessionOffset, std::uint64_t stretch)
{
    if (width == m_width && view.start == m_view.start && view.nsPerPixel == m_view.nsPerPixel && sessionOffset == m_sessionOffset
        && stretch == m_stretch)
        return m_share;
    m_share.assign(std::size_t(std::max(width, 0)), 0.0f);
    for (const DisplayTime::Piece &piece : display.pieces(rank, view, width))
        addBusyShare(*m_runs, sessionOffset, piece.scale, m_share, piece.x0, piece.x1);
    m_view = view;
    m_width = width;
    m_sessionOffset = sessionOffset;
    m_stretch = stretch;
    return m_share;
}

} // namespace rankscope
