#pragma once
// CPU samples for the scope (a range, one rank or all), as Nsight Systems
// shows them: a Top-Down tree, a Bottom-Up tree or the Flat list, each with
// self and total samples and their share, beside an icicle of the
// Top-Down tree. Filters hide kernel frames, collapse unresolved ones and
// group by module; search finds a function; double-clicking one marks its
// samples on the timeline.
#include "panels/statspanel.h"
#include "sampling/calltreemodel.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QTreeView;

namespace rankscope {

class IcicleView;

class SamplingPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit SamplingPanel(QWidget *parent = nullptr);
    void setShape(CallTreeModel::Shape shape);
    void setFilter(const stats::SamplingFilter &filter);
    const stats::SamplingFilter &filter() const { return m_filter; }
    CallTreeModel *model() const { return m_model; }
    QTreeView *tree() const { return m_tree; }
    IcicleView *icicle() const { return m_icicle; }
    QString note() const;
    // Only these threads' samples (the CPU samples rows of an area
    // selection); none: every thread in scope.
    void setThreads(std::optional<std::set<stats::SamplingScope::ThreadKey>> threads);
    // Selects the next function whose name contains `text`; false if none does.
    bool findNext(const QString &text);

signals:
    // Mark the samples with this function in their callchain (by module
    // alone when the filter groups by module); cleared with markCleared.
    void functionMarked(const QString &function, const QString &module, bool byModule);
    void markCleared();

protected:
    void refresh() override;

private:
    void present(std::shared_ptr<const stats::SamplingProfile> profile);
    void markFunction(std::uint32_t function);

    QComboBox *m_shape;
    QCheckBox *m_hideKernel, *m_collapseUnresolved, *m_byModule;
    QLineEdit *m_search;
    QLabel *m_note;
    QTreeView *m_tree;
    CallTreeModel *m_model;
    IcicleView *m_icicle;
    stats::SamplingFilter m_filter;
    std::optional<std::set<stats::SamplingScope::ThreadKey>> m_threads;
    std::shared_ptr<const stats::SamplingProfile> m_profile;
};

} // namespace rankscope
