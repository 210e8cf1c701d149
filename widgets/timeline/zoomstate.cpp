#include "timeline/zoomstate.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

ZoomState::ZoomState(QObject *parent) : QObject(parent) { }

void ZoomState::setBounds(TimeRange bounds)
{
    if (bounds.end <= bounds.start)
        bounds.end = bounds.start + kMinimumSpan;
    m_bounds = bounds;
    m_history.clear();
    m_selection.reset();
    setVisible(bounds);
    emit selectionChanged();
}

TimeRange ZoomState::clamped(TimeRange r) const
{
    // At most the bounds plus a margin either side; at least kMinimumSpan;
    // never scrolled past either end.
    const TimeNs margin = m_bounds.duration() / 20;
    const TimeNs maxSpan = m_bounds.duration() + 2 * margin;
    TimeNs span = std::clamp(r.duration(), kMinimumSpan, std::max(maxSpan, kMinimumSpan));
    TimeNs start = r.start;
    if (r.duration() != span)
        start = r.start + (r.duration() - span) / 2;
    start = std::clamp(start, m_bounds.start - margin, std::max(m_bounds.start - margin, m_bounds.end + margin - span));
    return {start, start + span};
}

void ZoomState::setVisible(TimeRange r)
{
    r = clamped(r);
    if (r.start == m_visible.start && r.end == m_visible.end)
        return;
    m_visible = r;
    emit visibleChanged(m_visible);
}

void ZoomState::show(TimeRange range)
{
    m_history.push_back(m_visible);
    setVisible(range);
}

void ZoomState::zoom(double factor, TimeNs anchor)
{
    if (factor <= 0)
        return;
    anchor = std::clamp(anchor, m_visible.start, m_visible.end);
    const double left = double(anchor - m_visible.start) / factor;
    const double right = double(m_visible.end - anchor) / factor;
    show({anchor - TimeNs(std::llround(left)), anchor + TimeNs(std::llround(right))});
}

void ZoomState::pan(TimeNs delta)
{
    setVisible({m_visible.start + delta, m_visible.end + delta});
}

void ZoomState::fit()
{
    show(m_bounds);
}

bool ZoomState::zoomToSelection()
{
    if (!m_selection || m_selection->duration() <= 0)
        return false;
    show(*m_selection);
    return true;
}

bool ZoomState::back()
{
    if (m_history.empty())
        return false;
    const TimeRange previous = m_history.back();
    m_history.pop_back();
    setVisible(previous);
    return true;
}

void ZoomState::centreOn(TimeNs t)
{
    const TimeNs half = m_visible.duration() / 2;
    show({t - half, t - half + m_visible.duration()});
}

void ZoomState::setSelection(std::optional<TimeRange> selection)
{
    if (selection && selection->end < selection->start)
        std::swap(selection->start, selection->end);
    m_selection = selection;
    emit selectionChanged();
}

} // namespace rankscope
