#include "sessionloadjob.h"

#include "load/cache/indexcache.h"

namespace rankscope {

SessionLoadJob::SessionLoadJob(QObject *parent) : QObject(parent) { }

SessionLoadJob::~SessionLoadJob()
{
    cancel();
    m_job.waitForFinished(); // its progress calls post to this object
}

void SessionLoadJob::deliver(Outcome outcome)
{
    if (!outcome.session || outcome.session->wasCancelled())
        emit cancelled();
    else if (outcome.whole)
        emit wholeLoaded(std::move(outcome.session));
    else
        emit loaded(std::move(outcome.session));
}

void SessionLoadJob::start(const QStringList &paths, bool summariesFirst)
{
    // The load before this one stops at its next check; nobody waits for
    // it (the window stays responsive), and its result is dropped.
    cancel();
    // Each job has its own flag: a late progress call from an old job can
    // never touch a new one.
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto flag = m_cancel;
    QPointer<SessionLoadJob> self(this);
    m_job.start(
        [paths, flag, self, summariesFirst](const JobToken &) {
            LoadControl control;
            control.cancel = flag.get();
            control.indexCacheDirectory = defaultIndexCacheDirectory();
            control.checkedCachesDirectory = defaultCheckedCachesDirectory();
            control.privateIndexCacheDirectory = defaultPrivateIndexCacheDirectory();
            control.trustedCacheWriters = defaultTrustedCacheWriters();
            control.summariesOfUncheckedCaches = summariesFirst;
            // Progress of the first session, then of the whole one.
            const auto reportTo = [self, flag](void (SessionLoadJob::*signal)(int)) {
                auto lastPercent = std::make_shared<std::atomic<int>>(-1);
                return [self, flag, signal, lastPercent](double fraction) {
                    const int percent = int(fraction * 100.0);
                    if (flag->load() || lastPercent->exchange(percent) == percent || !self) // a replaced job posts nothing
                        return;
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, flag, signal, percent] {
                            if (self && !flag->load())
                                emit(self->*signal)(percent);
                        },
                        Qt::QueuedConnection);
                };
            };
            control.progress = reportTo(&SessionLoadJob::progress);
            auto session = std::make_shared<Session>(Session::load(paths, control));
            if (!session->hasSummariesOnlyRanks() || session->wasCancelled() || !self)
                return Outcome{std::move(session), false};
            std::shared_ptr<const Session> first = session;
            QMetaObject::invokeMethod(
                self.data(),
                [self, flag, first] {
                    if (self && !flag->load())
                        emit self->loaded(first);
                },
                Qt::QueuedConnection);
            control.progress = reportTo(&SessionLoadJob::wholeProgress);
            return Outcome{std::make_shared<Session>(first->withWholeReports(control)), true};
        },
        [this](Outcome outcome) { deliver(std::move(outcome)); });
}

void SessionLoadJob::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void SessionLoadJob::waitForFinished()
{
    m_job.waitForFinished();
}

} // namespace rankscope
