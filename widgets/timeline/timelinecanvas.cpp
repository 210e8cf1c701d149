#include "timeline/timelinecanvas.h"

#include "core/units.h"
#include "session/eventlinks.h"
#include "theme/theme.h"
#include "timeline/zoomstate.h"

#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

Q_LOGGING_CATEGORY(lcTimelinePaint, "rankscope.paint", QtWarningMsg)

namespace rankscope {

namespace {
constexpr int kResizeGrip = 4;   // px either side of the label edge
constexpr int kIndent = 12;
}

TimelineCanvas::TimelineCanvas(ZoomState *zoom, QWidget *parent) : QAbstractScrollArea(parent), m_zoom(zoom)
{
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verticalScrollBar()->setSingleStep(TimelineRows::kLaneHeight);
    connect(m_zoom, &ZoomState::visibleChanged, this, [this] { invalidateGeometry(); });
    connect(m_zoom, &ZoomState::selectionChanged, viewport(), qOverload<>(&QWidget::update));
}

void TimelineCanvas::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    m_selected.reset();
    m_correlated.reset();
    m_highlighted.clear();
    if (m_session)
        m_rows.build(*m_session);
    else
        m_rows = TimelineRows();
    verticalScrollBar()->setValue(0);
    rowsChanged();
}

void TimelineCanvas::rowsChanged()
{
    updateScrollBar();
    invalidateGeometry();
}

void TimelineCanvas::setLabelWidth(int width)
{
    width = std::clamp(width, 80, std::max(80, viewport()->width() - 100));
    if (width == m_labelWidth)
        return;
    m_labelWidth = width;
    invalidateGeometry();
    emit labelWidthChanged(width);
}

int TimelineCanvas::trackAreaWidth() const
{
    return std::max(1, viewport()->width() - m_labelWidth);
}

TimeScale TimelineCanvas::scale() const
{
    return TimeScale::fit(m_zoom->visible(), trackAreaWidth());
}

void TimelineCanvas::invalidateGeometry()
{
    m_geometryValid = false;
    viewport()->update();
}

void TimelineCanvas::updateScrollBar()
{
    verticalScrollBar()->setPageStep(viewport()->height());
    verticalScrollBar()->setRange(0, std::max(0, m_rows.totalHeight() - viewport()->height()));
}

void TimelineCanvas::ensureGeometry() const
{
    if (m_geometryValid)
        return;
    m_geometry.clear();
    m_geometryValid = true;
    if (!m_session)
        return;
    const TimeScale s = scale();
    const int width = trackAreaWidth();
    int y = -verticalScrollBar()->value();
    for (int row : m_rows.shownRows()) {
        const int h = m_rows.height(row);
        if (y + h >= 0 && y < viewport()->height()) {
            RowGeometry g;
            g.row = row;
            g.top = y;
            g.height = h;
            const TimelineRow &r = m_rows.rows()[std::size_t(row)];
            if (r.kind == TimelineRow::Kind::Slices) {
                const RankEntry &entry = m_session->ranks()[std::size_t(r.rank)];
                for (std::size_t t = 0; t < r.tracks.size(); ++t) {
                    SliceGeometryInput in;
                    in.track = &entry.report->tracks[r.tracks[t]].slices;
                    in.sessionOffset = entry.sessionOffset;
                    in.laneOffset = r.laneOffset[t];
                    in.flatten = r.flatten;
                    in.trackSlot = std::uint8_t(t);
                    buildSliceGeometry(in, s, width, g.rects);
                }
            }
            m_geometry.push_back(std::move(g));
        }
        y += h;
    }
}

QRect TimelineCanvas::rowRect(int row) const
{
    int y = -verticalScrollBar()->value();
    for (int shown : m_rows.shownRows()) {
        const int h = m_rows.height(shown);
        if (shown == row)
            return QRect(0, y, viewport()->width(), h);
        y += h;
    }
    return {};
}

int TimelineCanvas::laneTop(const RowGeometry &g, int lane) const
{
    return g.top + 2 + lane * TimelineRows::kLaneHeight;
}

const TimelineCanvas::RowGeometry *TimelineCanvas::geometryAt(int y) const
{
    ensureGeometry();
    for (const RowGeometry &g : m_geometry)
        if (y >= g.top && y < g.top + g.height)
            return &g;
    return nullptr;
}

const SliceRect *TimelineCanvas::rectAt(QPoint pos, const RowGeometry **rowOut) const
{
    const RowGeometry *g = geometryAt(pos.y());
    if (!g || pos.x() < m_labelWidth)
        return nullptr;
    const int lane = (pos.y() - g->top - 2) / TimelineRows::kLaneHeight;
    const float x = float(pos.x() - m_labelWidth);
    const SliceRect *best = nullptr;
    for (const SliceRect &r : g->rects) {
        if (r.lane != lane || x < r.x0 - 1.0f || x > std::max(r.x1, r.x0 + 1.0f) + 1.0f)
            continue;
        // Prefer a rectangle that contains x over a neighbour within a pixel.
        if (!best || (x >= r.x0 && x <= r.x1))
            best = &r;
    }
    if (rowOut)
        *rowOut = g;
    return best;
}

std::optional<EventLocation> TimelineCanvas::eventAt(QPoint pos) const
{
    const RowGeometry *g = nullptr;
    const SliceRect *r = rectAt(pos, &g);
    if (!r || r->event == SliceRect::kNoEvent)
        return std::nullopt;
    const TimelineRow &row = m_rows.rows()[std::size_t(g->row)];
    return EventLocation{row.rank, row.tracks[r->trackSlot], r->event};
}

std::optional<QPoint> TimelineCanvas::pointOf(const EventLocation &event) const
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
    const TimeRange when = m_session->sessionTime(event);
    const TimeScale s = scale();
    const double x = s.x(when.start + when.duration() / 2);
    if (x < 0 || x >= trackAreaWidth())
        return std::nullopt;
    return QPoint(m_labelWidth + int(x), rect.top() + 2 + lane * TimelineRows::kLaneHeight + TimelineRows::kLaneHeight / 2);
}

void TimelineCanvas::selectEvent(std::optional<EventLocation> event, bool reveal)
{
    if (event && !event->isValid())
        event.reset();
    m_selected = event;
    m_correlated = event && m_session ? correlatedEvent(*m_session, *event) : std::nullopt;
    if (event && reveal && m_session) {
        const int row = m_rows.rowOf(event->rank, event->track);
        for (int p = row >= 0 ? m_rows.rows()[std::size_t(row)].parent : -1; p >= 0; p = m_rows.rows()[std::size_t(p)].parent)
            if (m_rows.rows()[std::size_t(p)].collapsed)
                m_rows.setCollapsed(p, false);
        rowsChanged();
        const TimeRange when = m_session->sessionTime(*event);
        const TimeRange visible = m_zoom->visible();
        if (when.end < visible.start || when.start > visible.end || when.duration() > visible.duration())
            m_zoom->centreOn(when.start + when.duration() / 2);
        QRect rect = rowRect(row);
        if (!rect.isNull() && (rect.top() < 0 || rect.bottom() > viewport()->height()))
            verticalScrollBar()->setValue(verticalScrollBar()->value() + rect.top() - viewport()->height() / 3);
    }
    viewport()->update();
    emit eventSelected(m_selected);
}

void TimelineCanvas::setHighlighted(std::vector<EventLocation> events)
{
    m_highlighted = std::move(events);
    if (!m_highlighted.empty())
        selectEvent(m_highlighted.front(), true);
    viewport()->update();
}

void TimelineCanvas::paintEvent(QPaintEvent *)
{
    QElapsedTimer timer;
    timer.start();
    const bool rebuilt = !m_geometryValid;
    QPainter p(viewport());
    paintTo(p);
    std::size_t rects = 0;
    for (const RowGeometry &g : m_geometry)
        rects += g.rects.size();
    qCDebug(lcTimelinePaint, "frame: %.3f ms, %zu rows, %zu rects%s", double(timer.nsecsElapsed()) / 1e6,
            m_geometry.size(), rects, rebuilt ? ", geometry rebuilt" : "");
}

void TimelineCanvas::paintTo(QPainter &p)
{
    ensureGeometry();
    p.fillRect(viewport()->rect(), Theme(palette()).canvasBackground());
    for (const RowGeometry &g : m_geometry)
        paintRow(p, g);
    paintOverlays(p);
    paintLabels(p);
}

void TimelineCanvas::paintRow(QPainter &p, const RowGeometry &g) const
{
    const TimelineRow &row = m_rows.rows()[std::size_t(g.row)];
    const QRect area(m_labelWidth, g.top, trackAreaWidth(), g.height);
    const Theme theme(palette());
    if (row.kind == TimelineRow::Kind::Group) {
        p.fillRect(area, theme.groupBackground());
        return;
    }
    p.setPen(theme.rowSeparator());
    p.drawLine(area.left(), area.bottom(), area.right(), area.bottom());
    if (row.kind == TimelineRow::Kind::Counter) {
        paintCounter(p, g);
        return;
    }
    const RankEntry &entry = m_session->ranks()[std::size_t(row.rank)];
    const Report &report = *entry.report;
    const QFontMetrics fm = p.fontMetrics();
    p.save();
    p.setClipRect(area);
    p.translate(m_labelWidth, 0);
    for (const SliceRect &r : g.rects) {
        const Track &track = report.tracks[row.tracks[r.trackSlot]];
        const int top = laneTop(g, r.lane);
        const int h = TimelineRows::kLaneHeight - 2;
        const int x0 = int(std::floor(r.x0));
        const int w = std::max(1, int(std::ceil(r.x1)) - x0);
        QColor c = r.isMerged() || r.event == SliceRect::kNoEvent ? Theme::kindColor(track.kind)
                                                                   : Theme::eventColor(report, track, r.event);
        if (r.coverage < 1.0f)
            c.setAlphaF(0.35 + 0.65 * double(r.coverage));
        p.fillRect(x0, top, w, h, c);
        if (r.count == 1)
            if (const QBrush pattern = Theme::eventPattern(report, track, r.event); pattern.style() != Qt::NoBrush)
                p.fillRect(x0, top, w, h, pattern);
        if (w > 30 && r.count == 1) {
            p.setPen(Theme::textColorOn(c));
            const QString name = report.strings.string(track.kind == TrackKind::Kernel || track.kind == TrackKind::NcclKernels
                                                           ? report.kernels[track.slices.payload(r.event)].shortName
                                                           : track.slices.name(r.event));
            p.drawText(QRect(x0 + 2, top, w - 4, h), Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(name, Qt::ElideRight, w - 4));
        }
    }
    p.restore();
}

void TimelineCanvas::paintCounter(QPainter &p, const RowGeometry &g) const
{
    const TimelineRow &row = m_rows.rows()[std::size_t(g.row)];
    const RankEntry &entry = m_session->ranks()[std::size_t(row.rank)];
    const CounterTrack &c = entry.report->counters[std::size_t(row.counter)];
    if (c.time.empty())
        return;
    const double maxValue = std::max(1e-9, *std::max_element(c.value.begin(), c.value.end()));
    const TimeScale s = scale();
    const int width = trackAreaWidth();
    const int base = g.top + g.height - 3, span = g.height - 8;
    // A step chart: each pixel shows the largest value in force across it.
    std::vector<double> column(std::size_t(width), -1.0);
    const TimeNs lo = s.time(0) - entry.sessionOffset;
    auto it = std::upper_bound(c.time.begin(), c.time.end(), lo);
    std::size_t i = it == c.time.begin() ? 0 : std::size_t(it - c.time.begin()) - 1;
    for (; i < c.time.size(); ++i) {
        const double x0 = std::max(0.0, s.x(c.time[i] + entry.sessionOffset));
        const double x1 = i + 1 < c.time.size() ? s.x(c.time[i + 1] + entry.sessionOffset) : double(width);
        if (x0 >= width)
            break;
        for (int x = int(x0); x < std::min(width, int(std::ceil(std::max(x1, x0 + 1)))); ++x)
            column[std::size_t(x)] = std::max(column[std::size_t(x)], c.value[i]);
    }
    const QColor fill = Theme::kindColor(TrackKind::Memset);
    for (int x = 0; x < width; ++x)
        if (column[std::size_t(x)] >= 0) {
            const int h = int(std::round(column[std::size_t(x)] / maxValue * span));
            p.fillRect(m_labelWidth + x, base - h, 1, h, fill);
        }
    p.setPen(Theme(palette()).valueText());
    const QString peak = c.unit == QLatin1String("B") ? formatBytes(std::uint64_t(maxValue)) : QString::number(maxValue, 'g', 4) + c.unit;
    p.drawText(QRect(m_labelWidth + 4, g.top, width - 8, 14), Qt::AlignLeft | Qt::AlignTop, QStringLiteral("max %1").arg(peak));
}

void TimelineCanvas::paintOverlays(QPainter &p) const
{
    const TimeScale s = scale();
    const int width = trackAreaWidth();
    const Theme theme(palette());
    p.save();
    p.setClipRect(m_labelWidth, 0, width, viewport()->height());
    if (const auto sel = m_zoom->selection()) {
        const double x0 = std::clamp(s.x(sel->start), -1.0, double(width) + 1);
        const double x1 = std::clamp(s.x(sel->end), -1.0, double(width) + 1);
        p.fillRect(QRectF(m_labelWidth + x0, 0, std::max(1.0, x1 - x0), viewport()->height()), theme.selectionShade(50));
    }
    // Highlighted events: outlined where they are on screen (at most a few
    // thousand are looked at per frame).
    p.setPen(QPen(Theme::highlightOutline(), 2));
    p.setBrush(Qt::NoBrush);
    for (std::size_t i = 0; i < m_highlighted.size() && i < 4096; ++i)
        if (const auto at = pointOf(m_highlighted[i])) {
            const TimeRange when = m_session->sessionTime(m_highlighted[i]);
            const double w = std::max(3.0, double(when.duration()) / s.nsPerPixel);
            p.drawRect(QRectF(at->x() - w / 2, at->y() - TimelineRows::kLaneHeight / 2, w, TimelineRows::kLaneHeight - 1));
        }
    if (m_selected) {
        const auto at = pointOf(*m_selected);
        const TimeRange when = m_session->sessionTime(*m_selected);
        const int row = m_rows.rowOf(m_selected->rank, m_selected->track);
        const QRect rect = rowRect(row);
        if (!rect.isNull()) {
            const double x0 = std::clamp(s.x(when.start), -2.0, double(width) + 2);
            const double x1 = std::clamp(s.x(when.end), -2.0, double(width) + 2);
            const int y = at ? at->y() - TimelineRows::kLaneHeight / 2 : rect.top() + 2;
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
    }
    p.restore();
}

void TimelineCanvas::paintLabels(QPainter &p) const
{
    const QRect column(0, 0, m_labelWidth, viewport()->height());
    const Theme theme(palette());
    p.fillRect(column, theme.labelBackground());
    int y = -verticalScrollBar()->value();
    for (int row : m_rows.shownRows()) {
        const int h = m_rows.height(row);
        if (y + h >= 0 && y < viewport()->height()) {
            const TimelineRow &r = m_rows.rows()[std::size_t(row)];
            const int indent = 4 + r.level * kIndent;
            QString text = r.label;
            QFont font = p.font();
            font.setBold(r.kind == TimelineRow::Kind::Group && r.level == 0);
            p.setFont(font);
            if (r.kind == TimelineRow::Kind::Group)
                text = (r.collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + text;
            p.setPen(theme.labelText());
            p.drawText(QRect(indent, y, m_labelWidth - indent - 6, std::min(h, TimelineRows::kGroupHeight)),
                       Qt::AlignVCenter | Qt::AlignLeft, QFontMetrics(font).elidedText(text, Qt::ElideRight, m_labelWidth - indent - 6));
            p.setPen(theme.rowSeparator());
            p.drawLine(0, y + h - 1, m_labelWidth, y + h - 1);
        }
        y += h;
    }
    p.setFont(font());
    p.setPen(theme.edge());
    p.drawLine(m_labelWidth - 1, 0, m_labelWidth - 1, viewport()->height());
}

QString TimelineCanvas::tooltipAt(QPoint pos) const
{
    const RowGeometry *g = nullptr;
    const SliceRect *r = rectAt(pos, &g);
    if (pos.x() < m_labelWidth) {
        if (const RowGeometry *rg = geometryAt(pos.y()))
            return m_rows.rows()[std::size_t(rg->row)].tooltip;
        return {};
    }
    if (!r)
        return {};
    const TimelineRow &row = m_rows.rows()[std::size_t(g->row)];
    const Report &report = *m_session->ranks()[std::size_t(row.rank)].report;
    const Track &track = report.tracks[row.tracks[r->trackSlot]];
    if (r->isMerged()) {
        QString text = QStringLiteral("%1 events merged (%2% busy)").arg(r->count).arg(int(std::round(r->coverage * 100)));
        if (r->event != SliceRect::kNoEvent)
            text += QStringLiteral("\nlongest: %1, %2").arg(report.strings.string(track.slices.name(r->event)), formatDuration(track.slices.duration(r->event)));
        return text;
    }
    QString text = report.strings.string(track.slices.name(r->event)).left(300) + QLatin1Char('\n') + formatDuration(track.slices.duration(r->event));
    if (track.kind == TrackKind::Memcpy) {
        const MemcpyRecord &m = report.memcpys[track.slices.payload(r->event)];
        text += QStringLiteral("\n%1, %2 → %3").arg(formatBytes(m.bytes), report.memoryKindLabel(int(m.srcKind)), report.memoryKindLabel(int(m.dstKind)));
    }
    return text;
}

bool TimelineCanvas::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_session) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineCanvas::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
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

void TimelineCanvas::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->pos();
    m_moved = false;
    if (event->button() != Qt::LeftButton)
        return;
    if (std::abs(event->pos().x() - m_labelWidth) <= kResizeGrip) {
        m_drag = Drag::ResizeLabels;
        return;
    }
    if (event->pos().x() < m_labelWidth) {
        if (const RowGeometry *g = geometryAt(event->pos().y()))
            if (m_rows.rows()[std::size_t(g->row)].kind == TimelineRow::Kind::Group) {
                m_rows.toggle(g->row);
                rowsChanged();
            }
        m_drag = Drag::None;
        return;
    }
    m_pressTime = scale().time(event->pos().x() - m_labelWidth);
    m_pressVisible = m_zoom->visible();
    m_drag = event->modifiers() & Qt::ShiftModifier ? Drag::Select : Drag::Pan;
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent *event)
{
    if (m_drag == Drag::None) {
        viewport()->setCursor(std::abs(event->pos().x() - m_labelWidth) <= kResizeGrip ? Qt::SplitHCursor : Qt::ArrowCursor);
        return;
    }
    m_moved |= (event->pos() - m_pressPos).manhattanLength() > 3;
    if (m_drag == Drag::ResizeLabels) {
        setLabelWidth(event->pos().x());
    } else if (m_drag == Drag::Pan && m_moved) {
        const double nsPerPx = double(m_pressVisible.duration()) / trackAreaWidth();
        const TimeNs shift = TimeNs(double(m_pressPos.x() - event->pos().x()) * nsPerPx);
        m_zoom->pan(m_pressVisible.start + shift - m_zoom->visible().start);
        verticalScrollBar()->setValue(verticalScrollBar()->value() - (event->pos().y() - m_pressPos.y()));
        m_pressPos.setY(event->pos().y());
    } else if (m_drag == Drag::Select) {
        const TimeNs now = scale().time(event->pos().x() - m_labelWidth);
        m_zoom->setSelection(TimeRange{std::min(m_pressTime, now), std::max(m_pressTime, now)});
    }
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent *event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (event->button() != Qt::LeftButton || m_moved || drag == Drag::ResizeLabels || event->pos().x() < m_labelWidth)
        return;
    if (drag == Drag::Select) {
        m_zoom->setSelection(std::nullopt);
        return;
    }
    selectEvent(eventAt(event->pos()));
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent *event)
{
    // Double-clicking an event zooms to it.
    if (const auto hit = eventAt(event->pos())) {
        const TimeRange when = m_session->sessionTime(*hit);
        const TimeNs pad = std::max<TimeNs>(when.duration() / 10, 50);
        m_zoom->show({when.start - pad, when.end + pad});
    }
}

void TimelineCanvas::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ControlModifier) {
        const TimeNs anchor = scale().time(event->position().x() - m_labelWidth);
        m_zoom->zoom(std::pow(ZoomState::kZoomStep, steps), anchor);
    } else if (event->modifiers() & Qt::ShiftModifier) {
        const double shift = event->angleDelta().y() != 0 ? steps : event->angleDelta().x() / 120.0;
        m_zoom->panSteps(-shift);
    } else {
        QAbstractScrollArea::wheelEvent(event);
        return;
    }
    event->accept();
}

void TimelineCanvas::contextMenuEvent(QContextMenuEvent *event)
{
    const RowGeometry *g = geometryAt(event->pos().y());
    if (!g || event->pos().x() >= m_labelWidth)
        return;
    const int row = g->row;
    QMenu menu(this);
    menu.addAction(tr("Hide row"), this, [this, row] { m_rows.hide(row); rowsChanged(); emit rowVisibilityChanged(); });
    menu.addAction(tr("Move up"), this, [this, row] { if (m_rows.move(row, -1)) rowsChanged(); });
    menu.addAction(tr("Move down"), this, [this, row] { if (m_rows.move(row, +1)) rowsChanged(); });
    menu.addSeparator();
    menu.addAction(tr("Show all hidden rows"), this, [this] { m_rows.showAll(); rowsChanged(); emit rowVisibilityChanged(); });
    menu.exec(event->globalPos());
}

} // namespace rankscope
