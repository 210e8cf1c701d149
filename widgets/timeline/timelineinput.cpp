#include "timeline/timelineinput.h"

#include "common/plaintext.h"
#include "core/units.h"
#include "session/eventdetails.h"
#include "session/sampledetails.h"
#include "timeline/rows/rowitem.h"
#include "timeline/timelinecanvas.h"
#include "timeline/zoomstate.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace rankscope {

namespace {
constexpr int kResizeGrip = 4;     // px either side of the label column's edge
constexpr int kClickSlop = 3;      // px a press may move and still be a click
constexpr TimeNs kMinimumPad = 50; // ns shown either side of an event zoomed to
} // namespace

TimelineInput::TimelineInput(TimelineCanvas *canvas) : QObject(canvas), m_canvas(canvas), m_viewport(canvas->viewport())
{
    m_viewport->installEventFilter(this);
}

bool TimelineInput::eventFilter(QObject *watched, QEvent *event)
{
    // Compared with the pointer kept at construction: while the canvas is
    // being destroyed its viewport still sends events, and the canvas may no
    // longer be a scroll area to ask.
    if (watched != m_viewport)
        return false;
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        press(static_cast<QMouseEvent *>(event));
        return true;
    case QEvent::MouseMove:
        move(static_cast<QMouseEvent *>(event));
        return true;
    case QEvent::MouseButtonRelease:
        release(static_cast<QMouseEvent *>(event));
        return true;
    case QEvent::MouseButtonDblClick:
        doubleClick(static_cast<QMouseEvent *>(event));
        return true;
    case QEvent::Wheel:
        return wheel(static_cast<QWheelEvent *>(event));
    case QEvent::ContextMenu:
        contextMenu(static_cast<QContextMenuEvent *>(event));
        return true;
    case QEvent::ToolTip:
        if (!m_canvas->session())
            return false;
        tooltip(static_cast<QHelpEvent *>(event));
        return true;
    default:
        return false;
    }
}

bool TimelineInput::onLabelEdge(QPoint pos) const
{
    return std::abs(pos.x() - m_canvas->labelWidth()) <= kResizeGrip;
}

void TimelineInput::press(QMouseEvent *event)
{
    m_pressPos = event->pos();
    m_moved = false;
    m_drag = Drag::None;
    if (event->button() != Qt::LeftButton)
        return;
    if (onLabelEdge(event->pos())) {
        m_drag = Drag::ResizeLabels;
        return;
    }
    if (event->pos().x() < m_canvas->labelWidth()) { // a group's label folds or unfolds it
        if (const RowGeometry *g = m_canvas->geometry().rowAt(event->pos().y())) {
            if (rowItem(m_canvas->rows().rows()[std::size_t(g->row)].kind).folds()) {
                m_canvas->rows().toggle(g->row);
                m_canvas->rowsChanged();
            } else {
                emit m_canvas->rowChosen(g->row);
            }
        }
        return;
    }
    m_pressTime = m_canvas->scale().time(event->pos().x() - m_canvas->labelWidth());
    m_pressVisible = m_canvas->zoom()->visible();
    m_drag = event->modifiers() & Qt::ShiftModifier ? Drag::Select : Drag::Pan;
    m_pressRow = -1;
    if (m_drag == Drag::Select)
        if (const RowGeometry *g = m_canvas->geometry().rowAt(event->pos().y()))
            m_pressRow = g->row;
}

void TimelineInput::move(QMouseEvent *event)
{
    if (m_drag == Drag::None) {
        m_canvas->viewport()->setCursor(onLabelEdge(event->pos()) ? Qt::SplitHCursor : Qt::ArrowCursor);
        return;
    }
    m_moved |= (event->pos() - m_pressPos).manhattanLength() > kClickSlop;
    ZoomState *zoom = m_canvas->zoom();
    if (m_drag == Drag::ResizeLabels) {
        m_canvas->setLabelWidth(event->pos().x());
    } else if (m_drag == Drag::Pan && m_moved) {
        const double nsPerPx = double(m_pressVisible.duration()) / m_canvas->trackAreaWidth();
        const TimeNs shift = TimeNs(double(m_pressPos.x() - event->pos().x()) * nsPerPx);
        zoom->pan(m_pressVisible.start + shift - zoom->visible().start);
        QScrollBar *bar = m_canvas->verticalScrollBar();
        bar->setValue(bar->value() - (event->pos().y() - m_pressPos.y()));
        m_pressPos.setY(event->pos().y());
    } else if (m_drag == Drag::Select) {
        const TimeNs now = m_canvas->scale().time(event->pos().x() - m_canvas->labelWidth());
        zoom->setSelection(TimeRange{std::min(m_pressTime, now), std::max(m_pressTime, now)});
        // The rows dragged across: the area selection's rows.
        if (const RowGeometry *g = m_canvas->geometry().rowAt(event->pos().y()); g && m_pressRow >= 0)
            m_canvas->setAreaRows(m_pressRow, g->row);
    }
}

void TimelineInput::release(QMouseEvent *event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (event->button() == Qt::LeftButton && m_moved && drag == Drag::Select && !m_canvas->areaRows().empty())
        emit m_canvas->areaSelected();
    if (event->button() != Qt::LeftButton || m_moved || drag == Drag::ResizeLabels || drag == Drag::None)
        return;
    if (drag == Drag::Select) { // a Shift+click without a drag clears the range
        m_canvas->zoom()->setSelection(std::nullopt);
        return;
    }
    if (const std::optional<SampleLocation> sample = m_canvas->sampleAt(event->pos())) {
        const Session &session = *m_canvas->session();
        const EventDetails d = describeSample(session, *sample);
        const Report &report = *session.ranks()[std::size_t(sample->rank)].report;
        const TimeNs at = report.sampling.samples[sample->sample].time + session.ranks()[std::size_t(sample->rank)].sessionOffset;
        TimeMark mark;
        mark.rankIndex = sample->rank;
        mark.time = {at, at};
        mark.title = d.title;
        for (const DetailField &f : d.fields)
            mark.fields.append({f.label, f.value});
        m_canvas->selectEvent(std::nullopt);
        emit m_canvas->sampleChosen(mark);
        return;
    }
    const auto clicked = m_canvas->eventAt(event->pos());
    if (clicked) // the row clicked, not the first row drawing the track
        if (const RowGeometry *g = m_canvas->geometry().rowAt(event->pos().y()))
            emit m_canvas->rowChosen(g->row);
    m_canvas->selectEvent(clicked);
}

void TimelineInput::doubleClick(QMouseEvent *event)
{
    if (const auto hit = m_canvas->eventAt(event->pos())) {
        const TimeRange when = m_canvas->displayedTime(*hit);
        const TimeNs pad = std::max<TimeNs>(when.duration() / 10, kMinimumPad);
        m_canvas->zoom()->show({when.start - pad, when.end + pad});
    }
}

bool TimelineInput::wheel(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    ZoomState *zoom = m_canvas->zoom();
    if (event->modifiers() & Qt::ControlModifier) {
        const TimeNs anchor = m_canvas->scale().time(event->position().x() - m_canvas->labelWidth());
        zoom->zoom(std::pow(ZoomState::kZoomStep, steps), anchor);
    } else if (event->modifiers() & Qt::ShiftModifier) {
        const double shift = event->angleDelta().y() != 0 ? steps : event->angleDelta().x() / 120.0;
        zoom->panSteps(-shift);
    } else {
        return false;
    }
    event->accept();
    return true;
}

void TimelineInput::contextMenu(QContextMenuEvent *event)
{
    TimelineCanvas *canvas = m_canvas;
    TimelineRows &rows = canvas->rows();
    const RowGeometry *g = canvas->geometry().rowAt(event->pos().y());
    QMenu menu(canvas);
    auto changed = [canvas](bool visibility) {
        canvas->rowsChanged();
        if (visibility)
            emit canvas->rowVisibilityChanged();
    };
    if (g) {
        const int row = g->row;
        const bool pinned = rows.rows()[std::size_t(row)].pinned;
        menu.addAction(pinned ? tr("Unpin row") : tr("Pin row to the top"), canvas, [&rows, row, pinned, changed] {
            rows.setPinned(row, !pinned);
            changed(false);
        });
        menu.addAction(tr("Hide row"), canvas, [&rows, row, changed] {
            rows.hide(row);
            changed(true);
        });
        menu.addAction(tr("Move up"), canvas, [&rows, row, changed] {
            if (rows.move(row, -1))
                changed(false);
        });
        menu.addAction(tr("Move down"), canvas, [&rows, row, changed] {
            if (rows.move(row, +1))
                changed(false);
        });
        // The rank's GPUs' derived state rows (stats/ranks/gpustaterows.h).
        const int rank = rows.rows()[std::size_t(row)].rank;
        std::set<int> derived = canvas->derivedGpuRanks();
        const bool on = derived.count(rank) > 0;
        QAction *toggle = menu.addAction(tr("Derived GPU Rows of This Rank"), canvas, [canvas, derived, rank, on]() mutable {
            if (on)
                derived.erase(rank);
            else
                derived.insert(rank);
            canvas->setDerivedGpuRanks(derived);
        });
        toggle->setCheckable(true);
        toggle->setChecked(on);
        menu.addSeparator();
    }
    if (const int x = event->pos().x() - canvas->labelWidth(); x >= 0 && canvas->session()) {
        const TimeNs at = canvas->scale().time(double(x));
        menu.addAction(tr("Critical Path of the Step Here"), canvas, [canvas, at] { emit canvas->criticalPathRequested(at); });
        menu.addSeparator();
    }
    menu.addAction(tr("Expand all"), canvas, [&rows, changed] {
        rows.setAllCollapsed(false);
        changed(false);
    });
    menu.addAction(tr("Collapse all"), canvas, [&rows, changed] {
        rows.setAllCollapsed(true);
        changed(false);
    });
    menu.addAction(tr("Show only GPU rows"), canvas, [&rows, changed] {
        rows.showOnly(RowFilter::GpuRows);
        changed(true);
    });
    QAction *nccl = menu.addAction(tr("Show only NCCL rows"), canvas, [&rows, changed] {
        rows.showOnly(RowFilter::NcclRows);
        changed(true);
    });
    nccl->setEnabled(std::any_of(rows.rows().begin(), rows.rows().end(), [](const TimelineRow &r) { return r.nccl; }));
    menu.addAction(tr("Show all rows"), canvas, [&rows, changed] {
        rows.showAll();
        changed(true);
    });
    menu.exec(event->globalPos());
}

void TimelineInput::tooltip(QHelpEvent *event)
{
    const QString text = tooltipAt(event->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPos(), plainTooltip(text), m_canvas->viewport()); // names are data, not markup
}

QString TimelineInput::tooltipAt(QPoint pos) const
{
    const FrameGeometry::Hit hit = m_canvas->hit(pos);
    if (!hit.row)
        return {};
    const TimelineRow &row = m_canvas->rows().rows()[std::size_t(hit.row->row)];
    if (pos.x() < m_canvas->labelWidth())
        return row.tooltip;
    return rowItem(row.kind).tooltip(*m_canvas, hit, pos);
}

} // namespace rankscope
