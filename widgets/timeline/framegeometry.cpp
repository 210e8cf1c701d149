#include "timeline/framegeometry.h"

#include <algorithm>

namespace rankscope {

std::size_t FrameGeometry::rectCount() const
{
    std::size_t n = 0;
    for (const RowGeometry &g : m_rows)
        n += g.rects.size();
    return n;
}

const RowGeometry *FrameGeometry::rowAt(int y) const
{
    for (const RowGeometry &g : m_rows)
        if (y >= g.top && y < g.top + g.height)
            return &g;
    return nullptr;
}

FrameGeometry::Hit FrameGeometry::hit(QPoint pos, int trackAreaLeft, int laneHeight) const
{
    Hit result;
    result.row = rowAt(pos.y());
    if (!result.row || result.row->pending || pos.x() < trackAreaLeft) // a stand-in's rectangles name no event
        return result;
    const int lane = (pos.y() - result.row->top - kLaneTopMargin) / laneHeight;
    const float x = float(pos.x() - trackAreaLeft);
    for (const SliceRect &r : result.row->rects) {
        if (r.lane != lane || x < r.x0 - 1.0f || x > std::max(r.x1, r.x0 + 1.0f) + 1.0f)
            continue;
        if (!result.rect || (x >= r.x0 && x <= r.x1))
            result.rect = &r;
    }
    return result;
}

} // namespace rankscope
