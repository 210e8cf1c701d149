#pragma once
// Base of the statistics panels: each shows one question's answer for the
// current scope (a range selection or the whole session; one rank or all),
// always computed by the model's statistics engine.
#include "analysis/analysisworkspace.h"
#include "core/cancellation.h"
#include "core/memoryusage.h"
#include "jobs/latestjob.h"
#include "session/residentbudget.h"
#include "stats/resulttable.h"
#include "stats/statsscope.h"
#include "timeline/timemark.h"

#include <QFutureWatcher>
#include <QLabel>
#include <QPointer>
#include <QSplitter>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <vector>

namespace rankscope {

class TableBox;

// "Ran out of memory computing this (N available now); ..." for a panel.
QString outOfMemoryMessage();

class StatsPanel : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // The session's workspace (analysis/analysisworkspace.h): its results
    // are shared with every other panel and overlay, computed with the same
    // settings. A workspace for another session starts the panel afresh; the
    // same session with other settings recomputes what reads them.
    void setWorkspace(WorkspacePtr workspace);
    // A workspace of its own (a panel alone, as in tests), with the
    // settings the panel holds (ownSettings).
    void setSession(std::shared_ptr<const Session> session)
    {
        setWorkspace(session ? std::make_shared<const AnalysisWorkspace>(std::move(session), ownSettings()) : nullptr);
    }
    void setScope(const stats::StatsScope &scope)
    {
        // The same scope again (the dock passes its scope on whenever the
        // timeline's selection is reset, as when a session opens) would start
        // a second pass over every rank beside the first: each holds its
        // values, gigabytes over hundreds of ranks.
        if (scope == m_scope)
            return;
        m_scope = scope;
        refreshWhenShown();
    }
    const stats::StatsScope &scope() const { return m_scope; }
    // Off the GUI thread (the application's choice); tests compute inline.
    void setComputeInBackground(bool background) { m_background = background; }
    // A hidden panel (its tab not current, or the dock closed) computes
    // nothing and catches up when shown: statistics nobody looks at must not
    // cost the cores and the memory (the application's choice; tests
    // compute at once).
    void setComputeOnlyWhenShown(bool onlyWhenShown) { m_onlyWhenShown = onlyWhenShown; }
    bool computesOnlyWhenShown() const { return m_onlyWhenShown; }
    // Computes now, on this thread, what a hidden panel has put off (before
    // its tables are exported).
    void ensureComputed();
    bool isComputing() const { return m_job.unfinished() > 0; }
    // Whether it says "Computing..." (the newest request still runs).
    bool isShowingComputing() const;
    // Writes every table as CSV (named after the table) and every chart as
    // PNG into `directory`; returns the paths written.
    QStringList exportAll(const QString &directory) const;

signals:
    // A computation ran out of memory: one line saying so (the panel keeps
    // what it showed; the session stays open).
    void computationFailed(const QString &message);
    void eventsSelected(const std::vector<rankscope::EventLocation> &events);
    void zoomRequested(rankscope::TimeRange range);
    // A row points at a span of one rank (a gap, an instance): shown on the
    // timeline and in Details (timeline/timemark.h).
    void markRequested(const rankscope::TimeMark &mark);
    void searchRequested(const QString &text);

protected:
    virtual void refresh() = 0;
    // A new session arrived (before its first refresh()).
    virtual void sessionChanged() { }
    // Whether the panel's results read the analysis settings (communication
    // classes, diagnosis thresholds): new settings recompute them.
    virtual bool readsAnalysisSettings() const { return false; }
    // The settings of a workspace the panel makes for itself (setSession).
    virtual AnalysisSettings ownSettings() const { return {}; }
    // What a panel that computes its parts one by one (sub-tabs) still owes
    // when everything is wanted; ensureComputed() calls it, inline.
    virtual void computeRemainingParts() { }
    void showEvent(QShowEvent *event) override;
    const Session *session() const { return m_workspace ? m_workspace->session().get() : nullptr; }
    const WorkspacePtr &workspace() const { return m_workspace; }
    // What exportAll() writes: tables, and chart slots (charts are rebuilt
    // per scope, so the slot is read at export time).
    void exportTable(TableBox *table) { m_exportTables.push_back(table); }
    void exportChart(QWidget **slot, const QString &fileName) { m_exportCharts.push_back({slot, fileName}); }
    // A table no TableBox shows (a tree's rows), made at export time; none
    // when there is nothing to write.
    void exportResult(std::function<std::optional<ResultTable>()> table) { m_exportResults.push_back(std::move(table)); }

    // Runs compute() (a pure function of the immutable session) on a worker
    // thread, then show(result) here; a result that a newer request has
    // overtaken is dropped. The session is kept alive until compute() ends.
    // `quietly`: work that fills in what is shown (the next steps of a
    // path) without greying it out under "Computing...".
    template <class Result>
    void run(std::function<Result()> compute, std::function<void(Result)> show, bool quietly = false)
    {
        // Running out of memory is an outcome: the panel says so and the
        // session stays open (a std::bad_alloc leaving a worker would be
        // rethrown from takeResult() on the GUI thread and end the program).
        // The result travels back as the call that shows it.
        auto shownResult = [this, compute, show]() -> std::function<void()> {
            try {
                return [show, result = std::make_shared<Result>(compute())] { show(std::move(*result)); }; // moved: a table can hold 400k rows
            } catch (const std::bad_alloc &) {
                releaseFreedMemory();
                return [this, failure = outOfMemoryMessage()] { emit computationFailed(failure); };
            }
        };
        if (!m_background) {
            shownResult()();
            return;
        }
        // The request before this one is dropped: if it is still queued it
        // never runs (the pool's two threads go to the newest request).
        showComputing(!quietly);
        auto progress = std::make_shared<JobProgress>();
        m_progress = progress;
        m_job.start(
            [shownResult, keep = m_workspace, progress](const JobToken &) {
                const ProgressScope reports(progress.get()); // the rank each pass reads, for the "Computing..." label
                // It may have read every rank, and may be cancelled half way:
                // either way, give back the mapped pages of the ranks the
                // timeline has not used lately (residentbudget.h).
                struct ReleaseAfter {
                    const Session &session;
                    ~ReleaseAfter() { ResidentBudget::process().releaseUnused(session); }
                } release{*keep->session()};
                return shownResult();
            },
            [this](std::function<void()> showIt) {
                showComputing(false);
                showIt();
            });
    }

    // refresh() now, or when next shown (see setComputeOnlyWhenShown).
    void refreshWhenShown();
    void resizeEvent(QResizeEvent *event) override;

private:
    // "Computing..." over the panel's top right corner while the newest
    // request runs, with the rank its pass reads (of a session of several),
    // what is shown below it (the previous scope's) greyed out.
    void showComputing(bool computing);
    void updateComputingText();

    WorkspacePtr m_workspace;
    QLabel *m_computing = nullptr;
    QTimer *m_progressTimer = nullptr;
    std::shared_ptr<const JobProgress> m_progress; // the newest request's
    stats::StatsScope m_scope;
    bool m_background = false;
    bool m_onlyWhenShown = false;
    bool m_stale = false; // a refresh put off while hidden
    // The newest request. The work of every request, replaced ones too,
    // freed its temporaries (grouping indexes, a dropped result) in a
    // worker's heap arena: given back when it ends.
    LatestJob<std::function<void()>> m_job{this, [] { releaseFreedMemory(); }};
    std::vector<TableBox *> m_exportTables;
    std::vector<std::pair<QWidget **, QString>> m_exportCharts;
    std::vector<std::function<std::optional<ResultTable>()>> m_exportResults;
};

// Charts side by side above tables side by side, split vertically: each
// chart slot gets a placeholder (charts are rebuilt per scope, see
// replaceWidget); the ints are stretch factors.
QSplitter *chartsOverTables(QWidget *parent, const std::vector<std::pair<QWidget **, int>> &chartSlots,
                            const std::vector<std::pair<QWidget *, int>> &tables);

// Replaces the widget at `slot` in `layout` (charts are rebuilt per scope).
void replaceWidget(QWidget *&slot, QWidget *replacement);

} // namespace rankscope
