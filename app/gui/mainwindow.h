#pragma once
// The main window: the timeline in the centre, details and diagnostics
// docks, the search bar, menus, and opening files (arguments, File > Open,
// Open Recent, drag and drop) through a background load with progress.
#include "analysis/analysisworkspace.h"
#include "jobs/latestjob.h"
#include "session/session.h"
#include "stats/runalignment.h"
#include "timeline/timelineview.h"

#include <QMainWindow>
#include <memory>

class QAction;
class QDockWidget;
class QMenu;
class QProgressDialog;

namespace rankscope {

class CollectiveLookup;

class DetailsPanel;
class DiagnosticsPanel;
class EventsPanel;
class SearchBar;
class SessionLoadJob;
class StatsDock;
class TimelineView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads in the background; the current session stays until the new
    // one is ready. With `wait`, returns when loading has ended.
    void open(const QStringList &paths, bool wait = false);
    // Opens as open() does and waits until the first session is shown: with
    // the index caches not checked before opened from their summaries
    // (their check goes on). For a screenshot of the first frame.
    void openToFirstFrame(const QStringList &paths);
    // File > Compare With...: loads `paths` as run B beside the session
    // open now (run A; in a comparison, its run A), aligned on the first
    // step when both have steps, else on their first events. With nothing
    // open yet, B waits for the next open() to finish.
    void compareWith(const QStringList &paths, bool wait = false);
    // View > Align Runs: moves run B so its anchor lies on run A's, or so
    // the selected event lies on its counterpart in the other run. Returns
    // what happened, as the status bar says it.
    QString alignRuns(stats::RunAnchor anchor);
    QString alignRunsOnSelectedEvent();
    // File > Compare Two Ranks: ranks a and b of the session (indices into
    // its ranks) as runs A and B, aligned like two runs.
    bool compareRanks(int a, int b);
    // View > Align Runs > Stretch Steps Over Each Other: step k of B drawn
    // over step k of A (the drawing only). Returns the status bar's words.
    QString stretchSteps(bool stretch);
    void setSession(std::shared_ptr<const Session> session);
    // View > Align Ranks on Collectives: the session with each rank moved by
    // the clock offset that lines up the ends of its collectives (matched on
    // a worker; the status bar says what happened when they are), or as
    // recorded.
    void alignOnCollectives(bool align);

    TimelineView *timeline() const { return m_timeline; }
    DetailsPanel *details() const { return m_details; }
    SearchBar *searchBar() const { return m_search; }
    DiagnosticsPanel *diagnostics() const { return m_diagnostics; }
    EventsPanel *events() const { return m_events; }
    SessionLoadJob *loadJob() const { return m_job; }
    StatsDock *stats() const { return m_stats; }
    // Shows the statistics dock on one panel ("memcpy", "gaps", ...).
    bool showStatsPanel(const QString &name);
    // File > Export, without the dialogs. Each returns false and says why
    // in the status bar when the file cannot be written.
    bool exportTimelineTo(const QString &path, TimelineView::ExportScope scope = TimelineView::ExportScope::View); // .png or .svg
    QStringList exportStatistics(const QString &directory);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void chooseRanksToCompare();
    void startLoad(const QStringList &paths, bool wait, bool runB);
    void showSession(std::shared_ptr<const Session> session); // the widgets, not m_recorded
    void showInDocks(const std::shared_ptr<const Session> &session);
    // The session shown with its summaries-only ranks now whole
    // (SessionLoadJob::wholeLoaded): the view stays where the user left it.
    void showWholeSession(std::shared_ptr<const Session> whole);
    // Shows `shown` (the recorded session or one aligned on collectives) where the user was looking, and says `message`.
    void showAligned(std::shared_ptr<const Session> shown, const QString &message);
    // Run B loaded: shown beside run A, aligned on the best anchor.
    void showComparison(std::shared_ptr<const Session> runB);
    // Moves run B by delta in the recorded and the shown session.
    void moveRunB(TimeNs delta);
    void enableComparisonActions();
    void rebuildRecentMenu();
    void showShortcuts();
    void chooseMemoryBudget();
    void showAbout();
    void exportTimeline(const QString &format, TimelineView::ExportScope scope);
    // Window geometry, dock layout and hidden rows, in QSettings.
    void restoreLayout();
    void saveLayout() const;
    void applyHiddenRows();
    // Lists a timeline row's events in the Events dock (and shows the dock).
    void showRowEvents(int row);
    // The selected kernel's collective, in the Details dock and across the
    // ranks; matched first (on a worker) if it is not yet.
    void showCollectiveOf(const std::optional<EventLocation> &event);
    void rememberHiddenRows();

    TimelineView *m_timeline;
    DetailsPanel *m_details;
    DiagnosticsPanel *m_diagnostics;
    EventsPanel *m_events;
    SearchBar *m_search;
    SessionLoadJob *m_job;
    StatsDock *m_stats;
    QDockWidget *m_statsDock = nullptr;
    QProgressDialog *m_progress = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_exportMenu = nullptr;
    QStringList m_loading;
    std::unique_ptr<CollectiveLookup> m_collectives;
    std::shared_ptr<const Session> m_recorded; // as loaded: aligned on recorded starts
    // Ranks aligned on collectives: the session to show (null: nothing to
    // move) and what the alignment said.
    struct AlignedSession {
        std::shared_ptr<const Session> session;
        QString note;
    };
    LatestJob<AlignedSession> m_alignJob{this};
    // The analysis workspace of `session`: the statistics dock's when it
    // shows that session, else one of its own.
    WorkspacePtr workspaceOf(const std::shared_ptr<const Session> &session) const;
    QAction *m_alignAction = nullptr;
    QMenu *m_alignRunsMenu = nullptr;
    QAction *m_stretchAction = nullptr;
    QAction *m_compareRanksAction = nullptr;
    // Where the load under way goes: a session of its own, or run B.
    bool m_loadingRunB = false;
    QStringList m_queuedRunB; // compareWith() before anything was open
};

} // namespace rankscope
