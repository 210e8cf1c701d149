#pragma once
// Two runs (File > Compare With...) or two ranks side by side: per kernel,
// NVTX path, CUDA API call or copy kind, the count and time in A and in B,
// largest change first; step time distribution and the GPU's busy share
// per step; collectives' skew and waits. Selecting a row highlights its
// events in both runs on the timeline.
#include "panels/statspanel.h"
#include "stats/comparison/rundiff.h"

class QCheckBox;
class QComboBox;
class QLabel;

namespace rankscope {

class TableBox;

class ComparePanel : public StatsPanel {
    Q_OBJECT
public:
    explicit ComparePanel(QWidget *parent = nullptr);
    // Which kernels are communication (the Rank comparison's choice).
    // What is compared: an index into the A and B choices (choiceNames()).
    void setSides(int a, int b);
    QStringList choiceNames() const;
    void setReport(stats::DiffReport report);
    void setNormalizeKernelNames(bool normalize);
    TableBox *diffTable() const { return m_diff; }
    TableBox *stepsTable() const { return m_steps; }
    TableBox *collectivesTable() const { return m_collectives; }
    // The events of a row of the difference table, in both runs.
    std::vector<EventLocation> eventsOfRow(int row) const;

protected:
    void refresh() override;
    bool readsAnalysisSettings() const override { return true; }
    void sessionChanged() override;

private:
    // One choice for A or B: a whole run, or one rank.
    struct Choice {
        QString name;
        std::vector<int> rankIndices;
    };
    struct Result {
        std::vector<stats::DiffRow> rows;
        std::vector<stats::StepDiff> steps;
        std::vector<stats::CollectiveDiff> collectives;
    };

    stats::DiffReport report() const;
    stats::DiffOptions options() const;
    void present(Result result);
    void showStepCharts(const std::vector<stats::StepDiff> &steps);

    std::vector<Choice> m_choices;
    QComboBox *m_sideA;
    QComboBox *m_sideB;
    QComboBox *m_report;
    QCheckBox *m_normalize;
    QLabel *m_note;
    QWidget *m_distribution = nullptr;
    QWidget *m_charts = nullptr; // the step charts' row: hidden when neither side has steps
    QWidget *m_busy = nullptr;
    TableBox *m_diff;
    TableBox *m_steps;
    TableBox *m_collectives;
    std::vector<stats::DiffRow> m_rows;
};

} // namespace rankscope
