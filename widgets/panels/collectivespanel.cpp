#include "panels/collectivespanel.h"

#include "core/units.h"
#include "panels/chartfactory.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/reportcatalog.h"
#include "theme/theme.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <map>

namespace rankscope {

using namespace stats;

CollectivesPanel::CollectivesPanel(QWidget *parent)
    : StatsPanel(parent), m_align(new QCheckBox(tr("Align ranks on collectives"), this)), m_notes(new QLabel(this)),
      m_ranks(new TableBox(tr("Who made the others wait"), this)), m_kinds(new TableBox(tr("By communicator"), this)),
      m_overlap(new TableBox(tr("Overlap with other kernels"), this)), m_instances(new TableBox(tr("Instances"), this))
{
    // Durations in units and counts grouped; the exact values in tooltips and exports.
    for (TableBox *table : {m_ranks, m_kinds, m_overlap, m_instances})
        table->model()->setReadable(true);
    // What matters first: at 64 ranks the straggler, not rank 0, is in view.
    m_ranks->setDefaultSort(QStringLiteral("Delay Caused (ns)"), Qt::DescendingOrder);
    m_kinds->setDefaultSort(QStringLiteral("Total Wait (ns)"), Qt::DescendingOrder);
    m_instances->setDefaultSort(QStringLiteral("Skew (ns)"), Qt::DescendingOrder);
    // The exposed communication first: the kernels least hidden, longest first among equals.
    m_overlap->setDefaultSort(QStringLiteral("Overlap (%)"), Qt::AscendingOrder);
    auto *layout = new QVBoxLayout(this);
    auto *header = new QHBoxLayout;
    m_notes->setTextFormat(Qt::PlainText); // notes quote names from the traces
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    header->addWidget(m_notes, 1);
    m_align->setToolTip(tr("Reports are aligned on their recorded start times, which differ by milliseconds across hosts. "
                           "Collectives end together on every rank: shift each rank so that they do."));
    header->addWidget(m_align, 0, Qt::AlignTop);
    layout->addLayout(header);
    connect(m_align, &QCheckBox::toggled, this, [this] { refreshWhenShown(); });
    layout->addWidget(chartsOverTables(this, {{&m_skewChart, 1}}, {{m_ranks, 2}, {m_kinds, 2}, {m_overlap, 3}, {m_instances, 3}}), 1);
    exportTable(m_ranks);
    exportTable(m_kinds);
    exportTable(m_overlap);
    exportTable(m_instances);
    exportChart(&m_skewChart, QStringLiteral("collective_skew.png"));
    m_ranks->setToolTip(tr("Per rank: how often it arrived last, the delay it caused the others, how long it waited, "
                           "and what its own timeline held while it was late"));
    m_instances->setToolTip(tr("Double-click an instance to go there and select its kernel on every rank"));
    connect(m_instances, &TableBox::rowActivated, this, &CollectivesPanel::activateInstance);
    m_overlap->setToolTip(tr("Each communication kernel: how long other kernels ran on its GPU meanwhile (nccl_gpu_overlap_trace). "
                             "Double-click one to go there and select it"));
    connect(m_overlap, &TableBox::rowActivated, this, &CollectivesPanel::activateOverlap);
}

void CollectivesPanel::setAlignOnCollectives(bool align)
{
    m_align->setChecked(align);
}

QString CollectivesPanel::notes() const
{
    return m_notes->text();
}

void CollectivesPanel::refresh()
{
    if (!session())
        return;
    const StatsScope sc = scope();
    const MatchClock clock = m_align->isChecked() ? MatchClock::Aligned : MatchClock::Recorded;
    run<Result>(
        [w = workspace(), sc, clock] {
            const Session &s = *w->session();
            Result r;
            r.match = w->collectiveMatch(clock);
            r.notes = r.match->notes;
            if (clock == MatchClock::Recorded) // say what aligning would do
                if (const QString note = suggestedOffsetsNote(s, alignOnCollectives(s, *r.match)); !note.isEmpty())
                    r.notes << note;
            r.waits = w->rankWaits(clock, sc);
            r.ranks = rankWaitTable(r.waits);
            r.kinds = collectiveKindsTable(*r.match, sc);
            r.instances = collectivesTable(s, *r.match, sc);
            const KernelClassifier classes = collectiveClassesFor(w->settings());
            r.overlaps = communicationOverlaps(s, classes, sc);
            r.overlap = ncclGpuOverlapTrace(s, r.overlaps, classes);
            for (std::size_t i = 0; i < r.match->instances.size(); ++i)
                if (isInScope(r.match->instances[i], sc))
                    r.instanceOfRow.push_back(i); // collectivesTable's rows, in its order
            return r;
        },
        [this](Result r) { present(std::move(r)); });
}

void CollectivesPanel::present(Result r)
{
    m_match = r.match;
    m_notes->setText(r.notes.join(QLatin1Char(' ')));
    // The rank that caused the most delay, shaded across its row.
    std::set<std::pair<int, int>> culprit;
    int worst = -1;
    for (std::size_t row = 0; row < r.waits.size(); ++row)
        if (r.waits[row].delayCaused > 0 && (worst < 0 || r.waits[row].delayCaused > r.waits[std::size_t(worst)].delayCaused))
            worst = int(row);
    if (worst >= 0)
        for (int c = 0; c < int(r.ranks.headers.size()); ++c)
            culprit.insert({worst, c});
    m_ranks->setTable(std::move(r.ranks));
    m_ranks->model()->setHighlighted(std::move(culprit));
    m_kinds->setTable(std::move(r.kinds));
    m_instances->setTable(std::move(r.instances));
    m_instanceOfRow = std::move(r.instanceOfRow);
    m_overlap->setTable(std::move(r.overlap));
    m_overlaps = std::move(r.overlaps);

    // Skew over time, a series per communicator and collective.
    const TimeNs zero = session()->extent().start;
    std::map<std::pair<QString, QString>, charts::Series> byKind;
    for (const CollectiveInstance &c : m_match->instances) {
        if (!isInScope(c, scope()))
            continue;
        charts::Series &s = byKind[{c.communicator, c.name}];
        if (s.name.isEmpty()) {
            s.name = tr("%1 on %2").arg(c.name, c.communicator);
            s.color = Theme::seriesColor(int(byKind.size()) - 1);
        }
        s.points.emplace_back(double(c.firstArrival - zero) / 1e9, double(c.skew()) / 1e3);
    }
    std::vector<charts::Series> series;
    for (auto &[key, s] : byKind)
        series.push_back(std::move(s));
    if (series.empty()) { // an empty plot's axes say nothing: the notes above say why there is none
        auto *none = new QLabel(tr("No collective instances to draw in this range."), this);
        none->setAlignment(Qt::AlignCenter);
        none->setEnabled(false);
        replaceWidget(m_skewChart, none);
        return;
    }
    replaceWidget(m_skewChart, charts::scatterChart(tr("Skew per collective: last arrival - first arrival"), series, tr("session time (s)"),
                                                    tr("skew (µs)"), std::nullopt, this));
}

void CollectivesPanel::activateInstance(int row)
{
    if (!m_match || row < 0 || std::size_t(row) >= m_instanceOfRow.size())
        return;
    const CollectiveInstance &c = m_match->instances[m_instanceOfRow[std::size_t(row)]];
    const TimeNs pad = std::max<TimeNs>((c.end - c.firstArrival) / 5, 1000);
    emit zoomRequested({c.firstArrival - pad, c.end + pad});
    std::vector<EventLocation> kernels;
    for (const CollectiveArrival &a : c.arrivals)
        kernels.push_back(a.kernel);
    emit eventsSelected(kernels);
}

void CollectivesPanel::activateOverlap(int row)
{
    if (row < 0 || std::size_t(row) >= m_overlaps.size())
        return;
    const CommunicationOverlap &c = m_overlaps[std::size_t(row)];
    const TimeNs pad = std::max<TimeNs>(c.time.duration() / 5, 1000);
    emit zoomRequested({c.time.start - pad, c.time.end + pad});
    emit eventsSelected({EventLocation{c.rankIndex, c.track, c.event}});
}

} // namespace rankscope
