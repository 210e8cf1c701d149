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

RulerTicks TimeRuler::fittedTicks(TimeRange visible, int width, const QFontMetrics &fm) const
{
    // Ticks as close as their labels allow: a fixed spacing left a narrow
    // window (900 px) with two labels and none over its first third.
    int spacing = kMinimumTickSpacing;
    RulerTicks ruler = rulerTicks(visible, m_zero, width, spacing);
    for (int attempt = 0; attempt < 3; ++attempt) {
        int widest = 0;
        for (const RulerTick &tick : ruler.ticks)
            widest = std::max(widest, fm.horizontalAdvance(tick.label));
        const int needed = widest + kLabelGap;
        if (needed <= spacing)
            break;
        spacing = needed;
        ruler = rulerTicks(visible, m_zero, width, spacing);
    }
    return ruler;
}

void TimeRuler::paintTo(QPainter &p, std::optional<TimeRange> shown) const
{
    const Theme theme(palette());
    p.fillRect(rect(), theme.labelBackground());
    const int width = std::max(1, this->width() - m_labelWidth);
    const TimeRange visible = shown ? *shown : m_zoom->visible();
    const TimeScale s = TimeScale::fit(visible, width);
    p.setPen(theme.labelText());
    p.drawText(QRect(4, 0, m_labelWidth - 8, height()), Qt::AlignVCenter | Qt::AlignLeft, tr("Span %1").arg(formatDuration(visible.duration())));
    p.setClipRect(m_labelWidth, 0, width, height());
    // Two bands: the base and the selected range's duration above, the
    // ticks and their labels below, so neither covers the other.
    const int band = height() / 2;
    const QFontMetrics fm = p.fontMetrics();
    const RulerTicks ruler = fittedTicks(visible, width, fm);
    if (const auto sel = m_zoom->selection()) {
        const double x0 = s.x(sel->start), x1 = s.x(sel->end);
        p.fillRect(QRectF(m_labelWidth + x0, 0, std::max(1.0, x1 - x0), height()), theme.selectionShade(90));
        const QString text = formatDuration(sel->duration());
        const int textWidth = fm.horizontalAdvance(text) + 8;
        const double centre = m_labelWidth + (std::max(x0, 0.0) + std::min(x1, double(width))) / 2;
        const QRectF box(centre - textWidth / 2.0, 1, textWidth, band - 2);
        p.fillRect(box, theme.labelBackground());
        p.drawRect(box);
        p.drawText(box, Qt::AlignCenter, text);
    }
    if (ruler.hasBase) {
        const QString text = ruler.baseLabel;
        const QRect box(m_labelWidth + 2, 1, fm.horizontalAdvance(text) + 8, band - 2);
        p.fillRect(box, theme.labelBackground());
        p.drawText(box, Qt::AlignCenter, text);
    }
    for (const RulerTick &tick : ruler.ticks) {
        const int x = m_labelWidth + int(s.x(tick.time));
        p.drawLine(x, height() - 6, x, height());
        p.drawText(QRect(x + 3, band, fm.horizontalAdvance(tick.label) + 4, height() - band - 1), Qt::AlignVCenter | Qt::AlignLeft, tick.label);
    }
    p.setPen(theme.edge());
    p.drawLine(m_labelWidth, height() - 1, this->width(), height() - 1);
}

void TimeRuler::mouseDoubleClickEvent(QMouseEvent *)
{
    m_zoom->zoomToSelection();
}

} // namespace rankscope
