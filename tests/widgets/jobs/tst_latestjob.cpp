// LatestJob: the newest request's result alone is delivered; a request
// replaced while still queued never runs, one replaced while running is
// told so; start() never waits for the request it replaces.
#include "jobs/latestjob.h"

#include <QSemaphore>
#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include <atomic>

using namespace rankscope;

class TestLatestJob : public QObject {
    Q_OBJECT

private slots:
    void init() { QThreadPool::globalInstance()->setMaxThreadCount(2); }
    void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

    void onlyTheNewestResultIsDelivered()
    {
        QObject owner;
        LatestJob<int> job(&owner);
        QSemaphore firstStarted, releaseFirst;
        std::atomic<bool> firstSawCancel{false};
        QList<int> delivered;
        job.start(
            [&](const JobToken &token) {
                firstStarted.release();
                releaseFirst.acquire();
                firstSawCancel = token.isCancelled();
                return 1;
            },
            [&](int v) { delivered << v; });
        firstStarted.acquire();
        // Replaced while it runs: start() returns without waiting for it
        // (it is blocked until released below: a wait would never end).
        job.start([](const JobToken &) { return 2; }, [&](int v) { delivered << v; });
        releaseFirst.release();
        QTRY_VERIFY(!job.isRunning());
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QCOMPARE(delivered, QList<int>{2});
        QVERIFY(firstSawCancel);
    }

    void aReplacedRequestStillQueuedNeverRuns()
    {
        QThreadPool::globalInstance()->setMaxThreadCount(1);
        QObject owner;
        // The pool's only thread is busy: the requests below wait in its queue.
        QSemaphore blockerStarted, releaseBlocker;
        LatestJob<int> blocker(&owner);
        blocker.start(
            [&](const JobToken &) {
                blockerStarted.release();
                releaseBlocker.acquire();
                return 0;
            },
            [](int) {});
        blockerStarted.acquire();
        LatestJob<int> job(&owner);
        std::atomic<int> ran{0};
        int delivered = -1;
        for (int i = 1; i <= 5; ++i)
            job.start(
                [&ran, i](const JobToken &) {
                    ++ran;
                    return i;
                },
                [&](int v) { delivered = v; });
        releaseBlocker.release();
        QTRY_COMPARE(delivered, 5);
        QThreadPool::globalInstance()->waitForDone();
        QCOMPARE(ran.load(), 1); // the four replaced requests never ran
    }

    // The model's loops ask core/cancellation.h: a replaced job running one
    // stops at its next check instead of running to its end.
    void aReplacedRunningJobStopsAtItsNextCheck()
    {
        QObject owner;
        LatestJob<int> job(&owner);
        QSemaphore started;
        std::atomic<bool> ranToTheEnd{false};
        job.start(
            [&](const JobToken &) {
                started.release();
                for (int i = 0; i < 600; ++i) { // 60 s unless stopped
                    throwIfCancelled();
                    QThread::msleep(100);
                }
                ranToTheEnd = true;
                return 1;
            },
            [](int) {});
        started.acquire();
        int delivered = 0;
        job.start([](const JobToken &) { return 2; }, [&](int v) { delivered = v; });
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10000)); // stopped within a check, not after 60 s
        QVERIFY(!ranToTheEnd);
        QTRY_COMPARE(delivered, 2);
    }

    // Parts in order, then done; a replaced stream hands on nothing more.
    void aStreamHandsItsPartsOnInOrder()
    {
        QObject owner;
        LatestJob<int> job(&owner);
        QList<int> parts;
        bool done = false;
        job.startStreaming(
            [](const JobToken &, const auto &post) {
                for (int i = 0; i < 100; ++i)
                    post(i);
            },
            [&](int part) { parts << part; }, [&] { done = true; });
        QTRY_VERIFY(done);
        QCOMPARE(parts.size(), 100);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(parts[i], i);
        // Replaced half way: its later parts and its end never arrive.
        QSemaphore halfway, goOn;
        QList<int> first, second;
        bool firstDone = false, secondDone = false;
        job.startStreaming(
            [&](const JobToken &, const auto &post) {
                post(1);
                halfway.release();
                goOn.acquire();
                post(2);
            },
            [&](int part) { first << part; }, [&] { firstDone = true; });
        halfway.acquire();
        job.startStreaming([](const JobToken &, const auto &post) { post(7); }, [&](int part) { second << part; }, [&] { secondDone = true; });
        goOn.release();
        QTRY_VERIFY(secondDone);
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QVERIFY(!first.contains(2));
        QVERIFY(!firstDone);
        QCOMPARE(second, QList<int>{7});
    }

    void progressAndCancelReachTheOwner()
    {
        QObject owner;
        LatestJob<int> job(&owner);
        QList<int> progress;
        bool delivered = false;
        job.start(
            [](const JobToken &token) {
                for (int p : {25, 50, 100})
                    token.setProgress(p);
                return 7;
            },
            [&](int) { delivered = true; }, [&](int p) { progress << p; });
        QTRY_VERIFY(delivered);
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last(), 100);
        // Cancelled: nothing is delivered.
        delivered = false;
        job.start([](const JobToken &) { return 8; }, [&](int) { delivered = true; });
        job.cancel();
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
        QVERIFY(!job.isRunning());
    }
};

QTEST_GUILESS_MAIN(TestLatestJob)
#include "tst_latestjob.moc"
