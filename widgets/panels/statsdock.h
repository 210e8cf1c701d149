#pragma once
// The statistics panels in tabs, under a scope bar: which rank (or all),
// and the range they cover (the timeline's selection, else the session).
#include "analysis/analysisworkspaces.h"
#include "stats/statsscope.h"
#include "timeline/timemark.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;

namespace rankscope {

class CollectivesPanel;
class CriticalPathPanel;
class ComparePanel;
class DiagnosisPanel;
class GapsPanel;
class MemcpyPanel;
class RanksPanel;
class StepsPanel;
class SamplingPanel;
class StatsPanel;
class SummaryPanel;

class StatsDock : public QWidget {
    Q_OBJECT
public:
    // `analysis`: the application's, whose workspace the panels read;
    // none: one of the dock's own (the dock alone, as in tests).
    explicit StatsDock(std::shared_ptr<AnalysisWorkspaces> analysis = nullptr, QWidget *parent = nullptr);
    // Shows `session`'s workspace (the analysis' for it).
    void setSession(std::shared_ptr<const Session> session);
    void setRange(std::optional<TimeRange> range);
    void setRankIndex(std::optional<int> rankIndex);
    // "memcpy", "gaps", "summaries", "ranks", "collectives", "critical", "compare", ... (panelNames()); false for another name.
    bool showPanel(const QString &name);
    static QStringList panelNames();
    // The declared reports (stats/reportcatalog.h) whose tables `panel` shows.
    static QStringList reportsShownIn(const QString &panel);

    MemcpyPanel *memcpy() const;
    GapsPanel *gaps() const;
    SummaryPanel *summaries() const;
    RanksPanel *ranks() const;
    StepsPanel *steps() const;
    SamplingPanel *sampling() const;
    CollectivesPanel *collectives() const;
    CriticalPathPanel *criticalPath() const;
    DiagnosisPanel *diagnosis() const;
    ComparePanel *compare() const;
    const stats::StatsScope &scope() const { return m_scope; }
    // The session's analysis workspace every panel asks (null without a
    // session); the application's overlays ask the same one.
    const WorkspacePtr &workspace() const { return m_analysis->current(); }
    const AnalysisSettings &analysisSettings() const { return m_analysis->settings(); }
    void setAnalysisSettings(const AnalysisSettings &settings);
    void setComputeInBackground(bool background);
    void setComputeOnlyWhenShown(bool onlyWhenShown); // see StatsPanel
    // Every panel's tables and charts into `directory` (hidden panels are
    // computed first); returns the paths written.
    QStringList exportAll(const QString &directory);
    bool isComputing() const;

signals:
    void eventsSelected(const std::vector<rankscope::EventLocation> &events);
    void zoomRequested(rankscope::TimeRange range);
    void markRequested(const rankscope::TimeMark &mark);
    void searchRequested(const QString &text);
    void clearRangeRequested();
    // A new session or new settings: the workspace the panels now read.
    void workspaceChanged(const rankscope::WorkspacePtr &workspace);

private:
    void applyScope();
    // The dock's panel of type P (each type is registered once).
    template <class P>
    P *panel() const;

    std::shared_ptr<const Session> m_session;
    std::shared_ptr<AnalysisWorkspaces> m_analysis;
    stats::StatsScope m_scope;
    QComboBox *m_rank;
    QLabel *m_range;
    QLabel *m_failure; // a panel that ran out of memory, until the scope or session changes
    QPushButton *m_clearRange;
    QPushButton *m_export;
    QTabWidget *m_tabs;
    // Every panel, in tab order, with its registered title.
    struct Shown {
        QString title;
        StatsPanel *panel = nullptr;
    };
    std::vector<Shown> m_panels;
};

} // namespace rankscope
