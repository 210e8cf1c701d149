#include "panels/rankspanel.h"

#include "panels/chartfactory.h"
#include "panels/patterndialog.h"
#include "panels/rankheatmap.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/rankcomparison.h"
#include "stats/sampling/samplingcomparison.h"
#include "theme/theme.h"

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include <map>

namespace rankscope {

RanksPanel::RanksPanel(QWidget *parent)
    : StatsPanel(parent), m_table(new TableBox(tr("Rank comparison"), this)), m_sampling(new TableBox(tr("CPU samples by rank"), this)),
      m_heatmap(new RankHeatmap(this)), m_measure(new QComboBox(this)), m_mapNote(new QLabel(this)), m_classes(new QLabel(this))
{
    // Durations in units and counts grouped; the exact values in tooltips and exports.
    m_table->model()->setReadable(true);
    // The rank that made the others wait first (several ranks); one rank's
    // table has no such column and keeps its order.
    m_table->setDefaultSort(QStringLiteral("Delay Caused (ns)"), Qt::DescendingOrder);
    auto *layout = new QVBoxLayout(this);
    auto *hint = new QLabel(tr("The GPU span split so that each nanosecond counts once: compute, else communication, "
                               "else memory, else idle. Shaded: the worst rank of each column (longest, most idle; "
                               "at collectives, the one that caused the most delay). Communication and the time waited "
                               "at collectives are not shaded: the rank that waits longest is waiting for a straggler, "
                               "not the straggler."),
                            this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    auto *classesRow = new QHBoxLayout;
    m_classes->setTextFormat(Qt::PlainText); // the user's pattern can hold < and >
    m_mapNote->setTextFormat(Qt::PlainText);
    m_classes->setWordWrap(true);
    m_classes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    classesRow->addWidget(m_classes, 1);
    auto *edit = new QPushButton(tr("Communication kernels..."), this);
    edit->setToolTip(tr("Which kernel names count as communication (a regular expression)"));
    connect(edit, &QPushButton::clicked, this, &RanksPanel::editCommunicationPattern);
    classesRow->addWidget(edit);
    layout->addLayout(classesRow);
    auto *mapBox = new QWidget(this);
    auto *mapLayout = new QVBoxLayout(mapBox);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    auto *mapRow = new QHBoxLayout;
    m_measure->addItem(tr("GPU busy"));
    m_measure->addItem(tr("Waiting in collectives"));
    m_measure->addItem(tr("GPU busy without communication wait"));
    m_measure->setToolTip(tr("What each cell's colour shows: the share of its time the rank's GPU ran a kernel, copy or memset; "
                             "the share its communication kernels waited for the last rank to arrive; or the first less the "
                             "second, so that ranks waiting for a straggler look idle and the straggler stands out"));
    mapRow->addWidget(new QLabel(tr("Rank × time:"), mapBox));
    mapRow->addWidget(m_measure);
    mapRow->addWidget(m_mapNote, 1);
    mapLayout->addLayout(mapRow);
    // Ranks keep a readable height and scroll (64 ranks at 2 px each told nothing).
    m_mapScroll = new QScrollArea(mapBox);
    m_mapScroll->setWidget(m_heatmap);
    m_mapScroll->setWidgetResizable(true);
    m_mapScroll->setFrameShape(QFrame::NoFrame);
    m_mapScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    mapLayout->addWidget(m_mapScroll, 1);
    connect(m_measure, &QComboBox::currentIndexChanged, this, [this] { refreshWhenShown(); });
    connect(m_heatmap, &RankHeatmap::binActivated, this, [this](int, TimeRange range) { emit zoomRequested(range); });
    // The table, and beside it each rank's span as stacked shares.
    auto *tableRow = new QSplitter(Qt::Horizontal, this);
    tableRow->addWidget(m_table);
    auto *breakdownBox = new QWidget(tableRow);
    auto *breakdownLayout = new QVBoxLayout(breakdownBox);
    breakdownLayout->setContentsMargins(0, 0, 0, 0);
    m_breakdown = new QWidget(breakdownBox);
    breakdownLayout->addWidget(m_breakdown);
    tableRow->addWidget(breakdownBox);
    breakdownBox->setMinimumWidth(kBreakdownMinimumWidth); // rank names, bars and the legend under them
    tableRow->setStretchFactor(0, 3);
    tableRow->setStretchFactor(1, 1);
    tableRow->setChildrenCollapsible(false);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(mapBox);
    split->addWidget(tableRow);
    // The ranks' CPU samples side by side (only when a rank has them): the
    // function a slow rank spends the samples in that the others do not.
    m_sampling->setToolTip(tr("Each function's share of each rank's CPU samples, the largest difference first"));
    m_sampling->hide();
    split->addWidget(m_sampling);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    exportTable(m_table);
    exportTable(m_sampling);
    exportChart(&m_breakdown, QStringLiteral("rank_breakdown.png"));
    describeClasses();
}

bool RanksPanel::setCommunicationPattern(const QString &pattern)
{
    if (!stats::KernelClassifier::patternError(pattern).isEmpty())
        return false;
    if (pattern == m_communicationPattern)
        return true;
    m_communicationPattern = pattern;
    describeClasses();
    // A dock gives every panel the workspace with the new pattern; a panel
    // alone makes its own.
    emit communicationPatternChanged(pattern);
    if (workspace() && workspace()->settings().communicationPattern != pattern) {
        AnalysisSettings settings = workspace()->settings();
        settings.communicationPattern = pattern;
        setWorkspace(workspace()->withSettings(settings));
    }
    return true;
}

QString RanksPanel::classesDescription() const
{
    return m_classes->text();
}

void RanksPanel::describeClasses()
{
    const auto classes = stats::KernelClassifier::rankscope(m_communicationPattern);
    m_classes->setText(classes.isUserPattern() ? tr("Communication kernels: names matching your pattern %1").arg(classes.communicationPattern())
                                               : tr("Communication kernels: %1 (built-in patterns)").arg(classes.description()));
    m_classes->setToolTip(classes.communicationPattern());
}

void RanksPanel::editCommunicationPattern()
{
    const QString shown = m_communicationPattern.isEmpty() ? stats::defaultCommunicationPattern() : m_communicationPattern;
    if (const auto pattern = askPattern(this, tr("Communication kernels"),
                                        tr("Kernels whose name matches this regular expression count as communication\n"
                                           "(anywhere in the name; (?i) makes it case-insensitive). Empty: the built-in patterns."),
                                        shown, &stats::KernelClassifier::patternError))
        setCommunicationPattern(*pattern == stats::defaultCommunicationPattern() ? QString() : *pattern); // the default is the built-in table
}

void RanksPanel::refresh()
{
    if (!session())
        return;
    // All ranks are compared even when one is chosen elsewhere: a
    // comparison of one is none.
    stats::StatsScope scope = this->scope();
    scope.rankIndex.reset();
    const Session *s = session();
    // The map over the same range: the selection, else where the GPUs work
    // (a session's first seconds are often the host starting up).
    // One computation for both: run() keeps only the newest request's result.
    const TimeRange range = scope.range ? *scope.range : stats::gpuActiveRange(*s);
    enum Measure { Busy, Waits, BusyWithoutWaits };
    const auto measure = Measure(m_measure->currentIndex());
    struct Result {
        ResultTable table;
        std::optional<ResultTable> sampling; // when a rank has CPU samples
        stats::RankTimeMap map;
        QString note;
        std::shared_ptr<const stats::CollectiveMatch> match; // none for one rank's busy map
    };
    run<Result>(
        [w = workspace(), s, scope, range, measure] {
            const stats::KernelClassifier &classes = w->classes();
            Result result;
            // The waits columns (several ranks) and the map of waits read it.
            if (s->ranks().size() > 1 || measure != Busy)
                result.match = w->collectiveMatch(MatchClock::Recorded);
            // Kept per scope in the workspace: going back to a selection or a
            // measure shows it at once.
            result.table = *w->result<ResultTable>({ResultKind::RankComparison, scope, {}, {result.match != nullptr}},
                                                   [&] { return stats::rankComparisonTable(*s, scope, classes, result.match.get()); });
            if (std::any_of(s->ranks().begin(), s->ranks().end(), [](const RankEntry &e) { return !e.report->sampling.samples.empty(); }))
                result.sampling =
                    *w->result<ResultTable>({ResultKind::CpuSamplingByRank, scope}, [&] { return stats::samplingByRankTable(*s, {}, scope.range); });
            const stats::StatsScope mapScope{range, std::nullopt};
            if (measure == Busy) {
                result.map = *w->result<stats::RankTimeMap>({ResultKind::GpuBusyMap, mapScope, {}, {kHeatmapBins}},
                                                            [&] { return stats::gpuBusyMap(*s, range, kHeatmapBins); });
                return result;
            }
            if (measure == BusyWithoutWaits) {
                result.map = *w->result<stats::RankTimeMap>({ResultKind::GpuBusyWithoutWaitMap, mapScope, MatchClock::Recorded, {kHeatmapBins}},
                                                            [&] { return stats::gpuBusyWithoutWaitMap(*s, *result.match, range, kHeatmapBins); });
                if (result.match->instances.empty())
                    result.note = tr("No collectives matched across the ranks: the same as GPU busy.");
                return result;
            }
            result.map = *w->result<stats::RankTimeMap>({ResultKind::CollectiveWaitMap, mapScope, MatchClock::Recorded, {kHeatmapBins}},
                                                        [&] { return stats::collectiveWaitMap(*s, *result.match, range, kHeatmapBins); });
            if (result.match->instances.empty())
                result.note = tr("No collectives matched across the ranks: nobody waits.");
            return result;
        },
        [this](Result r) {
            m_match = r.match;
            m_sampling->setVisible(r.sampling.has_value());
            m_sampling->setTable(r.sampling ? std::move(*r.sampling) : ResultTable{});
            present(std::move(r.table));
            presentMap(std::move(r.map), std::move(r.note));
        });
}

void RanksPanel::presentMap(stats::RankTimeMap map, QString note)
{
    QStringList names;
    for (const int rankIndex : map.rankIndices)
        names << session()->ranks()[std::size_t(rankIndex)].displayName();
    m_mapNote->setText(note);
    m_heatmap->setMap(std::move(map), names, m_measure->currentText(), session()->extent().start);
    // A few ranks are shown whole; many scroll in up to kMapMaximumHeight.
    m_mapScroll->setMinimumHeight(std::min(std::max(m_heatmap->sizeHint().height(), m_heatmap->minimumSizeHint().height()), kMapMaximumHeight));
}

void RanksPanel::present(ResultTable t)
{
    const auto worseIsHigher = stats::rankComparisonWorseIsHigher();
    std::set<std::pair<int, int>> worst;
    if (t.rowCount() > 1)
        for (std::size_t c = 0; c < worseIsHigher.size() && c < std::size_t(t.headers.size()); ++c) {
            if (!worseIsHigher[c])
                continue;
            int best = -1;
            bool differ = false; // all ranks equal: nobody is worst
            for (std::size_t r = 0; r < t.rowCount(); ++r) {
                const Cell cell = t.cell(r, c);
                if (!cell.isNumber())
                    continue;
                if (best >= 0 && cell.toDouble() != t.numberAt(std::size_t(best), c))
                    differ = true;
                if (best < 0
                    || (*worseIsHigher[c] ? cell.toDouble() > t.numberAt(std::size_t(best), c) : cell.toDouble() < t.numberAt(std::size_t(best), c)))
                    best = int(r);
            }
            if (best >= 0 && differ)
                worst.insert({best, int(c)});
        }
    presentBreakdown(t);
    m_table->setTable(std::move(t));
    m_table->model()->setHighlighted(std::move(worst));
}

void RanksPanel::presentBreakdown(const ResultTable &table)
{
    m_shares = stats::rankTimeSharesOf(table);
    // Ranks in the order the table opens in: the one that made the others wait first.
    if (const qsizetype delay = table.headers.indexOf(QStringLiteral("Delay Caused (ns)")); delay >= 0) {
        std::map<int, double> delayOf;
        for (std::size_t r = 0; r < table.rowCount(); ++r)
            delayOf[int(table.numberAt(r, 0))] = table.numberAt(r, std::size_t(delay)); // column 0: Rank
        std::stable_sort(m_shares.begin(), m_shares.end(),
                         [&](const stats::RankTimeShares &a, const stats::RankTimeShares &b) { return delayOf[a.rank] > delayOf[b.rank]; });
    }
    QStringList categories;
    charts::Series compute{tr("Compute"), Theme::seriesColor(0), {}, {}, false};
    charts::Series communication{tr("Exposed communication"), Theme::seriesColor(1), {}, {}, false};
    charts::Series memory{tr("Exposed memory"), Theme::seriesColor(2), {}, {}, false};
    charts::Series idle{tr("Idle"), Theme::neutralSeriesColor(), {}, {}, false};
    for (const stats::RankTimeShares &s : m_shares) {
        categories << tr("rank %1").arg(s.rank);
        compute.values.push_back(s.compute);
        communication.values.push_back(s.communication);
        memory.values.push_back(s.memory);
        idle.values.push_back(s.idle);
    }
    replaceWidget(m_breakdown, charts::shareBarChart(tr("GPU time per rank (%)"), categories, {compute, communication, memory, idle}, nullptr, this));
}

} // namespace rankscope
