#include "panels/comparepanel.h"
#include "stats/ranks/collectives.h"

#include "core/units.h"
#include "panels/chartfactory.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "theme/theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rankscope {

using namespace stats;

namespace {

// The reports of the difference table, in the order of the Report box.
constexpr DiffReport kReports[] = {DiffReport::Kernels, DiffReport::Nvtx, DiffReport::Api, DiffReport::Memcpy};
const char *const kReportTitles[] = {
    QT_TRANSLATE_NOOP("rankscope::ComparePanel", "Kernels"), QT_TRANSLATE_NOOP("rankscope::ComparePanel", "NVTX ranges (by path)"),
    QT_TRANSLATE_NOOP("rankscope::ComparePanel", "CUDA API calls"), QT_TRANSLATE_NOOP("rankscope::ComparePanel", "Memory copies (by kind)")};
constexpr int kStepHistogramBins = 12;

QString fileNamesOf(const Session &s, const std::vector<int> &rankIndices)
{
    QStringList names;
    for (int i : rankIndices)
        names << QFileInfo(s.ranks()[std::size_t(i)].report->filePath).fileName();
    names.removeDuplicates();
    return names.size() > 2 ? QObject::tr("%1 and %n more", nullptr, int(names.size() - 1)).arg(names.front()) : names.join(QStringLiteral(", "));
}

} // namespace

ComparePanel::ComparePanel(QWidget *parent)
    : StatsPanel(parent), m_sideA(new QComboBox(this)), m_sideB(new QComboBox(this)), m_report(new QComboBox(this)),
      m_normalize(new QCheckBox(tr("Kernel names without template arguments and hashes"), this)), m_note(new QLabel(this)),
      m_diff(new TableBox(tr("Difference, largest change of total time first"), this)),
      m_steps(new TableBox(tr("Steps, step k of A beside step k of B"), this)), m_collectives(new TableBox(tr("Collectives: skew and waits"), this))
{
    // Durations in units and counts grouped; the exact values in tooltips and exports.
    for (TableBox *table : {m_diff, m_steps, m_collectives})
        table->model()->setReadable(true);
    auto *layout = new QVBoxLayout(this);
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Compare A"), this));
    controls->addWidget(m_sideA, 1);
    controls->addWidget(new QLabel(tr("with B"), this));
    controls->addWidget(m_sideB, 1);
    controls->addWidget(new QLabel(tr("by"), this));
    for (const char *title : kReportTitles)
        m_report->addItem(tr(title));
    controls->addWidget(m_report);
    controls->addWidget(m_normalize);
    layout->addLayout(controls);
    m_note->setWordWrap(true);
    layout->addWidget(m_note);
    auto *right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_steps);
    right->addWidget(m_collectives);
    m_collectives->hide(); // until there are collectives to compare
    QSplitter *split = chartsOverTables(this, {{&m_distribution, 1}, {&m_busy, 1}}, {{m_diff, 3}, {right, 2}});
    m_charts = split->widget(0);
    layout->addWidget(split, 1);
    exportTable(m_diff);
    exportTable(m_steps);
    exportTable(m_collectives);
    exportChart(&m_distribution, QStringLiteral("step_time_distribution.png"));
    exportChart(&m_busy, QStringLiteral("gpu_busy_per_step.png"));
    for (QComboBox *box : {m_sideA, m_sideB, m_report})
        connect(box, &QComboBox::currentIndexChanged, this, [this] { refreshWhenShown(); });
    connect(m_normalize, &QCheckBox::toggled, this, [this] { refreshWhenShown(); });
    connect(m_diff, &TableBox::rowSelected, this, [this](int row) {
        if (row >= 0)
            emit eventsSelected(eventsOfRow(row));
    });
}

void ComparePanel::setSides(int a, int b)
{
    m_sideA->setCurrentIndex(a);
    m_sideB->setCurrentIndex(b);
}

QStringList ComparePanel::choiceNames() const
{
    QStringList names;
    for (const Choice &c : m_choices)
        names << c.name;
    return names;
}

void ComparePanel::setReport(DiffReport report)
{
    const auto at = std::find(std::begin(kReports), std::end(kReports), report);
    if (at != std::end(kReports))
        m_report->setCurrentIndex(int(at - std::begin(kReports)));
}

void ComparePanel::setNormalizeKernelNames(bool normalize)
{
    m_normalize->setChecked(normalize);
}

DiffReport ComparePanel::report() const
{
    return kReports[std::clamp(m_report->currentIndex(), 0, int(std::size(kReports)) - 1)];
}

DiffOptions ComparePanel::options() const
{
    DiffOptions options;
    options.normalizeKernelNames = m_normalize->isChecked();
    return options;
}

void ComparePanel::sessionChanged()
{
    const Session *s = session();
    m_choices.clear();
    if (s) {
        // Whole runs first (a comparison), then every rank on its own:
        // rank vs rank is the same question asked of one session.
        for (RunSide side : {RunSide::A, RunSide::B}) {
            const std::vector<int> ranks = s->rankIndicesOf(side);
            if (!ranks.empty())
                m_choices.push_back(
                    {tr("Run %1: %2 (%n rank(s))", nullptr, int(ranks.size())).arg(runSideName(side), fileNamesOf(*s, ranks)), ranks});
        }
        for (int i = 0; i < int(s->ranks().size()); ++i)
            m_choices.push_back({s->ranks()[std::size_t(i)].displayName() + QStringLiteral(" · ") + fileNamesOf(*s, {i}), {i}});
    }
    const QSignalBlocker blockA(m_sideA), blockB(m_sideB);
    m_sideA->clear();
    m_sideB->clear();
    for (const Choice &c : m_choices) {
        m_sideA->addItem(c.name);
        m_sideB->addItem(c.name);
    }
    // Run A against run B; in one session, its first rank against its second.
    m_sideA->setCurrentIndex(m_choices.empty() ? -1 : 0);
    m_sideB->setCurrentIndex(m_choices.size() > 1 ? 1 : -1);
}

void ComparePanel::refresh()
{
    const int a = m_sideA->currentIndex(), b = m_sideB->currentIndex();
    if (!session() || a < 0 || b < 0 || a == b) {
        present({});
        m_note->setText(tr("Choose two different runs or ranks. To compare with another run, open it with File > Compare With..."));
        return;
    }
    m_note->setText(tr("Whole runs, each side summed over its ranks; NVTX ranges are matched by their path "
                       "(\"step > forward > aten::linear\"), step numbers and PyTorch's op_id and seq left out."));
    const Session *s = session();
    const std::vector<int> ranksA = m_choices[std::size_t(a)].rankIndices, ranksB = m_choices[std::size_t(b)].rankIndices;
    const DiffReport which = report();
    const DiffOptions opts = options();
    const KernelClassifier classes = workspace()->classes();
    run<Result>(
        [s, ranksA, ranksB, which, opts, classes] {
            const Session sa = s->subset(ranksA), sb = s->subset(ranksB);
            // Each run's collectives among its own ranks (the session's match
            // pairs them across both runs).
            return Result{diffRuns(sa, sb, which, opts), diffSteps(sa, sb, opts),
                          diffCollectives(matchCollectives(sa, classes), matchCollectives(sb, classes))};
        },
        [this](Result r) { present(std::move(r)); });
}

std::vector<EventLocation> ComparePanel::eventsOfRow(int row) const
{
    const int a = m_sideA->currentIndex(), b = m_sideB->currentIndex();
    if (!session() || row < 0 || std::size_t(row) >= m_rows.size() || a < 0 || b < 0)
        return {};
    std::vector<EventLocation> events;
    for (const std::vector<int> *ranks : {&m_choices[std::size_t(a)].rankIndices, &m_choices[std::size_t(b)].rankIndices})
        for (EventLocation e : eventsOfDiffRow(session()->subset(*ranks), report(), options(), m_rows[std::size_t(row)].name)) {
            e.rank = (*ranks)[std::size_t(e.rank)]; // the subset's index -> the session's
            events.push_back(e);
        }
    return events;
}

void ComparePanel::present(Result result)
{
    m_rows = std::move(result.rows);
    m_diff->setTable(stats::diffTable(m_rows, report()));
    // What changed, right after the name (Delta, Ratio, Change and its two
    // parts), then each side's counts, totals and means: a long name must
    // not push the difference off the panel's right edge.
    QHeaderView *header = m_diff->view()->horizontalHeader();
    const int shownOrder[] = {0, 7, 8, 11, 9, 10, 1, 2, 3, 4, 5, 6};
    if (header->count() == int(std::size(shownOrder)))
        for (int visual = 0; visual < header->count(); ++visual)
            header->moveSection(header->visualIndex(shownOrder[visual]), visual);
    m_steps->setTable(stepDiffTable(result.steps));
    m_collectives->setTable(collectiveDiffTable(result.collectives));
    m_collectives->setVisible(!result.collectives.empty()); // "when present"
    showStepCharts(result.steps);
}

void ComparePanel::showStepCharts(const std::vector<StepDiff> &unordered)
{
    // Without steps the charts and the steps table would be empty boxes: the
    // difference table takes their room, and the note says why.
    m_charts->setVisible(!unordered.empty());
    m_steps->setVisible(!unordered.empty());
    if (unordered.empty()) {
        m_note->setText(m_note->text() + QLatin1Char(' ')
                        + tr("Neither side marks its training steps (PyTorch's ProfilerStep#N, NVTX \"step N\" or \"iteration N\"): "
                             "no step times to compare."));
        return;
    }
    std::vector<StepDiff> steps = unordered;
    std::sort(steps.begin(), steps.end(), [](const StepDiff &x, const StepDiff &y) { return x.index < y.index; });
    const QColor colorA = Theme::seriesColor(0), colorB = Theme::seriesColor(1);

    // Step times in equal bins from the shortest to the longest of either run.
    TimeNs lo = kTimeMax, hi = kTimeMin;
    for (const StepDiff &s : steps)
        for (const auto &d : {s.durationA, s.durationB})
            if (d) {
                lo = std::min(lo, *d);
                hi = std::max(hi, *d);
            }
    QStringList categories;
    charts::Series countsA{tr("A"), colorA, {}, {}}, countsB{tr("B"), colorB, {}, {}};
    if (lo <= hi) {
        const TimeNs width = std::max<TimeNs>(1, (hi - lo) / kStepHistogramBins + 1);
        const int bins = int((hi - lo) / width) + 1;
        countsA.values.assign(std::size_t(bins), 0);
        countsB.values.assign(std::size_t(bins), 0);
        for (int i = 0; i < bins; ++i)
            categories << formatDuration(lo + TimeNs(i) * width);
        for (const StepDiff &s : steps) {
            if (s.durationA)
                countsA.values[std::size_t((*s.durationA - lo) / width)] += 1;
            if (s.durationB)
                countsB.values[std::size_t((*s.durationB - lo) / width)] += 1;
        }
    }
    replaceWidget(m_distribution, charts::barChart(tr("Step time distribution (steps per duration bin, from)"), categories, {countsA, countsB},
                                                   tr("steps"), nullptr, this));

    charts::Series busyA{tr("A"), colorA, {}, {}}, busyB{tr("B"), colorB, {}, {}};
    busyB.squareMarkers = true;
    for (const StepDiff &s : steps) {
        if (s.durationA && s.busyA && *s.durationA > 0)
            busyA.points.emplace_back(s.index, 100.0 * double(*s.busyA) / double(*s.durationA));
        if (s.durationB && s.busyB && *s.durationB > 0)
            busyB.points.emplace_back(s.index, 100.0 * double(*s.busyB) / double(*s.durationB));
    }
    replaceWidget(
        m_busy, charts::scatterChart(tr("GPU busy per step (the rest is idle)"), {busyA, busyB}, tr("step"), tr("GPU busy (%)"), std::nullopt, this));
}

} // namespace rankscope
