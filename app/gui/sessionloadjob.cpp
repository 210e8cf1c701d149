#include "sessionloadjob.h"

#include "load/cache/indexcache.h"

#include <QtConcurrent/QtConcurrentRun>

namespace rankscope {

SessionLoadJob::SessionLoadJob(QObject *parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<Session>>::finished, this, [this] {
        std::shared_ptr<Session> session = m_watcher.result();
        if (!session || session->wasCancelled())
            emit cancelled();
        else
            emit loaded(std::move(session));
    });
}

SessionLoadJob::~SessionLoadJob()
{
    cancel();
    m_watcher.waitForFinished();
}

void SessionLoadJob::start(const QStringList &paths)
{
    cancel();
    m_watcher.waitForFinished();
    // Each job has its own flag: a late progress call from an old job can
    // never touch a new one.
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto flag = m_cancel;
    QPointer<SessionLoadJob> self(this);
    m_watcher.setFuture(QtConcurrent::run([paths, flag, self] {
        LoadControl control;
        control.cancel = flag.get();
        control.indexCacheDirectory = defaultIndexCacheDirectory();
        control.checkedCachesDirectory = defaultCheckedCachesDirectory();
        auto lastPercent = std::make_shared<std::atomic<int>>(-1);
        control.progress = [self, lastPercent](double fraction) {
            const int percent = int(fraction * 100.0);
            if (lastPercent->exchange(percent) == percent || !self)
                return;
            QMetaObject::invokeMethod(self.data(), [self, percent] { if (self) emit self->progress(percent); }, Qt::QueuedConnection);
        };
        return std::make_shared<Session>(Session::load(paths, control));
    }));
}

void SessionLoadJob::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void SessionLoadJob::waitForFinished()
{
    m_watcher.waitForFinished();
}

} // namespace rankscope
