#include "timeline/timeruler.h"

#include "core/units.h"
#include "theme/theme.h"
#include "timeline/timescale.h"
#include "timeline/zoomstate.h"

#include <QPainter>

namespace rankscope {

TimeRuler::TimeRuler(ZoomState *zoom, QWidget *parent) : QWidget(parent), m_zoom(zoom)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    connect(zoom, &ZoomState::visibleChanged, this, qOverload<>(&QWidget::update));
    connect(zoom, &ZoomState::selectionChanged, this, qOverload<>(&QWidget::update));
}

void TimeRuler::setLabelWidth(int width)
{
    m_labelWidth = width;
    update();
}

void TimeRuler::setZero(TimeNs zero)
{
    m_zero = zero;
    update();
}

void TimeRuler::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintTo(p);
}

void TimeRuler::paintTo(QPainter &p) const
{
    const Theme theme(palette());
    p.fillRect(rect(), theme.labelBackground());
    const int width = std::max(1, this->width() - m_labelWidth);
    const TimeRange visible = m_zoom->visible();
    const TimeScale s = TimeScale::fit(visible, width);
    p.setPen(theme.labelText());
    p.drawText(QRect(4, 0, m_labelWidth - 8, height()), Qt::AlignVCenter | Qt::AlignLeft,
               tr("Span %1").arg(formatDuration(visible.duration())));
    p.setClipRect(m_labelWidth, 0, width, height());
    if (const auto sel = m_zoom->selection()) {
        const double x0 = s.x(sel->start), x1 = s.x(sel->end);
        const QRectF band(m_labelWidth + x0, 0, std::max(1.0, x1 - x0), height());
        p.fillRect(band, theme.selectionShade(90));
        p.drawText(band.adjusted(2, 0, -2, 0), Qt::AlignCenter, formatDuration(sel->duration()));
    }
    for (const RulerTick &tick : rulerTicks(visible, m_zero, width)) {
        const int x = m_labelWidth + int(s.x(tick.time));
        p.drawLine(x, height() - 8, x, height());
        p.drawText(x + 3, height() - 10, tick.label);
    }
    p.setPen(theme.edge());
    p.drawLine(m_labelWidth, height() - 1, this->width(), height() - 1);
}

void TimeRuler::mouseDoubleClickEvent(QMouseEvent *)
{
    m_zoom->zoomToSelection();
}

} // namespace rankscope
