#pragma once
// Kernels, CUDA API, NVTX and OS runtime summaries with nsys' columns,
// sortable and filterable; double-click a row to find its instances.
#include "panels/statspanel.h"

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

protected:
    void refresh() override;

private:
    QTabWidget *m_tabs;
    TableBox *m_kernels, *m_api, *m_nvtx, *m_osrt;
};

} // namespace rankscope
