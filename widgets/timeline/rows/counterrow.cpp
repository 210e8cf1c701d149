#include "timeline/rows/counterrow.h"

#include "core/units.h"
#include "session/eventdetails.h"
#include "theme/theme.h"
#include "timeline/timelinecanvas.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rankscope {

int CounterRowItem::height(const TimelineRow &) const
{
    return TimelineRows::kCounterHeight;
}

void CounterRowItem::build(RowFrame &frame, RowGeometry &g, const TimelineRow &r) const
{
    const GeometryPass &pass = frame.pass;
    const RankEntry &entry = frame.session.ranks()[std::size_t(r.rank)];
    const CounterTrack &c = counterOf(entry, r);
    if (c.time.empty())
        return;
    const double largest = c.largest();
    if (largest <= 0 && c.smallest() >= 0) {
        g.counterAllZero = true;
        return;
    }
    const double maxValue = std::max(1e-9, largest);
    // A step chart: each pixel shows the largest value in force across it,
    // read from the counter's block maxima (a 10 kHz metric has far more
    // samples than pixels when zoomed out), each pixel's samples found
    // from the last pixel's on.
    // A share (a derived 0-or-100 % state) shows its mean across the
    // pixel instead: the share of that time.
    const bool mean = r.derivedCounter && r.derivedCounter->drawsMean();
    g.counterShare.assign(std::size_t(pass.width), -1.0f);
    CounterTrack::ForwardReader largestOf(c);
    for (int x = 0; x < pass.width; ++x) {
        const TimeNs from = frame.displayTime.toSession(r.rank, pass.scale.time(x)) - entry.sessionOffset;
        const TimeNs to = std::max(from + 1, frame.displayTime.toSession(r.rank, pass.scale.time(x + 1)) - entry.sessionOffset);
        if (const auto v = mean ? r.derivedCounter->meanIn(from, to) : largestOf.largestIn(from, to))
            g.counterShare[std::size_t(x)] = float(*v / maxValue);
    }
}

void CounterRowItem::paint(QPainter &p, const RowPaint &paint, const TimelineRow &row) const
{
    if (!paintRowBase(p, paint))
        return;
    const CounterTrack &c = counterOf(paint.entry, row);
    if (c.time.empty())
        return;
    const QString maximum = QCoreApplication::translate("TimelineCanvas", "max %1").arg(formatCounterValue(std::max(1e-9, c.largest()), c.unit));
    paintCounterRow(p, paint.area, paint.theme, maximum, counterSelectionText(paint.entry, paint.displayTime, row, paint.selection));
}

void CounterRowItem::paintLabel(QPainter &p, const RowLabel &label, const TimelineRow &row) const
{
    if (label.pinned) {
        paintLabelLine(p, label, row);
        return;
    }
    const QFontMetrics metrics(p.font());
    const QStringList lines = twoLineLabel(row.label, metrics, label.rect.width());
    const int lineHeight = metrics.height();
    const int top = label.rect.top() + std::max(0, (label.rect.height() - lineHeight * int(lines.size())) / 2);
    for (qsizetype l = 0; l < lines.size(); ++l)
        p.drawText(QRect(label.rect.left(), top + int(l) * lineHeight, label.rect.width(), lineHeight), Qt::AlignVCenter | Qt::AlignLeft, lines[l]);
}

QString CounterRowItem::tooltip(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const
{
    const TimelineRow &row = canvas.rows().rows()[std::size_t(hit.row->row)];
    const Session &session = *canvas.session();
    const RankEntry &entry = session.ranks()[std::size_t(row.rank)];
    const CounterTrack &c = counterOf(entry, row);
    // The rank's own time under the mouse (a stretched rank is drawn elsewhere).
    const TimeNs at = canvas.displayTime().toSession(row.rank, canvas.scale().time(pos.x() - canvas.labelWidth()));
    QString text = row.label;
    if (const auto value = c.valueAt(at - entry.sessionOffset))
        text += QStringLiteral("\n%1 at %2").arg(formatCounterValue(*value, c.unit), formatTimestamp(at - session.extent().start));
    else
        text += QStringLiteral("\nno sample yet at this time");
    if (const QString range = canvas.counterRangeText(row); !range.isEmpty())
        text += QLatin1Char('\n') + range;
    return text;
}

QString counterSelectionText(const RankEntry &entry, const DisplayTime &display, const TimelineRow &row, std::optional<TimeRange> selection)
{
    if (!selection || (row.counter < 0 && !row.derivedCounter))
        return {};
    const CounterTrack &c = counterOf(entry, row);
    const auto summary = c.summaryIn(display.toSession(row.rank, selection->start) - entry.sessionOffset,
                                     display.toSession(row.rank, selection->end) - entry.sessionOffset);
    if (!summary)
        return {};
    return QCoreApplication::translate("TimelineCanvas", "selection: min %1 · mean %2 · max %3")
        .arg(formatCounterValue(summary->smallest, c.unit), formatCounterValue(summary->mean, c.unit), formatCounterValue(summary->largest, c.unit));
}

void paintCounterRow(QPainter &p, const RowArea &row, const Theme &theme, const QString &maximum, const QString &selection)
{
    const RowGeometry &g = *row.geometry;
    const QRect text = row.area.adjusted(4, 0, -4, 0);
    p.setPen(theme.valueText());
    if (g.counterAllZero) {
        p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, QCoreApplication::translate("TimelineCanvas", "no activity: every sample is 0"));
        return;
    }
    const int base = row.area.top() + row.area.height() - 3, span = row.area.height() - 8;
    // A bar per run of columns of one height (a zoomed-in counter holds
    // one value across many pixels). Not one polygon: Qt 6.4's raster
    // engine fills a step outline of 3,200 corners in ~20 ms, 1,600 bars
    // in 0.14 ms.
    const QColor fill = Theme::kindColor(TrackKind::Memset);
    const auto heightAt = [&](std::size_t column) {
        return g.counterShare[column] >= 0 ? int(std::round(double(g.counterShare[column]) * span)) : 0;
    };
    for (std::size_t x = 0; x < g.counterShare.size();) {
        const int h = heightAt(x);
        std::size_t end = x + 1;
        while (end < g.counterShare.size() && heightAt(end) == h)
            ++end;
        if (h > 0)
            p.fillRect(row.area.left() + int(x), base - h, int(end - x), h, fill);
        x = end;
    }
    p.setPen(theme.valueText());
    const QRect top(text.left(), row.area.top(), text.width(), 14);
    if (!maximum.isEmpty())
        p.drawText(top, Qt::AlignLeft | Qt::AlignTop, maximum);
    if (!selection.isEmpty())
        p.drawText(top, Qt::AlignRight | Qt::AlignTop, selection);
}

} // namespace rankscope
