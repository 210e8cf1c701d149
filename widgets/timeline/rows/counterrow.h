#pragma once
// A counter row (GPU metrics, memory use): a step chart of the largest
// value in force across each pixel column, read from the counter's block
// maxima; its name on two lines; the selection's min, mean and max.
#include "timeline/rows/rowitem.h"

namespace rankscope {

class CounterRowItem final : public RowItem {
public:
    int height(const TimelineRow &row) const override;
    void build(RowFrame &frame, RowGeometry &g, const TimelineRow &row) const override;
    void paint(QPainter &p, const RowPaint &paint, const TimelineRow &row) const override;
    // The counter's name ("Unallocated Warps in Active SMs [Avg Warps per
    // Cycle]") on the row's two lines rather than cut in the middle.
    void paintLabel(QPainter &p, const RowLabel &label, const TimelineRow &row) const override;
    QString tooltip(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const override;
};

// A counter row over a range of display time: "selection: min … · mean …
// · max …", or empty (no range, no sample in it, not a counter row).
// `entry` is the row's rank.
QString counterSelectionText(const RankEntry &entry, const DisplayTime &display, const TimelineRow &row, std::optional<TimeRange> selection);

// The counter's columns (geometry->counterShare) as a step chart, with
// `maximum` at the top left and `selection` at the top right; a counter
// that never leaves 0 says so instead.
void paintCounterRow(QPainter &p, const RowArea &row, const Theme &theme, const QString &maximum, const QString &selection);

} // namespace rankscope
