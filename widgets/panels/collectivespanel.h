#pragma once
// Collectives across ranks: each collective matched on every rank, its
// skew over time, per communicator and name the skew and waits, and per
// rank who made the others wait and why it was late. The rank that caused
// the most delay is shaded (not the one that waited longest: that one is
// the victim). Double-clicking an instance zooms to it and selects its
// kernel on every rank.
#include "panels/statspanel.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/communicationoverlap.h"

class QCheckBox;
class QLabel;

namespace rankscope {

class TableBox;

class CollectivesPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit CollectivesPanel(QWidget *parent = nullptr);
    TableBox *ranksTable() const { return m_ranks; }
    TableBox *kindsTable() const { return m_kinds; }
    TableBox *instancesTable() const { return m_instances; }
    TableBox *overlapTable() const { return m_overlap; }
    QString notes() const;
    // Times shifted so matched collectives end together on every rank
    // (stats::alignedOnCollectives), or as recorded.
    void setAlignOnCollectives(bool align);
    // The match shown: the workspace's, computed once for every panel and
    // overlay (a range selected on the timeline filters it).
    const stats::CollectiveMatch *match() const { return m_match.get(); }

protected:
    void refresh() override;
    void sessionChanged() override { m_match.reset(); }
    bool readsAnalysisSettings() const override { return true; }

private:
    struct Result {
        std::shared_ptr<const stats::CollectiveMatch> match;
        QStringList notes;                      // the match's, and what aligning would do
        std::vector<stats::RankWait> waits;     // the ranks table's rows, in its order
        std::vector<std::size_t> instanceOfRow; // the instances table's rows: their index in match->instances
        ResultTable ranks, kinds, instances;
        // Each communication kernel's overlap with the other kernels of its GPU.
        std::vector<stats::CommunicationOverlap> overlaps;
        ResultTable overlap;
    };

    void present(Result result);
    void activateInstance(int row);
    void activateOverlap(int row);

    QCheckBox *m_align;
    QLabel *m_notes;
    QWidget *m_skewChart = nullptr;
    TableBox *m_ranks;
    TableBox *m_kinds;
    TableBox *m_overlap;
    std::vector<stats::CommunicationOverlap> m_overlaps; // m_overlap's rows, in the table's order
    TableBox *m_instances;
    std::shared_ptr<const stats::CollectiveMatch> m_match; // of this session
    std::vector<std::size_t> m_instanceOfRow;              // as Result::instanceOfRow
};

} // namespace rankscope
