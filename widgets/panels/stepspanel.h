#pragma once
// Steps x ranks: every step's duration on every rank, the spread per step
// (min, median, max) and the slowest rank, as a table and a chart over the
// steps. The steps are the ones the trace annotates (ProfilerStep#N, NVTX
// "step N"), or the NVTX ranges whose name matches the user's pattern.
// Double-click a step to see it on the timeline. Beside it, when ranks
// pass activations point to point, each pipeline stage's bubble per step
// (stats/ranks/pipelinebubbles.h).
#include "panels/statspanel.h"
#include "stats/ranks/pipelinebubbles.h"
#include "stats/ranks/stepmatrix.h"

class QLabel;

namespace rankscope {

class TableBox;

class StepsPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit StepsPanel(QWidget *parent = nullptr);
    // Ranges whose name matches `pattern` are the steps; empty: the
    // built-in step names. False (and unchanged) for an invalid pattern.
    bool setStepPattern(const QString &pattern);
    TableBox *table() const { return m_table; }
    TableBox *bubbleTable() const { return m_bubbleTable; }
    QWidget *chart() const { return m_chart; }
    const stats::StepMatrix &matrix() const { return m_matrix; }
    QString note() const;

protected:
    void refresh() override;

private:
    struct Result {
        stats::StepMatrix matrix;
        ResultTable table;
        stats::PipelineBubbles bubbles;
        ResultTable bubbleTable;
    };
    void present(Result result);
    void editPattern();
    void activateStep(int step);

    QLabel *m_note;
    QLabel *m_patternLabel;
    TableBox *m_table;
    TableBox *m_bubbleTable;
    QWidget *m_chart = nullptr;
    std::vector<stats::PipelineStageStep> m_bubbleRows; // m_bubbleTable's rows, in its order
    QString m_pattern;
    stats::StepMatrix m_matrix;
};

} // namespace rankscope
