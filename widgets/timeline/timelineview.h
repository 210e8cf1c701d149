#pragma once
// The timeline: overview strip, time ruler and rows, sharing one ZoomState.
#include "session/session.h"

#include <QWidget>
#include <memory>
#include <optional>

namespace rankscope {

class OverviewStrip;
class TimeRuler;
class TimelineActions;
class TimelineCanvas;
class ZoomState;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget *parent = nullptr);

    void setSession(std::shared_ptr<const Session> session);
    std::shared_ptr<const Session> session() const { return m_session; }
    ZoomState *zoom() const { return m_zoom; }
    TimelineCanvas *canvas() const { return m_canvas; }
    TimeRuler *ruler() const { return m_ruler; }
    // The timeline's commands, for menus and the shortcut help.
    TimelineActions *actions() const { return m_actions; }

    // The visible timeline (ruler and rows, as on screen) as a picture:
    // PNG by QImage, SVG by QSvgGenerator. False when the file cannot be written.
    bool exportPng(const QString &path);
    bool exportSvg(const QString &path);

signals:
    void eventSelected(std::optional<rankscope::EventLocation> event);

private:
    std::shared_ptr<const Session> m_session;
    ZoomState *m_zoom;
    OverviewStrip *m_overview;
    TimeRuler *m_ruler;
    TimelineCanvas *m_canvas;
    TimelineActions *m_actions;
};

} // namespace rankscope
