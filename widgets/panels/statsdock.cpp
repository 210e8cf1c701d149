#include "panels/statsdock.h"
#include "common/exportfolder.h"

#include "core/units.h"
#include "panels/collectivespanel.h"
#include "panels/comparepanel.h"
#include "panels/criticalpathpanel.h"
#include "panels/diagnosispanel.h"
#include "panels/gapspanel.h"
#include "panels/histogrampanel.h"
#include "panels/memcpypanel.h"
#include "panels/rankspanel.h"
#include "panels/stepspanel.h"
#include "panels/summarypanel.h"
#include "sampling/samplingpanel.h"
#include "stats/reportcatalog.h"
#include "theme/theme.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

namespace rankscope {

namespace {

// The panels, registered once in tab order: the name --panel and
// showPanel() take, the tab's title, and how to make one.
struct PanelKind {
    const char *name;
    const char *title;
    StatsPanel *(*make)(QWidget *parent);
};
template <class P>
StatsPanel *makePanel(QWidget *parent)
{
    return new P(parent);
}
constexpr PanelKind kPanels[] = {
    {"diagnosis", QT_TRANSLATE_NOOP("rankscope::StatsDock", "Diagnosis"), &makePanel<DiagnosisPanel>},
    {"memcpy", QT_TRANSLATE_NOOP("rankscope::StatsDock", "Memory transfers"), &makePanel<MemcpyPanel>},
    {"gaps", QT_TRANSLATE_NOOP("rankscope::StatsDock", "GPU gaps"), &makePanel<GapsPanel>},
    {"summaries", QT_TRANSLATE_NOOP("rankscope::StatsDock", "Summaries"), &makePanel<SummaryPanel>},
    {"ranks", QT_TRANSLATE_NOOP("rankscope::StatsDock", "Rank comparison"), &makePanel<RanksPanel>},
    {"steps", QT_TRANSLATE_NOOP("rankscope::StatsDock", "Steps"), &makePanel<StepsPanel>},
    {"histogram", QT_TRANSLATE_NOOP("rankscope::StatsDock", "Durations"), &makePanel<HistogramPanel>},
    {"cpu", QT_TRANSLATE_NOOP("rankscope::StatsDock", "CPU samples"), &makePanel<SamplingPanel>},
    {"collectives", QT_TRANSLATE_NOOP("rankscope::StatsDock", "Collectives"), &makePanel<CollectivesPanel>},
    {"critical", QT_TRANSLATE_NOOP("rankscope::StatsDock", "Critical path"), &makePanel<CriticalPathPanel>},
    {"compare", QT_TRANSLATE_NOOP("rankscope::StatsDock", "Compare"), &makePanel<ComparePanel>},
};

} // namespace

QStringList StatsDock::reportsShownIn(const QString &panel)
{
    QStringList names;
    for (const stats::ReportDeclaration &d : stats::reportDeclarations())
        if (d.panel == panel)
            names << d.name;
    return names;
}

template <class P>
P *StatsDock::panel() const
{
    for (const Shown &shown : m_panels)
        if (auto *p = qobject_cast<P *>(shown.panel))
            return p;
    return nullptr;
}

MemcpyPanel *StatsDock::memcpy() const
{
    return panel<MemcpyPanel>();
}
GapsPanel *StatsDock::gaps() const
{
    return panel<GapsPanel>();
}
SummaryPanel *StatsDock::summaries() const
{
    return panel<SummaryPanel>();
}
RanksPanel *StatsDock::ranks() const
{
    return panel<RanksPanel>();
}
StepsPanel *StatsDock::steps() const
{
    return panel<StepsPanel>();
}
SamplingPanel *StatsDock::sampling() const
{
    return panel<SamplingPanel>();
}
CollectivesPanel *StatsDock::collectives() const
{
    return panel<CollectivesPanel>();
}
CriticalPathPanel *StatsDock::criticalPath() const
{
    return panel<CriticalPathPanel>();
}
DiagnosisPanel *StatsDock::diagnosis() const
{
    return panel<DiagnosisPanel>();
}
ComparePanel *StatsDock::compare() const
{
    return panel<ComparePanel>();
}

QStringList StatsDock::panelNames()
{
    QStringList names;
    for (const PanelKind &p : kPanels)
        names << QLatin1String(p.name);
    return names;
}

StatsDock::StatsDock(std::shared_ptr<AnalysisWorkspaces> analysis, QWidget *parent)
    : QWidget(parent), m_analysis(analysis ? std::move(analysis) : std::make_shared<AnalysisWorkspaces>()), m_rank(new QComboBox(this)),
      m_range(new QLabel(this)), m_clearRange(new QPushButton(tr("Whole session"), this)), m_export(new QPushButton(tr("Export all..."), this)),
      m_tabs(new QTabWidget(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Scope:"), this));
    bar->addWidget(m_rank);
    bar->addWidget(m_range, 1);
    bar->addWidget(m_clearRange);
    bar->addWidget(m_export);
    layout->addLayout(bar);
    m_failure = new QLabel(this);
    m_failure->setTextFormat(Qt::PlainText);
    m_failure->setWordWrap(true);
    m_failure->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(Theme(palette()).errorText().name()));
    m_failure->hide();
    layout->addWidget(m_failure);
    layout->addWidget(m_tabs, 1);
    for (const PanelKind &kind : kPanels) {
        m_panels.push_back({tr(kind.title), kind.make(this)});
        // Each panel scrolls when the dock is smaller than it: the dock's
        // least size is then its bar's, not its largest panel's (which held
        // the window at 988 x 620 and the timeline to three rows at 1280 x 720).
        auto *page = new QScrollArea(m_tabs);
        page->setWidgetResizable(true);
        page->setFrameShape(QFrame::NoFrame);
        page->setWidget(m_panels.back().panel);
        const int tab = m_tabs->addTab(page, m_panels.back().title);
        if (const QStringList reports = reportsShownIn(QLatin1String(kind.name)); !reports.isEmpty())
            m_tabs->setTabToolTip(tab, tr("The tables of rankscope-cli stats -r %1").arg(reports.join(QLatin1Char(','))));
    }
    // Every panel reads the communication kernels the user chose in the
    // Rank comparison, through the workspace.
    connect(ranks(), &RanksPanel::communicationPatternChanged, this, [this](const QString &pattern) {
        AnalysisSettings settings = analysisSettings();
        settings.communicationPattern = pattern;
        setAnalysisSettings(settings);
    });
    for (const Shown &shown : m_panels) {
        StatsPanel *p = shown.panel;
        connect(p, &StatsPanel::eventsSelected, this, &StatsDock::eventsSelected);
        connect(p, &StatsPanel::zoomRequested, this, &StatsDock::zoomRequested);
        connect(p, &StatsPanel::markRequested, this, &StatsDock::markRequested);
        connect(p, &StatsPanel::searchRequested, this, &StatsDock::searchRequested);
        connect(p, &StatsPanel::computationFailed, this, [this, title = shown.title](const QString &message) {
            m_failure->setText(tr("%1: %2").arg(title, message));
            m_failure->show();
        });
    }
    connect(m_rank, &QComboBox::currentIndexChanged, this,
            [this](int index) { setRankIndex(index <= 0 ? std::nullopt : std::optional<int>(index - 1)); });
    connect(m_clearRange, &QPushButton::clicked, this, &StatsDock::clearRangeRequested);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export tables and charts to"), exportFolder());
        if (dir.isEmpty())
            return;
        rememberExportFolder(dir);
        const QStringList written = exportAll(dir);
        QMessageBox::information(this, tr("Export"), tr("Wrote %n file(s) to %1", nullptr, int(written.size())).arg(dir));
    });
    applyScope();
}

void StatsDock::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    m_scope = {};
    const QSignalBlocker block(m_rank);
    m_rank->clear();
    m_rank->addItem(tr("All ranks"));
    if (m_session)
        for (const RankEntry &e : m_session->ranks())
            m_rank->addItem(e.side == RunSide::None ? tr("Rank %1").arg(e.rank) : e.displayName());
    const WorkspacePtr &workspace = m_analysis->show(m_session);
    for (const Shown &shown : m_panels)
        shown.panel->setWorkspace(workspace);
    emit workspaceChanged(workspace);
    applyScope();
}

void StatsDock::setAnalysisSettings(const AnalysisSettings &settings)
{
    if (!m_analysis->setSettings(settings) || !workspace())
        return;
    for (const Shown &shown : m_panels)
        shown.panel->setWorkspace(workspace());
    emit workspaceChanged(workspace());
}

void StatsDock::setRange(std::optional<TimeRange> range)
{
    if (range && range->duration() <= 0)
        range.reset();
    m_scope.range = range;
    applyScope();
}

void StatsDock::setRankIndex(std::optional<int> rankIndex)
{
    m_scope.rankIndex = rankIndex;
    const QSignalBlocker block(m_rank);
    m_rank->setCurrentIndex(rankIndex ? *rankIndex + 1 : 0);
    applyScope();
}

void StatsDock::applyScope()
{
    m_failure->hide(); // a new scope is computed anew
    if (m_scope.range && m_session) {
        const TimeNs zero = m_session->extent().start;
        m_range->setText(tr("Selection %1 to %2 (%3)")
                             .arg(formatDuration(m_scope.range->start - zero), formatDuration(m_scope.range->end - zero),
                                  formatDuration(m_scope.range->duration())));
    } else {
        m_range->setText(tr("Whole session (Shift+drag on the timeline to choose a range)"));
    }
    m_clearRange->setEnabled(m_scope.range.has_value());
    if (!m_session)
        return;
    for (const Shown &shown : m_panels)
        shown.panel->setScope(m_scope);
}

void StatsDock::setComputeInBackground(bool background)
{
    for (const Shown &shown : m_panels)
        shown.panel->setComputeInBackground(background);
}

void StatsDock::setComputeOnlyWhenShown(bool onlyWhenShown)
{
    for (const Shown &shown : m_panels)
        shown.panel->setComputeOnlyWhenShown(onlyWhenShown);
}

QStringList StatsDock::exportAll(const QString &directory)
{
    QStringList written;
    for (const Shown &shown : m_panels) {
        shown.panel->ensureComputed();
        written += shown.panel->exportAll(directory);
    }
    return written;
}

bool StatsDock::isComputing() const
{
    for (const Shown &shown : m_panels)
        if (shown.panel->isComputing())
            return true;
    return false;
}

bool StatsDock::showPanel(const QString &name)
{
    const auto index = panelNames().indexOf(name);
    if (index < 0)
        return false;
    m_tabs->setCurrentIndex(int(index));
    return true;
}

} // namespace rankscope
