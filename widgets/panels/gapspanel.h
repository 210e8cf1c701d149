#pragma once
// GPU gaps: utilisation over time, the spread of idle-gap lengths, and a
// sortable list of gaps with what the CPU did meanwhile ("data_loading
// covers 94% of this gap"): by default the training loop's stalls relative
// to its step, or nsys' rule (every gap above a threshold). Double-click a
// gap to zoom.
#include "panels/statspanel.h"
#include "stats/diagnosis/gapanalysis.h"

class QComboBox;
class QDoubleSpinBox;

namespace rankscope {

class TableBox;

class GapsPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit GapsPanel(QWidget *parent = nullptr);
    // nsys' rule: every gap of at least `ms`, anywhere.
    void setThresholdMs(double ms);
    // The default: the training loop's stalls, relative to its step.
    void setInLoopRule();
    bool usesInLoopRule() const;
    TableBox *gapTable() const { return m_gaps; }
    const std::vector<stats::GpuGapInfo> &gaps() const { return m_found; }

protected:
    void refresh() override;
    bool readsAnalysisSettings() const override { return true; } // the in-loop rule's thresholds are the Diagnosis'

private:
    void present(std::vector<stats::GpuGapInfo> found, const std::vector<stats::UtilizationSeries> &utilization,
                 const std::vector<stats::GapHistogramBin> &histogram);
    void showActivity(int gapRow);

    QComboBox *m_rule;
    QDoubleSpinBox *m_threshold;
    QWidget *m_utilization = nullptr;
    QWidget *m_histogram = nullptr;
    TableBox *m_gaps;
    TableBox *m_activity;
    std::vector<stats::GpuGapInfo> m_found;
};

// "data_loading covers 94% of this gap"
QString describeMainActivity(const stats::GpuGapInfo &gap);

} // namespace rankscope
