// A job's rank passes (core/cancellation.h): they give up when the job is
// replaced, and say which rank they read, of how many, to whoever shows
// the job's progress; on the command line (no scope) they do neither.
#include "core/cancellation.h"
#include "session/session.h"
#include "stats/diagnosis/gapanalysis.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

class TestCancellation : public QObject {
    Q_OBJECT

private slots:
    void aPassRecordsWhereItIs()
    {
        JobProgress progress;
        {
            const ProgressScope scope(&progress);
            RankPass pass(3);
            pass.next();
            QCOMPARE(progress.rank.load(), 1u);
            QCOMPARE(progress.ranks.load(), 3u);
            pass.next();
            pass.next();
            QCOMPARE(progress.rank.load(), 3u);
            RankPass second(5); // a computation's next pass starts again
            second.next();
            QCOMPARE(progress.rank.load(), 1u);
            QCOMPARE(progress.ranks.load(), 5u);
        }
        RankPass outside(2); // no scope any more: nothing recorded
        outside.next();
        QCOMPARE(progress.ranks.load(), 5u);
    }

    void aReplacedJobGivesUpAtItsNextRank()
    {
        bool replaced = false;
        const CancellationScope scope([&] { return replaced; });
        RankPass pass(4);
        pass.next();
        replaced = true;
        QVERIFY_THROWS_EXCEPTION(OperationCancelled, pass.next());
    }

    void statisticsReportEveryRank()
    {
        const Session session = Session::load({ddpFixture(0), ddpFixture(1), ddpFixture(2), ddpFixture(3)});
        JobProgress progress;
        const ProgressScope scope(&progress);
        QVERIFY(!stats::gapHistogram(session, {}).empty());
        QCOMPARE(progress.ranks.load(), 4u);
        QCOMPARE(progress.rank.load(), 4u);
    }
};

QTEST_GUILESS_MAIN(TestCancellation)
#include "tst_cancellation.moc"
