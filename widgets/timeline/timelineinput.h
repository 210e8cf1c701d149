#pragma once
// The mouse on the timeline: drag to pan, Shift+drag to select a range,
// drag the label column's edge to resize it, click to select an event or
// fold a group, double-click to zoom to an event, Ctrl/Shift+wheel to zoom
// and pan, right-click a label for the row menu, and tooltips. It watches
// the canvas's viewport and drives the canvas and its ZoomState through
// their public calls; the keys are TimelineActions'.
#include "core/timetypes.h"

#include <QObject>
#include <QPoint>

class QContextMenuEvent;
class QHelpEvent;
class QMouseEvent;
class QWheelEvent;

namespace rankscope {

class TimelineCanvas;

class TimelineInput : public QObject {
    Q_OBJECT
public:
    explicit TimelineInput(TimelineCanvas *canvas);

    // The tooltip for a viewport point: a row's full name over the label
    // column, an event's name, duration and size over the track area.
    QString tooltipAt(QPoint viewportPos) const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    enum class Drag { None, Pan, Select, ResizeLabels };

    void press(QMouseEvent *event);
    void move(QMouseEvent *event);
    void release(QMouseEvent *event);
    void doubleClick(QMouseEvent *event);
    bool wheel(QWheelEvent *event); // false: the scroll area scrolls
    void contextMenu(QContextMenuEvent *event);
    void tooltip(QHelpEvent *event);
    bool onLabelEdge(QPoint pos) const;

    TimelineCanvas *m_canvas;
    QObject *m_viewport; // only compared, never called
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    TimeNs m_pressTime = 0;
    int m_pressRow = -1; // where a Shift+drag began: the area selection's first row
    TimeRange m_pressVisible{};
    bool m_moved = false;
};

} // namespace rankscope
