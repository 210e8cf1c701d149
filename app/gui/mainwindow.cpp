#include "mainwindow.h"

#include "core/untrustedtext.h"

#include "colorscheme.h"
#include "common/exportfolder.h"
#include "common/plaintext.h"
#include "core/units.h"
#include "details/detailspanel.h"
#include "details/diagnosticspanel.h"
#include "events/eventspanel.h"
#include "events/selectionpanel.h"
#include "panels/rankspanel.h"
#include "panels/statsdock.h"
#include "recentfiles.h"
#include "session/residentbudget.h"
#include "sessioncontroller.h"
#include "sessionloadjob.h"
#include "statisticsexport.h"
#include "timeline/searchbar.h"
#include "timeline/timelineactions.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineview.h"
#include "traceopener.h"
#include "viewlinks.h"
#include "windowdialogs.h"

#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLayout>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <functional>

namespace rankscope {

namespace {

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kHiddenRowsKey = QStringLiteral("timeline/hiddenRows");
const QString kLabelWidthKey = QStringLiteral("timeline/labelWidth");
const QString kColorSchemeKey = QStringLiteral("view/colorScheme");
const QString kCommunicationPatternKey = QStringLiteral("statistics/communicationPattern");
// MiB of mapped rank detail kept resident (session/residentbudget.h); unset: half the RAM.
const QString kMemoryBudgetKey = QStringLiteral("memory/rankDetailBudgetMiB");
constexpr int kLayoutVersion = 1; // bump when the docks change
constexpr int kWidestRestoredLabels = 800;

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_timeline(new TimelineView(this)), m_details(new DetailsPanel(this)), m_diagnostics(new DiagnosticsPanel(this)),
      m_events(new EventsPanel(this)), m_selection(new SelectionPanel(this)), m_search(new SearchBar(this)), m_opener(new TraceOpener(this)),
      m_analysis(std::make_shared<AnalysisWorkspaces>()), m_stats(new StatsDock(m_analysis, this)),
      m_session(new SessionController(m_timeline, m_analysis, this))
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
    auto *selectionDock = new QDockWidget(tr("Selection"), this);
    selectionDock->setObjectName(QStringLiteral("selectionDock"));
    selectionDock->setWidget(m_selection);
    addDockWidget(Qt::BottomDockWidgetArea, selectionDock);
    selectionDock->hide();
    m_statsDock = new QDockWidget(tr("Statistics"), this);
    m_statsDock->setObjectName(QStringLiteral("statisticsDock"));
    m_statsDock->setWidget(m_stats);
    addDockWidget(Qt::BottomDockWidgetArea, m_statsDock);
    tabifyDockWidget(diagnosticsDock, m_statsDock);
    tabifyDockWidget(m_statsDock, eventsDock);
    tabifyDockWidget(eventsDock, selectionDock);
    m_statsDock->hide();
    m_stats->setComputeInBackground(true);  // a huge trace must not freeze the window
    m_stats->setComputeOnlyWhenShown(true); // nor cost minutes of CPU for a closed dock
    // Which kernels count as communication is the user's choice, kept between runs.
    m_stats->ranks()->setCommunicationPattern(QSettings().value(kCommunicationPatternKey).toString());
    connect(m_stats->ranks(), &RanksPanel::communicationPatternChanged, this,
            [](const QString &pattern) { QSettings().setValue(kCommunicationPatternKey, pattern); });
    auto *searchBar = new QToolBar(tr("Search"), this);
    searchBar->setObjectName(QStringLiteral("searchBar"));
    searchBar->addWidget(m_search);
    addToolBar(Qt::TopToolBarArea, searchBar);

    m_links = new ViewLinks({m_timeline, m_details, m_events, eventsDock, m_search, m_stats, m_selection, selectionDock}, this);
    connect(m_links, &ViewLinks::message, this, [this](const QString &text, int timeoutMs) {
        if (text.isEmpty())
            statusBar()->clearMessage();
        else
            statusBar()->showMessage(text, timeoutMs);
    });
    connect(m_opener, &TraceOpener::loaded, this, [this](const std::shared_ptr<const Session> &session, bool runB) {
        rebuildRecentMenu(); // at once when hidden; if it is open, when next shown (never under the pointer)
        if (!runB) {
            m_session->setSession(session);
        } else {
            m_session->showComparison(*session);
            showStatsPanel(QStringLiteral("compare"));
        }
        showFailures(*session);
    });
    connect(m_opener, &TraceOpener::nothingLoaded, this, [this](const std::shared_ptr<const Session> &failed) {
        m_diagnostics->setSession(*failed);
        if (!m_timeline->session()) { // nothing shown yet: say what failed instead of an empty timeline
            QStringList lines{tr("No trace could be opened:")};
            for (const LoadFailure &f : failed->failures())
                lines << QStringLiteral("%1: %2").arg(QFileInfo(f.path).fileName(), f.error);
            m_timeline->canvas()->setEmptyMessage(lines.join(QLatin1Char('\n')));
        }
        showFailures(*failed);
    });
    connect(m_opener->job(), &SessionLoadJob::wholeProgress, this, [this](int percent) {
        if (m_session->recorded())
            statusBar()->showMessage(
                tr("%n rank(s) shown from their summaries; checking their index caches: %1%", nullptr, int(m_session->recorded()->ranks().size()))
                    .arg(percent));
    });
    connect(m_opener, &TraceOpener::madeWhole, this, [this](const std::shared_ptr<const Session> &whole) {
        m_session->replaceWithWhole(whole);
        showFailures(*whole);
    });
    connect(m_opener, &TraceOpener::cancelled, this, [this] { statusBar()->showMessage(tr("Loading cancelled"), 5000); });
    connect(m_timeline->canvas(), &TimelineCanvas::rowVisibilityChanged, this, &MainWindow::rememberHiddenRows);
    connect(m_session, &SessionController::shown, this, &MainWindow::showShown);
    connect(m_session, &SessionController::message, this, [this](const QString &text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
    createMenus();
    resize(1400, 850);
    restoreLayout();
    // The layout is kept a second after it last changed, not only on Quit:
    // a window closed by the desktop's session end or killed keeps its size.
    m_saveLayoutTimer = new QTimer(this);
    m_saveLayoutTimer->setSingleShot(true);
    m_saveLayoutTimer->setInterval(1000);
    connect(m_saveLayoutTimer, &QTimer::timeout, this, &MainWindow::saveLayout);
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        connect(dock, &QDockWidget::visibilityChanged, m_saveLayoutTimer, qOverload<>(&QTimer::start));
        connect(dock, &QDockWidget::topLevelChanged, m_saveLayoutTimer, qOverload<>(&QTimer::start));
    }
}

MainWindow::~MainWindow()
{
    // QWidget's destructor hides the docks after this one has run: their
    // visibility then says nothing of a layout that is going away.
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        disconnect(dock, &QDockWidget::visibilityChanged, this, nullptr);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(
            tr("&Open..."), QKeySequence(Qt::CTRL | Qt::Key_O), this,
            [this] {
                const QStringList paths = QFileDialog::getOpenFileNames(
                    this, tr("Open traces"), openFolder(),
                    tr("Traces (*.sqlite *.nsys-rep *.qdrep *.json *.json.gz);;Nsight Systems SQLite exports (*.sqlite);;"
                       "Nsight Systems reports, exported with nsys (*.nsys-rep *.qdrep);;PyTorch profiler traces (*.json *.json.gz);;All files (*)"));
                if (!paths.isEmpty())
                    open(paths);
            })
        ->setStatusTip(tr("open trace files or folders as one session"));
    file->addAction(tr("&Compare With..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
                    [this] {
                        const QStringList paths =
                            QFileDialog::getOpenFileNames(this, tr("Compare with traces (run B)"), openFolder(),
                                                          tr("Traces (*.sqlite *.nsys-rep *.qdrep *.json *.json.gz);;All files (*)"));
                        if (!paths.isEmpty())
                            compareWith(paths);
                    })
        ->setStatusTip(tr("compare with another run (run B)"));
    m_compareRanksAction = file->addAction(tr("Compare Two Ran&ks..."), this, &MainWindow::chooseRanksToCompare);
    m_compareRanksAction->setEnabled(false);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    // Rebuilt when shown, so that a load ending under the pointer does not
    // move the entries; enabled meanwhile when there is anything to show.
    connect(m_recentMenu, &QMenu::aboutToShow, this, [this] {
        if (std::exchange(m_recentStale, false))
            rebuildRecentMenu();
    });
    file->addSeparator();
    QMenu *exportMenu = file->addMenu(tr("&Export"));
    for (const auto &[format, title] :
         {std::pair{QStringLiteral("png"), tr("Timeline as &PNG")}, std::pair{QStringLiteral("svg"), tr("Timeline as &SVG")}}) {
        QMenu *formatMenu = exportMenu->addMenu(title);
        using Scope = TimelineView::ExportScope;
        for (const auto &[scope, what] :
             {std::pair{Scope::View, tr("&Visible view...")}, std::pair{Scope::AllRows, tr("&All rows of the visible range...")},
              std::pair{Scope::WholeSession, tr("&Whole session, all rows...")}})
            formatMenu->addAction(what, this,
                                  [this, f = format, s = scope] { exportTimeline(f, s); }); // init-captures: clang 14 cannot capture a binding
    }
    exportMenu->addAction(tr("Statistics as &CSV..."), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export statistics into folder"), exportDirectory());
        if (dir.isEmpty())
            return;
        rememberExportFolder(dir);
        exportStatistics(dir);
    });
    m_exportMenu = exportMenu;
    exportMenu->setEnabled(false); // until a session is open
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), qApp, &QApplication::closeAllWindows)->setStatusTip(tr("quit"));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    const TimelineActions *actions = m_timeline->actions();
    view->addActions({actions->zoomIn, actions->zoomOut, actions->zoomToSelection, actions->fit, actions->back});
    view->addSeparator();
    view->addActions({actions->panLeft, actions->panRight, actions->clearSelection});
    view->addSeparator();
    view->addAction(actions->find);
    connect(actions->find, &QAction::triggered, m_search, &SearchBar::focusInput);
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        view->addAction(dock->toggleViewAction());
        // Opened or closed (its menu entry, its key, its close button): the
        // timeline keeps half the window. Tab switches change nothing.
        connect(dock, &QDockWidget::visibilityChanged, this, [this] {
            const QList<QDockWidget *> below = docksBelow();
            if (below == m_shownBelow)
                return;
            // One closed: those left below were sized for it (Statistics), not
            // for themselves; the timeline takes the room back.
            const bool closed = below.size() < m_shownBelow.size();
            m_shownBelow = below;
            QTimer::singleShot(0, this, [this, closed] { keepHalfForTheTimeline(closed ? 3 : 2); }); // once the layout has them
        });
        // Shown from the menu or its key, a dock comes in front of the tabs
        // it shares its area with: else Ctrl+Shift+S adds a tab behind them.
        connect(dock->toggleViewAction(), &QAction::triggered, dock, [dock](bool shown) {
            if (shown)
                dock->raise();
        });
    }
    m_statsDock->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_statsDock->toggleViewAction()->setStatusTip(tr("show or hide the statistics panels"));
    view->addSeparator();
    createThemeMenu(view);
    view->addAction(m_links->busyWithoutWaitAction());
    // CPU sample rows: by the innermost frame's module, or by the thread's
    // state (running, waiting, in an OS call).
    QAction *byState = view->addAction(tr("Color CPU Samples by Thread &State"));
    byState->setCheckable(true);
    byState->setStatusTip(tr("color each CPU sample by its thread's state instead of by the module of the function it was in"));
    connect(byState, &QAction::toggled, this, [this](bool on) {
        m_timeline->canvas()->setSampleColoring(on ? TimelineCanvas::SampleColoring::ByThreadState : TimelineCanvas::SampleColoring::ByModule);
    });
    // Paraver's derived views of each GPU, as counter rows under All streams.
    QAction *derived = view->addAction(tr("&Derived GPU Rows"));
    derived->setCheckable(true);
    derived->setStatusTip(tr("under each GPU's All streams row: kernels in flight, compute during communication, GPU useful and the "
                             "GPU gap in force, as counters (a rank's row menu switches one rank)"));
    connect(derived, &QAction::toggled, this, [this](bool on) { m_timeline->canvas()->setDerivedGpuRowsForAll(on); });
    connect(m_timeline->canvas(), &TimelineCanvas::rowVisibilityChanged, derived, [this, derived] {
        const QSignalBlocker quiet(derived);
        derived->setChecked(!m_timeline->canvas()->derivedGpuRanks().empty());
    });
    connect(m_timeline->canvas(), &TimelineCanvas::derivedGpuRowsFailed, this, [this](const QString &why) { statusBar()->showMessage(why, 15000); });
    view->addAction(m_session->alignOnCollectivesAction());
    view->addMenu(tr("Align &Runs (A and B)"))->addActions(m_session->alignRunsActions());
    view->addSeparator();
    // A settings file is text anyone may have edited: what is read back is clamped.
    if (const qulonglong mib = QSettings().value(kMemoryBudgetKey).toULongLong(); mib > 0)
        ResidentBudget::process().setBytes(std::clamp<std::uint64_t>(mib, 64, std::max<std::uint64_t>(64, 2 * ResidentBudget::defaultBytes() >> 20))
                                           << 20);
    QAction *budget = view->addAction(tr("&Memory Budget for Rank Detail..."), this, &MainWindow::chooseMemoryBudget);
    budget->setToolTip(tr("How much of the ranks' index caches stays in memory: the ranks used least recently give theirs back "
                          "beyond it (they read it in again when next shown)"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showShortcutsDialog(this, TimelineActions::htmlOf(shortcutRows())); });
    help->addAction(tr("&About Rankscope"), this, [this] { showAboutDialog(this); });
}

void MainWindow::createThemeMenu(QMenu *view)
{
    QMenu *themes = view->addMenu(tr("&Theme"));
    auto *group = new QActionGroup(themes);
    const ColorScheme chosen = colorSchemeFromKey(QSettings().value(kColorSchemeKey).toString());
    for (const auto &[scheme, text] :
         {std::pair{ColorScheme::System, tr("&System")}, std::pair{ColorScheme::Light, tr("&Light")}, std::pair{ColorScheme::Dark, tr("&Dark")}}) {
        QAction *action = themes->addAction(text);
        action->setCheckable(true);
        action->setChecked(scheme == chosen);
        action->setData(int(scheme));
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, s = scheme] { setColorScheme(s); });
    }
    m_themeActions = group->actions();
    themes->addSeparator();
    QAction *next = themes->addAction(tr("&Next Theme"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T), this,
                                      [this] { setColorScheme(nextColorScheme(currentColorScheme())); });
    next->setStatusTip(tr("switch the theme: system, light, dark"));
    if (chosen != ColorScheme::System)
        applyColorScheme(chosen);
}

void MainWindow::setColorScheme(ColorScheme scheme)
{
    applyColorScheme(scheme);
    QSettings().setValue(kColorSchemeKey, colorSchemeKey(scheme));
    for (QAction *action : m_themeActions)
        action->setChecked(action->data().toInt() == int(scheme));
}

QList<TimelineActions::HelpRow> MainWindow::shortcutRows() const
{
    // The timeline's own, then every other menu command that has keys, in menu order.
    QList<TimelineActions::HelpRow> rows = m_timeline->actions()->helpRows();
    const QList<QAction *> timelineActions = m_timeline->actions()->all();
    std::function<void(const QMenu *)> addMenu = [&](const QMenu *menu) {
        for (const QAction *action : menu->actions()) {
            if (action->menu())
                addMenu(action->menu());
            else if (!action->shortcuts().isEmpty() && !timelineActions.contains(action))
                rows.push_back({TimelineActions::keysOf(action), action->statusTip()});
        }
    };
    for (const QAction *top : menuBar()->actions())
        if (top->menu())
            addMenu(top->menu());
    return rows;
}

QString MainWindow::shortcutsMarkdown() const
{
    return TimelineActions::markdownOf(shortcutRows());
}

void MainWindow::rebuildRecentMenu()
{
    if (m_recentMenu->isVisible()) { // never under the pointer
        m_recentStale = true;
        return;
    }
    m_recentMenu->clear();
    const QList<RecentSet> sets = RecentFiles::load();
    for (const RecentSet &set : sets) {
        QAction *action = m_recentMenu->addAction(RecentFiles::label(set), this, [this, set] {
            open(set.runA);
            if (!set.runB.isEmpty())
                compareWith(set.runB); // after run A is open
        });
        QStringList shown; // paths are data: not markup, and a line break in one shows as \x0A
        for (const QString &path : set.runA + set.runB)
            shown << terminalSafe(path, false);
        action->setToolTip(plainTooltip(shown.join(QLatin1Char('\n'))));
    }
    m_recentMenu->setToolTipsVisible(true);
    m_recentMenu->setEnabled(!sets.isEmpty());
    if (!sets.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear"), this, [this] {
            RecentFiles::clear();
            rebuildRecentMenu();
        });
    }
}

void MainWindow::showFailures(const Session &session)
{
    if (session.failures().empty())
        return;
    // The rest waits in View > Diagnostics.
    QDockWidget *dock = findChild<QDockWidget *>(QStringLiteral("diagnosticsDock"));
    dock->show();
    dock->raise(); // in front of the Statistics and Events tabs it shares the area with
    statusBar()->showMessage(tr("%n file(s) could not be opened: see Diagnostics", nullptr, int(session.failures().size())));
}

void MainWindow::chooseRanksToCompare()
{
    const std::shared_ptr<const Session> &recorded = m_session->recorded();
    if (!recorded || recorded->ranks().size() < 2)
        return;
    if (const auto ranks = askTwoRanks(this, *recorded); ranks && m_session->compareRanks(ranks->first, ranks->second))
        showStatsPanel(QStringLiteral("compare"));
}

void MainWindow::showShown(const std::shared_ptr<const Session> &session, bool sameRows)
{
    showInDocks(session);
    if (sameRows)
        return;
    applyHiddenRows();
    m_exportMenu->setEnabled(true);
    if (!session->ranks().empty()) { // Save dialogs start beside the traces
        const QFileInfo trace(session->ranks().front().report->filePath);
        setTraceFolder(trace.isDir() ? trace.absoluteFilePath() : trace.absolutePath());
    }
    auto namesOf = [&](RunSide side) {
        QStringList names;
        for (int i : session->rankIndicesOf(side))
            names << QFileInfo(session->ranks()[std::size_t(i)].report->filePath).fileName();
        names.removeDuplicates();
        return names.size() > 3 ? tr("%n files", nullptr, int(names.size())) : names.join(QStringLiteral(", "));
    };
    setWindowTitle(QStringLiteral("Rankscope - %1")
                       .arg(session->isComparison() ? tr("A: %1 vs B: %2").arg(namesOf(RunSide::A), namesOf(RunSide::B)) : namesOf(RunSide::None)));
}

void MainWindow::showInDocks(const std::shared_ptr<const Session> &session)
{
    m_details->setSession(session);
    m_events->setSession(session);
    m_selection->clear();
    m_diagnostics->setSession(*session);
    // Ranks opened with their summaries only have no events yet: statistics,
    // search, matching collectives and alignment over them would be wrong,
    // so they wait for the whole session (seconds) instead of showing it.
    const bool whole = !session->hasSummariesOnlyRanks();
    m_search->setSession(whole ? session : nullptr);
    m_search->setEnabled(whole);
    m_stats->setSession(whole ? session : nullptr);
    if (m_compareRanksAction)
        m_compareRanksAction->setEnabled(whole && session->ranks().size() > 1);
    if (!whole) {
        statusBar()->showMessage(
            tr("%n rank(s) shown from their summaries; checking their index caches before reading events...", nullptr, int(session->ranks().size())));
        return;
    }
    std::size_t events = 0;
    for (const ReportPtr &r : session->reports())
        events += r->eventCount();
    statusBar()->showMessage(tr("%n rank(s), %1 events, %2 across", nullptr, int(session->ranks().size()))
                                 .arg(formatInteger(std::int64_t(events)), formatDuration(session->extent().duration())));
}

bool MainWindow::showStatsPanel(const QString &name)
{
    if (!m_stats->showPanel(name))
        return false;
    m_statsDock->show();
    m_statsDock->raise();
    keepHalfForTheTimeline(2);
    return true;
}

QList<QDockWidget *> MainWindow::docksBelow() const
{
    QList<QDockWidget *> below;
    for (QDockWidget *d : findChildren<QDockWidget *>())
        if (!d->isHidden() && !d->isFloating() && dockWidgetArea(d) == Qt::BottomDockWidgetArea)
            below << d;
    return below;
}

void MainWindow::keepHalfForTheTimeline(int belowShare)
{
    const QList<QDockWidget *> below = docksBelow();
    QList<int> heights;
    for (const QDockWidget *d : below)
        heights << d->height();
    layout()->activate();
    if (below.isEmpty())
        return;
    // The timeline keeps half the window; after a dock closed, those left
    // keep no more than a third of it.
    const int docks = *std::max_element(heights.begin(), heights.end());
    const int bars = height() - m_timeline->height() - docks; // menu, search, status bar
    int most = height() - bars - height() / 2;
    if (belowShare > 2)
        most = std::min(most, height() / belowShare);
    const int missing = docks - most;
    if (missing <= 0)
        return;
    // Tabbed docks share one height: each asks for it less what is short.
    for (int &h : heights)
        h = std::max(1, h - missing);
    resizeDocks(below, heights, Qt::Vertical);
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

void MainWindow::restoreLayout()
{
    const QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray(), kLayoutVersion);
    // Clamped again when the window is shown (TimelineCanvas::resizeEvent):
    // a width edited into the settings file cannot cover the timeline.
    if (const int width = settings.value(kLabelWidthKey, 0).toInt(); width > 0)
        m_timeline->canvas()->setLabelWidth(std::min(width, kWidestRestoredLabels));
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kLayoutVersion));
    settings.setValue(kLabelWidthKey, m_timeline->canvas()->labelWidth());
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    if (m_saveLayoutTimer && isVisible())
        m_saveLayoutTimer->start();
    // A smaller window shrinks the timeline and the docks alike: the docks give way.
    if (event->size().height() < event->oldSize().height())
        QTimer::singleShot(0, this, [this] { keepHalfForTheTimeline(2); });
}

void MainWindow::moveEvent(QMoveEvent *event)
{
    QMainWindow::moveEvent(event);
    if (m_saveLayoutTimer && isVisible())
        m_saveLayoutTimer->start();
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
    QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"), exportPathFor(QStringLiteral("timeline.%1").arg(format)), filter);
    if (path.isEmpty())
        return;
    rememberExportFolder(path);
    if (!path.endsWith(QLatin1Char('.') + format, Qt::CaseInsensitive))
        path += QLatin1Char('.') + format;
    exportTimelineTo(path, scope);
}

QStringList MainWindow::exportStatistics(const QString &directory)
{
    const WorkspacePtr workspace = m_analysis->current(); // the panels' session and settings
    if (!workspace) {                                     // none yet while ranks opened with their summaries are read whole
        statusBar()->showMessage(tr("No statistics to export yet: the traces are still being read."), 5000);
        return {};
    }
    QString error;
    const QStringList written = exportStatisticsCsv(*workspace, directory, &error);
    const QString done = tr("%n statistics table(s) written to %1", nullptr, int(written.size())).arg(directory);
    const qsizetype failed = error.isEmpty() ? 0 : error.count(QLatin1Char('\n')) + 1;
    statusBar()->showMessage(
        failed == 0 ? done : done + tr("; %n could not be written (%1)", nullptr, int(failed)).arg(error.section(QLatin1Char('\n'), 0, 0)),
        failed == 0 ? 5000 : 15000);
    return written;
}

QString MainWindow::exportDirectory() const
{
    return exportFolder();
}

QString MainWindow::openFolder() const
{
    // Where the last traces opened were, not the process's working directory.
    const QList<RecentSet> recent = RecentFiles::load();
    if (!recent.isEmpty()) {
        // A file's folder; a folder's parent, where the folder can be chosen again.
        const QString folder = QFileInfo(recent.front().runA.value(0)).absolutePath();
        if (QFileInfo(folder).isDir())
            return folder;
    }
    return QDir::homePath();
}

void MainWindow::chooseMemoryBudget()
{
    if (const auto mib = askMemoryBudgetMiB(this, int(ResidentBudget::process().bytes() >> 20))) {
        QSettings().setValue(kMemoryBudgetKey, *mib);
        ResidentBudget::process().setBytes(std::uint64_t(*mib) << 20);
    }
}

} // namespace rankscope
