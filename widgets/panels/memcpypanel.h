#pragma once
// Memory transfers: nsys' memcpy size and time tables, a histogram of
// transfer sizes by direction (click a bar to select those copies), size
// against throughput, and the pageable share of host traffic.
#include "panels/statspanel.h"
#include "stats/diagnosis/memcpyanalysis.h"
#include "stats/resulttable.h"

class QLabel;

namespace rankscope {

class TableBox;

class MemcpyPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit MemcpyPanel(QWidget *parent = nullptr);
    QString adviceText() const;
    TableBox *sizeTable() const { return m_sizes; }
    TableBox *timeTable() const { return m_times; }
    // What a click on bar (direction, bin) would select.
    void selectBin(stats::Direction direction, int log2Bytes);

protected:
    void refresh() override;

private:
    void present(ResultTable sizes, ResultTable times, const stats::MemcpyAnalysis &analysis);

    QLabel *m_advice;
    QLabel *m_share;
    QWidget *m_histogram = nullptr;
    QWidget *m_scatter = nullptr;
    TableBox *m_sizes;
    TableBox *m_times;
};

QString powerOfTwoLabel(int log2Bytes);

} // namespace rankscope
