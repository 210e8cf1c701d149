#pragma once
// The painters of the timeline's rows, one per kind of row (as Tracy's
// Draw functions after its Preprocess, Qt Creator's render passes): each
// draws what the geometry pass (TimelineCanvas::ensureGeometry into
// FrameGeometry) computed for its row, and reads no event's time.
//   - slice rows: threads' OS runtime and CUDA API, NVTX lanes (on the
//     CPU and projected on the GPU), CUDA HW streams, the NCCL lane; they
//     differ in the text on a slice (sliceLabel);
//   - a collapsed group: the busy share of its GPU (or rows) per column;
//   - a counter row: a step chart of the largest value per column.
#include "core/report.h"
#include "timeline/framegeometry.h"

#include <QRect>
#include <QString>

class QColor;
class QPainter;

namespace rankscope {

class EventColorCache;
class Theme;
struct TimelineRow;

// A row's track area (viewport coordinates) and its geometry.
struct RowArea {
    QRect area;
    const RowGeometry *geometry = nullptr;
    // The top of a lane of the row.
    int laneTop(int lane) const;
};

// The text on one slice: an NVTX range's or a call's name, a kernel's short
// name, and on the NCCL lane the collective the kernel runs as NCCL or
// PyTorch recorded it.
QString sliceLabel(const Report &report, const Track &track, std::uint32_t event);

// Each rectangle in its event's colour (merged ones in the kind's, faded by
// how busy they are), patterned where the event says so, labelled where a
// single event is wider than 30 px.
void paintSliceRow(QPainter &p, const RowArea &row, const Report &report, const TimelineRow &rowDefinition, EventColorCache &colors);

// The busy share per column as bars from the row's bottom, neighbouring
// columns of one height drawn as one rectangle.
void paintCollapsedBusy(QPainter &p, const RowArea &row, const QColor &fill);

// The counter's columns (geometry->counterShare) as a step chart, with
// `maximum` at the top left and `selection` at the top right; a counter
// that never leaves 0 says so instead.
void paintCounterRow(QPainter &p, const RowArea &row, const Theme &theme, const QString &maximum, const QString &selection);

// CPU samples: a tick per sample where they are pixels apart, else the
// samples per column as a density (its height relative to the row's
// busiest column in view), each in its column's colour.
void paintSamplesRow(QPainter &p, const RowArea &row);

} // namespace rankscope
