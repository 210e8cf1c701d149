#pragma once
// Diagnosis: what is wrong with the run, across all ranks. The findings,
// costliest first; selecting one lists its instances and its advice;
// double-clicking an instance zooms the timeline to it and selects it.
// Findings cover the whole session (they compare the ranks), whatever the
// scope.
#include "panels/statspanel.h"
#include "stats/diagnosis/diagnosis.h"

class QLabel;

namespace rankscope {

class TableBox;

class DiagnosisPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit DiagnosisPanel(QWidget *parent = nullptr);
    TableBox *findingsTable() const { return m_findings; }
    TableBox *instancesTable() const { return m_instances; }
    // The finding whose instances and advice are shown (by its row in the findings table).
    void showFinding(int row);
    QString advice() const;
    // The findings as a short Markdown report (Save report...).
    QString markdown() const;

protected:
    void refresh() override;
    bool readsAnalysisSettings() const override { return true; }
    // The old session's notes and advice go at once: they would read as the new one's.
    void sessionChanged() override;

private:
    void present(std::shared_ptr<const stats::Diagnosis> diagnosis);
    void activateInstance(int row);
    void saveReport();

    QLabel *m_notes;
    QLabel *m_advice;
    TableBox *m_findings;
    TableBox *m_instances;
    std::shared_ptr<const stats::Diagnosis> m_diagnosis;
    int m_shown = -1; // index into m_diagnosis->findings
};

} // namespace rankscope
