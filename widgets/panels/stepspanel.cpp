#include "panels/stepspanel.h"

#include "core/units.h"
#include "panels/chartfactory.h"
#include "panels/patterndialog.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/reportcatalog.h"
#include "theme/theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace rankscope {

StepsPanel::StepsPanel(QWidget *parent)
    : StatsPanel(parent), m_note(new QLabel(this)), m_patternLabel(new QLabel(this)), m_table(new TableBox(tr("Steps x ranks"), this)),
      m_bubbleTable(new TableBox(tr("Pipeline bubbles"), this))
{
    m_table->model()->setReadable(true);
    m_bubbleTable->model()->setReadable(true);
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_patternLabel->setTextFormat(Qt::PlainText); // the pattern can hold < and >
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    bar->addWidget(m_patternLabel, 1);
    auto *edit = new QPushButton(tr("Step ranges..."), this);
    edit->setToolTip(tr("Which NVTX ranges or record_function scopes are the steps (a regular expression)"));
    connect(edit, &QPushButton::clicked, this, &StepsPanel::editPattern);
    bar->addWidget(edit);
    layout->addLayout(bar);
    layout->addWidget(m_note);
    layout->addWidget(chartsOverTables(this, {{&m_chart, 1}}, {{m_table, 3}, {m_bubbleTable, 2}}), 1);
    exportTable(m_table);
    exportTable(m_bubbleTable);
    m_bubbleTable->setToolTip(tr("Pipeline stages found from the ranks' sends and receives: per step and stage, the step's time from the first "
                                 "compute of any stage to the last, the stage's compute, and its bubble (the rest). Double-click a row to show it"));
    // Double-click: the pipeline's step outlined on the stage's rank, its figures in Details.
    connect(m_bubbleTable, &TableBox::rowActivated, this, [this](int row) {
        if (row < 0 || std::size_t(row) >= m_bubbleRows.size())
            return;
        const stats::PipelineStageStep &b = m_bubbleRows[std::size_t(row)];
        TimeMark mark{b.rankIndex, -1, b.window, std::nullopt, tr("Pipeline step"), {}};
        mark.fields << std::pair{tr("Step"), QString::number(b.step)} << std::pair{tr("Stage"), QString::number(b.stage)}
                    << std::pair{tr("Rank"), QString::number(session()->ranks()[std::size_t(b.rankIndex)].rank)}
                    << std::pair{tr("Step time"), formatDuration(b.window.duration())} << std::pair{tr("Compute"), formatDuration(b.busy)}
                    << std::pair{tr("Bubble"),
                                 tr("%1 (%2% of the step)")
                                     .arg(formatDuration(b.bubble()))
                                     .arg(b.window.duration() > 0 ? 100.0 * double(b.bubble()) / double(b.window.duration()) : 0.0, 0, 'f', 1)};
        emit markRequested(mark);
    });
    exportChart(&m_chart, QStringLiteral("step_matrix.png"));
    m_table->setToolTip(tr("Double-click a step to show it on the timeline"));
    connect(m_table, &TableBox::rowActivated, this, &StepsPanel::activateStep);
    setStepPattern(QString());
}

bool StepsPanel::setStepPattern(const QString &pattern)
{
    if (!stats::stepPatternError(pattern).isEmpty())
        return false;
    m_pattern = pattern;
    m_patternLabel->setText(pattern.isEmpty() ? tr("Steps: the ranges the trace names as steps (ProfilerStep#N, \"step N\", \"iteration N\")")
                                              : tr("Steps: the ranges whose name matches %1").arg(pattern));
    refreshWhenShown();
    return true;
}

QString StepsPanel::note() const
{
    return m_note->text();
}

void StepsPanel::editPattern()
{
    if (const auto pattern = askPattern(this, tr("Step ranges"),
                                        tr("NVTX ranges and record_function scopes whose name matches this regular expression\n"
                                           "are the steps (anywhere in the name). Empty: the names the trace gives steps."),
                                        m_pattern, &stats::stepPatternError))
        setStepPattern(*pattern);
}

void StepsPanel::refresh()
{
    if (!session())
        return;
    run<Result>(
        [w = workspace(), sc = scope(), pattern = m_pattern] {
            const Session &s = *w->session();
            Result r;
            r.matrix = stats::stepMatrix(s, sc, pattern);
            r.table = stats::stepMatrixTable(s, r.matrix);
            const auto match = w->collectiveMatch(MatchClock::Recorded);
            r.bubbles = stats::pipelineBubbles(s, *match, stats::collectiveClassesFor(w->settings()), pattern);
            r.bubbleTable = stats::pipelineBubblesTable(s, r.bubbles);
            return r;
        },
        [this](Result r) { present(std::move(r)); });
}

void StepsPanel::present(Result r)
{
    m_matrix = std::move(r.matrix);
    m_table->setTable(std::move(r.table));
    m_bubbleRows = std::move(r.bubbles.rows);
    m_bubbleTable->setTable(std::move(r.bubbleTable));
    const QString pipelines = r.bubbles.pipelines.empty() ? QString() : QLatin1Char(' ') + r.bubbles.notes.join(QLatin1Char(' '));
    // How often each rank was the slowest: the straggler, if there is one.
    std::vector<int> timesSlowest(m_matrix.rankIndices.size(), 0);
    charts::Series lowest{tr("min"), Theme::seriesColor(2), {}, {}, false};
    charts::Series middle{tr("median"), Theme::seriesColor(0), {}, {}, false};
    charts::Series highest{tr("max"), Theme::seriesColor(1), {}, {}, true};
    // A warm-up step 15 times the typical one would flatten the others
    // into the axis: warm-up steps (stats::isWarmupStep) are left out of
    // the chart (the table has them) and the title says which.
    std::vector<TimeNs> medians;
    for (std::size_t k = 0; k < m_matrix.steps.size(); ++k)
        if (const auto spread = m_matrix.spreadOf(k); spread.slowestColumn >= 0)
            medians.push_back(spread.median);
    std::sort(medians.begin(), medians.end());
    const TimeNs typical = medians.empty() ? 0 : medians[(medians.size() - 1) / 2];
    QStringList leftOut;
    for (std::size_t k = 0; k < m_matrix.steps.size(); ++k) {
        const stats::StepMatrix::Spread spread = m_matrix.spreadOf(k);
        if (spread.slowestColumn < 0)
            continue;
        ++timesSlowest[std::size_t(spread.slowestColumn)];
        if (stats::isWarmupStep(spread.median, typical, medians.size())) {
            leftOut << QString::number(k);
            continue;
        }
        lowest.points.emplace_back(double(k), double(spread.min) / 1e6);
        middle.points.emplace_back(double(k), double(spread.median) / 1e6);
        highest.points.emplace_back(double(k), double(spread.max) / 1e6);
    }
    if (m_matrix.steps.empty()) {
        m_note->setText(m_pattern.isEmpty() ? tr("No steps: the trace annotates none (ProfilerStep#N, NVTX \"step N\"). "
                                                 "Choose the ranges that are your steps with Step ranges...")
                                            : tr("No range matches the pattern in this scope."));
    } else {
        const auto slowest = std::max_element(timesSlowest.begin(), timesSlowest.end()) - timesSlowest.begin();
        const int rank = session()->ranks()[std::size_t(m_matrix.rankIndices[std::size_t(slowest)])].rank;
        m_note->setText(m_matrix.rankIndices.size() < 2
                            ? tr("%n step(s) on one rank.", nullptr, int(m_matrix.steps.size()))
                            : tr("%n step(s) on %1 ranks. Rank %2 was the slowest in %3 of them.", nullptr, int(m_matrix.steps.size()))
                                  .arg(m_matrix.rankIndices.size())
                                  .arg(rank)
                                  .arg(timesSlowest[std::size_t(slowest)]));
    }
    m_note->setText(m_note->text() + pipelines);
    const QString title = leftOut.isEmpty() ? tr("Step duration across ranks")
                                            : tr("Step duration across ranks (step %1 left out as warm-up: over %2 times the median step)")
                                                  .arg(leftOut.join(QStringLiteral(", ")))
                                                  .arg(stats::kWarmupFactor);
    replaceWidget(m_chart, charts::scatterChart(title, {highest, middle, lowest}, tr("step"), tr("duration (ms)"), std::nullopt, this));
}

void StepsPanel::activateStep(int step)
{
    if (step < 0 || std::size_t(step) >= m_matrix.steps.size())
        return;
    // The step on every rank: from the first start to the last end.
    TimeRange all{kTimeMax, kTimeMin};
    for (const auto &range : m_matrix.steps[std::size_t(step)])
        if (range) {
            all.start = std::min(all.start, range->start);
            all.end = std::max(all.end, range->end);
        }
    if (all.start < all.end)
        emit zoomRequested(all);
}

} // namespace rankscope
