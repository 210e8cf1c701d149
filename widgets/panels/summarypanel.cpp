#include "panels/summarypanel.h"

#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/nsysreports.h"

#include <array>
#include <QTabWidget>
#include <QVBoxLayout>

namespace rankscope {

SummaryPanel::SummaryPanel(QWidget *parent)
    : StatsPanel(parent), m_tabs(new QTabWidget(this)), m_kernels(new TableBox(tr("CUDA GPU Kernel Summary"), this)),
      m_api(new TableBox(tr("CUDA API Summary"), this)), m_nvtx(new TableBox(tr("NVTX Range Summary"), this)),
      m_osrt(new TableBox(tr("OS Runtime Summary"), this))
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    m_tabs->addTab(m_kernels, tr("Kernels"));
    m_tabs->addTab(m_api, tr("CUDA API"));
    m_tabs->addTab(m_nvtx, tr("NVTX"));
    m_tabs->addTab(m_osrt, tr("OS runtime"));
    for (TableBox *box : {m_kernels, m_api, m_nvtx, m_osrt})
        exportTable(box);
    // Double-click: search the timeline for the row's name (its last
    // column; NVTX ranges are "domain:name").
    for (TableBox *box : {m_kernels, m_api, m_nvtx, m_osrt})
        connect(box, &TableBox::rowActivated, this, [this, box](int row) {
            const ResultTable &t = box->model()->table();
            QString name = t.rows[std::size_t(row)].back().text;
            if (box == m_nvtx)
                name = name.mid(name.indexOf(QLatin1Char(':')) + 1);
            emit searchRequested(name);
        });
}

void SummaryPanel::refresh()
{
    if (!session())
        return;
    const Session *s = session();
    const stats::StatsScope sc = scope();
    using Tables = std::array<ResultTable, 4>;
    run<Tables>([s, sc] {
        const auto slices = stats::slicesOf(*s, sc);
        return Tables{stats::cudaGpuKernSum(slices), stats::cudaApiSum(slices), stats::nvtxSum(slices), stats::osrtSum(slices)};
    }, [this](Tables t) {
        m_kernels->setTable(std::move(t[0]));
        m_api->setTable(std::move(t[1]));
        m_nvtx->setTable(std::move(t[2]));
        m_osrt->setTable(std::move(t[3]));
    });
}

} // namespace rankscope
