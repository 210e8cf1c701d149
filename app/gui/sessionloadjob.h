#pragma once
// Loads a session on a worker thread. Progress and the result come back to
// the GUI thread through queued signals; cancel() stops the loaders at
// their next check and the result is dropped, so the session on screen
// stays as it was.
#include "session/session.h"

#include <QFutureWatcher>
#include <QObject>
#include <atomic>
#include <memory>

namespace rankscope {

class SessionLoadJob : public QObject {
    Q_OBJECT
public:
    explicit SessionLoadJob(QObject *parent = nullptr);
    ~SessionLoadJob() override;

    void start(const QStringList &paths);
    void cancel();
    bool isRunning() const { return m_watcher.isRunning(); }
    // Blocks until the current load ends (for tests and screenshots).
    void waitForFinished();

signals:
    void progress(int percent);
    void loaded(std::shared_ptr<const rankscope::Session> session);
    void cancelled();

private:
    QFutureWatcher<std::shared_ptr<Session>> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace rankscope
