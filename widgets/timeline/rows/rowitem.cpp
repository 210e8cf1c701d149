#include "timeline/rows/rowitem.h"

#include "theme/theme.h"
#include "timeline/rows/counterrow.h"
#include "timeline/rows/grouprow.h"
#include "timeline/rows/samplesrow.h"
#include "timeline/rows/slicerow.h"
#include "timeline/timelinecanvas.h"

#include <QPainter>

namespace rankscope {

const RowItem &rowItem(TimelineRow::Kind kind)
{
    static const GroupRowItem group;
    static const SliceRowItem slices;
    static const CounterRowItem counter;
    static const SamplesRowItem samples;
    switch (kind) { // -Wswitch names a kind left out here
    case TimelineRow::Kind::Group:
        return group;
    case TimelineRow::Kind::Slices:
        return slices;
    case TimelineRow::Kind::Counter:
        return counter;
    case TimelineRow::Kind::Samples:
        return samples;
    }
    return slices;
}

int RowArea::laneTop(int lane) const
{
    return geometry->top + FrameGeometry::kLaneTopMargin + lane * TimelineRows::kLaneHeight;
}

void paintLabelLine(QPainter &p, const RowLabel &label, const TimelineRow &row, const QString &prefix)
{
    const QFontMetrics metrics(p.font());
    const int room = label.rect.width();
    const QString text = label.pinned ? metrics.elidedText(label.pinnedText, Qt::ElideMiddle, room)
                                      : prefix + fittedLabel(row, metrics, room - metrics.horizontalAdvance(prefix));
    p.drawText(QRect(label.rect.left(), label.rect.top(), room, std::min(label.rect.height(), TimelineRows::kGroupHeight)),
               Qt::AlignVCenter | Qt::AlignLeft, text);
}

bool paintRowBase(QPainter &p, const RowPaint &paint)
{
    const QRect &area = paint.area.area;
    p.setPen(paint.theme.rowSeparator());
    p.drawLine(area.left(), area.bottom(), area.right(), area.bottom());
    if (paint.area.geometry->pending && paint.area.geometry->rects.empty()) { // its events come next frame (or with the whole report)
        hatchPending(p, paint);
        return false;
    }
    return true;
}

void hatchPending(QPainter &p, const RowPaint &paint)
{
    p.fillRect(paint.area.area.adjusted(0, 1, 0, -1), QBrush(paint.theme.rowSeparator(), Qt::BDiagPattern));
}

void RowItem::paintLabel(QPainter &p, const RowLabel &label, const TimelineRow &row) const
{
    paintLabelLine(p, label, row);
}

RowChoice RowItem::choiceAt(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint) const
{
    if (!hit.rect || hit.rect->event == SliceRect::kNoEvent)
        return {};
    const TimelineRow &row = canvas.rows().rows()[std::size_t(hit.row->row)];
    return {EventLocation{row.rank, row.tracks[hit.rect->trackSlot], hit.rect->event}, std::nullopt};
}

void RowItem::addToArea(const Session &, const TimelineRow &, AreaContents &) const { }

} // namespace rankscope
