#pragma once
// What one frame of the timeline shows, row by row, and what is under a
// point of it. The canvas builds it from the level-of-detail summaries
// whenever the range, the size or the rows change; painting replays it and
// hit-testing reads it, so a click finds exactly the rectangle drawn there.
#include "timeline/slicegeometry.h"

#include <QPoint>
#include <QRgb>
#include <vector>

namespace rankscope {

struct RowGeometry {
    int row = -1; // index into TimelineRows::rows()
    int top = 0;  // viewport y
    int height = 0;
    std::vector<SliceRect> rects;
    int firstLane = 0, lastLane = -1; // the lanes `rects` were built for
    // Not built for this frame yet (TimelineCanvas): drawn hatched, or from
    // `rects` when the last frame's stand in (moved to this view's scale).
    bool pending = false;
    std::vector<float> busy; // a collapsed group: busy share per pixel column
    // A counter row: per pixel column, the largest value in force across it
    // as a share of the counter's largest (-1: no sample); all zero: none.
    std::vector<float> counterShare;
    bool counterAllZero = false;
    // A row of CPU samples: per pixel column, the samples that fall in it
    // and the colour it is drawn in (a marked sample's, else the first's).
    std::vector<std::uint32_t> sampleCount;
    std::vector<QRgb> sampleColor;
    bool pinned = false; // in the fixed area at the top
};

class FrameGeometry {
public:
    static constexpr int kLaneTopMargin = 2; // px above a row's first lane

    std::vector<RowGeometry> &rows() { return m_rows; }
    const std::vector<RowGeometry> &rows() const { return m_rows; }
    void clear() { m_rows.clear(); }
    std::size_t rectCount() const;

    // The row drawn at viewport height y, if any (pinned rows come first,
    // so they win over a scrolled row sliding under them).
    const RowGeometry *rowAt(int y) const;
    // The rectangle under `pos` (viewport coordinates; the track area starts
    // at `trackAreaLeft`), preferring one that contains x over a neighbour
    // within a pixel. Null where nothing is drawn.
    struct Hit {
        const RowGeometry *row = nullptr;
        const SliceRect *rect = nullptr;
    };
    Hit hit(QPoint pos, int trackAreaLeft, int laneHeight) const;

private:
    std::vector<RowGeometry> m_rows;
};

} // namespace rankscope
