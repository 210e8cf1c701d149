#pragma once
// What set each step's length: its critical path across ranks
// (stats/criticalpath.h). A stacked bar per step of the path's time by
// kind (compute, communication, copies, CPU, launches, synchronisation,
// idle), the steps' table, and for the chosen step its top events and its
// segments, drawn on the timeline (pathShown). What-if: a kernel name, an
// NVTX range or a rank N % faster, the steps re-solved over the same
// dependencies. With a range selected: the steps that start in it, or the
// range itself when none does.
#include "panels/statspanel.h"
#include "stats/criticalpath.h"

#include <memory>

class QCheckBox;
class QComboBox;
class QLineEdit;
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
    // Shows path `index` of paths(): its tables, and on the timeline.
    void showPath(int index);
    // Shows the path of the step that holds `sessionTime` (once computed).
    void showStepAt(TimeNs sessionTime);

    const std::vector<stats::StepCriticalPath> &paths() const { return m_paths; }
    int shownPath() const { return m_shown; }
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
    std::vector<stats::StepCriticalPath> m_paths;
    int m_shown = -1;
    std::vector<EventLocation> m_topEvents; // per row of m_top: its longest segment's event
    std::optional<TimeNs> m_pendingTime;    // showStepAt before the paths were computed
};

} // namespace rankscope
