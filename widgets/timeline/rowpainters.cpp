#include "timeline/rowpainters.h"

#include "session/eventdetails.h"
#include "theme/theme.h"
#include "timeline/timelinerows.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rankscope {

int RowArea::laneTop(int lane) const
{
    return geometry->top + FrameGeometry::kLaneTopMargin + lane * TimelineRows::kLaneHeight;
}

QString sliceLabel(const Report &report, const Track &track, std::uint32_t event)
{
    switch (track.kind) {
    case TrackKind::NcclKernels:
        // The call, as NCCL or PyTorch recorded it; else the kernel's name.
        if (QString call = collectiveSummary(report, report.kernels[track.slices.payload(event)]); !call.isEmpty())
            return call;
        [[fallthrough]];
    case TrackKind::Kernel:
        return report.strings.string(report.kernels[track.slices.payload(event)].shortName);
    default: // NVTX ranges, API and OS calls, copies, memsets: their names
        return report.strings.string(track.slices.name(event));
    }
}

void paintSliceRow(QPainter &p, const RowArea &row, const Report &report, const TimelineRow &rowDefinition, EventColorCache &colors)
{
    const QFontMetrics fm = p.fontMetrics();
    p.save();
    p.setClipRect(row.area, Qt::IntersectClip);
    p.translate(row.area.left(), 0);
    const int h = TimelineRows::kLaneHeight - 2;
    for (const SliceRect &r : row.geometry->rects) {
        const Track &track = report.tracks[rowDefinition.tracks[r.trackSlot]];
        const int top = row.laneTop(r.lane);
        const int x0 = int(std::floor(r.x0));
        const int w = std::max(1, int(std::ceil(r.x1)) - x0);
        QColor c = r.isMerged() || r.event == SliceRect::kNoEvent ? Theme::kindColor(track.kind) : colors.color(report, track, r.event);
        if (r.coverage < 1.0f)
            c.setAlphaF(0.35 + 0.65 * double(r.coverage));
        p.fillRect(x0, top, w, h, c);
        if (r.count == 1)
            if (const QBrush pattern = Theme::eventPattern(report, track, r.event); pattern.style() != Qt::NoBrush)
                p.fillRect(x0, top, w, h, pattern);
        if (w > 30 && r.count == 1) {
            p.setPen(Theme::textColorOn(c));
            p.drawText(QRect(x0 + 2, top, w - 4, h), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(sliceLabel(report, track, r.event), Qt::ElideRight, w - 4));
        }
    }
    p.restore();
}

void paintCollapsedBusy(QPainter &p, const RowArea &row, const QColor &fill)
{
    const std::vector<float> &busy = row.geometry->busy;
    const int base = row.area.top() + row.area.height() - 2, span = row.area.height() - 5;
    auto heightAt = [&](std::size_t x) { return busy[x] > 0 ? std::max(1, int(std::round(busy[x] * float(span)))) : 0; };
    // Neighbouring columns of one height as one rectangle: a busy GPU is
    // one long bar, not a rectangle per pixel.
    for (std::size_t x = 0; x < busy.size();) {
        const int h = heightAt(x);
        std::size_t end = x + 1;
        while (end < busy.size() && heightAt(end) == h)
            ++end;
        if (h > 0)
            p.fillRect(row.area.left() + int(x), base - h, int(end - x), h, fill);
        x = end;
    }
}

void paintSamplesRow(QPainter &p, const RowArea &row)
{
    const RowGeometry &g = *row.geometry;
    if (g.sampleCount.empty())
        return;
    const std::uint32_t busiest = *std::max_element(g.sampleCount.begin(), g.sampleCount.end());
    if (busiest == 0)
        return;
    const int base = row.area.top() + row.area.height() - 2, span = row.area.height() - 4;
    for (std::size_t x = 0; x < g.sampleCount.size(); ++x) {
        if (g.sampleCount[x] == 0)
            continue;
        // A column with one sample among columns of many still shows (3 px).
        const int h = std::max(3, int(std::round(double(g.sampleCount[x]) / busiest * span)));
        p.fillRect(row.area.left() + int(x), base - h, 1, h, QColor::fromRgb(g.sampleColor[x]));
    }
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
    const QColor fill = Theme::kindColor(TrackKind::Memset);
    for (std::size_t x = 0; x < g.counterShare.size(); ++x)
        if (g.counterShare[x] >= 0) {
            const int h = int(std::round(double(g.counterShare[x]) * span));
            p.fillRect(row.area.left() + int(x), base - h, 1, h, fill);
        }
    p.setPen(theme.valueText());
    const QRect top(text.left(), row.area.top(), text.width(), 14);
    if (!maximum.isEmpty())
        p.drawText(top, Qt::AlignLeft | Qt::AlignTop, maximum);
    if (!selection.isEmpty())
        p.drawText(top, Qt::AlignRight | Qt::AlignTop, selection);
}

} // namespace rankscope
