#include "panels/gapspanel.h"

#include "core/units.h"
#include "panels/chartfactory.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/diagnosis/diagnosis.h"
#include "theme/theme.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace rankscope {

using namespace stats;

QString describeMainActivity(const GpuGapInfo &gap)
{
    const CpuActivity *main = gap.mainActivity();
    if (!main)
        return QObject::tr("no traced CPU activity");
    return QObject::tr("%1 covers %2% of this gap%3")
        .arg(main->name)
        .arg(int(std::lround(main->share * 100)))
        .arg(main->mainThread ? QString() : QObject::tr(" (not on the training thread)"));
}

GapsPanel::GapsPanel(QWidget *parent)
    : StatsPanel(parent), m_rule(new QComboBox(this)), m_threshold(new QDoubleSpinBox(this)), m_gaps(new TableBox(tr("GPU gaps"), this)),
      m_activity(new TableBox(tr("CPU activity during the selected gap"), this))
{
    auto *layout = new QVBoxLayout(this);
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("List"), this));
    // nsys' 500 ms rule finds a stalled pipeline but hides per-step stalls:
    // a step is often shorter than that. The loop's own scale comes first.
    m_rule->addItem(
        tr("stalls of the training loop: gaps of at least %1% of its median step").arg(100.0 * DiagnosisThresholds{}.inLoopGapShareOfStep));
    m_rule->addItem(tr("every gap (nsys' gpu_gaps rule) of at least"));
    controls->addWidget(m_rule);
    m_threshold->setRange(0.001, 1e6);
    m_threshold->setDecimals(3);
    m_threshold->setSuffix(tr(" ms"));
    m_threshold->setValue(500.0); // nsys' default
    m_threshold->setEnabled(false);
    controls->addWidget(m_threshold);
    connect(m_rule, &QComboBox::currentIndexChanged, this, [this](int rule) {
        m_threshold->setEnabled(rule == 1);
        refresh();
    });
    controls->addStretch(1);
    layout->addLayout(controls);
    layout->addWidget(chartsOverTables(this, {{&m_utilization, 3}, {&m_histogram, 2}}, {{m_gaps, 3}, {m_activity, 2}}), 1);
    exportTable(m_gaps);
    exportTable(m_activity);
    exportChart(&m_utilization, QStringLiteral("gpu_utilization.png"));
    exportChart(&m_histogram, QStringLiteral("gap_histogram.png"));
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, [this] { refresh(); });
    connect(m_gaps, &TableBox::rowSelected, this, &GapsPanel::showActivity);
    // Double-click: the gap on its rank's GPU row, outlined, and in Details.
    connect(m_gaps, &TableBox::rowActivated, this, [this](int row) {
        if (row < 0 || std::size_t(row) >= m_found.size())
            return;
        const GpuGapInfo &g = m_found[std::size_t(row)];
        const TimeNs zero = session()->extent().start;
        TimeMark mark{g.rankIndex, g.deviceId, g.time, std::nullopt, tr("GPU gap"), {}};
        mark.fields << std::pair{tr("Rank"), QString::number(g.rank)} << std::pair{tr("GPU"), QString::number(g.deviceId)}
                    << std::pair{tr("Start"), formatTimestamp(g.time.start - zero)} << std::pair{tr("Duration"), formatDuration(g.time.duration())}
                    << std::pair{tr("CPU meanwhile"), describeMainActivity(g)};
        if (g.medianStep > 0)
            mark.fields << std::pair{
                tr("Length"),
                tr("%1 median steps of %2").arg(double(g.time.duration()) / double(g.medianStep), 0, 'f', 2).arg(formatDuration(g.medianStep))};
        emit markRequested(mark);
    });
}

void GapsPanel::setThresholdMs(double ms)
{
    const QSignalBlocker quiet(m_threshold);
    m_threshold->setValue(ms);
    if (m_rule->currentIndex() == 1)
        refresh();
    else
        m_rule->setCurrentIndex(1);
}

void GapsPanel::setInLoopRule()
{
    m_rule->setCurrentIndex(0);
}

bool GapsPanel::usesInLoopRule() const
{
    return m_rule->currentIndex() == 0;
}

namespace {
// A busy run has hundreds of thousands of short gaps: the table lists the
// longest (each with its CPU activity) and says how many there are.
constexpr std::size_t kListedGaps = 1000;
} // namespace

void GapsPanel::refresh()
{
    if (!session())
        return;
    const StatsScope sc = scope();
    // The Diagnosis' thresholds, from the workspace: both say the same of a gap.
    const DiagnosisThresholds &th = workspace()->settings().diagnosis;
    const GapRule rule{usesInLoopRule(), th.inLoopGapShareOfStep, th.inLoopGapWithoutSteps, TimeNs(m_threshold->value() * 1e6)};
    const ResultKey key{ResultKind::GpuGaps, sc, {}, {rule.inLoop, rule.minimum}};
    run<std::shared_ptr<const GapsOverview>>(
        [w = workspace(), sc, rule, key] {
            return w->result<GapsOverview>(key, [&] { return gapsOverview(*w->session(), sc, rule, 8, kListedGaps, 100); });
        },
        [this](std::shared_ptr<const GapsOverview> r) {
            m_gaps->setTitle(r->found > r->gaps.size() ? tr("GPU gaps: the %L1 longest of %L2").arg(r->gaps.size()).arg(r->found) : tr("GPU gaps"));
            present(r->gaps, r->utilization, r->histogram);
        });
}

void GapsPanel::present(std::vector<GpuGapInfo> found, const std::vector<UtilizationSeries> &utilization,
                        const std::vector<GapHistogramBin> &histogram)
{
    const TimeNs zero = session()->extent().start;
    m_found = std::move(found);
    ResultTable gaps;
    gaps.name = QStringLiteral("gpu_gaps_with_cpu_activity");
    gaps.headers = QStringList{
        tr("Rank"),          tr("GPU"), tr("Start (s)"), tr("Duration (ns)"), tr("Duration"), tr("Main CPU activity"), tr("Length (median steps)"),
        tr("CPU sampled in")};
    for (const GpuGapInfo &g : m_found)
        gaps.addRow({Cell::ofInteger(g.rank), Cell::ofInteger(g.deviceId), Cell::ofDecimal(double(g.time.start - zero) / 1e9, 6),
                     Cell::ofInteger(g.time.duration()), Cell::ofText(formatDuration(g.time.duration())), Cell::ofText(describeMainActivity(g)),
                     // How many typical steps the stall costs: 1.00 is a whole step, 0.10
                     // the in-loop rule's least (a share of the step would pass 100%).
                     g.medianStep > 0 ? Cell::ofDecimal(double(g.time.duration()) / double(g.medianStep), 2) : Cell::ofText(QString()),
                     Cell::ofText(stats::sampledSharesText(g.sampled))});
    m_gaps->setTable(gaps);
    showActivity(m_found.empty() ? -1 : 0);

    std::vector<charts::Series> series;
    for (const UtilizationSeries &u : utilization) {
        charts::Series s{tr("Rank %1 GPU %2").arg(session()->ranks()[std::size_t(u.rankIndex)].rank).arg(u.deviceId),
                         Theme::seriesColor(int(series.size())),
                         {},
                         {}};
        for (std::size_t i = 0; i < u.start.size(); ++i) {
            const double x0 = double(u.start[i] - zero) / 1e9, x1 = double(u.start[i] + u.chunk - zero) / 1e9;
            s.points.emplace_back(x0, u.percent[i]); // steps: flat across each chunk
            s.points.emplace_back(x1, u.percent[i]);
        }
        series.push_back(std::move(s));
    }
    replaceWidget(m_utilization, charts::areaChart(tr("GPU utilisation over time"), series, tr("session time (s)"), tr("in use (%)"), this));
    QStringList categories;
    charts::Series counts{tr("gaps"), Theme::neutralSeriesColor(), {}, {}};
    for (const GapHistogramBin &b : histogram) {
        categories << formatDuration(b.from).replace(QStringLiteral(".000"), QString());
        counts.values.push_back(double(b.count));
    }
    replaceWidget(m_histogram, charts::barChart(tr("Idle gaps by length (≥ 1 µs, decades)"), categories, {counts}, tr("gaps"), nullptr, this));
}

void GapsPanel::showActivity(int gapRow)
{
    ResultTable t;
    t.name = QStringLiteral("gap_cpu_activity");
    t.headers = QStringList{tr("Name"), tr("Source"), tr("Thread"), tr("Covered (ns)"), tr("Share of gap (%)")};
    if (gapRow >= 0 && std::size_t(gapRow) < m_found.size())
        for (const CpuActivity &a : m_found[std::size_t(gapRow)].activity)
            t.addRow({Cell::ofText(a.name), Cell::ofText(a.source), Cell::ofText(a.mainThread ? tr("training") : tr("other")),
                      Cell::ofInteger(a.covered), Cell::ofDecimal(a.share * 100, 1)});
    // The functions the CPU was sampled in: share of the gap's samples, not of its time.
    if (gapRow >= 0 && std::size_t(gapRow) < m_found.size())
        for (const stats::SampledShare &s : m_found[std::size_t(gapRow)].sampled)
            t.addRow({Cell::ofText(sampledFunctionText(s)), Cell::ofText(tr("CPU samples")), Cell::ofText(tr("any")), Cell::ofText(QString()),
                      Cell::ofDecimal(s.share * 100, 1)});
    m_activity->setTable(t);
}

} // namespace rankscope
