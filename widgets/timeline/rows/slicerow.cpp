#include "timeline/rows/slicerow.h"

#include "core/units.h"
#include "session/eventdetails.h"
#include "session/residentbudget.h"
#include "theme/theme.h"
#include "timeline/rowbuilder.h"
#include "timeline/timelinecanvas.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rankscope {

int SliceRowItem::height(const TimelineRow &row) const
{
    return row.lanes * TimelineRows::kLaneHeight + 3;
}

std::vector<SliceRect> movedToScale(const std::vector<SliceRect> &rects, const GeometryView &from, const GeometryView &to)
{
    std::vector<SliceRect> moved;
    moved.reserve(rects.size());
    const double scale = from.nsPerPixel / to.nsPerPixel;
    const double shift = double(from.start - to.start) / to.nsPerPixel;
    for (SliceRect r : rects) {
        const double x0 = double(r.x0) * scale + shift, x1 = double(r.x1) * scale + shift;
        if (x1 < 0 || x0 > double(to.width))
            continue;
        r.x0 = float(std::max(x0, -1.0));
        r.x1 = float(std::min(x1, double(to.width) + 1.0));
        moved.push_back(r);
    }
    return moved;
}

void SliceRowItem::build(RowFrame &frame, RowGeometry &g, const TimelineRow &r) const
{
    GeometryPass &pass = frame.pass;
    RowState &state = frame.state;
    const RankEntry &entry = frame.session.ranks()[std::size_t(r.rank)];
    const int lanesTop = g.top + FrameGeometry::kLaneTopMargin;
    // The lanes in view (a row taller than the view draws only those).
    g.firstLane = std::max(0, (frame.visibleTop - lanesTop) / TimelineRows::kLaneHeight);
    g.lastLane = std::min((frame.frameHeight - lanesTop) / TimelineRows::kLaneHeight, g.height / TimelineRows::kLaneHeight);
    const auto kept = pass.previous.find(g.row);
    const bool sameLanes = kept != pass.previous.end() && kept->second.firstLane == g.firstLane && kept->second.lastLane == g.lastLane;
    if (pass.scrolled && sameLanes && !kept->second.pending) {
        ResidentBudget::process().use(*entry.report); // painting reads its events' names
        g.rects = std::move(kept->second.rects);
        return;
    }
    RowBuildJob job;
    job.widthPx = pass.width;
    job.report = entry.report;
    const std::vector<DisplayTime::Piece> pieces = frame.displayTime.pieces(r.rank, pass.scale, pass.width); // one, unless stretched
    for (std::size_t t = 0; t < r.tracks.size(); ++t)
        for (const DisplayTime::Piece &piece : pieces) {
            SliceGeometryInput in;
            in.firstLane = g.firstLane;
            in.lastLane = g.lastLane;
            in.track = &entry.report->tracks[r.tracks[t]].slices;
            in.sessionOffset = entry.sessionOffset;
            in.laneOffset = r.laneOffset[t];
            in.flatten = r.flatten;
            in.trackSlot = std::uint8_t(t);
            in.clipX0 = piece.x0;
            in.clipX1 = piece.x1;
            job.parts.push_back({in, piece.scale});
        }
    // A rank read through its cache's mapping may wait on the disk:
    // scrolled in or zoomed, its row is built on the worker, drawn
    // meanwhile from the last frame's rectangles (moved to this view's
    // scale, after a zoom), else hatched.
    if ((pass.scrolled || pass.zoomed) && entry.report->indexCache) {
        ResidentBudget::process().use(*entry.report); // its pages are about to be read
        if (std::optional<BuiltRow> built = frame.builder.take(g.row, g.firstLane, g.lastLane)) {
            g.rects = std::move(built->rects);
        } else {
            frame.builder.request(g.row, g.firstLane, g.lastLane, std::move(job));
            g.pending = true;
            ++state.pendingRows;
            if (sameLanes)
                g.rects = pass.scrolled ? std::move(kept->second.rects) : movedToScale(kept->second.rects, pass.before, pass.view);
        }
        return;
    }
    if (pass.scrolled && pass.built > 0 && pass.building.nsecsElapsed() > state.scrollBuildBudgetNs) {
        g.pending = true;
        ++state.pendingRows;
        ++state.deferredRows;
        return;
    }
    ++pass.built;
    ResidentBudget::process().use(*entry.report); // its events are read
    g.rects = buildRow(job).rects;
}

void SliceRowItem::paint(QPainter &p, const RowPaint &paint, const TimelineRow &row) const
{
    if (paintRowBase(p, paint))
        paintSliceRow(p, paint.area, *paint.entry.report, row, paint.colors);
}

QString SliceRowItem::tooltip(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint) const
{
    if (!hit.rect)
        return {};
    const TimelineRow &row = canvas.rows().rows()[std::size_t(hit.row->row)];
    const SliceRect &r = *hit.rect;
    const Report &report = *canvas.session()->ranks()[std::size_t(row.rank)].report;
    const Track &track = report.tracks[row.tracks[r.trackSlot]];
    if (r.isMerged()) {
        QString text = QStringLiteral("%1 events merged (%2% busy)").arg(r.count).arg(int(std::round(r.coverage * 100)));
        if (r.event != SliceRect::kNoEvent)
            text += QStringLiteral("\nlongest: %1, %2")
                        .arg(report.strings.string(track.slices.name(r.event)), formatDuration(track.slices.duration(r.event)));
        return text;
    }
    QString text = report.strings.string(track.slices.name(r.event)).left(300) + QLatin1Char('\n') + formatDuration(track.slices.duration(r.event));
    if (track.kind == TrackKind::Kernel || track.kind == TrackKind::NcclKernels)
        if (const QString call = collectiveSummary(report, report.kernels[track.slices.payload(r.event)]); !call.isEmpty())
            text += QLatin1Char('\n') + call;
    if (track.kind == TrackKind::Memcpy) {
        const MemcpyRecord &m = report.memcpys[track.slices.payload(r.event)];
        text +=
            QStringLiteral("\n%1, %2 → %3").arg(formatBytes(m.bytes), report.memoryKindLabel(int(m.srcKind)), report.memoryKindLabel(int(m.dstKind)));
    }
    return text;
}

void SliceRowItem::addToArea(const Session &, const TimelineRow &row, AreaContents &area) const
{
    for (const std::uint32_t t : row.tracks)
        area.tracks.push_back({row.rank, t});
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

} // namespace rankscope
