#include "panels/criticalpathpanel.h"

#include "core/units.h"
#include "panels/chartfactory.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/criticalpath/criticalpathtables.h"
#include "theme/theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace rankscope {

using namespace stats;

struct CriticalPathPanel::Result {
    std::shared_ptr<const CriticalPathSolutions> solutions;
    std::vector<std::size_t> entries; // the steps in scope, a row each
    std::vector<TimeNs> starts;       // per row: where its annotations begin
    std::vector<StepPathSummary> summaries;
    int shown = -1;
    std::shared_ptr<const StepCriticalPath> shownPath;
    QStringList notes;
    bool ofRange = false; // the selected range itself, no step starting in it
};

namespace {

// A row not solved yet: its step alone.
StepPathSummary unsolved(const CriticalPathSolutions &solutions, std::size_t i)
{
    StepPathSummary s;
    s.step = solutions.stepOf(i);
    s.side = solutions.sideOf(i);
    return s;
}

// How long one quiet job solves steps before the panel shows them: the
// first few come soon, later ones in larger parts (each part rebuilds the
// chart on the GUI thread).
constexpr int kFirstPartMs = 300, kLargestPartMs = 3000;
// The steps solved after the one shown while the table has no size yet.
constexpr int kRowsBeforeLayout = 12;

} // namespace

CriticalPathPanel::CriticalPathPanel(QWidget *parent)
    : StatsPanel(parent), m_align(new QCheckBox(tr("Align ranks on collectives"), this)), m_draw(new QCheckBox(tr("Draw on the timeline"), this)),
      m_note(new QLabel(this)), m_whatIfTarget(new QComboBox(this)), m_whatIfWhat(new QLineEdit(this)), m_faster(new QSpinBox(this)),
      m_whatIfResult(new QLabel(this)), m_steps(new TableBox(tr("Steps: time on the critical path by kind"), this)),
      m_top(new TableBox(tr("Top events on the path"), this)), m_segments(new TableBox(tr("Segments of the path"), this))
{
    for (TableBox *table : {m_steps, m_top, m_segments})
        table->model()->setReadable(true);
    m_top->setDefaultSort(QStringLiteral("Time on Path (ns)"), Qt::DescendingOrder);
    auto *layout = new QVBoxLayout(this);
    m_note->setTextFormat(Qt::PlainText); // notes quote names from the traces
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_note);
    m_align->setToolTip(tr("Shift each rank so that matched collectives end together (as the Collectives panel does) before "
                           "following the path across ranks"));
    connect(m_align, &QCheckBox::toggled, this, [this] { refreshWhenShown(); });
    m_draw->setChecked(true);
    m_draw->setToolTip(tr("Outline the shown step's path on the timeline, with arrows where it crosses ranks"));
    connect(m_draw, &QCheckBox::toggled, this, [this] { presentPath(m_shown, m_shownPath); });

    auto *whatIf = new QHBoxLayout;
    whatIf->addWidget(new QLabel(tr("What if"), this));
    m_whatIfTarget->addItem(tr("kernels named"), QStringLiteral("kernel"));
    m_whatIfTarget->addItem(tr("NVTX ranges / CPU ops named"), QStringLiteral("nvtx"));
    m_whatIfTarget->addItem(tr("rank"), QStringLiteral("rank"));
    whatIf->addWidget(m_whatIfTarget);
    m_whatIfWhat->setPlaceholderText(tr("a name pattern (regular expression), or a rank number"));
    whatIf->addWidget(m_whatIfWhat, 1);
    whatIf->addWidget(new QLabel(tr("were"), this));
    m_faster->setRange(1, 99);
    m_faster->setValue(20);
    m_faster->setSuffix(tr(" % faster"));
    whatIf->addWidget(m_faster);
    auto *solve = new QPushButton(tr("Solve"), this);
    solve->setToolTip(tr("Re-solve every step over the same dependencies with those durations scaled"));
    whatIf->addWidget(solve);
    auto *clear = new QPushButton(tr("Clear"), this);
    whatIf->addWidget(clear);
    whatIf->addSpacing(12);
    m_solveAllButton = new QPushButton(tr("Solve all steps"), this);
    m_solveAllButton->setToolTip(tr("Solve every step's path, for the chart and the steps' table (the steps in view are solved as you scroll)"));
    m_solveAllButton->hide();
    connect(m_solveAllButton, &QPushButton::clicked, this, &CriticalPathPanel::solveAllSteps);
    connect(this, &StatsPanel::computationFailed, this, [this] { m_refreshing = false; });
    whatIf->addWidget(m_solveAllButton);
    whatIf->addWidget(m_align);
    whatIf->addWidget(m_draw);
    layout->addLayout(whatIf);
    m_whatIfResult->setTextFormat(Qt::PlainText);
    m_whatIfResult->setWordWrap(true);
    m_whatIfResult->hide(); // until there is a what-if
    layout->addWidget(m_whatIfResult);
    connect(solve, &QPushButton::clicked, this, &CriticalPathPanel::solveWhatIf);
    connect(m_whatIfWhat, &QLineEdit::returnPressed, this, &CriticalPathPanel::solveWhatIf);
    connect(clear, &QPushButton::clicked, this, [this] { setWhatIf(QString()); });

    // The steps' bars beside their table, the chosen step's tables below.
    auto *split = new QSplitter(Qt::Vertical, this);
    auto *stepsArea = new QWidget(split);
    auto *stepsRow = new QHBoxLayout(stepsArea);
    stepsRow->setContentsMargins(0, 0, 0, 0);
    m_chart = new QWidget(stepsArea);
    stepsRow->addWidget(m_chart, 1);
    stepsRow->addWidget(m_steps, 1);
    stepsArea->setMinimumHeight(charts::kMinimumChartHeight);
    split->setChildrenCollapsible(true);
    auto *pathArea = new QWidget(split);
    auto *pathRow = new QHBoxLayout(pathArea);
    pathRow->setContentsMargins(0, 0, 0, 0);
    pathRow->addWidget(m_top, 1);
    pathRow->addWidget(m_segments, 1);
    split->addWidget(stepsArea);
    split->addWidget(pathArea);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    exportTable(m_steps);
    exportTable(m_segments);
    exportChart(&m_chart, QStringLiteral("critical_path.png"));
    m_steps->setToolTip(tr("Click a step to draw its path on the timeline; double-click to go there"));
    m_top->setToolTip(tr("The names with the most time on the path; double-click to select the longest one"));
    m_segments->setToolTip(tr("The path from the step's start to its end; double-click a segment to select its event"));
    connect(m_steps, &TableBox::rowSelected, this, [this](int row) {
        if (row != m_shown)
            showPath(row);
    });
    connect(m_steps, &TableBox::rowActivated, this, [this](int row) {
        if (row != m_shown)
            showPath(row);
        if (row >= 0 && std::size_t(row) < m_summaries.size() && m_summaries[std::size_t(row)].solved) {
            const StepPathSummary &p = m_summaries[std::size_t(row)];
            emit zoomRequested({p.window.start - p.endShift, p.window.end - p.endShift});
        }
    });
    // Scrolled to steps not solved yet: those first.
    connect(m_steps->view()->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] {
        if (std::any_of(m_summaries.begin(), m_summaries.end(), [](const StepPathSummary &s) { return !s.solved; }))
            solveMore();
    });
    connect(m_top, &TableBox::rowActivated, this, &CriticalPathPanel::activateTopEvent);
    connect(m_segments, &TableBox::rowActivated, this, &CriticalPathPanel::activateSegment);
}

void CriticalPathPanel::setAlignOnCollectives(bool align)
{
    m_align->setChecked(align);
}

bool CriticalPathPanel::setWhatIf(const QString &text)
{
    if (text.isEmpty()) {
        m_whatIf.reset();
        m_whatIfResult->clear();
        m_whatIfResult->hide();
        refreshWhenShown();
        return true;
    }
    QString error;
    std::optional<WhatIf> w = parseWhatIf(text, &error);
    if (!w) {
        m_whatIfResult->setText(error);
        m_whatIfResult->show();
        return false;
    }
    m_whatIf = std::move(w);
    m_whatIfResult->setText(tr("Solving %1...").arg(text));
    m_whatIfResult->show();
    refreshWhenShown();
    return true;
}

void CriticalPathPanel::solveWhatIf()
{
    const double factor = 1.0 - m_faster->value() / 100.0;
    setWhatIf(m_whatIfTarget->currentData().toString() + QLatin1Char(':') + m_whatIfWhat->text().trimmed() + QLatin1Char('=')
              + QString::number(factor, 'g', 6));
}

QString CriticalPathPanel::note() const
{
    return m_note->text();
}

QString CriticalPathPanel::whatIfResult() const
{
    return m_whatIfResult->text();
}

void CriticalPathPanel::refresh()
{
    if (!session())
        return;
    // The path drawn is the last scope's: off the timeline until this one's is solved.
    emit pathShown(nullptr);
    const MatchClock clock = m_align->isChecked() ? MatchClock::Aligned : MatchClock::Recorded;
    CriticalPathOptions options;
    if (m_whatIf)
        options.whatIfs.push_back(*m_whatIf);
    // The step shown before (a what-if or a new setting solves it again) stays shown.
    const bool wasShown = m_shown >= 0 && std::size_t(m_shown) < m_summaries.size();
    const int shownStep = wasShown ? m_summaries[std::size_t(m_shown)].step : 0;
    const RunSide shownSide = wasShown ? m_summaries[std::size_t(m_shown)].side : RunSide::None;
    m_partMs = kFirstPartMs;
    m_refreshing = true;
    run<Result>(
        [ws = workspace(), sc = scope(), clock, options, shownStep, shownSide, pending = m_pendingTime]() mutable {
            Result r;
            r.notes = ws->collectiveMatch(clock)->notes;
            r.solutions = ws->criticalPathSolutions(clock, options);
            for (std::size_t i = 0; i < r.solutions->size(); ++i) {
                const TimeNs start = r.solutions->annotatedStart(i);
                if (!sc.range || (start >= sc.range->start && start < sc.range->end)) { // the steps that start in the range
                    r.entries.push_back(i);
                    r.starts.push_back(start);
                }
            }
            if (sc.range && r.entries.empty() && r.solutions->size() > 0) { // none: the range itself
                options.range = *sc.range;
                r.solutions = ws->criticalPathSolutions(clock, options);
                r.entries = {0};
                r.starts = {sc.range->start};
                r.ofRange = true;
            }
            for (std::size_t row = 0; row < r.entries.size(); ++row) {
                const std::size_t i = r.entries[row];
                if (r.solutions->stepOf(i) == shownStep && r.solutions->sideOf(i) == shownSide)
                    r.shown = int(row);
                if (pending && r.starts[row] <= *pending)
                    r.shown = int(row); // the last step begun by then
            }
            if (r.shown < 0 && !r.entries.empty())
                r.shown = 0;
            if (r.shown >= 0) // the step shown first: solved before any other
                r.shownPath = r.solutions->path(r.entries[std::size_t(r.shown)]);
            for (const std::size_t i : r.entries)
                r.summaries.push_back(r.solutions->solvedSummary(i).value_or(unsolved(*r.solutions, i)));
            return r;
        },
        [this](Result r) { present(std::move(r)); });
}

void CriticalPathPanel::present(Result result)
{
    m_refreshing = false;
    m_solutions = std::move(result.solutions);
    m_entries = std::move(result.entries);
    m_starts = std::move(result.starts);
    m_summaries = std::move(result.summaries);
    m_ofRange = result.ofRange;
    m_notes = std::move(result.notes);
    m_shown = -1;
    m_shownPath.reset();
    showSummaries();
    if (result.shown >= 0) {
        presentPath(result.shown, std::move(result.shownPath));
        m_steps->view()->selectRow(m_steps->proxy()->mapFromSource(m_steps->model()->index(result.shown, 0)).row());
    } else {
        presentPath(-1, nullptr);
    }
    m_pendingTime.reset();
    solveMore();
}

void CriticalPathPanel::showSummaries()
{
    // The table is rebuilt as steps are solved: it stays where the user
    // scrolled it (once laid out again), the shown step selected without
    // scrolling back to it.
    QTableView *view = m_steps->view();
    const int scrolled = view->verticalScrollBar()->value();
    m_steps->setTable(criticalPathSummaryTable(*session(), m_summaries));
    if (m_shown >= 0)
        view->selectionModel()->select(m_steps->proxy()->mapFromSource(m_steps->model()->index(m_shown, 0)),
                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QTimer::singleShot(0, view, [view, scrolled] { view->verticalScrollBar()->setValue(scrolled); });
    QStringList categories;
    std::vector<charts::Series> series;
    for (int k = 0; k < kPathKindCount; ++k)
        series.push_back({pathKindName(PathKind(k)), Theme::pathKindColor(PathKind(k)), {}, {}, false});
    std::vector<int> rows; // per bar: its row
    std::size_t solved = 0;
    for (std::size_t row = 0; row < m_summaries.size(); ++row) {
        const StepPathSummary &p = m_summaries[row];
        if (!p.solved)
            continue;
        ++solved;
        rows.push_back(int(row));
        const QString label = p.step >= 0 ? tr("step %1").arg(p.step) : tr("range");
        categories << (p.side == RunSide::None ? label : runSideName(p.side) + QStringLiteral(" · ") + label);
        for (int k = 0; k < kPathKindCount; ++k)
            series[std::size_t(k)].values.push_back(double(p.byKind[std::size_t(k)]) / 1e6);
    }
    std::erase_if(series, [](const charts::Series &s) { return std::all_of(s.values.begin(), s.values.end(), [](double v) { return v == 0; }); });
    replaceWidget(m_chart, charts::stackedBarChart(
                               tr("Critical path of each step, by kind"), categories, series, tr("ms"),
                               [this, rows](int bar) {
                                   if (bar >= 0 && std::size_t(bar) < rows.size())
                                       selectPath(rows[std::size_t(bar)]);
                               },
                               this));
    QStringList note;
    if (m_summaries.empty())
        note << tr("No step to follow: the trace annotates none in this scope (ProfilerStep#N, NVTX \"step N\"). Select a range to follow the path "
                   "through it.");
    else if (m_ofRange)
        note << tr("No step starts in the selected range: the path through the range itself.");
    else
        note << tr("%n step(s). Each path runs back from the step's end on the rank that finished last, crossing ranks at a collective "
                   "to the rank that arrived last.",
                   nullptr, int(m_summaries.size()));
    if (solved < m_summaries.size())
        note << tr("Solved %1 of %2: the steps shown and in view (scroll the steps' table, or solve them all).").arg(solved).arg(m_summaries.size());
    m_solveAllButton->setVisible(solved < m_summaries.size() && !m_solveAll);
    if (scope().rankIndex)
        note << tr("The path follows every rank, whatever the rank chosen above.");
    m_note->setText(note.join(QLatin1Char(' ')));
    // How the collectives were matched: the Collectives panel says it too.
    m_note->setToolTip(session() && session()->ranks().size() > 1 ? m_notes.join(QLatin1Char('\n')) : QString());
}

void CriticalPathPanel::solveMore()
{
    if (m_refreshing) // the rows are the last scope's: a job now would drop the new scope's
        return;
    // The rows in view; the rest once asked for (every step of a long
    // session reads every rank's events: 4,650 steps of 64 ranks take 12 s).
    std::vector<std::size_t> order;
    std::vector<bool> queued(m_summaries.size(), false);
    const auto want = [&](std::size_t row) {
        if (row < m_summaries.size() && !m_summaries[row].solved && !queued[row]) {
            queued[row] = true;
            order.push_back(row);
        }
    };
    QTableView *view = m_steps->view();
    const int rows = m_steps->proxy()->rowCount();
    int first = view->rowAt(0), last = view->rowAt(view->viewport()->height() - 1);
    if (first < 0) { // not laid out yet: the first screenful
        first = 0;
        last = kRowsBeforeLayout - 1;
    }
    if (last < 0)
        last = rows - 1;
    for (int r = first; r <= std::min(last, rows - 1); ++r)
        want(std::size_t(m_steps->proxy()->mapToSource(m_steps->proxy()->index(r, 0)).row()));
    if (m_solveAll)
        for (std::size_t row = 0; row < m_summaries.size(); ++row)
            want(row);
    if (order.empty() || !m_solutions)
        return;
    struct Part {
        std::vector<std::pair<std::size_t, StepPathSummary>> solved; // row, summary
    };
    // Every step: each rank's pages kept while they serve step after step
    // (given back after the part), else read again for each (80 times slower on 64 ranks).
    const RankPages pages = m_solveAll ? RankPages::Keep : RankPages::ReleaseEachRank;
    run<Part>(
        [solutions = m_solutions, entries = m_entries, order = std::move(order), ms = m_partMs, pages] {
            Part part;
            QElapsedTimer clock;
            clock.start();
            for (const std::size_t row : order) {
                throwIfCancelled();
                part.solved.emplace_back(row, solutions->summary(entries[row], pages));
                if (clock.elapsed() >= ms)
                    break;
            }
            if (pages == RankPages::Keep)
                solutions->releaseRankPages();
            return part;
        },
        [this](Part part) {
            for (auto &[row, summary] : part.solved)
                if (row < m_summaries.size())
                    m_summaries[row] = std::move(summary);
            m_partMs = std::min(m_partMs * 2, kLargestPartMs);
            showSummaries();
            solveMore();
        },
        true);
}

void CriticalPathPanel::solveAllSteps()
{
    m_solveAll = true;
    m_solveAllButton->hide();
    solveMore();
}

void CriticalPathPanel::selectPath(int index)
{
    showPath(index);
    if (index >= 0)
        m_steps->view()->selectRow(m_steps->proxy()->mapFromSource(m_steps->model()->index(index, 0)).row());
}

void CriticalPathPanel::showStepAt(TimeNs sessionTime)
{
    m_pendingTime = sessionTime;
    if (m_summaries.empty()) {
        refreshWhenShown();
        return;
    }
    m_pendingTime.reset();
    // The step whose window holds the time (on the path's clock, as its
    // last rank keeps it); before it is solved, the last step begun by then.
    int found = -1;
    for (std::size_t row = 0; row < m_summaries.size(); ++row) {
        const StepPathSummary &p = m_summaries[row];
        if (p.solved && sessionTime + p.endShift >= p.window.start && sessionTime + p.endShift <= p.window.end) {
            found = int(row);
            break;
        }
        if (!p.solved && row < m_starts.size() && m_starts[row] <= sessionTime)
            found = int(row);
    }
    if (found >= 0)
        selectPath(found);
}

void CriticalPathPanel::showPath(int index)
{
    if (index >= int(m_summaries.size()))
        return;
    if (index < 0 || !session() || !m_solutions) {
        presentPath(-1, nullptr);
        return;
    }
    if (m_refreshing) // a row of the last scope's table: the new scope shows its own step
        return;
    if (index == m_shown && m_shownPath) {
        presentPath(index, m_shownPath); // drawn again (the box was ticked)
        return;
    }
    // Solved now unless kept; the steps still to solve follow it.
    run<std::shared_ptr<const StepCriticalPath>>([solutions = m_solutions, i = m_entries[std::size_t(index)]] { return solutions->path(i); },
                                                 [this, index](std::shared_ptr<const StepCriticalPath> path) {
                                                     presentPath(index, std::move(path));
                                                     solveMore();
                                                 });
}

void CriticalPathPanel::presentPath(int index, std::shared_ptr<const StepCriticalPath> shown)
{
    m_shown = index;
    m_shownPath = std::move(shown);
    m_topEvents.clear();
    if (index < 0 || !m_shownPath || !session()) {
        m_top->setTable({});
        m_segments->setTable({});
        if (m_whatIf)
            m_whatIfResult->clear();
        emit pathShown(nullptr);
        return;
    }
    if (std::size_t(index) < m_summaries.size() && !m_summaries[std::size_t(index)].solved) {
        m_summaries[std::size_t(index)] = summarizePath(*session(), *m_shownPath);
        showSummaries();
    }
    const StepCriticalPath &path = *m_shownPath;
    const Session &s = *session();
    ResultTable top;
    top.name = QStringLiteral("critical_path_top");
    top.title = tr("Top events on the path");
    top.headers = QStringList{QStringLiteral("Name"),      QStringLiteral("Kind"),     QStringLiteral("Time on Path (ns)"),
                              QStringLiteral("Share (%)"), QStringLiteral("Segments"), QStringLiteral("Rank")};
    for (const PathName &n : topPathNames(s, path, 50)) {
        const int rank = n.longest.isValid() ? s.ranks()[std::size_t(n.longest.rank)].rank : -1;
        top.addRow({Cell::ofText(n.name), Cell::ofText(pathKindName(n.kind)), Cell::ofInteger(n.time),
                    Cell::ofDecimal(path.length() > 0 ? 100.0 * double(n.time) / double(path.length()) : 0.0, 1),
                    Cell::ofInteger(std::int64_t(n.segments)), Cell::ofInteger(rank)});
        m_topEvents.push_back(n.longest);
    }
    m_top->setTitle(path.step >= 0 ? tr("Top events on step %1's path").arg(path.step) : tr("Top events on the range's path"));
    m_top->setTable(std::move(top));
    m_segments->setTable(criticalPathTable(s, {path}));
    // Where the path crossed ranks: who waited for whom.
    QStringList crossed;
    for (const PathSegment &segment : path.segments)
        if (segment.fromRankIndex >= 0)
            crossed << tr("rank %1 waited %2 for rank %3")
                           .arg(s.ranks()[std::size_t(segment.rankIndex)].rank)
                           .arg(formatDuration(segment.crossedWait))
                           .arg(s.ranks()[std::size_t(segment.fromRankIndex)].rank);
    const qsizetype more = crossed.size() - 3;
    if (more > 0) {
        crossed.resize(3);
        crossed << tr("%n more crossing(s)", nullptr, int(more));
    }
    m_segments->setTitle(crossed.isEmpty() ? tr("Segments of the path") : tr("Segments of the path (%1)").arg(crossed.join(QStringLiteral("; "))));
    if (m_whatIf && path.whatIfLength) {
        const TimeNs saved = path.length() - *path.whatIfLength;
        const QString change = saved == 0 ? tr("no change: this does not bind it")
                                          : (saved > 0 ? QStringLiteral("-") : QStringLiteral("+")) + formatDuration(std::abs(saved));
        const QString share = QString::number(path.length() > 0 ? -100.0 * double(saved) / double(path.length()) : 0.0, 'f', 1);
        // One arg() pass: the what-if's text is the user's, and may hold a %N.
        m_whatIfResult->setText(tr("If %1: %2 would take %3 instead of %4 (%5, %6 %). Re-solved over its dependencies: what no longer "
                                   "binds stops counting.")
                                    .arg(m_whatIf->text, path.step >= 0 ? tr("step %1").arg(path.step) : tr("the range"),
                                         formatDuration(*path.whatIfLength), formatDuration(path.length()), change, share));
    }
    emit pathShown(m_draw->isChecked() ? m_shownPath : nullptr);
}

void CriticalPathPanel::activateTopEvent(int row)
{
    if (row >= 0 && std::size_t(row) < m_topEvents.size() && m_topEvents[std::size_t(row)].isValid())
        emit eventsSelected({m_topEvents[std::size_t(row)]});
}

void CriticalPathPanel::activateSegment(int row)
{
    if (!m_shownPath || row < 0)
        return;
    const StepCriticalPath &path = *m_shownPath;
    if (std::size_t(row) >= path.segments.size())
        return;
    const PathSegment &segment = path.segments[std::size_t(row)];
    if (segment.event.isValid())
        emit eventsSelected({segment.event});
    else
        emit zoomRequested({segment.start - path.shiftOf(segment.rankIndex), segment.end - path.shiftOf(segment.rankIndex)});
}

} // namespace rankscope
