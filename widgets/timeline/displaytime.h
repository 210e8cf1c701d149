#pragma once
// Where each rank is drawn: its session time, or, with the steps of two
// compared runs stretched over each other, a piecewise-linear map of it
// (stats::stepStretchPoints). Only the drawing moves; events, the Details
// and every statistic keep recorded times.
#include "stats/comparison/runalignment.h"
#include "timeline/timescale.h"

#include <vector>

namespace rankscope {

class DisplayTime {
public:
    // Per rank index; an empty list (or none) draws the rank as recorded.
    void setStretch(std::vector<std::vector<stats::StretchPoint>> points) { m_points = std::move(points); }
    void clear() { m_points.clear(); }
    bool isStretched() const;
    bool isStretched(int rank) const;

    TimeNs toDisplay(int rank, TimeNs sessionTime) const;
    TimeNs toSession(int rank, TimeNs displayTime) const;
    TimeRange toDisplay(int rank, TimeRange sessionRange) const { return {toDisplay(rank, sessionRange.start), toDisplay(rank, sessionRange.end)}; }

    // The rank's linear pieces across the view: in pixels [x0, x1) of the
    // track area, the scale that maps the rank's session time to x there.
    // One piece, the view's own scale, for a rank drawn as recorded.
    struct Piece {
        int x0 = 0, x1 = 0;
        TimeScale scale;
    };
    std::vector<Piece> pieces(int rank, const TimeScale &view, int widthPx) const;

private:
    const std::vector<stats::StretchPoint> *pointsOf(int rank) const;

    std::vector<std::vector<stats::StretchPoint>> m_points;
};

} // namespace rankscope
