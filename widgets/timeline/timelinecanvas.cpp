#include "timeline/timelinecanvas.h"

#include "core/memoryusage.h"
#include "core/units.h"
#include "session/eventdetails.h"
#include "session/eventlinks.h"
#include "session/residentbudget.h"
#include "theme/theme.h"
#include "timeline/collapsedbusy.h"
#include "timeline/rowbuilder.h"
#include "timeline/rows/counterrow.h"
#include "timeline/timelineinput.h"
#include "timeline/zoomstate.h"

#include <QElapsedTimer>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <set>

Q_LOGGING_CATEGORY(lcTimelinePaint, "rankscope.paint", QtWarningMsg)

namespace rankscope {

namespace {
constexpr int kIndent = 12; // px per level of the label column
}

TimelineCanvas::TimelineCanvas(ZoomState *zoom, QWidget *parent)
    : QAbstractScrollArea(parent), m_zoom(zoom), m_input(new TimelineInput(this)), m_rowBuilder(new RowBuilder(this))
{
    connect(m_rowBuilder, &RowBuilder::rowsChanged, this, [this] { invalidateGeometry(); });
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verticalScrollBar()->setSingleStep(TimelineRows::kLaneHeight);
    connect(m_zoom, &ZoomState::visibleChanged, this, [this] { invalidateGeometry(); });
    connect(m_zoom, &ZoomState::selectionChanged, viewport(), qOverload<>(&QWidget::update));
    connect(m_zoom, &ZoomState::selectionChanged, this, [this] {
        if (!m_zoom->selection()) // the range cleared (Esc, a Shift+click): the area too
            clearAreaRows();
    });
}

void TimelineCanvas::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    m_derivedJob.cancel(); // derived counters still being computed were the last session's
    m_derivedPending = false;
    m_areaRows.clear();                    // the rows are the new session's
    m_rowState.communicationWaits.clear(); // the last session's ranks
    m_rowState.markedChains.clear();       // its callchains, too
    m_selected.reset();
    m_correlated.reset();
    m_flows.clear();
    m_highlighted.clear();
    m_collective.reset();
    m_criticalPath.reset();
    m_mark.reset();
    m_markRow = -1;
    m_rowState.collapsedBusy.clear();
    m_colors.clear();
    m_displayTime.clear(); // a stretch belongs to the session it was made for
    if (m_session)
        m_rows.build(*m_session);
    else
        m_rows = TimelineRows();
    verticalScrollBar()->setValue(0);
    rowsChanged();
}

void TimelineCanvas::replaceSession(std::shared_ptr<const Session> session)
{
    const TimelineRows before = m_rows;
    const int scrolled = verticalScrollBar()->value();
    setSession(std::move(session));
    m_rows.keepArrangementOf(before);
    rowsChanged();
    verticalScrollBar()->setValue(scrolled);
}

void TimelineCanvas::setStretch(std::vector<std::vector<stats::StretchPoint>> points)
{
    m_displayTime.setStretch(std::move(points));
    ++m_rowState.stretchGeneration;
    ++m_rowsGeneration;
    m_geometryValid = false;
    viewport()->update();
}

TimeRange TimelineCanvas::displayedTime(const EventLocation &event) const
{
    return m_displayTime.toDisplay(event.rank, m_session->sessionTime(event));
}

void TimelineCanvas::setEmptyMessage(const QString &text)
{
    m_emptyMessage = text;
    viewport()->update();
}

void TimelineCanvas::rowsChanged()
{
    ++m_rowsGeneration;
    updateScrollBar();
    invalidateGeometry();
}

void TimelineCanvas::setLabelWidth(int width)
{
    // Before the window is shown (a remembered width being restored) the
    // viewport's size means nothing yet.
    const int widest = isVisible() ? std::max(80, viewport()->width() - 100) : 1200;
    width = std::clamp(width, 80, widest);
    if (width == m_labelWidth)
        return;
    m_labelWidth = width;
    invalidateGeometry();
    emit labelWidthChanged(width);
}

void TimelineCanvas::setExportFrame(std::optional<ExportFrame> frame)
{
    m_export = frame;
    invalidateGeometry();
}

int TimelineCanvas::frameHeight() const
{
    return m_export ? m_export->height : viewport()->height();
}

int TimelineCanvas::scrollOffset() const
{
    return m_export ? 0 : verticalScrollBar()->value();
}

TimeRange TimelineCanvas::visibleRange() const
{
    return m_export && m_export->visible ? *m_export->visible : m_zoom->visible();
}

QRect TimelineCanvas::frameRect() const
{
    return QRect(0, 0, viewport()->width(), frameHeight());
}

int TimelineCanvas::trackAreaWidth() const
{
    return std::max(1, viewport()->width() - m_labelWidth);
}

TimeScale TimelineCanvas::scale() const
{
    return TimeScale::fit(visibleRange(), trackAreaWidth());
}

void TimelineCanvas::invalidateGeometry()
{
    m_geometryValid = false;
    viewport()->update();
}

void TimelineCanvas::updateScrollBar()
{
    const int scrolledArea = std::max(0, viewport()->height() - m_rows.pinnedHeight());
    verticalScrollBar()->setPageStep(scrolledArea);
    verticalScrollBar()->setRange(0, std::max(0, m_rows.totalHeight() - scrolledArea));
}

void TimelineCanvas::ensureGeometry() const
{
    if (m_geometryValid)
        return;
    m_geometryValid = true;
    GeometryPass pass;
    pass.scale = scale();
    pass.width = trackAreaWidth();
    pass.view = GeometryView{pass.scale.start, pass.scale.nsPerPixel, pass.width, m_rowsGeneration};
    pass.scrolled = pass.view == m_geometryView && !m_export;
    // Only the time changed (a zoom or a pan of the same rows and width,
    // unstretched): the last frame's rectangles, moved to the new scale,
    // stand in for the rows the worker builds.
    pass.zoomed = !pass.scrolled && !m_export && !m_exportedLast && pass.view.width == m_geometryView.width && pass.view.rows == m_geometryView.rows
                  && !m_displayTime.isStretched();
    pass.before = m_geometryView;
    m_exportedLast = m_export.has_value();
    pass.building.start();
    m_rowState.pendingRows = 0;
    m_rowState.deferredRows = 0;
    // Every row built is kept, an empty one too: a row with no events in
    // view that is not kept is asked of the worker again in each frame.
    if (pass.scrolled || pass.zoomed)
        for (RowGeometry &g : m_geometry.rows())
            if (!g.rects.empty() || !g.pending)
                pass.previous.emplace(g.row, std::move(g));
    if (!pass.scrolled)
        m_rowBuilder->startView();
    m_geometryView = pass.view;
    m_geometry.clear();
    if (!m_session)
        return;
    int y = 0;
    for (int row : m_rows.pinnedRows()) {
        placeRow(pass, row, y, true);
        y += m_rows.height(row);
    }
    y = m_rows.pinnedHeight() - scrollOffset();
    for (int row : m_rows.shownRows()) {
        placeRow(pass, row, y, false);
        y += m_rows.height(row);
    }
    std::set<int> inView;
    for (const RowGeometry &g : m_geometry.rows())
        inView.insert(g.row);
    m_rowBuilder->setRowsInView(std::move(inView));
}

void TimelineCanvas::placeRow(GeometryPass &pass, int row, int y, bool pinned) const
{
    const int h = m_rows.height(row);
    const int visibleTop = pinned ? 0 : m_rows.pinnedHeight();
    if (y + h <= visibleTop || y >= frameHeight())
        return;
    RowGeometry g;
    g.row = row;
    g.top = y;
    g.height = h;
    g.pinned = pinned;
    const TimelineRow &r = m_rows.rows()[std::size_t(row)];
    const RowItem &item = rowItem(r.kind);
    if (item.drawsEvents() && m_session->ranks()[std::size_t(r.rank)].report->summariesOnly) {
        g.pending = true; // its events come with the whole report: hatched meanwhile
    } else {
        RowFrame frame{*m_session, m_displayTime, pass, *m_rowBuilder, m_rowState, visibleTop, frameHeight()};
        item.build(frame, g, r);
    }
    m_geometry.rows().push_back(std::move(g));
}

RowChoice TimelineCanvas::choiceAt(QPoint pos) const
{
    const FrameGeometry::Hit h = hit(pos);
    if (!h.row || !m_session || pos.x() < m_labelWidth)
        return {};
    return rowItem(m_rows.rows()[std::size_t(h.row->row)].kind).choiceAt(*this, h, pos);
}

std::optional<SampleLocation> TimelineCanvas::sampleAt(QPoint pos) const
{
    return choiceAt(pos).sample;
}

void TimelineCanvas::setSampleColoring(SampleColoring coloring)
{
    if (coloring == m_rowState.sampleColoring)
        return;
    m_rowState.sampleColoring = coloring;
    invalidateGeometry();
}

void TimelineCanvas::setMarkedCallchains(std::vector<std::vector<bool>> chainsPerRank)
{
    m_rowState.markedChains = std::move(chainsPerRank);
    invalidateGeometry();
}

QRect TimelineCanvas::rowRect(int row) const
{
    int y = 0;
    for (int pinned : m_rows.pinnedRows()) {
        if (pinned == row)
            return QRect(0, y, viewport()->width(), m_rows.height(row));
        y += m_rows.height(pinned);
    }
    y = m_rows.pinnedHeight() - scrollOffset();
    for (int shown : m_rows.shownRows()) {
        const int h = m_rows.height(shown);
        if (shown == row)
            return QRect(0, y, viewport()->width(), h);
        y += h;
    }
    return {};
}

const FrameGeometry &TimelineCanvas::geometry() const
{
    ensureGeometry();
    return m_geometry;
}

FrameGeometry::Hit TimelineCanvas::hit(QPoint viewportPos) const
{
    return geometry().hit(viewportPos, m_labelWidth, TimelineRows::kLaneHeight);
}

std::optional<EventLocation> TimelineCanvas::eventAt(QPoint pos) const
{
    return choiceAt(pos).event;
}

std::optional<int> TimelineCanvas::laneMiddle(const EventLocation &event) const
{
    if (!m_session)
        return std::nullopt;
    const int row = m_rows.rowOf(event.rank, event.track);
    const QRect rect = rowRect(row);
    if (rect.isNull())
        return std::nullopt;
    const TimelineRow &r = m_rows.rows()[std::size_t(row)];
    const Track &track = m_session->track(event);
    std::size_t slot = 0;
    while (slot < r.tracks.size() && r.tracks[slot] != event.track)
        ++slot;
    const int lane = r.laneOffset[slot] + (r.flatten ? 0 : track.slices.depth(event.event));
    return rect.top() + FrameGeometry::kLaneTopMargin + lane * TimelineRows::kLaneHeight + TimelineRows::kLaneHeight / 2;
}

std::optional<QPoint> TimelineCanvas::pointOf(const EventLocation &event) const
{
    const std::optional<int> y = laneMiddle(event);
    if (!y)
        return std::nullopt;
    const TimeRange when = displayedTime(event);
    const TimeScale s = scale();
    const double x = s.x(when.start + when.duration() / 2);
    if (x < 0 || x >= trackAreaWidth())
        return std::nullopt;
    return QPoint(m_labelWidth + int(x), *y);
}

void TimelineCanvas::selectEvent(std::optional<EventLocation> event, bool reveal)
{
    if (event && !event->isValid())
        event.reset();
    m_selected = event;
    m_correlated = event && m_session ? correlatedEvent(*m_session, *event) : std::nullopt;
    m_flows = event && m_session ? flowPartners(*m_session, *event) : std::vector<EventLocation>{};
    if (event && reveal && m_session) {
        const int row = m_rows.rowOf(event->rank, event->track);
        const TimeRange when = displayedTime(*event);
        const TimeRange visible = m_zoom->visible();
        if (when.end < visible.start || when.start > visible.end || when.duration() > visible.duration())
            m_zoom->centreOn(when.start + when.duration() / 2);
        revealRow(row);
    }
    viewport()->update();
    emit eventSelected(m_selected);
}

void TimelineCanvas::revealRow(int row)
{
    if (row < 0)
        return;
    for (int p = m_rows.rows()[std::size_t(row)].parent; p >= 0; p = m_rows.rows()[std::size_t(p)].parent)
        if (m_rows.rows()[std::size_t(p)].collapsed)
            m_rows.setCollapsed(p, false);
    rowsChanged();
    const QRect rect = rowRect(row);
    if (!rect.isNull() && (rect.top() < m_rows.pinnedHeight() || rect.bottom() > viewport()->height()))
        verticalScrollBar()->setValue(verticalScrollBar()->value() + rect.top() - viewport()->height() / 3);
}

int TimelineCanvas::rowOfMark(const TimeMark &mark) const
{
    if (mark.event)
        return m_rows.rowOf(mark.event->rank, mark.event->track);
    const Report *report = m_session && mark.rankIndex >= 0 && std::size_t(mark.rankIndex) < m_session->ranks().size()
                               ? m_session->ranks()[std::size_t(mark.rankIndex)].report.get()
                               : nullptr;
    if (!report)
        return -1;
    int group = -1;
    for (int row = 0; row < int(m_rows.rows().size()); ++row) {
        const TimelineRow &r = m_rows.rows()[std::size_t(row)];
        if (r.rank != mark.rankIndex)
            continue;
        if (group < 0 && r.parent < 0) // the rank's own row
            group = row;
        // The GPU's first row in display order is its all-streams row.
        if (mark.deviceId >= 0 && r.onGpu && !r.tracks.empty() && report->tracks[r.tracks.front()].deviceId == mark.deviceId)
            return row;
    }
    return group;
}

int TimelineCanvas::showMark(std::optional<TimeMark> mark)
{
    m_mark = std::move(mark);
    m_markRow = m_mark ? rowOfMark(*m_mark) : -1;
    revealRow(m_markRow);
    if (m_mark && m_mark->evidence && m_markRow >= 0) {
        // The evidence in view too: below the mark's row when both fit,
        // else a third of the way down as any row brought into view.
        const int evidenceRow = m_rows.rowOf(m_mark->evidence->rank, m_mark->evidence->track);
        if (evidenceRow >= 0) {
            revealRow(evidenceRow);
            const QRect markRect = rowRect(m_markRow), evidenceRect = rowRect(evidenceRow);
            const int room = viewport()->height() - m_rows.pinnedHeight();
            if (!markRect.isNull() && !evidenceRect.isNull() && std::abs(evidenceRect.bottom() - markRect.top()) < room
                && (markRect.top() < m_rows.pinnedHeight() || markRect.bottom() > viewport()->height()))
                verticalScrollBar()->setValue(verticalScrollBar()->value() + std::min(markRect.top(), evidenceRect.top()) - m_rows.pinnedHeight());
        }
    }
    viewport()->update();
    return m_markRow;
}

void TimelineCanvas::setHighlighted(std::vector<EventLocation> events)
{
    m_highlighted = std::move(events);
    if (!m_highlighted.empty())
        selectEvent(m_highlighted.front(), true);
    viewport()->update();
}

void TimelineCanvas::setCollectiveOverlay(std::optional<CollectiveOverlay> overlay)
{
    m_collective = std::move(overlay);
    viewport()->update();
}

void TimelineCanvas::paintCollective(QPainter &p) const
{
    if (!m_collective)
        return;
    const TimeScale s = scale();
    const int width = trackAreaWidth();
    QColor band = Theme::highlightOutline();
    band.setAlpha(40);
    const double x0 = std::clamp(s.x(m_collective->arrivals.start), -1.0, double(width) + 1);
    const double x1 = std::clamp(s.x(m_collective->arrivals.end), -1.0, double(width) + 1);
    p.fillRect(QRectF(m_labelWidth + x0, 0, std::max(2.0, x1 - x0), frameHeight()), band);
    for (const EventLocation &k : m_collective->kernels) {
        const auto at = pointOf(k);
        if (!at)
            continue;
        const TimeRange when = displayedTime(k);
        const double w = std::max(3.0, double(when.duration()) / s.nsPerPixel);
        const bool last = k == m_collective->last;
        p.setPen(QPen(last ? QColor(0xd0, 0x20, 0x20) : Theme::highlightOutline(), last ? 3 : 2));
        p.setBrush(Qt::NoBrush);
        const QRectF box(at->x() - w / 2, at->y() - TimelineRows::kLaneHeight / 2, w, TimelineRows::kLaneHeight - 1);
        p.drawRect(box);
        if (last) {
            // Left of the kernel, else right of it where the label column would cut it.
            const QString text = tr("last");
            const double width = p.fontMetrics().horizontalAdvance(text) + 4;
            const bool left = box.left() - width - 4 >= m_labelWidth;
            p.drawText(QRectF(left ? box.left() - width - 4 : box.right() + 4, box.top(), width, box.height()),
                       (left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, text);
        }
    }
}

void TimelineCanvas::setCriticalPath(std::shared_ptr<const stats::StepCriticalPath> path)
{
    m_criticalPath = std::move(path);
    viewport()->update();
}

void TimelineCanvas::paintCriticalPath(QPainter &p) const
{
    if (!m_criticalPath || !m_session)
        return;
    const TimeScale s = scale();
    const double width = trackAreaWidth();
    const QColor outline = Theme::criticalPathOutline();
    QColor fill = outline;
    fill.setAlpha(60);
    // Where the last segment drawn ended: a crossing's arrow starts there.
    std::optional<QPoint> lastEnd;
    int lastRank = -1;
    for (const stats::PathSegment &segment : m_criticalPath->segments) {
        const TimeNs shift = m_criticalPath->shiftOf(segment.rankIndex); // the path's clock to the session's
        const double x0 = s.x(m_displayTime.toDisplay(segment.rankIndex, segment.start - shift));
        const double x1 = s.x(m_displayTime.toDisplay(segment.rankIndex, segment.end - shift));
        const std::optional<int> y = segment.event.isValid() ? laneMiddle(segment.event) : std::nullopt;
        if (!y) {
            if (segment.rankIndex != lastRank)
                lastEnd.reset();
            continue;
        }
        if (segment.fromRankIndex >= 0 && lastEnd && lastRank == segment.fromRankIndex)
            paintFlowArrow(p, *lastEnd, QPoint(m_labelWidth + int(std::clamp(x0, -10.0, width + 10)), *y), true, outline);
        lastEnd = QPoint(m_labelWidth + int(std::clamp(x1, -10.0, width + 10)), *y);
        lastRank = segment.rankIndex;
        if (x1 < -2 || x0 > width + 2)
            continue;
        const double left = std::clamp(x0, -2.0, width + 2), right = std::clamp(x1, -2.0, width + 2);
        const QRectF box(m_labelWidth + left, *y - TimelineRows::kLaneHeight / 2, std::max(2.0, right - left), TimelineRows::kLaneHeight - 1);
        p.fillRect(box, fill);
        p.setPen(QPen(outline, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box);
    }
}

void TimelineCanvas::paintEvent(QPaintEvent *)
{
    QElapsedTimer timer;
    timer.start();
    const bool rebuilt = !m_geometryValid;
    QPainter p(viewport());
    paintTo(p);
    if (m_rowState.deferredRows > 0) // build them next, once this frame is shown (the worker's rows come by themselves)
        QTimer::singleShot(0, this, [this] { invalidateGeometry(); });
    if (m_frameTimes)
        m_frameTimes->push_back(double(timer.nsecsElapsed()) / 1e6);
    qCDebug(lcTimelinePaint, "frame: %.3f ms, %zu rows, %zu rects%s", double(timer.nsecsElapsed()) / 1e6, m_geometry.rows().size(),
            m_geometry.rectCount(), rebuilt ? ", geometry rebuilt" : "");
}

void TimelineCanvas::paintTo(QPainter &p)
{
    ensureGeometry();
    p.fillRect(frameRect(), Theme(palette()).canvasBackground());
    if (!m_session) {
        p.setPen(Theme(palette()).labelText());
        p.drawText(frameRect().adjusted(40, 40, -40, -40), Qt::AlignCenter | Qt::TextWordWrap, m_emptyMessage);
        return;
    }
    const int pinnedHeight = m_rows.pinnedHeight();
    for (const RowGeometry &g : m_geometry.rows()) {
        p.save();
        if (!g.pinned) // scrolled rows slide under the pinned ones
            p.setClipRect(0, pinnedHeight, viewport()->width(), frameHeight() - pinnedHeight);
        paintRow(p, g);
        p.restore();
    }
    paintOverlays(p);
    paintLabels(p);
    if (pinnedHeight > 0) {
        p.setPen(QPen(Theme(palette()).edge(), 2));
        p.drawLine(0, pinnedHeight, viewport()->width(), pinnedHeight);
    }
}

void TimelineCanvas::paintRow(QPainter &p, const RowGeometry &g) const
{
    const TimelineRow &row = m_rows.rows()[std::size_t(g.row)];
    const Theme theme(palette());
    const RowPaint paint{{QRect(m_labelWidth, g.top, trackAreaWidth(), g.height), &g},
                         m_session->ranks()[std::size_t(row.rank)],
                         theme,
                         m_colors,
                         m_displayTime,
                         m_zoom->selection()};
    rowItem(row.kind).paint(p, paint, row);
}

QString TimelineCanvas::counterRangeText(const TimelineRow &row) const
{
    return counterSelectionText(m_session->ranks()[std::size_t(row.rank)], m_displayTime, row, m_zoom->selection());
}

void TimelineCanvas::paintOverlays(QPainter &p) const
{
    const TimeScale s = scale();
    const int width = trackAreaWidth();
    const Theme theme(palette());
    p.save();
    p.setClipRect(m_labelWidth, 0, width, frameHeight());
    paintCollective(p);
    paintCriticalPath(p);
    if (const auto sel = m_zoom->selection()) {
        const double x0 = std::clamp(s.x(sel->start), -1.0, double(width) + 1);
        const double x1 = std::clamp(s.x(sel->end), -1.0, double(width) + 1);
        p.fillRect(QRectF(m_labelWidth + x0, 0, std::max(1.0, x1 - x0), frameHeight()), theme.selectionShade(50));
    }
    // Highlighted events: outlined where they are on screen (at most a few
    // thousand are looked at per frame).
    p.setPen(QPen(Theme::highlightOutline(), 2));
    p.setBrush(Qt::NoBrush);
    for (std::size_t i = 0; i < m_highlighted.size() && i < 4096; ++i)
        if (const auto at = pointOf(m_highlighted[i])) {
            const TimeRange when = displayedTime(m_highlighted[i]);
            const double w = std::max(3.0, double(when.duration()) / s.nsPerPixel);
            p.drawRect(QRectF(at->x() - w / 2, at->y() - TimelineRows::kLaneHeight / 2, w, TimelineRows::kLaneHeight - 1));
        }
    if (m_mark && m_markRow >= 0) {
        // The mark: a band across every row, outlined on its own.
        const double x0 = std::clamp(s.x(m_displayTime.toDisplay(m_mark->rankIndex, m_mark->time.start)), -2.0, double(width) + 2);
        const double x1 = std::clamp(s.x(m_displayTime.toDisplay(m_mark->rankIndex, m_mark->time.end)), -2.0, double(width) + 2);
        p.fillRect(QRectF(m_labelWidth + x0, 0, std::max(1.0, x1 - x0), frameHeight()), theme.selectionShade(25));
        if (const QRect rect = rowRect(m_markRow); !rect.isNull()) {
            p.setPen(QPen(Theme::highlightOutline(), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRectF(m_labelWidth + x0 - 1, rect.top() + 1, std::max(2.0, x1 - x0 + 2), rect.height() - 3));
        }
        if (m_mark->evidence)
            if (const auto at = pointOf(*m_mark->evidence)) {
                const TimeRange when = displayedTime(*m_mark->evidence);
                const double w = std::max(3.0, double(when.duration()) / s.nsPerPixel);
                p.setPen(QPen(Theme::highlightOutline(), 2, Qt::DashLine));
                p.setBrush(Qt::NoBrush);
                p.drawRect(QRectF(at->x() - w / 2, at->y() - TimelineRows::kLaneHeight / 2, w, TimelineRows::kLaneHeight - 1));
            }
    }
    if (m_selected) {
        const auto at = pointOf(*m_selected);
        const TimeRange when = displayedTime(*m_selected);
        const int row = m_rows.rowOf(m_selected->rank, m_selected->track);
        const QRect rect = rowRect(row);
        if (!rect.isNull()) {
            const double x0 = std::clamp(s.x(when.start), -2.0, double(width) + 2);
            const double x1 = std::clamp(s.x(when.end), -2.0, double(width) + 2);
            const int y = at ? at->y() - TimelineRows::kLaneHeight / 2 : rect.top() + FrameGeometry::kLaneTopMargin;
            p.setPen(QPen(theme.selectionOutline(), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRectF(m_labelWidth + x0 - 1, y - 1, std::max(2.0, x1 - x0 + 2), TimelineRows::kLaneHeight));
        }
        if (m_correlated && at) {
            if (const auto other = pointOf(*m_correlated)) {
                p.setPen(QPen(Theme::highlightOutline(), 2, Qt::DashLine));
                p.drawLine(*at, *other);
            }
        }
        if (at)
            for (const EventLocation &flow : m_flows)
                if (const auto other = pointOf(flow))
                    paintFlowArrow(p, *at, *other, flowPointsTo(*m_session, *m_selected, flow));
    }
    p.restore();
}

void TimelineCanvas::paintFlowArrow(QPainter &p, QPoint from, QPoint to, bool forward, QColor colour) const
{
    // An S-curve from one event to the other with its head at the later
    // one, as Perfetto draws flows.
    if (!forward)
        std::swap(from, to);
    QPainterPath path(from);
    const double bend = std::max(20.0, std::abs(to.x() - from.x()) / 3.0);
    path.cubicTo(from.x() + bend, from.y(), to.x() - bend, to.y(), to.x(), to.y());
    if (!colour.isValid())
        colour = Theme(palette()).selectionOutline();
    p.setPen(QPen(colour, 2));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    const double angle = std::atan2(to.y() - path.pointAtPercent(0.97).y(), to.x() - path.pointAtPercent(0.97).x());
    const QPointF tip(to);
    QPolygonF head;
    head << tip << tip - QPointF(std::cos(angle - 0.4) * 9, std::sin(angle - 0.4) * 9)
         << tip - QPointF(std::cos(angle + 0.4) * 9, std::sin(angle + 0.4) * 9);
    p.setBrush(colour);
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
}

void TimelineCanvas::setDerivedGpuRanks(std::set<int> ranks)
{
    m_derivedJob.cancel();
    m_derivedPending = false;
    if (!m_session || ranks == m_rows.derivedGpuRanks())
        return;
    const auto show = [this](std::set<int> shown) {
        m_rows.setDerivedGpuRanks(*m_session, std::move(shown));
        rowsChanged();
        emit rowVisibilityChanged();
    };
    std::vector<TimelineRows::DerivedGpu> missing = m_rows.gpusWithoutDerivedCounters(*m_session, ranks);
    if (missing.empty())
        return show(std::move(ranks));
    // Seconds on a big trace: on a worker, the session kept alive by it.
    // Running out of memory is an outcome: the rows are not shown, and the
    // window says why.
    m_derivedPending = true;
    using Computed = std::vector<TimelineRows::DerivedCounters>;
    m_derivedJob.start(
        [session = m_session, missing](const JobToken &) -> std::optional<Computed> {
            try {
                Computed computed;
                for (const TimelineRows::DerivedGpu &gpu : missing)
                    computed.push_back(TimelineRows::derivedCountersOf(gpu));
                return computed;
            } catch (const std::bad_alloc &) {
                releaseFreedMemory();
                return std::nullopt;
            }
        },
        [this, missing, ranks, show](std::optional<Computed> computed) {
            m_derivedPending = false;
            if (!computed) {
                emit derivedGpuRowsFailed(tr("Derived GPU rows: ran out of memory computing their counters (%1 is available to Rankscope "
                                             "now); the rest of the session is still open")
                                              .arg(formatBinarySize(availableMemoryBytes())));
                emit rowVisibilityChanged(); // the rows asked for are not there
                return;
            }
            for (std::size_t i = 0; i < missing.size(); ++i)
                m_rows.addDerivedCounters(missing[i], std::move((*computed)[i]));
            show(ranks);
        });
}

void TimelineCanvas::setDerivedGpuRowsForAll(bool all)
{
    std::set<int> ranks;
    if (all && m_session)
        for (int r = 0; r < int(m_session->ranks().size()); ++r)
            ranks.insert(r);
    setDerivedGpuRanks(std::move(ranks));
}

void TimelineCanvas::setCommunicationWaits(std::vector<std::vector<stats::Interval>> waits)
{
    m_rowState.communicationWaits = std::move(waits);
    m_rowState.collapsedBusy.clear(); // made again, with or without the waits
    invalidateGeometry();
}

void TimelineCanvas::setAreaRows(int fromRow, int toRow)
{
    const std::vector<int> &shown = m_rows.shownRows();
    auto a = std::find(shown.begin(), shown.end(), fromRow), b = std::find(shown.begin(), shown.end(), toRow);
    if (a == shown.end() || b == shown.end()) {
        clearAreaRows();
        return;
    }
    if (a > b)
        std::swap(a, b);
    std::vector<int> rows(a, b + 1);
    if (rows != m_areaRows) {
        m_areaRows = std::move(rows);
        viewport()->update();
    }
}

void TimelineCanvas::clearAreaRows()
{
    if (m_areaRows.empty())
        return;
    m_areaRows.clear();
    viewport()->update();
}

AreaContents TimelineCanvas::areaContents() const
{
    AreaContents contents;
    const auto &rows = m_rows.rows();
    const auto add = [&](const TimelineRow &r) { rowItem(r.kind).addToArea(*m_session, r, contents); };
    for (const int row : m_areaRows) {
        const TimelineRow &r = rows[std::size_t(row)];
        if (!rowItem(r.kind).folds()) {
            add(r);
            continue;
        }
        if (!r.collapsed)
            continue; // its rows are in the area themselves
        // A collapsed group stands for every row under it.
        for (std::size_t child = 0; child < rows.size(); ++child)
            for (int up = rows[child].parent; up >= 0; up = rows[std::size_t(up)].parent)
                if (up == row) {
                    add(rows[child]);
                    break;
                }
    }
    std::sort(contents.tracks.begin(), contents.tracks.end());
    contents.tracks.erase(std::unique(contents.tracks.begin(), contents.tracks.end()), contents.tracks.end());
    return contents;
}

std::set<stats::SamplingScope::ThreadKey> TimelineCanvas::areaSampledThreads() const
{
    return areaContents().sampledThreads;
}

std::vector<stats::TrackRef> TimelineCanvas::areaTracks() const
{
    return areaContents().tracks;
}

void TimelineCanvas::paintLabels(QPainter &p) const
{
    const QRect column(0, 0, m_labelWidth, frameHeight());
    const Theme theme(palette());
    p.fillRect(column, theme.labelBackground());
    const int pinnedHeight = m_rows.pinnedHeight();
    for (const RowGeometry &g : m_geometry.rows()) {
        p.save();
        if (!g.pinned)
            p.setClipRect(0, pinnedHeight, m_labelWidth, frameHeight() - pinnedHeight);
        const TimelineRow &r = m_rows.rows()[std::size_t(g.row)];
        // The area selection's rows: their labels shaded as the range is.
        if (std::find(m_areaRows.begin(), m_areaRows.end(), g.row) != m_areaRows.end())
            p.fillRect(QRect(0, g.top, m_labelWidth, g.height), theme.selectionShade(90));
        const int indent = 4 + (g.pinned ? 0 : r.level * kIndent);
        const RowLabel label{QRect(indent, g.top, m_labelWidth - indent - 6, g.height), g.pinned, g.pinned ? m_rows.key(g.row) : QString()};
        p.setPen(theme.labelText());
        rowItem(r.kind).paintLabel(p, label, r);
        p.setPen(theme.rowSeparator());
        p.drawLine(0, g.top + g.height - 1, m_labelWidth, g.top + g.height - 1);
        p.restore();
    }
    p.setFont(font());
    p.setPen(theme.edge());
    p.drawLine(m_labelWidth - 1, 0, m_labelWidth - 1, frameHeight());
}

void TimelineCanvas::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    // The labels leave at least half of a shown canvas to the events.
    if (isVisible() && m_labelWidth > std::max(80, viewport()->width() / 2))
        setLabelWidth(viewport()->width() / 2);
    updateScrollBar();
    invalidateGeometry();
}

void TimelineCanvas::scrollContentsBy(int, int)
{
    invalidateGeometry();
}

TimeNs TimelineCanvas::anchorTime() const
{
    const QPoint mouse = viewport()->mapFromGlobal(QCursor::pos());
    const TimeScale s = scale();
    if (viewport()->rect().contains(mouse) && mouse.x() >= m_labelWidth)
        return s.time(mouse.x() - m_labelWidth);
    const TimeRange v = m_zoom->visible();
    return v.start + v.duration() / 2;
}

} // namespace rankscope
