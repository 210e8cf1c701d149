#include "viewlinks.h"

#include "events/selectionpanel.h"

#include "collectivelookup.h"
#include "details/detailspanel.h"
#include "events/eventspanel.h"
#include "panels/criticalpathpanel.h"
#include "panels/statsdock.h"
#include "sampling/samplingpanel.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/ranktimemap.h"
#include "timeline/searchbar.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"

#include <QAction>
#include <QDockWidget>
#include <QTimer>

namespace rankscope {

ViewLinks::ViewLinks(const LinkedViews &views, QObject *parent)
    : QObject(parent), m_views(views), m_collectives(std::make_unique<CollectiveLookup>()),
      m_busyWithoutWait(new QAction(tr("Collapsed Ranks Without &Communication Wait"), this))
{
    m_busyWithoutWait->setCheckable(true);
    m_busyWithoutWait->setStatusTip(tr("draw a collapsed rank's GPU busy without the time its communication kernels waited for the last rank"));
    connect(m_busyWithoutWait, &QAction::toggled, this, &ViewLinks::applyBusyWithoutWait);
    TimelineView *timeline = views.timeline;
    TimelineCanvas *canvas = timeline->canvas();
    const auto select = [canvas](EventLocation e) { canvas->selectEvent(e, true); };
    // A selected collective kernel: its instance on every rank in the
    // Details dock and as a band across the ranks on the timeline, once the
    // collectives are matched (the first time, on a worker).
    connect(timeline, &TimelineView::eventSelected, this, [this](std::optional<EventLocation> event) {
        m_views.details->showDetails(event);
        showCollectiveOf(event);
    });
    // The selected kernel's collective is the workspace's match too.
    connect(views.stats, &StatsDock::workspaceChanged, this, [this](const WorkspacePtr &workspace) {
        m_collectives->setWorkspace(workspace);
        applyBusyWithoutWait(); // the new session's waits
    });
    connect(m_collectives.get(), &CollectiveLookup::ready, this, [this, canvas] {
        emit message(QString());
        applyBusyWithoutWait();
        const std::optional<EventLocation> selected = canvas->selectedEvent();
        if (selected && m_collectives->isCollectivePart(*selected))
            showCollectiveOf(selected);
    });
    // The critical path the panel shows: drawn across the ranks.
    if (CriticalPathPanel *critical = views.stats->criticalPath()) {
        connect(critical, &CriticalPathPanel::pathShown, canvas, &TimelineCanvas::setCriticalPath);
        // The context menu's step: the panel shown on it.
        connect(canvas, &TimelineCanvas::criticalPathRequested, this, [this, critical](TimeNs at) {
            if (QWidget *dock = m_views.stats->parentWidget()) {
                dock->show();
                dock->raise();
            }
            m_views.stats->showPanel(QStringLiteral("critical"));
            critical->showStepAt(at);
        });
    }
    // A function chosen in the CPU samples panel: its samples marked on
    // every rank's sample rows (by text: ids differ between reports).
    if (SamplingPanel *sampling = views.stats->sampling()) {
        connect(sampling, &SamplingPanel::functionMarked, this, [this, canvas](const QString &function, const QString &module, bool byModule) {
            const auto session = m_views.timeline->session();
            if (!session)
                return;
            std::vector<std::vector<bool>> chains;
            std::size_t marked = 0;
            for (const RankEntry &entry : session->ranks()) {
                chains.push_back(callchainsWith(*entry.report, function, module, byModule));
                marked += std::size_t(std::count(chains.back().begin(), chains.back().end(), true));
            }
            canvas->setMarkedCallchains(std::move(chains));
            emit message(tr("Samples in %1 marked on the timeline (%n callchain(s))", nullptr, int(marked))
                             .arg(byModule ? module : (function.isEmpty() ? tr("[unknown]") : function)),
                         8000);
        });
        connect(sampling, &SamplingPanel::markCleared, this, [canvas] { canvas->setMarkedCallchains({}); });
        // An area across CPU samples rows: the panel counts those threads only, until the range goes.
        connect(canvas, &TimelineCanvas::areaSelected, sampling, [sampling, canvas] {
            std::set<stats::SamplingScope::ThreadKey> threads = canvas->areaSampledThreads();
            sampling->setThreads(threads.empty() ? std::nullopt : std::optional(std::move(threads)));
        });
        connect(timeline->zoom(), &ZoomState::selectionChanged, sampling, [sampling, zoom = timeline->zoom()] {
            if (!zoom->selection())
                sampling->setThreads(std::nullopt);
        });
    }
    // A CPU sample: its fields and backtrace in Details.
    connect(canvas, &TimelineCanvas::sampleChosen, this, [this](const TimeMark &sample) { m_views.details->showMark(sample); });
    // A link followed or an event row double-clicked takes the user to the
    // timeline: its keys (+, -, F) work there at once, without a click first.
    const auto go = [canvas](EventLocation e) {
        canvas->selectEvent(e, true);
        canvas->setFocus(Qt::OtherFocusReason);
    };
    connect(views.details, &DetailsPanel::linkActivated, this, go);
    connect(views.events, &EventsPanel::eventActivated, this, go);
    connect(views.search, &SearchBar::matchActivated, this, select);
    // Esc in the search field gives the timeline the keyboard back (a second
    // Esc there clears the selection).
    connect(views.search, &SearchBar::leaveRequested, canvas, [canvas] { canvas->setFocus(Qt::ShortcutFocusReason); });
    // The Events table lists the row last clicked, within the selected range.
    connect(canvas, &TimelineCanvas::rowChosen, this, [this](int row) { showRowEvents(row); });
    connect(timeline, &TimelineView::eventSelected, this, [this, canvas](std::optional<EventLocation> event) {
        if (event && !m_views.events->lists(*event)) // chosen by search, a link or a panel
            showRowEvents(canvas->rows().rowOf(event->rank, event->track));
        m_views.events->markEvent(event);
    });
    // Whether the user closed a dock (hidden, not merely behind another
    // tab): a link or a drag then leaves it closed.
    const auto trackClosing = [this](QDockWidget *dock, bool &closedByUser) {
        if (dock)
            connect(dock, &QDockWidget::visibilityChanged, this, [dock, &closedByUser](bool visible) {
                if (!visible && dock->isHidden() && dock->window()->isVisible())
                    closedByUser = true;
                else if (visible)
                    closedByUser = false;
            });
    };
    trackClosing(views.eventsDock, m_eventsDockClosedByUser);
    trackClosing(views.selectionDock, m_selectionDockClosedByUser);
    ZoomState *zoom = timeline->zoom();
    connect(zoom, &ZoomState::selectionChanged, this, [this, zoom] { m_views.events->setRange(zoom->selection()); });
    // The panels follow the range selection; while the mouse drags it, wait
    // until it rests before recomputing.
    auto *rangeSettle = new QTimer(this);
    rangeSettle->setSingleShot(true);
    rangeSettle->setInterval(150);
    connect(zoom, &ZoomState::selectionChanged, rangeSettle, qOverload<>(&QTimer::start));
    connect(rangeSettle, &QTimer::timeout, this, [this, zoom] { m_views.stats->setRange(zoom->selection()); });
    connect(views.stats, &StatsDock::clearRangeRequested, this, [zoom] { zoom->setSelection(std::nullopt); });
    connect(views.stats, &StatsDock::eventsSelected, this, [this, canvas](const std::vector<EventLocation> &events) {
        canvas->setHighlighted(events);
        emit message(tr("%n event(s) highlighted", nullptr, int(events.size())), 5000);
    });
    connect(views.stats, &StatsDock::zoomRequested, this, [zoom](TimeRange range) { zoom->show(range); });
    // A gap or an instance: zoomed to with room around it, its row brought
    // into view and outlined, and its fields (or its event's) in Details.
    connect(views.stats, &StatsDock::markRequested, this, [this, zoom, canvas](const TimeMark &mark) {
        const TimeNs pad = std::max<TimeNs>(mark.time.duration() / 4, 2'000);
        zoom->show({mark.time.start - pad, mark.time.end + pad});
        canvas->showMark(mark);
        if (mark.event)
            canvas->selectEvent(*mark.event, true);
        else
            m_views.details->showMark(mark);
    });
    connect(views.stats, &StatsDock::searchRequested, this, [this](const QString &text) {
        m_views.search->setQuery(text);
        m_views.search->next();
    });
    if (SelectionPanel *selection = views.selection) {
        connect(canvas, &TimelineCanvas::areaSelected, this, [this, canvas, zoom] {
            const auto session = m_views.timeline->session();
            if (!session || !zoom->selection())
                return;
            m_views.selection->summarise(session, canvas->areaTracks(), *zoom->selection(), int(canvas->areaRows().size()));
            if (!m_views.selectionDock)
                return;
            // A range dragged for the statistics in view leaves them in front;
            // the summary waits in its tab.
            const bool statisticsInView = m_views.stats && m_views.stats->isVisible();
            // Closed by the user, it stays closed: the View menu opens it.
            if (m_selectionDockClosedByUser) {
                emit message(tr("The rows and range selected are summed up in View > Selection"), 5000);
                return;
            }
            m_views.selectionDock->show();
            if (statisticsInView)
                emit message(tr("The rows and range selected are summed up in the Selection tab"), 5000);
            else
                m_views.selectionDock->raise();
        });
        connect(zoom, &ZoomState::selectionChanged, this, [this, zoom] {
            if (!zoom->selection())
                m_views.selection->clear();
        });
        connect(selection, &SelectionPanel::searchRequested, this, [this](const QString &text) {
            m_views.search->setQuery(text);
            m_views.search->next();
        });
    }
}

ViewLinks::~ViewLinks() = default;

void ViewLinks::applyBusyWithoutWait()
{
    TimelineCanvas *canvas = m_views.timeline->canvas();
    if (!m_busyWithoutWait->isChecked() || m_collectives->rankCount() < 2) {
        canvas->setCommunicationWaits({});
        return;
    }
    if (!m_collectives->isReady()) { // drawn when ready() arrives
        emit message(tr("Matching collectives across %n rank(s)...", nullptr, m_collectives->rankCount()));
        m_collectives->prepare();
        return;
    }
    canvas->setCommunicationWaits(stats::collectiveWaitsByRank(*m_collectives->match(), std::size_t(m_collectives->rankCount())));
}

void ViewLinks::showCollectiveOf(const std::optional<EventLocation> &event)
{
    const bool communication = event && m_collectives->isCollectivePart(*event);
    if (communication && !m_collectives->isReady()) {
        emit message(tr("Matching collectives across %n rank(s)...", nullptr, m_collectives->rankCount()));
        m_collectives->prepare();
    }
    const stats::CollectiveInstance *collective = communication ? m_collectives->instanceOf(*event) : nullptr;
    TimelineCanvas *canvas = m_views.timeline->canvas();
    if (!collective) {
        canvas->setCollectiveOverlay(std::nullopt);
        return;
    }
    m_views.details->appendCollective(*collective);
    TimelineCanvas::CollectiveOverlay overlay{{collective->firstArrival, collective->lastArrival}, {}, {}};
    for (const stats::CollectiveArrival &a : collective->arrivals) {
        overlay.kernels.push_back(a.kernel);
        if (a.rankIndex == collective->lastRankIndex)
            overlay.last = a.kernel;
    }
    canvas->setCollectiveOverlay(std::move(overlay));
}

void ViewLinks::showRowEvents(int row)
{
    const TimelineRows &rows = m_views.timeline->canvas()->rows();
    if (row < 0 || rows.rows()[std::size_t(row)].tracks.empty()) // a row of events
        return;
    const TimelineRow &r = rows.rows()[std::size_t(row)];
    m_views.events->showRow(r.rank, r.tracks, rows.key(row));
    if (m_views.eventsDock && m_views.eventsDock->isHidden() && !m_eventsDockClosedByUser)
        m_views.eventsDock->show();
}

} // namespace rankscope
