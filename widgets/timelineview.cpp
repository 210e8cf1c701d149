#include "timelineview.h"

#include "overviewstrip.h"
#include "timelinecanvas.h"
#include "timeruler.h"
#include "zoomstate.h"

#include <QVBoxLayout>

namespace rankscope {

TimelineView::TimelineView(QWidget *parent)
    : QWidget(parent), m_zoom(new ZoomState(this)), m_overview(new OverviewStrip(m_zoom, this)),
      m_ruler(new TimeRuler(m_zoom, this)), m_canvas(new TimelineCanvas(m_zoom, this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_overview);
    layout->addWidget(m_ruler);
    layout->addWidget(m_canvas, 1);
    connect(m_canvas, &TimelineCanvas::labelWidthChanged, m_ruler, &TimeRuler::setLabelWidth);
    connect(m_canvas, &TimelineCanvas::labelWidthChanged, m_overview, &OverviewStrip::setLabelWidth);
    connect(m_canvas, &TimelineCanvas::eventSelected, this, &TimelineView::eventSelected);
    m_ruler->setLabelWidth(m_canvas->labelWidth());
    m_overview->setLabelWidth(m_canvas->labelWidth());
    setFocusProxy(m_canvas);
}

void TimelineView::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    const TimeRange bounds = m_session ? m_session->extent() : TimeRange{0, 1};
    m_zoom->setBounds(bounds);
    m_ruler->setZero(bounds.start);
    m_canvas->setSession(m_session);
    m_overview->setSession(m_session);
}

} // namespace rankscope
