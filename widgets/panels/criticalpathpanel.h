#pragma once
// What set each step's length: its critical path across ranks
// (stats/criticalpath/criticalpath.h). A stacked bar per step of the path's time by
// kind (compute, communication, copies, CPU, launches, synchronisation,
// idle), the steps' table, and for the chosen step its top events and its
// segments, drawn on the timeline (pathShown). What-if: a kernel name, an
// NVTX range or a rank N % faster, the steps re-solved over the same
// dependencies. With a range selected: the steps that start in it, or the
// range itself when none does.
#include "analysis/criticalpathsolutions.h"
#include "panels/statspanel.h"
#include "stats/criticalpath/criticalpathtables.h"

#include <memory>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace rankscope {

class TableBox;

class CriticalPathPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit CriticalPathPanel(QWidget *parent = nullptr);

    void setAlignOnCollectives(bool align);
    // "kernel:REGEX=0.8", "nvtx:REGEX=0.8", "rank:N=0.8"; empty: none.
    // False (and unchanged) when it is not one.
    bool setWhatIf(const QString &text);
    // Shows step `index` of steps(): its path's tables, and the path on
    // the timeline (solved first, unless it was lately).
    void showPath(int index);
    // Shows the path of the step that holds `sessionTime` (once computed).
    void showStepAt(TimeNs sessionTime);
    // Solves every step, not only those shown and in view (for the chart
    // and the table of all steps; the "Solve all steps" button).
    void solveAllSteps();

    // The steps in scope, a row each: their summaries once solved (the
    // step shown first, then those in view, then the rest).
    const std::vector<stats::StepPathSummary> &steps() const { return m_summaries; }
    // Per row: where its step's annotations begin (the earliest rank's, the
    // path's clock): a range holds the steps that begin in it.
    const std::vector<TimeNs> &stepStarts() const { return m_starts; }
    int shownPath() const { return m_shown; }
    // The shown step's path, with its segments; null before it is solved.
    const std::shared_ptr<const stats::StepCriticalPath> &shownStepPath() const { return m_shownPath; }
    TableBox *stepsTable() const { return m_steps; }
    TableBox *topEvents() const { return m_top; }
    TableBox *segments() const { return m_segments; }
    QWidget *chart() const { return m_chart; }
    QString note() const;
    QString whatIfResult() const;

signals:
    // The path to draw on the timeline; null: none.
    void pathShown(std::shared_ptr<const rankscope::stats::StepCriticalPath> path);

protected:
    void refresh() override;
    bool readsAnalysisSettings() const override { return true; }

private:
    struct Result;
    void present(Result result);
    void showSummaries(); // the steps' table and chart, from the summaries solved so far
    void solveMore();     // the steps in view not solved yet (all once asked), in parts, quietly

    void presentPath(int index, std::shared_ptr<const stats::StepCriticalPath> path);
    void selectPath(int index); // shown, and its row selected
    void solveWhatIf();
    void activateTopEvent(int row);
    void activateSegment(int row);

    QCheckBox *m_align;
    QCheckBox *m_draw; // the shown path on the timeline
    QLabel *m_note;
    QComboBox *m_whatIfTarget;
    QLineEdit *m_whatIfWhat;
    QSpinBox *m_faster;
    QLabel *m_whatIfResult;
    TableBox *m_steps;
    TableBox *m_top;
    TableBox *m_segments;
    QWidget *m_chart = nullptr;
    std::optional<stats::WhatIf> m_whatIf;
    std::shared_ptr<const CriticalPathSolutions> m_solutions; // the workspace's, for this clock and what-if
    std::vector<std::size_t> m_entries;                       // per row: its step in m_solutions
    std::vector<TimeNs> m_starts;                             // per row: where its annotations begin
    std::vector<stats::StepPathSummary> m_summaries;          // per row
    QStringList m_notes;                                      // how the collectives were matched
    bool m_ofRange = false;
    int m_partMs = 0;          // how long the next quiet part solves
    bool m_solveAll = false;   // every step, not only those in view (asked for once per panel)
    bool m_refreshing = false; // a new scope's or setting's steps are being found: nothing else starts meanwhile
    QPushButton *m_solveAllButton = nullptr;
    int m_shown = -1;
    std::shared_ptr<const stats::StepCriticalPath> m_shownPath;
    std::vector<EventLocation> m_topEvents; // per row of m_top: its longest segment's event
    std::optional<TimeNs> m_pendingTime;    // showStepAt before the paths were computed
};

} // namespace rankscope
