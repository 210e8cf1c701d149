#pragma once
// "The newest request wins" for work off the GUI thread, on Qt's futures,
// one helper instead of a generation counter per widget. start() cancels
// the request before it without waiting: a request still queued in the
// thread pool never runs (QtConcurrent checks the promise before it starts
// the work), one already running sees JobToken::isCancelled() and its
// result is dropped. Only the newest request's result reaches deliver(),
// on the owner's thread; progress the work reports reaches progress().
#include "core/cancellation.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <utility>

namespace rankscope {

// What the work can ask and tell while it runs.
class JobToken {
public:
    JobToken(std::function<bool()> isCancelled, std::function<void(int)> progress)
        : m_isCancelled(std::move(isCancelled)), m_progress(std::move(progress))
    {
    }
    // A newer request replaced this one: stop, the result is dropped.
    bool isCancelled() const { return m_isCancelled(); }
    void setProgress(int percent) const { m_progress(percent); }

private:
    std::function<bool()> m_isCancelled;
    std::function<void(int)> m_progress;
};

// Runs compute(token) on the global thread pool unless cancelled before it
// starts; its future carries progress 0-100. Once cancelled, the model's
// statistics on this thread give up before their next rank
// (core/cancellation.h): the future then holds no result.
template <class Result, class Compute>
QFuture<Result> runCancellable(Compute compute)
{
    return QtConcurrent::run([compute = std::move(compute)](QPromise<Result> &promise) mutable {
        promise.setProgressRange(0, 100);
        const JobToken token([&promise] { return promise.isCanceled(); }, [&promise](int percent) { promise.setProgressValue(percent); });
        try {
            const CancellationScope scope([&promise] { return promise.isCanceled(); });
            Result result = compute(token);
            if (!promise.isCanceled())
                promise.addResult(std::move(result));
        } catch (const OperationCancelled &) {
            // replaced: no result
        }
    });
}

template <class Result>
class LatestJob {
public:
    // Results are delivered in `owner`'s thread while it lives. `afterEach`
    // runs there each time a request's work ends, the newest or one it
    // replaced, after any delivery (e.g. to give back what the work freed).
    explicit LatestJob(QObject *owner, std::function<void()> afterEach = {}) : m_owner(owner), m_afterEach(std::move(afterEach)) { }
    ~LatestJob() { cancel(); } // never waits: the work holds what it reads
    LatestJob(const LatestJob &) = delete;
    LatestJob &operator=(const LatestJob &) = delete;

    // Requests whose work has not ended yet, replaced ones included.
    int unfinished() const { return m_unfinished; }

    template <class Compute, class Deliver>
    void start(Compute compute, Deliver deliver, std::function<void(int)> progress = {})
    {
        cancel();
        const quint64 generation = m_generation;
        auto *watcher = new QFutureWatcher<Result>(m_owner);
        ++m_unfinished;
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_owner, [this, watcher, generation, deliver = std::move(deliver)]() mutable {
            watcher->deleteLater();
            --m_unfinished;
            struct AfterEach {
                const std::function<void()> &hook;
                ~AfterEach()
                {
                    if (hook)
                        hook();
                }
            } after{m_afterEach};
            if (generation != m_generation)
                return; // superseded or cancelled
            m_running = false;
            QFuture<Result> future = watcher->future();
            if (!future.isCanceled() && future.resultCount() > 0)
                deliver(future.takeResult());
        });
        if (progress)
            QObject::connect(watcher, &QFutureWatcherBase::progressValueChanged, m_owner, [this, generation, progress](int percent) {
                if (generation == m_generation)
                    progress(percent);
            });
        m_future = runCancellable<Result>(std::move(compute));
        watcher->setFuture(m_future);
        m_running = true;
    }
    // The same for work that hands its results on in parts as it finds
    // them (a search's matches): compute(token, post) calls post(part) for
    // each; onPart(part) follows for each on the owner's thread, in order,
    // then onDone() once all are handed on. A replaced request's parts stop.
    template <class Compute, class OnPart, class OnDone>
    void startStreaming(Compute compute, OnPart onPart, OnDone onDone)
    {
        cancel();
        const quint64 generation = m_generation;
        auto *watcher = new QFutureWatcher<Result>(m_owner);
        QObject::connect(watcher, &QFutureWatcherBase::resultsReadyAt, m_owner, [this, watcher, generation, onPart](int begin, int end) {
            if (generation != m_generation)
                return;
            const QFuture<Result> future = watcher->future();
            for (int i = begin; i < end; ++i)
                onPart(future.resultAt(i));
        });
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_owner, [this, watcher, generation, onDone]() mutable {
            watcher->deleteLater();
            if (generation != m_generation)
                return;
            m_running = false;
            onDone();
        });
        m_future = QtConcurrent::run([compute = std::move(compute)](QPromise<Result> &promise) mutable {
            const JobToken token([&promise] { return promise.isCanceled(); }, [&promise](int percent) { promise.setProgressValue(percent); });
            try {
                const CancellationScope scope([&promise] { return promise.isCanceled(); });
                compute(token, [&promise](Result part) {
                    if (!promise.isCanceled())
                        promise.addResult(std::move(part));
                });
            } catch (const OperationCancelled &) {
                // replaced: no more parts
            }
        });
        watcher->setFuture(m_future);
        m_running = true;
    }

    // Drops the current request (its result never comes); does not wait.
    void cancel()
    {
        if (m_future.isValid())
            m_future.cancel();
        ++m_generation;
        m_running = false;
    }
    bool isRunning() const { return m_running; }
    // Blocks until the current request ends (tests, screenshots).
    void waitForFinished()
    {
        if (m_future.isValid())
            m_future.waitForFinished();
    }

private:
    QObject *m_owner;
    std::function<void()> m_afterEach;
    int m_unfinished = 0;
    QFuture<Result> m_future;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace rankscope
