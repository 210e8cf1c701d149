#include "sessionloadjob.h"

#include "load/cache/indexcache.h"

#include <QtConcurrent/QtConcurrentRun>

namespace rankscope {

SessionLoadJob::SessionLoadJob(QObject *parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        Outcome outcome = m_watcher.result();
        if (!outcome.session || outcome.session->wasCancelled())
            emit cancelled();
        else if (outcome.whole)
            emit wholeLoaded(std::move(outcome.session));
        else
            emit loaded(std::move(outcome.session));
    });
}

SessionLoadJob::~SessionLoadJob()
{
    cancel();
    m_watcher.waitForFinished();
}

void SessionLoadJob::start(const QStringList &paths, bool summariesFirst)
{
    cancel();
    m_watcher.waitForFinished();
    // Each job has its own flag: a late progress call from an old job can
    // never touch a new one.
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto flag = m_cancel;
    QPointer<SessionLoadJob> self(this);
    m_watcher.setFuture(QtConcurrent::run([paths, flag, self, summariesFirst] {
        LoadControl control;
        control.cancel = flag.get();
        control.indexCacheDirectory = defaultIndexCacheDirectory();
        control.checkedCachesDirectory = defaultCheckedCachesDirectory();
        control.summariesOfUncheckedCaches = summariesFirst;
        // Progress of the first session, then of the whole one.
        const auto reportTo = [self, flag](void (SessionLoadJob::*signal)(int)) {
            auto lastPercent = std::make_shared<std::atomic<int>>(-1);
            return [self, flag, signal, lastPercent](double fraction) {
                const int percent = int(fraction * 100.0);
                if (lastPercent->exchange(percent) == percent || !self)
                    return;
                QMetaObject::invokeMethod(self.data(), [self, flag, signal, percent] {
                    if (self && !flag->load())
                        emit(self->*signal)(percent);
                }, Qt::QueuedConnection);
            };
        };
        control.progress = reportTo(&SessionLoadJob::progress);
        auto session = std::make_shared<Session>(Session::load(paths, control));
        if (!session->hasSummariesOnlyRanks() || session->wasCancelled() || !self)
            return Outcome{std::move(session), false};
        std::shared_ptr<const Session> first = session;
        QMetaObject::invokeMethod(self.data(), [self, flag, first] {
            if (self && !flag->load())
                emit self->loaded(first);
        }, Qt::QueuedConnection);
        control.progress = reportTo(&SessionLoadJob::wholeProgress);
        return Outcome{std::make_shared<Session>(first->withWholeReports(control)), true};
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
