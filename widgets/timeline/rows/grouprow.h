#pragma once
// A group row: a rank, a process, a GPU or its streams. Its label folds
// and unfolds the rows under it; collapsed, it draws how busy its GPU work
// (or its rows) is per pixel column, as Nsight Systems draws a collapsed
// row as a utilisation graph.
#include "timeline/rows/rowitem.h"

class QColor;

namespace rankscope {

class GroupRowItem final : public RowItem {
public:
    int height(const TimelineRow &row) const override;
    bool folds() const override { return true; }
    bool drawsEvents() const override { return false; } // a collapsed rank draws from its summaries
    void build(RowFrame &frame, RowGeometry &g, const TimelineRow &row) const override;
    void paint(QPainter &p, const RowPaint &paint, const TimelineRow &row) const override;
    // Bold for a rank, after the arrow that folds it.
    void paintLabel(QPainter &p, const RowLabel &label, const TimelineRow &row) const override;
    QString tooltip(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const override;
};

// The busy share per column as bars from the row's bottom, neighbouring
// columns of one height drawn as one rectangle.
void paintCollapsedBusy(QPainter &p, const RowArea &row, const QColor &fill);

} // namespace rankscope
