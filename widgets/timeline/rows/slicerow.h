#pragma once
// A row of events: a thread's OS runtime or CUDA API calls, NVTX lanes (on
// the CPU and projected onto the GPU), a CUDA HW stream or all of a GPU's,
// the NCCL lane. Its tracks' level-of-detail rectangles are built in the
// frame, or on the worker for a rank read through its cache's mapping.
#include "timeline/rows/rowitem.h"

namespace rankscope {

class SliceRowItem final : public RowItem {
public:
    int height(const TimelineRow &row) const override;
    void build(RowFrame &frame, RowGeometry &g, const TimelineRow &row) const override;
    void paint(QPainter &p, const RowPaint &paint, const TimelineRow &row) const override;
    QString tooltip(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const override;
    void addToArea(const Session &session, const TimelineRow &row, AreaContents &area) const override;
};

// The text on one slice: an NVTX range's or a call's name, a kernel's short
// name, and on the NCCL lane the collective the kernel runs as NCCL or
// PyTorch recorded it.
QString sliceLabel(const Report &report, const Track &track, std::uint32_t event);

// Each rectangle in its event's colour (merged ones in the kind's, faded by
// how busy they are), patterned where the event says so, labelled where a
// single event is wider than 30 px.
void paintSliceRow(QPainter &p, const RowArea &row, const Report &report, const TimelineRow &rowDefinition, EventColorCache &colors);

// A row's rectangles as drawn in one view, where they fall in another of
// the same width (a stand-in while the row is built for it).
std::vector<SliceRect> movedToScale(const std::vector<SliceRect> &rects, const GeometryView &from, const GeometryView &to);

} // namespace rankscope
