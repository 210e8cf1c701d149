#include "mainwindow.h"

#include "detailspanel.h"
#include "diagnosticspanel.h"
#include "recentfiles.h"
#include "searchbar.h"
#include "sessionloadjob.h"
#include "statsdock.h"
#include "timelinecanvas.h"
#include "timelineview.h"
#include "units.h"
#include "zoomstate.h"

#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <sqlite3.h>

namespace rankscope {

QString shortcutTableHtml()
{
    const QList<QPair<QString, QString>> rows{
        {QStringLiteral("+ / Ctrl+="), QStringLiteral("Zoom in around the mouse (or the view centre)")},
        {QStringLiteral("- / Ctrl+-"), QStringLiteral("Zoom out")},
        {QStringLiteral("Ctrl+wheel"), QStringLiteral("Zoom around the mouse")},
        {QStringLiteral("Drag, ← →, Shift+wheel"), QStringLiteral("Pan")},
        {QStringLiteral("Shift+drag"), QStringLiteral("Select a time range (its duration shows on the ruler)")},
        {QStringLiteral("Z, double-click the ruler"), QStringLiteral("Zoom to the selected range")},
        {QStringLiteral("F / Home"), QStringLiteral("Fit the whole session")},
        {QStringLiteral("Backspace"), QStringLiteral("Back to the previous zoom")},
        {QStringLiteral("Click"), QStringLiteral("Select an event; its details show in the Details dock")},
        {QStringLiteral("Double-click"), QStringLiteral("Zoom to an event")},
        {QStringLiteral("Ctrl+F, Enter, Shift+Enter"), QStringLiteral("Find events by name; next; previous")},
        {QStringLiteral("Esc"), QStringLiteral("Clear the selection")},
    };
    QString html = QStringLiteral("<table cellspacing='4'>");
    for (const auto &[keys, what] : rows)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_timeline(new TimelineView(this)), m_details(new DetailsPanel(this)),
      m_diagnostics(new DiagnosticsPanel(this)), m_search(new SearchBar(this)), m_job(new SessionLoadJob(this)),
      m_stats(new StatsDock(this))
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
    m_statsDock = new QDockWidget(tr("Statistics"), this);
    m_statsDock->setObjectName(QStringLiteral("statisticsDock"));
    m_statsDock->setWidget(m_stats);
    addDockWidget(Qt::BottomDockWidgetArea, m_statsDock);
    tabifyDockWidget(diagnosticsDock, m_statsDock);
    m_statsDock->hide();
    m_stats->setComputeInBackground(true); // a huge trace must not freeze the window
    auto *searchBar = new QToolBar(tr("Search"), this);
    searchBar->setObjectName(QStringLiteral("searchBar"));
    searchBar->addWidget(m_search);
    addToolBar(Qt::TopToolBarArea, searchBar);

    connect(m_timeline, &TimelineView::eventSelected, m_details, &DetailsPanel::showEvent);
    connect(m_details, &DetailsPanel::linkActivated, this, [this](EventLocation e) { m_timeline->canvas()->selectEvent(e, true); });
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
        if (!session->ranks().empty()) {
            RecentFiles::add(m_loading);
            rebuildRecentMenu();
            setSession(session);
        } else {
            m_diagnostics->setSession(*session);
        }
        if (!session->failures().empty())
            diagnosticsDock->show(); // the rest waits in View > Diagnostics
        if (!session->failures().empty())
            statusBar()->showMessage(tr("%n file(s) could not be opened: see Diagnostics", nullptr, int(session->failures().size())));
    });
    connect(m_job, &SessionLoadJob::cancelled, this, [this] {
        if (m_progress)
            m_progress->reset();
        statusBar()->showMessage(tr("Loading cancelled"), 5000);
    });
    createMenus();
    resize(1400, 850);
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
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    ZoomState *zoom = m_timeline->zoom();
    auto centre = [zoom] { return zoom->visible().start + zoom->visible().duration() / 2; };
    view->addAction(tr("Zoom &In"), QKeySequence(Qt::CTRL | Qt::Key_Equal), this, [zoom, centre] { zoom->zoomIn(centre()); });
    view->addAction(tr("Zoom &Out"), QKeySequence(Qt::CTRL | Qt::Key_Minus), this, [zoom, centre] { zoom->zoomOut(centre()); });
    view->addAction(tr("Zoom to &Selection"), this, [zoom] { zoom->zoomToSelection(); });
    view->addAction(tr("&Fit Session"), this, [zoom] { zoom->fit(); });
    view->addAction(tr("&Back"), this, [zoom] { zoom->back(); });
    view->addSeparator();
    view->addAction(tr("&Find..."), QKeySequence::Find, this, [this] { m_search->focusInput(); });
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());

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
    m_loading = paths;
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
    m_job->start(paths);
    if (wait) {
        m_job->waitForFinished();
        QCoreApplication::sendPostedEvents(); // deliver the result now
        QCoreApplication::processEvents();
    }
}

void MainWindow::setSession(std::shared_ptr<const Session> session)
{
    m_timeline->setSession(session);
    m_details->setSession(session);
    m_search->setSession(session);
    m_diagnostics->setSession(*session);
    m_stats->setSession(session);
    std::size_t events = 0;
    for (const ReportPtr &r : session->reports())
        events += r->eventCount();
    statusBar()->showMessage(tr("%n rank(s), %1 events, %2 across", nullptr, int(session->ranks().size()))
                                 .arg(formatInteger(std::int64_t(events)), formatDuration(session->extent().duration())));
    QStringList names;
    for (const ReportPtr &r : session->reports())
        names << QFileInfo(r->filePath).fileName();
    setWindowTitle(QStringLiteral("Rankscope - %1").arg(names.size() > 3 ? tr("%n files", nullptr, int(names.size())) : names.join(QStringLiteral(", "))));
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
    if (!paths.isEmpty())
        open(paths);
}

void MainWindow::showShortcuts()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard Shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(shortcutTableHtml());
    box.exec();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Rankscope"),
                       tr("<h3>Rankscope %1</h3><p>Timeline viewer for multi-rank GPU training traces.</p>"
                          "<p>Qt %2, SQLite %3.<br>Reads Nsight Systems SQLite exports (schema 2.9 to 3.28) and PyTorch profiler (Kineto) JSON traces.</p>")
                           .arg(QStringLiteral(RANKSCOPE_VERSION), QString::fromLatin1(qVersion()), QString::fromLatin1(sqlite3_libversion())));
}

} // namespace rankscope
