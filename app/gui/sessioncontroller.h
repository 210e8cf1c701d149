#pragma once
// The session the window shows, and the ways of showing it: as recorded,
// with its ranks aligned on collectives, as two runs (A and B) moved onto
// each other or with their steps stretched over each other. It owns the
// recorded session and the actions that change how it is shown; the
// timeline gets each session to show, and shown() tells the rest of the
// window (the docks, the title) once.
#include "analysis/analysisworkspaces.h"
#include "jobs/latestjob.h"
#include "session/session.h"
#include "stats/comparison/runalignment.h"

#include <QObject>

#include <memory>

class QAction;

namespace rankscope {

class TimelineView;

class SessionController : public QObject {
    Q_OBJECT
public:
    SessionController(TimelineView *timeline, std::shared_ptr<const AnalysisWorkspaces> analysis, QObject *parent);

    // As loaded: the ranks on their recorded start times (a comparison's
    // runs where they were last moved to).
    const std::shared_ptr<const Session> &recorded() const { return m_recorded; }
    // A new session, shown as recorded.
    void setSession(std::shared_ptr<const Session> session);
    // The same session with its summaries-only ranks now whole
    // (SessionLoadJob::wholeLoaded): the view stays where the user left it.
    void replaceWithWhole(std::shared_ptr<const Session> whole);

    // Run B loaded: shown beside run A (what is open; in a comparison, its
    // run A), aligned on the best anchor.
    void showComparison(const Session &runB);
    // Ranks a and b of the session (indices into its ranks) as runs A and B.
    bool compareRanks(int a, int b);
    // Moves run B so its anchor lies on run A's, or so the selected event
    // lies on its counterpart in the other run. Returns what happened, as
    // the status bar says it (empty: nothing done).
    QString alignRuns(stats::RunAnchor anchor);
    QString alignRunsOnSelectedEvent();
    // Step k of B drawn over step k of A (the drawing only).
    QString stretchSteps(bool stretch);
    // Each rank moved by the clock offset that lines up the ends of its
    // collectives (matched on a worker; message() says what happened when
    // they are), or as recorded.
    void alignOnCollectives(bool align);

    // The analysis workspace of `session`: the shown one when it is that
    // session's (the statistics dock's), else one of its own.
    WorkspacePtr workspaceOf(const std::shared_ptr<const Session> &session) const;

    // View > Align Ranks on Collectives (checkable).
    QAction *alignOnCollectivesAction() const { return m_alignAction; }
    // View > Align Runs: on first steps, on first events, on the selected
    // event, and stretch (checkable); enabled for a comparison.
    QList<QAction *> alignRunsActions() const { return m_runsActions; }

signals:
    // `session` is on the timeline now; `sameRows`: the same session made
    // whole, its rows and view kept.
    void shown(const std::shared_ptr<const Session> &session, bool sameRows);
    void message(const QString &text, int timeoutMs = 15000);

private:
    void createActions();
    void show(std::shared_ptr<const Session> session, bool keepView);
    void compare(std::shared_ptr<const Session> both);
    // Moves run B by delta in the recorded and the shown session.
    void moveRunB(TimeNs delta);
    void setChecked(QAction *action, bool checked);

    TimelineView *m_timeline;
    std::shared_ptr<const AnalysisWorkspaces> m_analysis;
    std::shared_ptr<const Session> m_recorded;
    // Ranks aligned on collectives: the session to show (null: nothing to
    // move) and what the alignment said.
    struct AlignedSession {
        std::shared_ptr<const Session> session;
        QString note;
    };
    LatestJob<AlignedSession> m_alignJob{this};
    QAction *m_alignAction = nullptr;
    QAction *m_stretchAction = nullptr;
    QList<QAction *> m_runsActions;
};

} // namespace rankscope
