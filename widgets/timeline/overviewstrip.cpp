#include "timeline/overviewstrip.h"

#include "theme/theme.h"
#include "timeline/timescale.h"
#include "timeline/zoomstate.h"

#include <QMouseEvent>
#include <QPainter>

namespace rankscope {

OverviewStrip::OverviewStrip(ZoomState *zoom, QWidget *parent) : QWidget(parent), m_zoom(zoom)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    connect(zoom, &ZoomState::visibleChanged, this, qOverload<>(&QWidget::update));
}

void OverviewStrip::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    rebuildActivity();
}

void OverviewStrip::setLabelWidth(int width)
{
    m_labelWidth = width;
    rebuildActivity();
}

void OverviewStrip::resizeEvent(QResizeEvent *)
{
    rebuildActivity();
}

void OverviewStrip::rebuildActivity()
{
    const int width = std::max(1, this->width() - m_labelWidth);
    m_activity.assign(std::size_t(width), 0.0f);
    if (!m_session)
        return update();
    const TimeRange all = m_zoom->bounds();
    const TimeScale s = TimeScale::fit(all, width);
    // GPU busy time per pixel from each GPU's busy summary (its kernels,
    // copies and memsets as one set of runs, what a collapsed rank draws),
    // averaged over ranks: its coarse level is a few pages of each cache,
    // read by the collapsed rows too, where every kernel track's level was
    // a page of its own from a cold disk.
    const double ranks = std::max<std::size_t>(1, m_session->ranks().size());
    for (const RankEntry &entry : m_session->ranks())
        for (const BusySummary &gpu : entry.report->gpuBusy) {
            if (!Session::ownsProcess(entry, gpu.pid))
                continue;
            const LodSummary &lod = gpu.runs.lod();
            const LodSummary::Level *level = lod.levelFor(s.nsPerPixel);
            if (!level)
                level = lod.levels().empty() ? nullptr : &lod.levels().front();
            if (!level)
                continue;
            for (std::size_t b = 0; b < level->size(); ++b) {
                const int x = int(s.x(level->bucket[b] * level->width + entry.sessionOffset));
                if (x >= 0 && x < width)
                    m_activity[std::size_t(x)] += float(double(level->busy[b]) / s.nsPerPixel / ranks);
            }
        }
    update();
}

void OverviewStrip::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const Theme theme(palette());
    p.fillRect(rect(), theme.labelBackground());
    const int width = std::max(1, this->width() - m_labelWidth);
    p.setPen(theme.labelText());
    p.drawText(QRect(4, 0, m_labelWidth - 8, height()), Qt::AlignVCenter | Qt::AlignLeft, tr("GPU activity"));
    p.fillRect(QRect(m_labelWidth, 0, width, height()), theme.canvasBackground());
    const QColor bar = Theme::kindColor(TrackKind::Kernel);
    for (int x = 0; x < int(m_activity.size()); ++x) {
        const int h = int(std::min(1.0f, m_activity[std::size_t(x)]) * float(height() - 2));
        if (h > 0)
            p.fillRect(m_labelWidth + x, height() - 1 - h, 1, h, bar);
    }
    const TimeScale s = TimeScale::fit(m_zoom->bounds(), width);
    const TimeRange v = m_zoom->visible();
    const double x0 = std::max(0.0, s.x(v.start)), x1 = std::min(double(width), s.x(v.end));
    p.fillRect(QRectF(m_labelWidth + x0, 0, std::max(2.0, x1 - x0), height()), theme.selectionShade(60));
    p.setPen(theme.selectionOutline());
    p.drawRect(QRectF(m_labelWidth + x0, 0, std::max(2.0, x1 - x0), height() - 1));
}

void OverviewStrip::moveWindowTo(int x)
{
    const int width = std::max(1, this->width() - m_labelWidth);
    const TimeScale s = TimeScale::fit(m_zoom->bounds(), width);
    const TimeRange v = m_zoom->visible();
    m_zoom->pan(s.time(x - m_labelWidth) - (v.start + v.duration() / 2));
}

void OverviewStrip::mousePressEvent(QMouseEvent *event)
{
    moveWindowTo(event->pos().x());
}

void OverviewStrip::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        moveWindowTo(event->pos().x());
}

} // namespace rankscope
