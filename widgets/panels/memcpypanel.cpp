#include "panels/memcpypanel.h"

#include "core/units.h"
#include "panels/chartfactory.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/nsys/nsysreports.h"
#include "theme/theme.h"

#include <QDir>
#include <QLabel>
#include <QVBoxLayout>

#include <map>
#include <set>

namespace rankscope {

using namespace stats;

QString powerOfTwoLabel(int log2Bytes)
{
    if (log2Bytes < 0)
        return QStringLiteral("0 B");
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    return QStringLiteral("%1 %2").arg(std::uint64_t(1) << (log2Bytes % 10)).arg(QLatin1String(units[std::min(log2Bytes / 10, 4)]));
}

namespace {

QString shareText(const char *what, const HostMemoryShare &s)
{
    if (s.pageableBytes + s.pinnedBytes == 0)
        return QStringLiteral("%1: no copies").arg(QLatin1String(what));
    return QStringLiteral("%1: %2% of bytes and %3% of copy time from pageable memory")
        .arg(QLatin1String(what))
        .arg(qRound(s.pageableByteShare() * 100))
        .arg(qRound(s.pageableTimeShare() * 100));
}

} // namespace

MemcpyPanel::MemcpyPanel(QWidget *parent)
    : StatsPanel(parent), m_advice(new QLabel(this)), m_share(new QLabel(this)), m_sizes(new TableBox(tr("CUDA GPU MemOps Summary (by Size)"), this)),
      m_times(new TableBox(tr("CUDA GPU MemOps Summary (by Time)"), this))
{
    auto *layout = new QVBoxLayout(this);
    m_advice->setTextFormat(Qt::PlainText); // may quote names from the trace
    m_share->setTextFormat(Qt::PlainText);
    m_advice->setWordWrap(true);
    const Theme theme(palette());
    m_advice->setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; padding: 6px; border-radius: 4px; }")
                                .arg(theme.adviceBackground().name(), theme.adviceText().name()));
    layout->addWidget(m_advice);
    layout->addWidget(m_share);
    layout->addWidget(chartsOverTables(this, {{&m_histogram, 1}, {&m_scatter, 1}}, {{m_sizes, 0}, {m_times, 0}}), 1);
    exportTable(m_sizes);
    exportTable(m_times);
    exportChart(&m_histogram, QStringLiteral("memcpy_sizes.png"));
    exportChart(&m_scatter, QStringLiteral("memcpy_throughput.png"));
}

namespace {
struct MemcpyResult {
    ResultTable sizes, times;
    MemcpyAnalysis analysis;
};
} // namespace

void MemcpyPanel::refresh()
{
    if (!session())
        return;
    const StatsScope sc = scope();
    run<std::shared_ptr<const MemcpyResult>>(
        [w = workspace(), sc] {
            return w->result<MemcpyResult>({ResultKind::MemoryTransfers, sc}, [&] {
                const auto slices = slicesOf(*w->session(), sc);
                return MemcpyResult{cudaGpuMemSizeSum(slices), cudaGpuMemTimeSum(slices), analyzeMemcpy(*w->session(), sc)};
            });
        },
        [this](std::shared_ptr<const MemcpyResult> r) { present(r->sizes, r->times, r->analysis); });
}

void MemcpyPanel::present(ResultTable sizes, ResultTable times, const MemcpyAnalysis &a)
{
    m_sizes->setTable(std::move(sizes));
    m_times->setTable(std::move(times));
    m_advice->setText(a.advice);
    m_advice->setVisible(!a.advice.isEmpty());
    m_share->setText(shareText("Host to device", a.hostToDevice) + QStringLiteral(" · ") + shareText("Device to host", a.deviceToHost)
                     + QLatin1Char('\n')
                     + tr("(Advice on pinned memory appears when pageable copies are most of the host-to-device bytes or time "
                          "and add up to at least %1 or %2.)")
                           .arg(formatDuration(kPageableAdviceMinTime), formatBinarySize(kPageableAdviceMinBytes)));

    // Histogram: one category per power-of-two bin seen, one series per
    // direction that copied anything.
    std::set<int> binKeys;
    std::set<int> directions;
    for (const TransferBin &b : a.bins) {
        binKeys.insert(b.log2Bytes);
        directions.insert(int(b.direction));
    }
    const std::vector<int> keys(binKeys.begin(), binKeys.end());
    QStringList categories;
    for (int k : keys)
        categories << powerOfTwoLabel(k);
    std::vector<charts::Series> series;
    std::vector<Direction> seriesDirection;
    for (int d : directions) {
        charts::Series s{directionName(Direction(d)), Theme::transferColor(Direction(d)), std::vector<double>(keys.size(), 0.0), {}};
        for (const TransferBin &b : a.bins)
            if (int(b.direction) == d)
                s.values[std::size_t(std::find(keys.begin(), keys.end(), b.log2Bytes) - keys.begin())] = double(b.count);
        series.push_back(std::move(s));
        seriesDirection.push_back(Direction(d));
    }
    replaceWidget(m_histogram,
                  charts::barChart(
                      tr("Transfer sizes (count per power-of-two bin; click a bar to select)"), categories, series, tr("copies"),
                      [this, keys, seriesDirection](int s, int c) { selectBin(seriesDirection[std::size_t(s)], keys[std::size_t(c)]); }, this));
    std::vector<charts::Series> points;
    for (int d : directions) {
        for (bool pageable : {false, true}) {
            charts::Series s{directionName(Direction(d)) + (pageable ? tr(" (pageable)") : QString()),
                             pageable ? Theme::pageableTransferColor(Direction(d)) : Theme::transferColor(Direction(d)),
                             {},
                             {},
                             pageable};
            for (const TransferPoint &p : a.points)
                if (int(p.direction) == d && p.pageable == pageable)
                    s.points.emplace_back(double(p.bytes), p.gigabytesPerSecond);
            if (!s.points.empty())
                points.push_back(std::move(s));
        }
    }
    replaceWidget(m_scatter, charts::scatterChart(tr("Size against throughput"), points, tr("transfer size"), tr("GB/s"),
                                                  charts::LogAxis{[](int k) { return powerOfTwoLabel(k); }}, this));
}

void MemcpyPanel::selectBin(Direction direction, int log2Bytes)
{
    if (session())
        emit eventsSelected(transfersInBin(*session(), scope(), direction, log2Bytes));
}

QString MemcpyPanel::adviceText() const
{
    return m_advice->text();
}

} // namespace rankscope
