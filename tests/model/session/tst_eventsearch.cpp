// Finding events by name, checked against nsys' own instance counts.
#include "session/eventsearch.h"
#include "testdata.h"

#include <QtTest>
#include <set>

using namespace rankscope;
using namespace rankscope::test;

class TestEventSearch : public QObject {
    Q_OBJECT
    std::shared_ptr<Session> m_session;

private slots:
    void initTestCase() { m_session = std::make_shared<Session>(Session::load({slowFixture()})); }

    void counts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("regex");
        QTest::addColumn<int>("count");
        // nvtx_sum: data_loading has 8 instances, the steps one each.
        QTest::newRow("substring") << "data_loading" << false << 8;
        QTest::newRow("case-insensitive") << "DATA_LOADING" << false << 8;
        QTest::newRow("regex") << "^step [0-9]+$" << true << 8;
        // cuda_gpu_kern_sum: max_pool_backward_nchw, 8 instances.
        QTest::newRow("kernel") << "max_pool_backward_nchw" << false << 8;
        // osrt_sum: 73 poll calls.
        QTest::newRow("exact by regex") << "^poll$" << true << 73;
        QTest::newRow("invalid regex") << "([" << true << 0;
        QTest::newRow("nothing") << "no-such-event-name" << false << 0;
    }

    void counts()
    {
        QFETCH(QString, text);
        QFETCH(bool, regex);
        QFETCH(int, count);
        const auto hits = findEvents(*m_session, {text, regex, false});
        QCOMPARE(int(hits.size()), count);
        for (std::size_t i = 1; i < hits.size(); ++i)
            QVERIFY(m_session->sessionTime(hits[i - 1]).start <= m_session->sessionTime(hits[i]).start);
    }

    void aLimitKeepsTheEarliestInTime()
    {
        // Every OS runtime call and kernel whose name holds "a": thousands,
        // on many tracks of four ranks.
        const auto all = findEvents(*m_session, {QStringLiteral("a"), false, false});
        QVERIFY(all.size() > 2000);
        for (std::size_t i = 1; i < all.size(); ++i)
            QVERIFY(m_session->sessionTime(all[i - 1]).start <= m_session->sessionTime(all[i]).start);
        // A limit keeps the first matches in time, not the first tracks'.
        const std::size_t half = all.size() / 2;
        const auto first = findEvents(*m_session, {QStringLiteral("a"), false, false}, half);
        QCOMPARE(first.size(), half);
        QVERIFY(std::equal(first.begin(), first.end(), all.begin()));
        std::set<std::pair<int, std::uint32_t>> tracks;
        for (const EventLocation &e : first)
            tracks.insert({e.rank, e.track});
        QVERIFY(tracks.size() > 1); // the tracks interleave in time
    }

    void batchesArriveInOrderAndCancelStops()
    {
        const auto all = findEvents(*m_session, {QStringLiteral("a"), false, false});
        std::vector<EventLocation> batched;
        int batches = 0;
        findEvents(
            *m_session, {QStringLiteral("a"), false, false}, 1000000, nullptr,
            [&](std::vector<EventLocation> b) {
                batched.insert(batched.end(), b.begin(), b.end());
                ++batches;
            },
            500);
        QCOMPARE(batched, all);
        QVERIFY(batches > 1);
        const std::atomic<bool> cancel{true};
        const auto stopped = findEvents(*m_session, {QStringLiteral("a"), false, false}, 1000000, &cancel, {}, 500);
        QCOMPARE(stopped.size(), std::size_t(500));
    }
};

QTEST_GUILESS_MAIN(TestEventSearch)
#include "tst_eventsearch.moc"
