// Steps x ranks: rank 0's step durations are the ":step k" rows nsys'
// nvtx_sum printed for the demo's rank 0 (one instance each), a user's
// pattern picks other ranges (":forward", whose min and max nsys printed),
// and the spread per step is read from the durations.
#include "session/session.h"
#include "stats/ranks/stepmatrix.h"
#include "testdata.h"

#include <QtTest>
#include <map>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

// Range name (without the domain's ':') -> the nvtx_sum row's columns.
std::map<QString, QStringList> nvtxSumRows()
{
    std::map<QString, QStringList> rows;
    const QList<QStringList> csv = parseCsv(readText(referenceCsv(QStringLiteral("ddp4"), QStringLiteral("nvtx_sum"))));
    for (qsizetype i = 1; i < csv.size(); ++i)
        if (csv[i].size() >= 10)
            rows[csv[i][9].mid(1)] = csv[i];
    return rows;
}

} // namespace

class TestStepMatrix : public QObject {
    Q_OBJECT
    std::unique_ptr<Session> m_ddp;

private slots:
    void initTestCase()
    {
        m_ddp = std::make_unique<Session>(Session::load({demoPath()}));
        QCOMPARE(m_ddp->ranks().size(), std::size_t(4));
    }

    void rankZerosStepsAreTheOnesNsysSummed()
    {
        const StepMatrix matrix = stepMatrix(*m_ddp);
        QCOMPARE(matrix.rankIndices.size(), std::size_t(4));
        QCOMPARE(matrix.steps.size(), std::size_t(8));
        const auto sums = nvtxSumRows();
        const auto rank0 = std::size_t(
            std::find_if(matrix.rankIndices.begin(), matrix.rankIndices.end(), [&](int i) { return m_ddp->ranks()[std::size_t(i)].rank == 0; })
            - matrix.rankIndices.begin());
        for (std::size_t k = 0; k < 8; ++k) {
            const QStringList &row = sums.at(QStringLiteral("step %1").arg(k));
            QCOMPARE(row[2], QStringLiteral("1"));
            QVERIFY(matrix.steps[k][rank0].has_value());
            QCOMPARE(matrix.steps[k][rank0]->duration(), row[1].toLongLong());
        }
    }

    void theSpreadIsReadFromTheDurations()
    {
        const StepMatrix matrix = stepMatrix(*m_ddp);
        const ResultTable table = stepMatrixTable(*m_ddp, matrix);
        QCOMPARE(table.headers.mid(0, 8).join(QLatin1Char(',')),
                 QStringLiteral("Step,Ranks,Min (ns),Median (ns),Max (ns),Spread (ns),Slowest Rank,Start (ns)"));
        QCOMPARE(table.headers.size(), 8 + 4);
        for (std::size_t k = 0; k < matrix.steps.size(); ++k) {
            std::vector<std::pair<TimeNs, int>> durations; // duration, rank
            for (std::size_t c = 0; c < matrix.rankIndices.size(); ++c)
                durations.push_back({matrix.steps[k][c]->duration(), m_ddp->ranks()[std::size_t(matrix.rankIndices[c])].rank});
            std::sort(durations.begin(), durations.end());
            QCOMPARE(table.cell(k, 1).integer, std::int64_t(4));
            QCOMPARE(table.cell(k, 2).integer, durations.front().first);
            QCOMPARE(table.cell(k, 3).integer, durations[1].first); // the lower middle of four
            QCOMPARE(table.cell(k, 4).integer, durations.back().first);
            QCOMPARE(table.cell(k, 5).integer, durations.back().first - durations.front().first);
            QCOMPARE(table.cell(k, 6).integer, std::int64_t(durations.back().second));
            for (std::size_t c = 0; c < matrix.rankIndices.size(); ++c)
                QCOMPARE(table.cell(k, 8 + c).integer, matrix.steps[k][c]->duration());
        }
    }

    void aPatternPicksTheUsersRanges()
    {
        // Rank 0's ":forward" ranges: 8 of them, min and max as nsys printed.
        StatsScope rank0;
        for (int i = 0; i < int(m_ddp->ranks().size()); ++i)
            if (m_ddp->ranks()[std::size_t(i)].rank == 0)
                rank0.rankIndex = i;
        const StepMatrix matrix = stepMatrix(*m_ddp, rank0, QStringLiteral("^forward$"));
        QCOMPARE(matrix.rankIndices.size(), std::size_t(1));
        QCOMPARE(matrix.steps.size(), std::size_t(8));
        const QStringList row = nvtxSumRows().at(QStringLiteral("forward")); // a copy: the map is a temporary
        TimeNs lo = kTimeMax, hi = 0, total = 0;
        for (const auto &step : matrix.steps) {
            lo = std::min(lo, step[0]->duration());
            hi = std::max(hi, step[0]->duration());
            total += step[0]->duration();
        }
        QCOMPARE(total, row[1].toLongLong());
        QCOMPARE(lo, row[5].toLongLong());
        QCOMPARE(hi, row[6].toLongLong());
        // A range keeps the steps that start in it.
        StatsScope firstHalf = rank0;
        const TimeRange extent = m_ddp->extent();
        firstHalf.range = TimeRange{extent.start, matrix.steps[4][0]->start};
        QCOMPARE(stepMatrix(*m_ddp, firstHalf, QStringLiteral("^forward$")).steps.size(), std::size_t(4));
        // An invalid pattern is said, and matches nothing.
        QVERIFY(!stepPatternError(QStringLiteral("(")).isEmpty());
        QVERIFY(stepMatrix(*m_ddp, {}, QStringLiteral("(")).steps.empty());
    }
};

QTEST_GUILESS_MAIN(TestStepMatrix)
#include "tst_stepmatrix.moc"
