#pragma once
// Opening traces in the window: a load on a worker (SessionLoadJob) with a
// progress dialog the user can cancel, as a session of its own or as run B
// of a comparison (which waits for run A to be open). The session on
// screen stays until the new one is ready.
#include "session/session.h"

#include <QObject>
#include <QStringList>

#include <memory>

class QProgressDialog;
class QWidget;

namespace rankscope {

class SessionLoadJob;

class TraceOpener : public QObject {
    Q_OBJECT
public:
    explicit TraceOpener(QWidget *window); // the progress dialog's parent
    ~TraceOpener() override;

    // With `wait`, returns when loading has ended (no progress dialog).
    void open(const QStringList &paths, bool wait = false);
    // Opens as open() does and waits until the first session is handed
    // over: index caches not checked before opened from their summaries
    // (their check goes on). For a screenshot of the first frame.
    void openToFirstFrame(const QStringList &paths);
    // Loads `paths` as run B; with no run A open yet, or a load under way,
    // after it.
    void compareWith(const QStringList &paths, bool wait = false);
    SessionLoadJob *job() const { return m_job; }

signals:
    // A load gave a session with ranks: run A (or a session of its own), or run B.
    void loaded(const std::shared_ptr<const Session> &session, bool runB);
    // The same session with its summaries-only ranks now whole.
    void madeWhole(const std::shared_ptr<const Session> &whole);
    // Every file failed (`failed` has only failures).
    void nothingLoaded(const std::shared_ptr<const Session> &failed);
    void cancelled();

private:
    void start(const QStringList &paths, bool wait, bool runB);
    void startQueuedRunB();

    QWidget *m_window;
    SessionLoadJob *m_job;
    QProgressDialog *m_progress = nullptr;
    QStringList m_loading;      // the paths of the load under way
    QStringList m_runA;         // the paths of the last session loaded as run A
    bool m_hasRunA = false;     // a session with ranks was loaded
    bool m_loadingRunB = false; // where the load under way goes
    QStringList m_queuedRunB;   // compareWith() before anything was open
};

} // namespace rankscope
