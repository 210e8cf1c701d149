#pragma once
// Loads a session on a worker thread. Progress and the result come back to
// the GUI thread through queued signals; cancel() stops the loaders at
// their next check and the result is dropped, so the session on screen
// stays as it was.
//
// With summariesFirst, index caches this user has not opened before (a
// team's shared folder, say) are opened with their summaries only for the
// first frame (Report::summariesOnly: collapsed ranks, no events), which
// reads a few MiB of each instead of all of it; the job then opens them
// whole, checking every byte, and hands that session over too.
#include "session/session.h"

#include "jobs/latestjob.h"

#include <QObject>
#include <atomic>
#include <memory>

namespace rankscope {

class SessionLoadJob : public QObject {
    Q_OBJECT
public:
    explicit SessionLoadJob(QObject *parent = nullptr);
    ~SessionLoadJob() override;

    void start(const QStringList &paths, bool summariesFirst = false);
    void cancel();
    bool isRunning() const { return m_job.isRunning(); }
    // Blocks until the current load ends (for tests and screenshots).
    void waitForFinished();

signals:
    void progress(int percent);
    // The session to show; it may have ranks opened with their summaries
    // only, and then wholeLoaded() follows.
    void loaded(std::shared_ptr<const rankscope::Session> session);
    // After loaded() with summaries-only ranks: opening them whole.
    void wholeProgress(int percent);
    // The same ranks, every one whole.
    void wholeLoaded(std::shared_ptr<const rankscope::Session> session);
    void cancelled();

private:
    struct Outcome {
        std::shared_ptr<Session> session;
        bool whole = false; // the second session, after one with summaries only
    };
    void deliver(Outcome outcome);

    LatestJob<Outcome> m_job{this};
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace rankscope
