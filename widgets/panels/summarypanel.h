#pragma once
// Kernels, CUDA API, NVTX and OS runtime summaries with nsys' columns,
// sortable and filterable; double-click a row to find its instances.
#include "panels/statspanel.h"

#include <array>
#include <vector>

class QTabWidget;

namespace rankscope {

class TableBox;

class SummaryPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget *parent = nullptr);
    TableBox *kernels() const { return m_kernels; }
    TableBox *api() const { return m_api; }
    TableBox *nvtx() const { return m_nvtx; }
    TableBox *osrt() const { return m_osrt; }
    TableBox *libraries() const { return m_libraries; }

protected:
    void refresh() override;
    void computeRemainingParts() override;

private:
    // Computes summaries (indices into m_boxes) for the current scope.
    void computeSummaries(std::vector<int> indices);

    QTabWidget *m_tabs;
    TableBox *m_kernels, *m_api, *m_nvtx, *m_osrt, *m_libraries;
    std::array<TableBox *, 5> m_boxes;
    // Per summary: whether its table is for the current scope. When the
    // panel computes only what is shown, a summary waits for its tab: on
    // an emit_nvtx trace the NVTX summary alone has 400k rows.
    std::array<bool, 5> m_upToDate{};
};

} // namespace rankscope
