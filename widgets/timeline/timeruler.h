#pragma once
// The time axis above the rows: adaptive ticks in ns / µs / ms / s relative
// to the session start (or "+50 µs" from a labelled base when zoomed in far
// from it), and the selected range with its duration above the ticks.
// Double-clicking it zooms to the selection.
#include "core/timetypes.h"
#include "timeline/timescale.h"

#include <QFontMetrics>
#include <QWidget>
#include <optional>

namespace rankscope {

class ZoomState;

class TimeRuler : public QWidget {
    Q_OBJECT
public:
    explicit TimeRuler(ZoomState *zoom, QWidget *parent = nullptr);
    void setLabelWidth(int width);
    void setZero(TimeNs zero);
    QSize sizeHint() const override { return {400, 36}; }

protected:
    void paintEvent(QPaintEvent *event) override;

public:
    // What paintEvent draws, onto any painter (exports, which may show
    // another range than the zoom's).
    void paintTo(QPainter &p, std::optional<TimeRange> visible = std::nullopt) const;
    // The ticks drawn over `widthPx`: at least kMinimumTickSpacing apart,
    // more when their labels need it, so that labels never overlap.
    static constexpr int kMinimumTickSpacing = 80;
    static constexpr int kLabelGap = 16;
    RulerTicks fittedTicks(TimeRange visible, int widthPx, const QFontMetrics &fm) const;

protected:
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    ZoomState *m_zoom;
    int m_labelWidth = 280;
    TimeNs m_zero = 0;
};

} // namespace rankscope
