#pragma once
// The main window: the timeline in the centre, details and diagnostics
// docks, the search bar, menus, and opening files (arguments, File > Open,
// Open Recent, drag and drop) through a background load with progress.
#include "analysis/analysisworkspaces.h"
#include "colorscheme.h"
#include "session/session.h"
#include "timeline/timelineactions.h"
#include "timeline/timelineview.h"
#include "traceopener.h"

#include <QMainWindow>
#include <memory>

class QAction;
class QDockWidget;
class QMenu;
class QTimer;

namespace rankscope {

class DetailsPanel;
class DiagnosticsPanel;
class EventsPanel;
class SearchBar;
class SelectionPanel;
class SessionController;
class SessionLoadJob;
class StatsDock;
class TimelineView;
class ViewLinks;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads in the background (traceopener.h); the current session stays
    // until the new one is ready. With `wait`, returns when loading has ended.
    void open(const QStringList &paths, bool wait = false) { m_opener->open(paths, wait); }
    void openToFirstFrame(const QStringList &paths) { m_opener->openToFirstFrame(paths); }
    // File > Compare With...: `paths` as run B beside the session open now
    // (run A), aligned on the first step when both have steps, else on
    // their first events.
    void compareWith(const QStringList &paths, bool wait = false) { m_opener->compareWith(paths, wait); }
    // How the session is shown: as recorded, aligned on collectives, as two
    // runs moved or stretched onto each other (File > Compare Two Ranks,
    // View > Align...).
    SessionController *session() const { return m_session; }
    TimelineView *timeline() const { return m_timeline; }
    DetailsPanel *details() const { return m_details; }
    SearchBar *searchBar() const { return m_search; }
    DiagnosticsPanel *diagnostics() const { return m_diagnostics; }
    EventsPanel *events() const { return m_events; }
    SelectionPanel *selection() const { return m_selection; }
    SessionLoadJob *loadJob() const { return m_opener->job(); }
    StatsDock *stats() const { return m_stats; }
    // Shows the statistics dock on one panel ("memcpy", "gaps", ...).
    bool showStatsPanel(const QString &name);
    // File > Export, without the dialogs. Each returns false and says why
    // in the status bar when the file cannot be written.
    bool exportTimelineTo(const QString &path, TimelineView::ExportScope scope = TimelineView::ExportScope::View); // .png or .svg
    QStringList exportStatistics(const QString &directory);
    // Every shortcut of the window: the timeline's, then the menus' (Help >
    // Keyboard Shortcuts and the README's table).
    QList<TimelineActions::HelpRow> shortcutRows() const;
    QString shortcutsMarkdown() const;
    // View > Theme, remembered between runs.
    void setColorScheme(ColorScheme scheme);
    // Where File > Export's dialogs start, and File > Open's.
    QString exportDirectory() const;
    QString openFolder() const;

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void moveEvent(QMoveEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void chooseRanksToCompare();
    // Shows the Diagnostics dock and says so when files failed.
    void showFailures(const Session &session);
    // A session on the timeline: the docks, the hidden rows, the title.
    void showShown(const std::shared_ptr<const Session> &session, bool sameRows);
    void showInDocks(const std::shared_ptr<const Session> &session);
    void rebuildRecentMenu();
    void createThemeMenu(QMenu *view);
    void chooseMemoryBudget();
    void exportTimeline(const QString &format, TimelineView::ExportScope scope);
    // Window geometry, dock layout and hidden rows, in QSettings.
    void restoreLayout();
    void saveLayout() const;
    void applyHiddenRows();
    void rememberHiddenRows();
    // When a bottom dock opens or closes: the docks below the timeline
    // shrink (to their least) until they take no more than
    // 1 / belowShare of the window (2: the timeline keeps half).
    void keepHalfForTheTimeline(int belowShare);
    // The docks open below the timeline (tabbed or not, not floating).
    QList<QDockWidget *> docksBelow() const;

    TimelineView *m_timeline;
    DetailsPanel *m_details;
    DiagnosticsPanel *m_diagnostics;
    EventsPanel *m_events;
    SelectionPanel *m_selection;
    SearchBar *m_search;
    TraceOpener *m_opener;
    // The analysis of the shown session: its workspace, which the
    // statistics dock's panels, the overlays and the exports read.
    std::shared_ptr<AnalysisWorkspaces> m_analysis;
    StatsDock *m_stats;
    SessionController *m_session;
    ViewLinks *m_links = nullptr;
    QDockWidget *m_statsDock = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_exportMenu = nullptr;
    QAction *m_compareRanksAction = nullptr;
    QList<QAction *> m_themeActions;
    QList<QDockWidget *> m_shownBelow; // the bottom docks not hidden, when last looked at
    bool m_recentStale = false;        // the recent list changed while its menu was not rebuilt
    QTimer *m_saveLayoutTimer = nullptr;
};

} // namespace rankscope
