#pragma once
// One row per rank; in each column the worst rank is marked, which is
// where a straggler or a starving rank shows. The header says which kernels
// count as communication, and the user can change that pattern here.
#include "panels/statspanel.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/rankcomparison.h"
#include "stats/ranks/ranktimemap.h"
#include "stats/resulttable.h"

class QComboBox;
class QScrollArea;
class QLabel;

namespace rankscope {

class RankHeatmap;
class TableBox;

// Above the table, a rank x time heatmap (GPU busy, or waiting in
// collectives) over the same range: where in time a rank is out of step.
class RanksPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit RanksPanel(QWidget *parent = nullptr);
    TableBox *table() const { return m_table; }
    RankHeatmap *heatmap() const { return m_heatmap; }
    // 0: GPU busy, 1: waiting in collectives, 2: GPU busy without communication wait.
    QComboBox *heatmapMeasure() const { return m_measure; }
    static constexpr int kHeatmapBins = 240;
    static constexpr int kBreakdownMinimumWidth = 380; // px
    static constexpr int kMapMaximumHeight = 240;      // px the map asks for before it scrolls
    // The user's communication kernel pattern; empty: the built-in table.
    // Returns false (and keeps the current one) for an invalid expression.
    bool setCommunicationPattern(const QString &pattern);
    const QString &communicationPattern() const { return m_communicationPattern; }
    QString classesDescription() const;
    // The collectives the waits read: the workspace's (as recorded).
    const stats::CollectiveMatch *match() const { return m_match.get(); }
    // The stacked bar per rank beside the table (HTA's temporal breakdown)
    // and what it shows, in the table's order.
    QWidget *breakdownChart() const { return m_breakdown; }
    const std::vector<stats::RankTimeShares> &breakdown() const { return m_shares; }

signals:
    void communicationPatternChanged(const QString &pattern);

protected:
    void refresh() override;
    void sessionChanged() override { m_match.reset(); }
    bool readsAnalysisSettings() const override { return true; }
    AnalysisSettings ownSettings() const override
    {
        AnalysisSettings settings;
        settings.communicationPattern = m_communicationPattern;
        return settings;
    }

private:
    void present(ResultTable table);
    void presentMap(stats::RankTimeMap map, QString note);
    void editCommunicationPattern();
    void describeClasses();
    void presentBreakdown(const ResultTable &table);

    TableBox *m_table;
    TableBox *m_sampling; // the ranks' CPU samples side by side
    RankHeatmap *m_heatmap;
    QScrollArea *m_mapScroll;
    QComboBox *m_measure;
    QLabel *m_mapNote;
    QLabel *m_classes;
    QWidget *m_breakdown = nullptr;
    std::vector<stats::RankTimeShares> m_shares;
    QString m_communicationPattern;
    std::shared_ptr<const stats::CollectiveMatch> m_match; // the last shown
};

} // namespace rankscope
