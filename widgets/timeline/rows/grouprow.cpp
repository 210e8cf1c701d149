#include "timeline/rows/grouprow.h"

#include "theme/theme.h"
#include "timeline/rowbuilder.h"
#include "timeline/timelinecanvas.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rankscope {

int GroupRowItem::height(const TimelineRow &) const
{
    return TimelineRows::kGroupHeight;
}

void GroupRowItem::build(RowFrame &frame, RowGeometry &g, const TimelineRow &r) const
{
    if (!r.collapsed || r.summaryTracks.empty())
        return; // unfolded, its rows draw themselves
    GeometryPass &pass = frame.pass;
    RowState &state = frame.state;
    const RankEntry &entry = frame.session.ranks()[std::size_t(r.rank)];
    auto [made, added] = state.collapsedBusy.try_emplace(g.row, *entry.report, r.summaryTracks);
    CollapsedBusy &busy = made->second;
    // Waits at collectives left out of a rank's GPU work when asked.
    const auto &waits = state.communicationWaits;
    if (added && std::size_t(r.rank) < waits.size() && !waits[std::size_t(r.rank)].empty()
        && std::any_of(r.summaryTracks.begin(), r.summaryTracks.end(),
                       [&](std::uint32_t t) { return entry.report->tracks[t].kind == TrackKind::Kernel; })) {
        std::vector<stats::Interval> reportTime = waits[std::size_t(r.rank)];
        for (stats::Interval &w : reportTime) {
            w.first -= entry.sessionOffset;
            w.second -= entry.sessionOffset;
        }
        busy.leaveOut(reportTime);
    }
    // Scrolled in, the runs of a rank opened from its cache are read on
    // the worker. (They are not counted against the memory budget:
    // counted at its whole cache, each collapsed rank in view would push
    // the others out, every frame.)
    if (pass.scrolled && entry.report->indexCache && busy.runsAreTheReports()
        && !busy.hasShare(pass.scale, pass.width, entry.sessionOffset, state.stretchGeneration)) {
        if (std::optional<BuiltRow> built = frame.builder.take(g.row, g.firstLane, g.lastLane)) {
            busy.adoptShare(std::move(built->busy), pass.scale, pass.width, entry.sessionOffset, state.stretchGeneration);
        } else {
            RowBuildJob job;
            job.widthPx = pass.width;
            job.report = entry.report;
            for (const DisplayTime::Piece &piece : frame.displayTime.pieces(r.rank, pass.scale, pass.width))
                job.busyParts.push_back({&busy.runs(), entry.sessionOffset, piece.scale, piece.x0, piece.x1});
            frame.builder.request(g.row, g.firstLane, g.lastLane, std::move(job));
            g.pending = true;
            ++state.pendingRows;
            return;
        }
    }
    g.busy = busy.share(frame.displayTime, r.rank, pass.scale, pass.width, entry.sessionOffset, state.stretchGeneration);
}

void GroupRowItem::paint(QPainter &p, const RowPaint &paint, const TimelineRow &row) const
{
    p.fillRect(paint.area.area, paint.theme.groupBackground());
    if (paint.area.geometry->pending) // its busy share comes from the worker
        hatchPending(p, paint);
    if (!paint.area.geometry->busy.empty())
        paintCollapsedBusy(p, paint.area, Theme::kindColor(paint.entry.report->tracks[row.summaryTracks.front()].kind));
}

void GroupRowItem::paintLabel(QPainter &p, const RowLabel &label, const TimelineRow &row) const
{
    QFont font = p.font();
    font.setBold(row.level == 0);
    p.setFont(font);
    paintLabelLine(p, label, row, label.pinned ? QString() : row.collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ "));
}

QString GroupRowItem::tooltip(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const
{
    if (hit.row->busy.empty())
        return {};
    const auto x = std::size_t(pos.x() - canvas.labelWidth());
    if (x >= hit.row->busy.size())
        return {};
    const TimelineRow &row = canvas.rows().rows()[std::size_t(hit.row->row)];
    const Report &report = *canvas.session()->ranks()[std::size_t(row.rank)].report;
    const bool gpu = isGpuTrack(report.tracks[row.summaryTracks.front()].kind);
    return QStringLiteral("%1\n%2 %3 % busy here (collapsed: click the label to expand)")
        .arg(row.label, gpu ? QStringLiteral("GPU") : QStringLiteral("Rows"))
        .arg(int(std::round(hit.row->busy[x] * 100)));
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

} // namespace rankscope
