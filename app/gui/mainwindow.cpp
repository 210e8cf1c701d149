#include "mainwindow.h"

#include "collectivelookup.h"
#include "stats/collectives.h"

#include "core/units.h"
#include "details/detailspanel.h"
#include "details/diagnosticspanel.h"
#include "events/eventspanel.h"
#include "panels/rankspanel.h"
#include "panels/statsdock.h"
#include "recentfiles.h"
#include "session/residentbudget.h"
#include "sessionloadjob.h"
#include "statisticsexport.h"
#include "timeline/searchbar.h"
#include "timeline/timelineactions.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <sqlite3.h>

#include <algorithm>
#include <climits>

namespace rankscope {

namespace {

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kHiddenRowsKey = QStringLiteral("timeline/hiddenRows");
const QString kLabelWidthKey = QStringLiteral("timeline/labelWidth");
const QString kCommunicationPatternKey = QStringLiteral("statistics/communicationPattern");
// MiB of mapped rank detail kept resident (session/residentbudget.h); unset: half the RAM.
const QString kMemoryBudgetKey = QStringLiteral("memory/rankDetailBudgetMiB");
constexpr int kLayoutVersion = 1; // bump when the docks change

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_timeline(new TimelineView(this)), m_details(new DetailsPanel(this)),
      m_diagnostics(new DiagnosticsPanel(this)), m_events(new EventsPanel(this)), m_search(new SearchBar(this)), m_job(new SessionLoadJob(this)),
      m_stats(new StatsDock(this)), m_collectives(std::make_unique<CollectiveLookup>())
{
    setWindowTitle(QStringLiteral("Rankscope"));
    setAcceptDrops(true);
    setCentralWidget(m_timeline);

    auto *detailsDock = new QDockWidget(tr("Details"), this);
    detailsDock->setObjectName(QStringLiteral("detailsDock"));
    detailsDock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, detailsDock);
    auto *diagnosticsDock = new QDockWidget(tr("Diagnostics"), this);
    diagnosticsDock->setObjectName(QStringLiteral("diagnosticsDock"));
    diagnosticsDock->setWidget(m_diagnostics);
    addDockWidget(Qt::BottomDockWidgetArea, diagnosticsDock);
    diagnosticsDock->hide();
    auto *eventsDock = new QDockWidget(tr("Events"), this);
    eventsDock->setObjectName(QStringLiteral("eventsDock"));
    eventsDock->setWidget(m_events);
    addDockWidget(Qt::BottomDockWidgetArea, eventsDock);
    eventsDock->hide();
    m_statsDock = new QDockWidget(tr("Statistics"), this);
    m_statsDock->setObjectName(QStringLiteral("statisticsDock"));
    m_statsDock->setWidget(m_stats);
    addDockWidget(Qt::BottomDockWidgetArea, m_statsDock);
    tabifyDockWidget(diagnosticsDock, m_statsDock);
    tabifyDockWidget(m_statsDock, eventsDock);
    m_statsDock->hide();
    m_stats->setComputeInBackground(true); // a huge trace must not freeze the window
    m_stats->setComputeOnlyWhenShown(true); // nor cost minutes of CPU for a closed dock
    // Which kernels count as communication is the user's choice, kept between runs.
    m_stats->ranks()->setCommunicationPattern(QSettings().value(kCommunicationPatternKey).toString());
    connect(m_stats->ranks(), &RanksPanel::communicationPatternChanged, this,
            [](const QString &pattern) { QSettings().setValue(kCommunicationPatternKey, pattern); });
    // The selected kernel's collective is the workspace's match too.
    connect(m_stats, &StatsDock::workspaceChanged, this, [this](const WorkspacePtr &workspace) { m_collectives->setWorkspace(workspace); });
    auto *searchBar = new QToolBar(tr("Search"), this);
    searchBar->setObjectName(QStringLiteral("searchBar"));
    searchBar->addWidget(m_search);
    addToolBar(Qt::TopToolBarArea, searchBar);

    // A selected collective kernel: its instance on every rank in the
    // Details dock and as a band across the ranks on the timeline, once the
    // collectives are matched (the first time, on a worker).
    connect(m_timeline, &TimelineView::eventSelected, this, [this](std::optional<EventLocation> event) {
        m_details->showDetails(event);
        showCollectiveOf(event);
    });
    connect(m_collectives.get(), &CollectiveLookup::ready, this, [this] {
        statusBar()->clearMessage();
        const std::optional<EventLocation> selected = m_timeline->canvas()->selectedEvent();
        if (selected && m_collectives->isCommunicationKernel(*selected))
            showCollectiveOf(selected);
    });
    connect(m_details, &DetailsPanel::linkActivated, this, [this](EventLocation e) { m_timeline->canvas()->selectEvent(e, true); });
    // The Events table lists the row last clicked, within the selected range.
    connect(m_timeline->canvas(), &TimelineCanvas::rowChosen, this, [this](int row) { showRowEvents(row); });
    connect(m_timeline, &TimelineView::eventSelected, this, [this](std::optional<EventLocation> event) {
        if (event && !m_events->lists(*event)) // chosen by search, a link or a panel
            showRowEvents(m_timeline->canvas()->rows().rowOf(event->rank, event->track));
        m_events->markEvent(event);
    });
    connect(m_timeline->zoom(), &ZoomState::selectionChanged, this, [this] { m_events->setRange(m_timeline->zoom()->selection()); });
    connect(m_events, &EventsPanel::eventActivated, this, [this](EventLocation e) { m_timeline->canvas()->selectEvent(e, true); });
    connect(m_search, &SearchBar::matchActivated, this, [this](EventLocation e) { m_timeline->canvas()->selectEvent(e, true); });
    // The panels follow the range selection; while the mouse drags it, wait
    // until it rests before recomputing.
    auto *rangeSettle = new QTimer(this);
    rangeSettle->setSingleShot(true);
    rangeSettle->setInterval(150);
    connect(m_timeline->zoom(), &ZoomState::selectionChanged, rangeSettle, qOverload<>(&QTimer::start));
    connect(rangeSettle, &QTimer::timeout, this, [this] { m_stats->setRange(m_timeline->zoom()->selection()); });
    connect(m_stats, &StatsDock::clearRangeRequested, this, [this] { m_timeline->zoom()->setSelection(std::nullopt); });
    connect(m_stats, &StatsDock::eventsSelected, this, [this](const std::vector<EventLocation> &events) {
        m_timeline->canvas()->setHighlighted(events);
        statusBar()->showMessage(tr("%n event(s) highlighted", nullptr, int(events.size())), 5000);
    });
    connect(m_stats, &StatsDock::zoomRequested, this, [this](TimeRange range) { m_timeline->zoom()->show(range); });
    connect(m_stats, &StatsDock::searchRequested, this, [this](const QString &text) {
        m_search->setQuery(text);
        m_search->next();
    });
    connect(m_job, &SessionLoadJob::progress, this, [this](int percent) {
        if (m_progress)
            m_progress->setValue(percent);
    });
    connect(m_job, &SessionLoadJob::loaded, this, [this, diagnosticsDock](std::shared_ptr<const Session> session) {
        if (m_progress)
            m_progress->reset();
        const bool runB = std::exchange(m_loadingRunB, false);
        if (!session->ranks().empty()) {
            RecentFiles::add(m_loading);
            rebuildRecentMenu();
            if (runB)
                showComparison(session);
            else
                setSession(session);
        } else {
            m_diagnostics->setSession(*session);
            if (!m_timeline->session()) { // nothing shown yet: say what failed instead of an empty timeline
                QStringList lines{tr("No trace could be opened:")};
                for (const LoadFailure &f : session->failures())
                    lines << QStringLiteral("%1: %2").arg(QFileInfo(f.path).fileName(), f.error);
                m_timeline->canvas()->setEmptyMessage(lines.join(QLatin1Char('\n')));
            }
        }
        if (!session->failures().empty())
            diagnosticsDock->show(); // the rest waits in View > Diagnostics
        if (!session->failures().empty())
            statusBar()->showMessage(tr("%n file(s) could not be opened: see Diagnostics", nullptr, int(session->failures().size())));
        if (!m_queuedRunB.isEmpty() && m_recorded && !m_job->isRunning())
            compareWith(std::exchange(m_queuedRunB, {}));
    });
    connect(m_job, &SessionLoadJob::wholeProgress, this, [this](int percent) {
        if (m_recorded)
            statusBar()->showMessage(tr("%n rank(s) shown from their summaries; checking their index caches: %1%", nullptr,
                                        int(m_recorded->ranks().size())).arg(percent));
    });
    connect(m_job, &SessionLoadJob::wholeLoaded, this, [this, diagnosticsDock](std::shared_ptr<const Session> whole) {
        if (whole->ranks().empty()) { // every rank failed its check and its trace: say so, keep nothing stale
            m_diagnostics->setSession(*whole);
            diagnosticsDock->show();
            return;
        }
        showWholeSession(whole);
        if (!whole->failures().empty())
            diagnosticsDock->show();
        if (!m_queuedRunB.isEmpty() && m_recorded && !m_job->isRunning())
            compareWith(std::exchange(m_queuedRunB, {}));
    });
    connect(m_job, &SessionLoadJob::cancelled, this, [this] {
        m_loadingRunB = false;
        if (m_progress)
            m_progress->reset();
        statusBar()->showMessage(tr("Loading cancelled"), 5000);
    });
    connect(m_timeline->canvas(), &TimelineCanvas::rowVisibilityChanged, this, &MainWindow::rememberHiddenRows);
    createMenus();
    resize(1400, 850);
    restoreLayout();
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open traces"), QString(),
                                                                tr("Traces (*.sqlite *.nsys-rep *.qdrep *.json *.json.gz);;Nsight Systems SQLite exports (*.sqlite);;"
                                                                   "Nsight Systems reports, exported with nsys (*.nsys-rep *.qdrep);;PyTorch profiler traces (*.json *.json.gz);;All files (*)"));
        if (!paths.isEmpty())
            open(paths);
    });
    file->addAction(tr("&Compare With..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Compare with traces (run B)"), QString(),
                                                                tr("Traces (*.sqlite *.nsys-rep *.qdrep *.json *.json.gz);;All files (*)"));
        if (!paths.isEmpty())
            compareWith(paths);
    });
    m_compareRanksAction = file->addAction(tr("Compare Two Ran&ks..."), this, &MainWindow::chooseRanksToCompare);
    m_compareRanksAction->setEnabled(false);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QMenu *exportMenu = file->addMenu(tr("&Export"));
    for (const auto &[format, title] : {std::pair{QStringLiteral("png"), tr("Timeline as &PNG")}, std::pair{QStringLiteral("svg"), tr("Timeline as &SVG")}}) {
        QMenu *formatMenu = exportMenu->addMenu(title);
        using Scope = TimelineView::ExportScope;
        for (const auto &[scope, what] : {std::pair{Scope::View, tr("&Visible view...")}, std::pair{Scope::AllRows, tr("&All rows of the visible range...")},
                                          std::pair{Scope::WholeSession, tr("&Whole session, all rows...")}})
            formatMenu->addAction(what, this, [this, f = format, s = scope] { exportTimeline(f, s); }); // init-captures: clang 14 cannot capture a binding
    }
    exportMenu->addAction(tr("Statistics as &CSV..."), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export statistics into folder"));
        if (!dir.isEmpty())
            exportStatistics(dir);
    });
    m_exportMenu = exportMenu;
    exportMenu->setEnabled(false); // until a session is open
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    const TimelineActions *actions = m_timeline->actions();
    view->addActions({actions->zoomIn, actions->zoomOut, actions->zoomToSelection, actions->fit, actions->back});
    view->addSeparator();
    view->addActions({actions->panLeft, actions->panRight, actions->clearSelection});
    view->addSeparator();
    view->addAction(actions->find);
    connect(actions->find, &QAction::triggered, m_search, &SearchBar::focusInput);
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    m_alignAction = view->addAction(tr("&Align Ranks on Collectives"));
    m_alignAction->setCheckable(true);
    m_alignAction->setEnabled(false);
    m_alignAction->setToolTip(tr("Move each rank by the clock offset that lines up the ends of its collectives "
                                 "(recorded start times differ by milliseconds across hosts)"));
    connect(m_alignAction, &QAction::toggled, this, [this](bool on) { alignOnCollectives(on); });
    m_alignRunsMenu = view->addMenu(tr("Align &Runs (A and B)"));
    m_alignRunsMenu->addAction(tr("On Their &First Steps"), this, [this] { alignRuns(stats::RunAnchor::FirstStep); });
    m_alignRunsMenu->addAction(tr("On Their First &Events"), this, [this] { alignRuns(stats::RunAnchor::Starts); });
    m_alignRunsMenu->addAction(tr("On the &Selected Event and Its Counterpart"), QKeySequence(Qt::CTRL | Qt::Key_K), this,
                               [this] { alignRunsOnSelectedEvent(); });
    m_alignRunsMenu->addSeparator();
    m_stretchAction = m_alignRunsMenu->addAction(tr("S&tretch Steps Over Each Other"));
    m_stretchAction->setCheckable(true);
    m_stretchAction->setToolTip(tr("Draw step k of run B over step k of run A, each step of B stretched or squeezed to A's length "
                                   "(the drawing only: times and durations stay as recorded)"));
    connect(m_stretchAction, &QAction::toggled, this, [this](bool on) { stretchSteps(on); });
    m_alignRunsMenu->setEnabled(false);
    view->addSeparator();
    if (const qulonglong mib = QSettings().value(kMemoryBudgetKey).toULongLong(); mib > 0)
        ResidentBudget::process().setBytes(std::uint64_t(mib) << 20);
    QAction *budget = view->addAction(tr("&Memory Budget for Rank Detail..."), this, &MainWindow::chooseMemoryBudget);
    budget->setToolTip(tr("How much of the ranks' index caches stays in memory: the ranks used least recently give theirs back "
                          "beyond it (they read it in again when next shown)"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    help->addAction(tr("&About Rankscope"), this, &MainWindow::showAbout);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QList<QStringList> sets = RecentFiles::load();
    for (const QStringList &set : sets) {
        QString label = QFileInfo(set.value(0)).fileName();
        if (set.size() > 1)
            label += tr(" and %n more", nullptr, int(set.size() - 1));
        m_recentMenu->addAction(label, this, [this, set] { open(set); });
    }
    m_recentMenu->setEnabled(!sets.isEmpty());
    if (!sets.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear"), this, [this] { RecentFiles::clear(); rebuildRecentMenu(); });
    }
}

void MainWindow::open(const QStringList &paths, bool wait)
{
    startLoad(paths, wait, false);
}

void MainWindow::openToFirstFrame(const QStringList &paths)
{
    QEventLoop shown;
    // After the window's own handlers, connected first: the session is shown.
    const auto quit = [&shown](auto &&...) { shown.quit(); };
    const QMetaObject::Connection loaded = connect(m_job, &SessionLoadJob::loaded, &shown, quit);
    const QMetaObject::Connection cancelled = connect(m_job, &SessionLoadJob::cancelled, &shown, quit);
    m_loading = paths;
    m_loadingRunB = false;
    m_job->start(paths, true);
    shown.exec();
    disconnect(loaded);
    disconnect(cancelled);
}

void MainWindow::startLoad(const QStringList &paths, bool wait, bool runB)
{
    m_loading = paths;
    m_loadingRunB = runB;
    if (!wait) {
        if (!m_progress) {
            m_progress = new QProgressDialog(tr("Loading traces..."), tr("Cancel"), 0, 100, this);
            m_progress->setWindowModality(Qt::WindowModal);
            m_progress->setMinimumDuration(300);
            m_progress->setAutoReset(false);
            connect(m_progress, &QProgressDialog::canceled, m_job, &SessionLoadJob::cancel);
        }
        m_progress->setLabelText(tr("Loading %n trace file(s)...", nullptr, int(expandTracePaths(paths).size())));
        m_progress->setValue(0);
    }
    // A first frame from summaries only when the window waits for nothing
    // (not for screenshots, not for run B, which joins a comparison).
    m_job->start(paths, !wait && !runB);
    if (wait) {
        m_job->waitForFinished();
        QCoreApplication::sendPostedEvents(); // deliver the result now
        QCoreApplication::processEvents();
    }
}

void MainWindow::compareWith(const QStringList &paths, bool wait)
{
    if (!m_recorded || m_job->isRunning()) { // run A first
        m_queuedRunB = paths;
        return;
    }
    startLoad(paths, wait, true);
}

void MainWindow::showComparison(std::shared_ptr<const Session> runB)
{
    // Run A is what was open; comparing again replaces run B.
    const Session runA = m_recorded->isComparison() ? m_recorded->subset(m_recorded->rankIndicesOf(RunSide::A)) : *m_recorded;
    auto both = std::make_shared<const Session>(Session::comparison(runA, *runB));
    setSession(both);
    // The same step of both runs one above the other, if both have steps.
    if (alignRuns(stats::RunAnchor::FirstStep).isEmpty())
        alignRuns(stats::RunAnchor::Starts);
    showStatsPanel(QStringLiteral("compare"));
}

void MainWindow::chooseRanksToCompare()
{
    if (!m_recorded || m_recorded->ranks().size() < 2)
        return;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Compare Two Ranks"));
    auto *form = new QFormLayout(&dialog);
    QComboBox *first = new QComboBox(&dialog), *second = new QComboBox(&dialog);
    for (const RankEntry &e : m_recorded->ranks())
        for (QComboBox *box : {first, second})
            box->addItem(e.displayName() + QStringLiteral(" · ") + QFileInfo(e.report->filePath).fileName());
    second->setCurrentIndex(1);
    form->addRow(tr("Rank A:"), first);
    form->addRow(tr("Rank B:"), second);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() == QDialog::Accepted)
        compareRanks(first->currentIndex(), second->currentIndex());
}

bool MainWindow::compareRanks(int a, int b)
{
    if (!m_recorded || a == b || a < 0 || b < 0 || std::size_t(std::max(a, b)) >= m_recorded->ranks().size()) {
        statusBar()->showMessage(tr("Choose two different ranks of the session."), 15000);
        return false;
    }
    // Each rank becomes a run of its own (the reports shared), so aligning,
    // stretching and the counterpart of an event work as for two runs.
    auto both = std::make_shared<const Session>(Session::comparison(m_recorded->subset({a}), m_recorded->subset({b})));
    setSession(both);
    if (alignRuns(stats::RunAnchor::FirstStep).isEmpty())
        alignRuns(stats::RunAnchor::Starts);
    showStatsPanel(QStringLiteral("compare"));
    return true;
}

void MainWindow::setSession(std::shared_ptr<const Session> session)
{
    m_recorded = session;
    m_alignJob.cancel(); // an alignment still computing was for the last one
    if (m_alignAction) { // enabled by showInDocks()
        const QSignalBlocker block(m_alignAction);
        m_alignAction->setChecked(false);
    }
    if (m_alignRunsMenu)
        m_alignRunsMenu->setEnabled(session && session->isComparison());
    if (m_stretchAction && !(session && session->isComparison())) {
        const QSignalBlocker block(m_stretchAction);
        m_stretchAction->setChecked(false);
    }
    showSession(std::move(session));
}

void MainWindow::moveRunB(TimeNs delta)
{
    m_recorded = std::make_shared<const Session>(stats::movedRun(*m_recorded, RunSide::B, delta));
    const auto shown = m_timeline->session();
    const auto moved = shown.get() == m_recorded.get() ? m_recorded : std::make_shared<const Session>(stats::movedRun(*shown, RunSide::B, delta));
    const TimeRange visible = m_timeline->zoom()->visible(); // the user keeps looking where they were
    showSession(moved);
    m_timeline->zoom()->show(visible);
}

QString MainWindow::alignRuns(stats::RunAnchor anchor)
{
    const auto shown = m_timeline->session();
    if (!shown || !shown->isComparison())
        return {};
    const std::optional<TimeNs> delta = workspaceOf(shown)->runAnchorDelta(anchor);
    const QString what = anchor == stats::RunAnchor::FirstStep ? tr("their first steps") : tr("their first events");
    if (!delta) {
        statusBar()->showMessage(tr("Cannot align the runs on %1: a run has none (steps are ProfilerStep# or NVTX \"step N\" ranges).").arg(what), 15000);
        return {};
    }
    moveRunB(*delta);
    const QString message = tr("Runs A and B aligned on %1 (B moved by %2).").arg(what, formatDuration(*delta));
    statusBar()->showMessage(message, 15000);
    return message;
}

QString MainWindow::alignRunsOnSelectedEvent()
{
    const auto shown = m_timeline->session();
    const std::optional<EventLocation> selected = m_timeline->canvas()->selectedEvent();
    if (!shown || !shown->isComparison() || !selected) {
        statusBar()->showMessage(tr("Select an event of run A or B first: its counterpart in the other run is the same occurrence of its name."), 15000);
        return {};
    }
    const std::optional<EventLocation> other = stats::counterpartEvent(*shown, *selected);
    if (!other) {
        statusBar()->showMessage(tr("The other run has no counterpart of this event (no event of this name, or fewer of them)."), 15000);
        return {};
    }
    const bool selectedInA = shown->ranks()[std::size_t(selected->rank)].side == RunSide::A;
    const EventLocation a = selectedInA ? *selected : *other, b = selectedInA ? *other : *selected;
    const TimeNs delta = shown->sessionTime(a).start - shown->sessionTime(b).start;
    moveRunB(delta);
    m_timeline->canvas()->selectEvent(*selected, false);
    const QString message = tr("Runs aligned on this event and its counterpart (B moved by %1).").arg(formatDuration(delta));
    statusBar()->showMessage(message, 15000);
    return message;
}

void MainWindow::alignOnCollectives(bool align)
{
    if (!m_recorded)
        return;
    if (!align) {
        m_alignJob.cancel(); // a result still computing is for another choice
        showAligned(m_recorded, tr("Ranks aligned on their recorded start times."));
        return;
    }
    // Matching reads every rank's communication kernels: seconds for
    // hundreds of ranks, on a worker while the window keeps painting.
    statusBar()->showMessage(tr("Matching collectives across %1 rank(s) to align them...").arg(m_recorded->ranks().size()));
    const WorkspacePtr workspace = workspaceOf(m_recorded);
    m_alignJob.start(
        [recorded = m_recorded, workspace](const JobToken &) {
            const stats::CollectiveMatch &aligned = *workspace->collectiveMatch(MatchClock::Aligned);
            AlignedSession result;
            result.note = aligned.notes.isEmpty() ? QString() : aligned.notes.back();
            if (std::any_of(aligned.clockShift.begin(), aligned.clockShift.end(), [](TimeNs shift) { return shift != 0; }))
                result.session = std::make_shared<const Session>(recorded->withShiftedRanks(aligned.clockShift));
            return result;
        },
        [this](AlignedSession aligned) {
            if (!aligned.session && m_alignAction) { // nothing to move: stay on the recorded starts
                const QSignalBlocker block(m_alignAction);
                m_alignAction->setChecked(false);
            }
            showAligned(aligned.session ? aligned.session : m_recorded, aligned.note);
        });
}

WorkspacePtr MainWindow::workspaceOf(const std::shared_ptr<const Session> &session) const
{
    // The dock's while it shows this session: its results are shared.
    if (m_stats->workspace() && m_stats->workspace()->session() == session)
        return m_stats->workspace();
    return std::make_shared<const AnalysisWorkspace>(session, m_stats->analysisSettings());
}

void MainWindow::showAligned(std::shared_ptr<const Session> shown, const QString &message)
{
    if (m_timeline->canvas()->session() != shown.get()) {
        const TimeRange visible = m_timeline->zoom()->visible(); // the user keeps looking where they were
        showSession(shown);
        m_timeline->zoom()->show(visible);
    }
    statusBar()->showMessage(message, 15000);
}

QString MainWindow::stretchSteps(bool stretch)
{
    const auto shown = m_timeline->session();
    if (m_stretchAction && m_stretchAction->isChecked() != stretch) {
        const QSignalBlocker block(m_stretchAction);
        m_stretchAction->setChecked(stretch);
    }
    if (!stretch || !shown || !shown->isComparison()) {
        m_timeline->canvas()->setStretch({});
        return {};
    }
    m_timeline->canvas()->setStretch(*workspaceOf(shown)->stepStretchPoints());
    const QString message = m_timeline->canvas()->displayTime().isStretched()
                                ? tr("Step k of run B drawn over step k of run A (stretched to its length; times stay as recorded).")
                                : tr("Nothing to stretch: a run has no steps (ProfilerStep#, NVTX \"step N\" or \"iteration N\").");
    statusBar()->showMessage(message, 15000);
    return message;
}

void MainWindow::showSession(std::shared_ptr<const Session> session)
{
    m_timeline->setSession(session);
    if (m_stretchAction && m_stretchAction->isChecked() && session->isComparison()) // the canvas dropped it with the old session
        m_timeline->canvas()->setStretch(*workspaceOf(session)->stepStretchPoints());
    applyHiddenRows();
    m_exportMenu->setEnabled(true);
    showInDocks(session);
    auto namesOf = [&](RunSide side) {
        QStringList names;
        for (int i : session->rankIndicesOf(side))
            names << QFileInfo(session->ranks()[std::size_t(i)].report->filePath).fileName();
        names.removeDuplicates();
        return names.size() > 3 ? tr("%n files", nullptr, int(names.size())) : names.join(QStringLiteral(", "));
    };
    setWindowTitle(QStringLiteral("Rankscope - %1").arg(session->isComparison() ? tr("A: %1 vs B: %2").arg(namesOf(RunSide::A), namesOf(RunSide::B))
                                                                                 : namesOf(RunSide::None)));
}

void MainWindow::showInDocks(const std::shared_ptr<const Session> &session)
{
    m_details->setSession(session);
    m_events->setSession(session);
    m_diagnostics->setSession(*session);
    // Ranks opened with their summaries only have no events yet: statistics,
    // search, matching collectives and alignment over them would be wrong,
    // so they wait for the whole session (seconds) instead of showing it.
    const bool whole = !session->hasSummariesOnlyRanks();
    m_search->setSession(whole ? session : nullptr);
    m_search->setEnabled(whole);
    m_stats->setSession(whole ? session : nullptr);
    if (m_alignAction)
        m_alignAction->setEnabled(whole && session->ranks().size() > 1);
    if (m_compareRanksAction)
        m_compareRanksAction->setEnabled(whole && session->ranks().size() > 1);
    if (!whole) {
        statusBar()->showMessage(tr("%n rank(s) shown from their summaries; checking their index caches before reading events...", nullptr,
                                    int(session->ranks().size())));
        return;
    }
    std::size_t events = 0;
    for (const ReportPtr &r : session->reports())
        events += r->eventCount();
    statusBar()->showMessage(tr("%n rank(s), %1 events, %2 across", nullptr, int(session->ranks().size()))
                                 .arg(formatInteger(std::int64_t(events)), formatDuration(session->extent().duration())));
}

void MainWindow::showWholeSession(std::shared_ptr<const Session> whole)
{
    m_recorded = whole;
    m_alignJob.cancel();
    m_timeline->replaceSession(whole);
    showInDocks(whole);
    if (!whole->failures().empty())
        statusBar()->showMessage(tr("%n file(s) could not be opened: see Diagnostics", nullptr, int(whole->failures().size())));
}

bool MainWindow::showStatsPanel(const QString &name)
{
    if (!m_stats->showPanel(name))
        return false;
    m_statsDock->show();
    m_statsDock->raise();
    resizeDocks({m_statsDock}, {height() / 2}, Qt::Vertical);
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    if (paths.isEmpty())
        return;
    // Shift held: the files are run B, compared with what is open.
    if (event->modifiers() & Qt::ShiftModifier)
        compareWith(paths);
    else
        open(paths);
}

void MainWindow::showShortcuts()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard Shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(m_timeline->actions()->helpHtml());
    box.exec();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Rankscope"),
                       tr("<h3>Rankscope %1</h3><p>Timeline viewer for multi-rank GPU training traces.</p>"
                          "<p>Qt %2, SQLite %3.<br>Reads Nsight Systems SQLite exports (schema 2.9 to 3.28) and PyTorch profiler (Kineto) JSON traces.</p>")
                           .arg(QStringLiteral(RANKSCOPE_VERSION), QString::fromLatin1(qVersion()), QString::fromLatin1(sqlite3_libversion())));
}

void MainWindow::showCollectiveOf(const std::optional<EventLocation> &event)
{
    const bool communication = event && m_collectives->isCommunicationKernel(*event);
    if (communication && !m_collectives->isReady()) {
        statusBar()->showMessage(tr("Matching collectives across %n rank(s)...", nullptr, m_collectives->rankCount()));
        m_collectives->prepare();
    }
    const stats::CollectiveInstance *collective = communication ? m_collectives->instanceOf(*event) : nullptr;
    if (!collective) {
        m_timeline->canvas()->setCollectiveOverlay(std::nullopt);
        return;
    }
    m_details->appendCollective(*collective);
    TimelineCanvas::CollectiveOverlay overlay{{collective->firstArrival, collective->lastArrival}, {}, {}};
    for (const stats::CollectiveArrival &a : collective->arrivals) {
        overlay.kernels.push_back(a.kernel);
        if (a.rankIndex == collective->lastRankIndex)
            overlay.last = a.kernel;
    }
    m_timeline->canvas()->setCollectiveOverlay(std::move(overlay));
}

void MainWindow::showRowEvents(int row)
{
    const TimelineRows &rows = m_timeline->canvas()->rows();
    if (row < 0 || rows.rows()[std::size_t(row)].kind != TimelineRow::Kind::Slices)
        return;
    const TimelineRow &r = rows.rows()[std::size_t(row)];
    m_events->showRow(r.rank, r.tracks, rows.key(row));
    if (QDockWidget *dock = findChild<QDockWidget *>(QStringLiteral("eventsDock")); dock && dock->isHidden())
        dock->show();
}

void MainWindow::restoreLayout()
{
    const QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray(), kLayoutVersion);
    if (const int width = settings.value(kLabelWidthKey, 0).toInt(); width > 0)
        m_timeline->canvas()->setLabelWidth(width);
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kLayoutVersion));
    settings.setValue(kLabelWidthKey, m_timeline->canvas()->labelWidth());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    QMainWindow::closeEvent(event);
}

void MainWindow::applyHiddenRows()
{
    TimelineCanvas *canvas = m_timeline->canvas();
    canvas->rows().hideKeys(QSettings().value(kHiddenRowsKey).toStringList());
    canvas->rowsChanged();
}

void MainWindow::rememberHiddenRows()
{
    // Rows of other sessions stay remembered; this session's rows say for themselves.
    const TimelineRows &rows = m_timeline->canvas()->rows();
    QStringList keys = QSettings().value(kHiddenRowsKey).toStringList();
    for (int row = 0; row < int(rows.rows().size()); ++row)
        keys.removeAll(rows.key(row));
    keys += rows.hiddenKeys();
    QSettings().setValue(kHiddenRowsKey, keys);
}

bool MainWindow::exportTimelineTo(const QString &path, TimelineView::ExportScope scope)
{
    const bool svg = path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive);
    const bool ok = svg ? m_timeline->exportSvg(path, scope) : m_timeline->exportPng(path, scope);
    statusBar()->showMessage(ok ? tr("Timeline written to %1").arg(path) : tr("Could not write %1").arg(path), 5000);
    return ok;
}

void MainWindow::exportTimeline(const QString &format, TimelineView::ExportScope scope)
{
    const QString filter = format == QLatin1String("svg") ? tr("SVG images (*.svg)") : tr("PNG images (*.png)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"), QStringLiteral("timeline.%1").arg(format), filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1Char('.') + format, Qt::CaseInsensitive))
        path += QLatin1Char('.') + format;
    exportTimelineTo(path, scope);
}

QStringList MainWindow::exportStatistics(const QString &directory)
{
    const auto session = m_timeline->session();
    if (!session)
        return {};
    QString error;
    stats::ReportOptions options;
    options.communicationPattern = m_stats->ranks()->communicationPattern();
    const QStringList written = exportStatisticsCsv(*session, directory, options, &error);
    statusBar()->showMessage(error.isEmpty() ? tr("%n statistics table(s) written to %1", nullptr, int(written.size())).arg(directory) : error, 5000);
    return written;
}

void MainWindow::chooseMemoryBudget()
{
    const int totalMiB = int(std::min<std::uint64_t>(2 * ResidentBudget::defaultBytes() >> 20, std::uint64_t(INT_MAX)));
    bool ok = false;
    const int mib = QInputDialog::getInt(this, tr("Memory Budget for Rank Detail"),
                                         tr("MiB of the ranks' index caches to keep in memory (default: half the RAM, %1 MiB).\n"
                                            "Ranks opened from caches read their events from them as they are shown; "
                                            "beyond the budget, the ranks used least recently give that memory back.")
                                             .arg(totalMiB / 2),
                                         int(ResidentBudget::process().bytes() >> 20), 64, std::max(64, totalMiB), 256, &ok);
    if (!ok)
        return;
    QSettings().setValue(kMemoryBudgetKey, mib);
    ResidentBudget::process().setBytes(std::uint64_t(mib) << 20);
}

} // namespace rankscope
