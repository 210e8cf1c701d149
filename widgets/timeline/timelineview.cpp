#include "timeline/timelineview.h"
#include "core/safefiles.h"

#include "theme/theme.h"
#include "timeline/overviewstrip.h"
#include "timeline/timelineactions.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timeruler.h"
#include "timeline/zoomstate.h"

#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QVBoxLayout>

namespace rankscope {

TimelineView::TimelineView(QWidget *parent)
    : QWidget(parent), m_zoom(new ZoomState(this)), m_overview(new OverviewStrip(m_zoom, this)), m_ruler(new TimeRuler(m_zoom, this)),
      m_canvas(new TimelineCanvas(m_zoom, this))
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
    m_actions = new TimelineActions(this);
    m_canvas->setEmptyMessage(tr("Open traces with File > Open, or drop Nsight Systems exports or PyTorch profiler traces here."));
    m_ruler->hide();
    m_overview->hide();
}

void TimelineView::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    const TimeRange bounds = m_session ? m_session->extent() : TimeRange{0, 1};
    m_zoom->setBounds(bounds);
    m_ruler->setZero(bounds.start);
    m_canvas->setSession(m_session);
    m_overview->setSession(m_session);
    // Without a session there is no time to show: the canvas says why.
    m_ruler->setVisible(m_session != nullptr);
    m_overview->setVisible(m_session != nullptr);
}

void TimelineView::replaceSession(std::shared_ptr<const Session> session)
{
    const TimeRange visible = m_zoom->visible();
    const std::optional<TimeRange> selection = m_zoom->selection();
    m_session = std::move(session);
    const TimeRange bounds = m_session->extent();
    m_zoom->setBounds(bounds);
    m_ruler->setZero(bounds.start);
    m_canvas->replaceSession(m_session);
    m_overview->setSession(m_session);
    m_zoom->show(visible);
    m_zoom->setSelection(selection);
}

namespace {

// The ruler, then the rows below it, each painted by its own widget.
void paintTimeline(QPainter &p, const TimeRuler *ruler, TimelineCanvas *canvas)
{
    p.setFont(ruler->font());
    ruler->paintTo(p, canvas->visibleRange());
    p.save();
    p.translate(0, ruler->height());
    p.setClipRect(QRect(0, 0, canvas->viewport()->width(), canvas->frameHeight()));
    p.setFont(canvas->font());
    canvas->paintTo(p);
    p.restore();
}

// Sets the canvas up for an export of `scope` while it lives.
class ExportFrameScope {
public:
    ExportFrameScope(TimelineCanvas *canvas, TimelineView::ExportScope scope, const Session *session) : m_canvas(canvas)
    {
        if (scope == TimelineView::ExportScope::View)
            return;
        TimelineCanvas::ExportFrame frame;
        frame.height = std::clamp(canvas->rows().pinnedHeight() + canvas->rows().totalHeight(), 1, TimelineView::kMaxExportHeight);
        if (scope == TimelineView::ExportScope::WholeSession && session)
            frame.visible = session->extent();
        canvas->setExportFrame(frame);
    }
    ~ExportFrameScope() { m_canvas->setExportFrame(std::nullopt); }
    QSize size(const TimeRuler *ruler) const { return {m_canvas->viewport()->width(), ruler->height() + m_canvas->frameHeight()}; }

private:
    TimelineCanvas *m_canvas;
};

} // namespace

bool TimelineView::exportPng(const QString &path, ExportScope scope)
{
    const ExportFrameScope frame(m_canvas, scope, m_session.get());
    QImage image(frame.size(m_ruler), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return false;
    image.fill(Theme(palette()).canvasBackground());
    {
        QPainter p(&image);
        paintTimeline(p, m_ruler, m_canvas);
    }
    AtomicFileWriter file(path); // a link planted under the name is replaced, not followed
    return file.open(QIODevice::WriteOnly) && image.save(&file, "PNG") && file.commit();
}

bool TimelineView::exportSvg(const QString &path, ExportScope scope)
{
    const ExportFrameScope frame(m_canvas, scope, m_session.get());
    const QSize size = frame.size(m_ruler);
    AtomicFileWriter file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(tr("Rankscope timeline"));
    QPainter p;
    if (!p.begin(&generator)) // the file could not be opened for writing
        return false;
    paintTimeline(p, m_ruler, m_canvas);
    return p.end() && file.commit();
}

} // namespace rankscope
