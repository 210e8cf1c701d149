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
    // The same ranks with more of them read (TimelineCanvas::replaceSession):
    // the view keeps its time range, selection and rows.
    void replaceSession(std::shared_ptr<const Session> session);
    std::shared_ptr<const Session> session() const { return m_session; }
    ZoomState *zoom() const { return m_zoom; }
    TimelineCanvas *canvas() const { return m_canvas; }
    TimeRuler *ruler() const { return m_ruler; }
    // The timeline's commands, for menus and the shortcut help.
    TimelineActions *actions() const { return m_actions; }

    // The timeline (ruler and rows) as a picture: PNG by QImage, SVG by
    // QSvgGenerator. What it holds: the view as on screen, every shown row
    // of the visible time range, or every shown row of the whole session.
    // False when the file cannot be written.
    enum class ExportScope { View, AllRows, WholeSession };
    // Taller pictures stop here (a PNG of 20,000 rows would take gigabytes).
    static constexpr int kMaxExportHeight = 16000;
    bool exportPng(const QString &path, ExportScope scope = ExportScope::View);
    bool exportSvg(const QString &path, ExportScope scope = ExportScope::View);

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
