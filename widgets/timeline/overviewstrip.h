#pragma once
// A thin strip showing GPU activity across the whole session, with the
// visible window marked. Clicking or dragging moves the window there.
#include "session/session.h"

#include <QWidget>
#include <memory>

namespace rankscope {

class ZoomState;

class OverviewStrip : public QWidget {
    Q_OBJECT
public:
    explicit OverviewStrip(ZoomState *zoom, QWidget *parent = nullptr);
    void setSession(std::shared_ptr<const Session> session);
    void setLabelWidth(int width);
    QSize sizeHint() const override { return {400, 20}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuildActivity();
    void moveWindowTo(int x);

    ZoomState *m_zoom;
    std::shared_ptr<const Session> m_session;
    int m_labelWidth = 280;
    std::vector<float> m_activity; // GPU busy share per pixel, 0..1
};

} // namespace rankscope
