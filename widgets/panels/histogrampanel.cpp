#include "panels/histogrampanel.h"

#include "core/units.h"
#include "panels/histogramgrid.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/reportcatalog.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace rankscope {

using namespace stats;

namespace {

constexpr HistogramEvents kKinds[] = {HistogramEvents::Kernels, HistogramEvents::CommunicationKernels, HistogramEvents::HostRanges,
                                      HistogramEvents::CudaApiCalls, HistogramEvents::MpiCalls};

} // namespace

HistogramPanel::HistogramPanel(QWidget *parent)
    : StatsPanel(parent), m_events(new QComboBox(this)), m_pattern(new QLineEdit(this)), m_rows(new QComboBox(this)), m_measure(new QComboBox(this)),
      m_notes(new QLabel(this)), m_grid(new HistogramGrid(this)), m_table(new TableBox(tr("Per row and duration bin"), this))
{
    auto *layout = new QVBoxLayout(this);
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Durations of"), this));
    for (const HistogramEvents kind : kKinds)
        m_events->addItem(histogramEventsName(kind));
    controls->addWidget(m_events);
    m_pattern->setPlaceholderText(tr("names matching (regular expression)"));
    m_pattern->setClearButtonEnabled(true);
    controls->addWidget(m_pattern, 1);
    controls->addWidget(new QLabel(tr("rows:"), this));
    m_rows->addItems({tr("ranks"), tr("threads and streams")});
    m_rows->setToolTip(tr("A row per rank, or per thread of each rank (for kernels, per GPU stream)"));
    controls->addWidget(m_rows);
    controls->addWidget(new QLabel(tr("cells:"), this));
    m_measure->addItems({tr("count"), tr("total time")});
    controls->addWidget(m_measure);
    layout->addLayout(controls);
    m_notes->setTextFormat(Qt::PlainText); // a pattern is the user's text
    m_notes->setWordWrap(true);
    layout->addWidget(m_notes);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_grid);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    m_table->model()->setReadable(true);
    exportTable(m_table);
    m_grid->setToolTip(tr("Ranks (or threads) by power-of-two duration bins; click a cell to select its events on the timeline"));
    connect(m_events, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(m_rows, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(m_pattern, &QLineEdit::editingFinished, this, [this] {
        if (m_pattern->text() != m_shown.pattern)
            refresh();
    });
    connect(m_measure, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_grid->setMeasure(i == 0 ? HistogramGrid::Measure::Count : HistogramGrid::Measure::TotalTime);
        showScale();
    });
    connect(m_grid, &HistogramGrid::cellActivated, this, &HistogramPanel::activateCell);
}

HistogramChoice HistogramPanel::choice() const
{
    return {kKinds[std::clamp(m_events->currentIndex(), 0, int(std::size(kKinds)) - 1)], m_pattern->text(), m_rows->currentIndex() == 1};
}

void HistogramPanel::setChoice(const HistogramChoice &choice)
{
    const QSignalBlocker blockEvents(m_events), blockRows(m_rows);
    m_events->setCurrentIndex(int(std::find(std::begin(kKinds), std::end(kKinds), choice.events) - std::begin(kKinds)));
    m_rows->setCurrentIndex(choice.perThread ? 1 : 0);
    m_pattern->setText(choice.pattern);
    refresh();
}

void HistogramPanel::refresh()
{
    if (!session())
        return;
    const HistogramChoice c = choice();
    if (const QString error = KernelClassifier::patternError(c.pattern); !error.isEmpty()) {
        m_notes->setText(error);
        return;
    }
    const StatsScope sc = scope();
    run<Result>(
        [w = workspace(), c, sc] {
            const Session &s = *w->session();
            Result r;
            r.choice = c;
            r.scope = sc;
            r.histogram = durationHistogram(s, c, collectiveClassesFor(w->settings()), sc);
            r.table = durationHistogramTable(s, r.histogram, c);
            for (const HistogramLane &lane : r.histogram.rows)
                r.rowNames << histogramLaneName(s, lane);
            return r;
        },
        [this](Result r) { present(std::move(r)); });
}

void HistogramPanel::present(Result r)
{
    // What the grid now holds: a click selects from these, not from a
    // choice or scope whose result is still being computed.
    m_shown = r.choice;
    m_shownScope = r.scope;
    m_grid->setHistogram(std::move(r.histogram), std::move(r.rowNames), histogramEventsName(m_shown.events));
    m_table->setTable(std::move(r.table));
    showScale();
}

void HistogramPanel::showScale()
{
    const DurationHistogram &h = m_grid->histogram();
    std::uint64_t most = 0;
    TimeNs longest = 0;
    for (std::size_t row = 0; row < h.rowCount(); ++row)
        for (int bin = std::max(h.firstBin, 0); bin <= h.lastBin; ++bin) {
            most = std::max(most, h.count(row, bin));
            longest = std::max(longest, h.total(row, bin));
        }
    QStringList notes = m_table->model()->table().notes;
    if (h.lastBin >= 0)
        notes << (m_grid->measure() == HistogramGrid::Measure::Count
                      ? tr("Colour: the count on a log scale, from dark (1) to yellow (%1); empty cells are blank.")
                            .arg(formatInteger(std::int64_t(most)))
                      : tr("Colour: the total time on a log scale, from dark (1 ns) to yellow (%1); empty cells are blank.")
                            .arg(formatDuration(longest)));
    m_notes->setText(notes.join(QLatin1Char(' ')));
}

void HistogramPanel::activateCell(int row, int bin)
{
    const DurationHistogram &h = m_grid->histogram();
    if (!session() || row < 0 || std::size_t(row) >= h.rowCount())
        return;
    const Session &s = *session();
    const std::vector<EventLocation> events =
        eventsInBin(s, h.rows[std::size_t(row)], bin, m_shown, collectiveClassesFor(workspace()->settings()), m_shownScope);
    if (events.empty())
        return;
    TimeRange extent{kTimeMax, kTimeMin};
    for (const EventLocation &e : events) {
        const TimeRange t = s.sessionTime(e);
        extent = {std::min(extent.start, t.start), std::max(extent.end, t.end)};
    }
    const TimeNs pad = std::max<TimeNs>(extent.duration() / 20, 1000);
    emit zoomRequested({extent.start - pad, extent.end + pad});
    emit eventsSelected(events);
}

} // namespace rankscope
