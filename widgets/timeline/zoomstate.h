#pragma once
// The visible time range and the selected time range of a timeline, with a
// history to go back through. Keys, wheel, drag and box zoom all go through
// here, so every way of zooming clamps and records the same way.
#include "core/timetypes.h"

#include <QObject>
#include <optional>
#include <vector>

namespace rankscope {

class ZoomState : public QObject {
    Q_OBJECT
public:
    static constexpr double kZoomStep = 1.5;   // + and - zoom by this factor
    static constexpr TimeNs kMinimumSpan = 20; // ns visible at the deepest zoom
    static constexpr double kPanStep = 0.1;    // arrow keys and the wheel pan a tenth of the view

    explicit ZoomState(QObject *parent = nullptr);

    // The whole session; also what fit() shows.
    void setBounds(TimeRange bounds);
    TimeRange bounds() const { return m_bounds; }
    TimeRange visible() const { return m_visible; }
    std::optional<TimeRange> selection() const { return m_selection; }

    // Shows `range` (clamped), remembering the previous range for back().
    void show(TimeRange range);
    // factor > 1 zooms in; the time under `anchor` stays where it is.
    void zoom(double factor, TimeNs anchor);
    void zoomIn(TimeNs anchor) { zoom(kZoomStep, anchor); }
    void zoomOut(TimeNs anchor) { zoom(1.0 / kZoomStep, anchor); }
    void pan(TimeNs delta); // not recorded in history
    void panSteps(double steps) { pan(TimeNs(steps * kPanStep * double(m_visible.duration()))); }
    void fit();
    bool zoomToSelection();  // false when nothing is selected
    bool back();             // false when the history is empty
    void centreOn(TimeNs t); // keeps the zoom

    void setSelection(std::optional<TimeRange> selection);

signals:
    void visibleChanged(rankscope::TimeRange visible);
    void selectionChanged();

private:
    TimeRange clamped(TimeRange r) const;
    void setVisible(TimeRange r);

    TimeRange m_bounds{0, 1};
    TimeRange m_visible{0, 1};
    std::optional<TimeRange> m_selection;
    std::vector<TimeRange> m_history;
};

} // namespace rankscope
