#include "panels/summarypanel.h"

#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/nsys/nsysreports.h"

#include <QTabWidget>
#include <QVBoxLayout>

namespace rankscope {

SummaryPanel::SummaryPanel(QWidget *parent)
    : StatsPanel(parent), m_tabs(new QTabWidget(this)), m_kernels(new TableBox(tr("CUDA GPU Kernel Summary"), this)),
      m_api(new TableBox(tr("CUDA API Summary"), this)), m_nvtx(new TableBox(tr("NVTX Range Summary"), this)),
      m_osrt(new TableBox(tr("OS Runtime Summary"), this)),
      m_libraries(new TableBox(tr("cuDNN and cuBLAS Summary"), this)), m_boxes{m_kernels, m_api, m_nvtx, m_osrt, m_libraries}
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    m_tabs->addTab(m_kernels, tr("Kernels"));
    m_tabs->addTab(m_api, tr("CUDA API"));
    m_tabs->addTab(m_nvtx, tr("NVTX"));
    m_tabs->addTab(m_osrt, tr("OS runtime"));
    m_tabs->addTab(m_libraries, tr("cuDNN/cuBLAS"));
    for (TableBox *box : m_boxes)
        exportTable(box);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (index >= 0 && session() && !m_upToDate[std::size_t(index)])
            computeSummaries({index});
    });
    // Double-click: search the timeline for the row's name (its last
    // column; NVTX ranges are "domain:name").
    for (TableBox *box : m_boxes)
        connect(box, &TableBox::rowActivated, this, [this, box](int row) {
            const ResultTable &t = box->model()->table();
            QString name = t.cell(std::size_t(row), t.columnCount() - 1).text;
            if (box == m_nvtx)
                name = name.mid(name.indexOf(QLatin1Char(':')) + 1);
            emit searchRequested(name);
        });
}

void SummaryPanel::refresh()
{
    if (!session())
        return;
    m_upToDate.fill(false);
    if (computesOnlyWhenShown())
        computeSummaries({m_tabs->currentIndex()});
    else
        computeSummaries({0, 1, 2, 3, 4});
}

void SummaryPanel::computeRemainingParts()
{
    if (!session())
        return;
    std::vector<int> missing;
    for (int i = 0; i < int(m_boxes.size()); ++i)
        if (!m_upToDate[std::size_t(i)])
            missing.push_back(i);
    if (!missing.empty())
        computeSummaries(missing);
}

void SummaryPanel::computeSummaries(std::vector<int> indices)
{
    const Session *s = session();
    const stats::StatsScope sc = scope();
    using Tables = std::vector<std::pair<int, ResultTable>>;
    // One job for all of them: a newer job drops an older one's results.
    run<Tables>(
        [s, sc, indices] {
            using Summary = ResultTable (*)(const stats::Slices &);
            static constexpr Summary kSummaries[] = {[](const stats::Slices &sl) { return stats::cudaGpuKernSum(sl); }, stats::cudaApiSum,
                                                     stats::nvtxSum, stats::osrtSum, stats::cudaLibrarySum};
            const auto slices = stats::slicesOf(*s, sc);
            Tables tables;
            for (int i : indices)
                tables.emplace_back(i, kSummaries[i](slices));
            return tables;
        },
        [this](Tables tables) {
            for (auto &[i, table] : tables) {
                m_boxes[std::size_t(i)]->setTable(std::move(table));
                m_upToDate[std::size_t(i)] = true;
            }
        });
}

} // namespace rankscope
