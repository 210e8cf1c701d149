// The analysis workspace: a derived result is computed once and shared
// (across threads too), the diagnosis reads the same communication classes
// and aligned match as the Collectives panel, and new settings keep exactly
// the results they do not change.
#include "analysis/analysisworkspace.h"
#include "analysis/analysisworkspaces.h"
#include "analysis/sharedresult.h"
#include "analysisinputs.h"
#include "core/cancellation.h"

#include <QProcess>
#include <QtTest>
#include <future>

#include <atomic>
#include <thread>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

// The straggler finding, if the diagnosis has one.
const Finding *stragglerOf(const Diagnosis &d)
{
    const auto it = std::find_if(d.findings.begin(), d.findings.end(), [](const Finding &f) { return f.id == QLatin1String("straggler"); });
    return it == d.findings.end() ? nullptr : &*it;
}

} // namespace

class TestAnalysisWorkspace : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::shared_ptr<const Session> m_ddp;

private slots:
    void initTestCase()
    {
        // 4 ranks; rank 2 computes 2 ms more before every all-reduce; the
        // clocks of the hosts disagree by up to 1.5 ms.
        const QString dir = m_dir.filePath(QStringLiteral("ddp"));
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), {"--profile", "ddp", "--format", "nsys", "--events", "1720", "--ranks", "4",
                                                                        "--straggler", "2:2000:1", "--clock-offsets-us", "0,1500,-700,200", dir}),
                 0);
        m_ddp = std::make_shared<const Session>(Session::load({dir}));
        QCOMPARE(m_ddp->ranks().size(), std::size_t(4));
    }

    void aResultIsComputedOnceAndShared()
    {
        const AnalysisWorkspace workspace(m_ddp, {});
        QVERIFY(!workspace.readyCollectiveMatch(MatchClock::Recorded));
        // Four threads ask at once: one match, the same object for all.
        std::vector<std::shared_ptr<const CollectiveMatch>> seen(4);
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < seen.size(); ++i)
            threads.emplace_back([&, i] { seen[i] = workspace.collectiveMatch(MatchClock::Aligned); });
        for (std::thread &t : threads)
            t.join();
        for (const auto &match : seen)
            QCOMPARE(match.get(), seen[0].get());
        QVERIFY(!seen[0]->instances.empty());
        // The aligned match was built on the recorded one, now there too.
        QVERIFY(workspace.readyCollectiveMatch(MatchClock::Recorded));
        QCOMPARE(workspace.collectiveMatch(MatchClock::Recorded).get(), workspace.readyCollectiveMatch(MatchClock::Recorded).get());
        // As the statistics compute it alone.
        const CollectiveMatch alone = alignedOnCollectives(*m_ddp, matchCollectives(*m_ddp, KernelClassifier::rankscope()));
        QCOMPARE(seen[0]->instances.size(), alone.instances.size());
        QCOMPARE(seen[0]->clockShift, alone.clockShift);
    }

    void theDiagnosisReadsTheWorkspacesClassesAndMatch()
    {
        const AnalysisWorkspace builtIn(m_ddp, {});
        const auto d = builtIn.diagnosis();
        const Finding *straggler = stragglerOf(*d);
        QVERIFY(straggler);
        QCOMPARE(straggler->ranks, QStringLiteral("rank 2 only"));
        // The Collectives panel's figure: the delay rank 2 caused, in the
        // same aligned match the diagnosis read (no match of its own).
        const auto waits = builtIn.rankWaits(MatchClock::Aligned);
        const auto worst =
            std::max_element(waits->begin(), waits->end(), [](const RankWait &a, const RankWait &b) { return a.delayCaused < b.delayCaused; });
        QCOMPARE(straggler->cost, worst->delayCaused);
        QCOMPARE(d.get(), builtIn.diagnosis().get());
        // As the match and waits made apart from the workspace give it.
        const Diagnosis alone = diagnosed(*m_ddp);
        QCOMPARE(stragglerOf(alone)->cost, straggler->cost);
        // The user's classes reach the diagnosis: with no kernel counted as
        // communication there is no collective, and no straggler.
        AnalysisSettings none;
        none.communicationPattern = QStringLiteral("^no_such_kernel$");
        const AnalysisWorkspace noComm(m_ddp, none);
        QVERIFY(noComm.collectiveMatch(MatchClock::Aligned)->instances.empty());
        QVERIFY(!stragglerOf(*noComm.diagnosis()));
    }

    void newSettingsKeepWhatTheyDoNotChange()
    {
        const auto workspace = std::make_shared<const AnalysisWorkspace>(m_ddp, AnalysisSettings{});
        const auto recorded = workspace->collectiveMatch(MatchClock::Recorded);
        const auto diagnosis = workspace->diagnosis();
        // Other thresholds: the matches stay, the diagnosis is computed anew.
        AnalysisSettings strict;
        strict.diagnosis.reportedShare = 0.5;
        const auto thresholds = workspace->withSettings(strict);
        QCOMPARE(thresholds->readyCollectiveMatch(MatchClock::Recorded).get(), recorded.get());
        QVERIFY(thresholds->readyCollectiveMatch(MatchClock::Aligned));
        QVERIFY(!thresholds->readyDiagnosis());
        QVERIFY(thresholds->diagnosis()->findings.size() <= diagnosis->findings.size());
        // The same settings: everything stays.
        QCOMPARE(workspace->withSettings({})->readyDiagnosis().get(), diagnosis.get());
        // Another communication pattern: nothing stays.
        AnalysisSettings pattern;
        pattern.communicationPattern = QStringLiteral("(?i)nccl");
        const auto repatterned = workspace->withSettings(pattern);
        QVERIFY(!repatterned->readyCollectiveMatch(MatchClock::Recorded));
        QVERIFY(!repatterned->readyDiagnosis());
        QCOMPARE(repatterned->session().get(), m_ddp.get());
    }

    // The GUI thread asks whether a match is ready while a worker holds the
    // ranks' records (reading or matching them): it is answered at once.
    void askingWhetherAMatchIsReadyNeverWaits()
    {
        const AnalysisWorkspace workspace(m_ddp, {});
        std::promise<void> holding, release;
        std::thread worker([&] {
            workspace.withCollectiveInputs([&](CollectiveInputs &) {
                holding.set_value();
                release.get_future().wait();
                return 0;
            });
        });
        holding.get_future().wait();
        auto answer = std::async(std::launch::async, [&] {
            return !workspace.readyCollectiveMatch(MatchClock::Recorded) && !workspace.readyCollectiveMatch(MatchClock::Aligned);
        });
        const bool answered = answer.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
        release.set_value(); // the worker held the records until now
        worker.join();
        QVERIFY(answered);
        QVERIFY(answer.get()); // nothing was ready
        const auto match = workspace.collectiveMatch(MatchClock::Recorded);
        QCOMPARE(workspace.readyCollectiveMatch(MatchClock::Recorded).get(), match.get());
    }

    // A computation replaced by a newer request gives up before its next
    // rank and leaves nothing behind; asked again, it is computed.
    void aCancelledComputationLeavesNothingBehind()
    {
        const AnalysisWorkspace workspace(m_ddp, {});
        {
            const CancellationScope replaced([] { return true; });
            QVERIFY_THROWS_EXCEPTION(OperationCancelled, workspace.diagnosis());
            QVERIFY_THROWS_EXCEPTION(OperationCancelled, workspace.collectiveMatch(MatchClock::Recorded));
        }
        QVERIFY(!workspace.readyDiagnosis());
        QVERIFY(!workspace.readyCollectiveMatch(MatchClock::Recorded));
        QVERIFY(stragglerOf(*workspace.diagnosis()));
        // Without a scope, or with one that is not cancelled, nothing stops.
        const CancellationScope current([] { return false; });
        QVERIFY(!workspace.collectiveMatch(MatchClock::Aligned)->instances.empty());
    }

    // Two runs side by side: the runs' alignment is computed once and
    // kept through a change of settings (it reads none).
    void theRunsAlignmentIsKeptThroughNewSettings()
    {
        const Session a = m_ddp->subset({0}), b = m_ddp->subset({2});
        const auto both = std::make_shared<const Session>(Session::comparison(a, b));
        const auto workspace = std::make_shared<const AnalysisWorkspace>(both, AnalysisSettings{});
        for (const RunAnchor anchor : {RunAnchor::Starts, RunAnchor::FirstStep})
            QCOMPARE(workspace->runAnchorDelta(anchor), runAnchorDelta(*both, anchor));
        const auto stretch = workspace->stepStretchPoints();
        const auto alone = stepStretchPoints(*both);
        QCOMPARE(stretch->size(), alone.size());
        for (std::size_t r = 0; r < alone.size(); ++r) {
            QCOMPARE((*stretch)[r].size(), alone[r].size());
            for (std::size_t i = 0; i < alone[r].size(); ++i)
                QVERIFY((*stretch)[r][i].own == alone[r][i].own && (*stretch)[r][i].shown == alone[r][i].shown);
        }
        AnalysisSettings other;
        other.communicationPattern = QStringLiteral("(?i)nccl");
        QCOMPARE(workspace->withSettings(other)->stepStretchPoints().get(), stretch.get());
    }

    // Results by key: once per kind, scope and parameters; of those not
    // kept for the session, the last kKeptResults asked for.
    void resultsAreKeptForTheLastKeys()
    {
        const AnalysisWorkspace workspace(m_ddp, {});
        int computed = 0;
        auto gapsIn = [&](TimeNs end) {
            return workspace.result<int>({ResultKind::GpuGaps, StatsScope{TimeRange{0, end}, std::nullopt}}, [&] { return ++computed; });
        };
        const ResultKey other{ResultKind::MemoryTransfers, StatsScope{TimeRange{0, 1000}, std::nullopt}};
        const auto first = gapsIn(1000);
        QCOMPARE(gapsIn(1000).get(), first.get()); // the same key: the same result
        QCOMPARE(computed, 1);
        QCOMPARE(*workspace.result<int>(other, [&] { return ++computed; }), 2);
        // Other parameters are another result.
        QCOMPARE(*workspace.result<int>({ResultKind::GpuGaps, StatsScope{TimeRange{0, 1000}, std::nullopt}, {}, {7}}, [&] { return ++computed; }), 3);
        // 13 more scopes: 16 kept, the first two among them.
        for (std::size_t i = 0; i + 3 < ResultStore::kKeptResults; ++i)
            gapsIn(2000 + TimeNs(i) * 1000);
        const int kept = computed;
        QCOMPARE(gapsIn(1000).get(), first.get()); // asked again: now the most recent
        QCOMPARE(computed, kept);
        // The session's results do not count: the match stays whatever is asked.
        const auto match = workspace.collectiveMatch(MatchClock::Recorded);
        // One more: the least recently asked ("other") goes, and is computed anew.
        gapsIn(100000);
        QCOMPARE(*workspace.result<int>(other, [&] { return ++computed; }), kept + 2);
        QCOMPARE(gapsIn(1000).get(), first.get());
        for (TimeNs end = 200000; end < 200000 + 2 * TimeNs(ResultStore::kKeptResults); ++end)
            gapsIn(end);
        QCOMPARE(workspace.readyCollectiveMatch(MatchClock::Recorded).get(), match.get());
    }

    // Other settings keep every result whose kind reads none that changed.
    void otherSettingsKeepWhatTheyDoNotChange()
    {
        const auto workspace = std::make_shared<const AnalysisWorkspace>(m_ddp, AnalysisSettings{});
        int computed = 0;
        const ResultKey comparison{ResultKind::RankComparison}, gaps{ResultKind::GpuGaps}, busy{ResultKind::GpuBusyMap};
        for (const ResultKey &key : {comparison, gaps, busy})
            workspace->result<int>(key, [&] { return ++computed; });
        QCOMPARE(computed, 3);
        const auto count = [&](const AnalysisWorkspace &w) {
            int again = 0;
            for (const ResultKey &key : {comparison, gaps, busy})
                w.result<int>(key, [&] { return ++again; });
            return again;
        };
        AnalysisSettings gapThreshold;
        gapThreshold.gapThresholdMs = 1; // read by none of the three
        QCOMPARE(count(*workspace->withSettings(gapThreshold)), 0);
        AnalysisSettings pattern;
        pattern.communicationPattern = QStringLiteral("nccl");
        QCOMPARE(count(*workspace->withSettings(pattern)), 1); // the rank comparison
        AnalysisSettings thresholds;
        thresholds.diagnosis.mediumShare = 0.5;
        QCOMPARE(count(*workspace->withSettings(thresholds)), 1); // the gaps
        QCOMPARE(settingsThatDiffer(AnalysisSettings{}, pattern), unsigned(stats::ReportSetting::CommunicationPattern));
    }

    // The viewer's analysis: one workspace per shown session, the one
    // before kept for a return, new settings keeping what they do not touch.
    void theShownSessionsWorkspaces()
    {
        AnalysisWorkspaces analysis;
        QVERIFY(!analysis.current());
        const WorkspacePtr ddp = analysis.show(m_ddp);
        QCOMPARE(analysis.show(m_ddp).get(), ddp.get()); // the same session: the same workspace
        QCOMPARE(analysis.of(m_ddp).get(), ddp.get());
        const auto other = std::make_shared<const Session>(m_ddp->subset({0, 1}));
        QVERIFY(analysis.of(other).get() != ddp.get()); // not shown: one of its own
        const WorkspacePtr subset = analysis.show(other);
        QCOMPARE(analysis.show(m_ddp).get(), ddp.get()); // back: the one before, results and all
        QCOMPARE(analysis.show(other).get(), subset.get());
        const auto match = subset->collectiveMatch(MatchClock::Recorded);
        AnalysisSettings gaps;
        gaps.gapThresholdMs = 1;
        QVERIFY(analysis.setSettings(gaps));
        QVERIFY(!analysis.setSettings(gaps));
        QCOMPARE(analysis.current()->settings().gapThresholdMs, 1.0);
        QCOMPARE(analysis.current()->readyCollectiveMatch(MatchClock::Recorded).get(), match.get()); // not read by the match
        QVERIFY(analysis.show(m_ddp).get() != ddp.get());                                            // the one before was for the old settings
        QVERIFY(!analysis.show(nullptr));
    }

    void aComputationThatFailsIsTriedAgain()
    {
        SharedResult<int> result;
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(std::bad_alloc, result.get([&]() -> int {
            ++calls;
            throw std::bad_alloc();
        }));
        QVERIFY(!result.ready());
        QCOMPARE(*result.get([&] { return ++calls; }), 2);
        QCOMPARE(*result.get([&] { return ++calls; }), 2); // computed once
    }
};

QTEST_GUILESS_MAIN(TestAnalysisWorkspace)
#include "tst_analysisworkspace.moc"
