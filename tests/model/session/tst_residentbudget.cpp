// The memory budget of the ranks' mapped caches: the least recently used
// ranks give their pages back once the used ones exceed the budget, the one
// in use never does, and after a pass over every rank all but the recently
// used are released. Then the real thing: a released cache's pages leave
// this process's resident memory and its events read the same after.
#include "core/memoryusage.h"
#include "load/cache/indexcache.h"
#include "session/residentbudget.h"
#include "session/session.h"
#include "stats/nsys/nsysreports.h"
#include "testdata.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// A mapped cache of `size` bytes that counts its releases.
struct CountingPages final : MappedPages {
    explicit CountingPages(std::uint64_t size) : size(size) { }
    std::uint64_t size;
    mutable int released = 0;
    std::uint64_t bytes() const override { return size; }
    void release() const override { ++released; }
};

ReportPtr cachedReport(std::uint64_t bytes, std::shared_ptr<const CountingPages> *pages)
{
    auto report = std::make_shared<Report>();
    auto counting = std::make_shared<CountingPages>(bytes);
    report->indexCache = counting;
    *pages = counting;
    return report;
}

} // namespace

class TestResidentBudget : public QObject {
    Q_OBJECT

private slots:
    void theLeastRecentlyUsedRanksAreReleasedFirst()
    {
        ResidentBudget budget(250);
        std::shared_ptr<const CountingPages> a, b, c;
        const ReportPtr ra = cachedReport(100, &a), rb = cachedReport(100, &b), rc = cachedReport(100, &c);
        budget.use(*ra);
        budget.use(*rb);
        budget.use(*ra); // a is now the more recent
        QCOMPARE(budget.usedBytes(), std::uint64_t(200));
        QCOMPARE(a->released + b->released, 0);
        budget.use(*rc); // 300 > 250: b, the least recently used, goes
        QCOMPARE(b->released, 1);
        QCOMPARE(a->released + c->released, 0);
        QCOMPARE(budget.usedBytes(), std::uint64_t(200));
        budget.use(*rb); // b again: now a is the oldest
        QCOMPARE(a->released, 1);
        QCOMPARE(budget.releases(), std::size_t(2));
    }

    void theRankInUseIsKeptEvenAboveTheBudget()
    {
        ResidentBudget budget(50);
        std::shared_ptr<const CountingPages> big, other;
        const ReportPtr rBig = cachedReport(100, &big), rOther = cachedReport(10, &other);
        budget.use(*rBig);
        QCOMPARE(big->released, 0);
        budget.use(*rOther); // big is older and over budget: released
        QCOMPARE(big->released, 1);
        QCOMPARE(other->released, 0);
        budget.setBytes(5); // smaller than the last one used, which is not in use now: released too
        QCOMPARE(other->released, 1);
        QCOMPARE(budget.usedBytes(), std::uint64_t(0));
    }

    void parsedReportsAreNotCounted()
    {
        ResidentBudget budget(1);
        const Report parsed;
        budget.use(parsed);
        QCOMPARE(budget.usedBytes(), std::uint64_t(0));
        QCOMPARE(budget.releases(), std::size_t(0));
    }

    void afterAPassOverEveryRankOnlyTheRecentlyUsedStay()
    {
        ResidentBudget budget(1000);
        std::shared_ptr<const CountingPages> a, b, c;
        const Session session = Session::fromReports({cachedReport(100, &a), cachedReport(100, &b), cachedReport(100, &c)});
        budget.use(*session.reports()[1]);
        budget.releaseUnused(session);
        QCOMPARE(a->released, 1);
        QCOMPARE(b->released, 0);
        QCOMPARE(c->released, 1);
    }

    // A summary over every rank gives each rank's pages back once it has
    // read it, not at the end (it would hold all ranks' pages at once),
    // except a rank the timeline is using.
    void aSummaryGivesBackEachRankOnceRead()
    {
        std::shared_ptr<const CountingPages> a, b, c;
        const Session session = Session::fromReports({cachedReport(100, &a), cachedReport(100, &b), cachedReport(100, &c)});
        ResidentBudget::process().use(*session.reports()[1]);
        const ResultTable table = stats::cudaGpuKernSum(stats::slicesOf(session, {}));
        QCOMPARE(table.rowCount(), std::size_t(0));
        QCOMPARE(a->released, 1);
        QCOMPARE(b->released, 0);
        QCOMPARE(c->released, 1);
    }

    // A pass that reads a little of every rank at scattered places (a
    // step's critical path) gives each rank back even when the timeline
    // used it lately: doneReading keeps it, release does not.
    void releaseGivesBackEvenARankInUse()
    {
        ResidentBudget budget(1000);
        std::shared_ptr<const CountingPages> a;
        const ReportPtr report = cachedReport(100, &a);
        budget.use(*report);
        budget.doneReading(*report);
        QCOMPARE(a->released, 0);
        budget.release(*report);
        QCOMPARE(a->released, 1);
        QCOMPARE(budget.releases(), std::size_t(1));
        budget.release(*std::make_shared<Report>()); // parsed from its trace: nothing mapped
        QCOMPARE(budget.releases(), std::size_t(1));
    }

    // A real cache: reading every event brings its pages in; releasing gives
    // them back to the page cache; the events read the same afterwards.
    void releasedPagesLeaveResidentMemoryAndReadBackTheSame()
    {
        QTemporaryDir dir;
        LoadControl control;
        control.indexCacheDirectory = dir.path();
        const QString trace = slowFixture();
        QVERIFY(Session::load({trace}, control).failures().empty()); // writes the cache
        const Session session = Session::load({trace}, control);
        QCOMPARE(session.reports().size(), std::size_t(1));
        const Report &report = *session.reports().front();
        QVERIFY(report.indexCache);
        const auto sumOfEvents = [&report] {
            std::int64_t sum = 0;
            for (const Track &t : report.tracks)
                for (std::size_t i = 0; i < t.slices.size(); ++i)
                    sum += t.slices.end(i) - t.slices.start(i) + t.slices.name(i);
            return sum;
        };
        const std::uint64_t before = residentBytes();
        const std::int64_t sum = sumOfEvents();
        const std::uint64_t read = residentBytes();
        QVERIFY2(read > before + report.indexCacheBytes() / 4,
                 qPrintable(QStringLiteral("%1 -> %2 of a %3-byte cache").arg(before).arg(read).arg(report.indexCacheBytes())));
        ResidentBudget budget(0);
        budget.releaseUnused(session);
        QCOMPARE(budget.releases(), std::size_t(1));
        const std::uint64_t released = residentBytes();
        QVERIFY2(released + report.indexCacheBytes() / 4 < read, qPrintable(QStringLiteral("%1 -> %2").arg(read).arg(released)));
        QCOMPARE(sumOfEvents(), sum);
    }
};

QTEST_GUILESS_MAIN(TestResidentBudget)
#include "tst_residentbudget.moc"
