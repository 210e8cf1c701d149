#pragma once
// A thread's CPU samples (nsys' sampling row): a tick per sample where they
// are pixels apart, else a density per pixel column; each column in the
// colour of its first sample's module or thread state, or the marked
// function's. A click chooses the sample under the mouse.
#include "timeline/rows/rowitem.h"

namespace rankscope {

class SamplesRowItem final : public RowItem {
public:
    int height(const TimelineRow &row) const override;
    void build(RowFrame &frame, RowGeometry &g, const TimelineRow &row) const override;
    void paint(QPainter &p, const RowPaint &paint, const TimelineRow &row) const override;
    QString tooltip(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const override;
    // The sample drawn within 3 px of the mouse.
    RowChoice choiceAt(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const override;
    void addToArea(const Session &session, const TimelineRow &row, AreaContents &area) const override;
};

// CPU samples: a tick per sample where they are pixels apart, else the
// samples per column as a density (its height relative to the row's
// busiest column in view), each in its column's colour.
void paintSamplesRow(QPainter &p, const RowArea &row);

} // namespace rankscope
