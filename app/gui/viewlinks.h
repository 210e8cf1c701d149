#pragma once
// How the window's views follow each other: an event selected anywhere
// (timeline, search, a Details link, the Events table, a panel) is shown
// in Details, listed in Events and, for a collective kernel, drawn as its
// instance across the ranks; the range selection reaches the Events table
// and, once the mouse rests, the statistics; a Shift+drag across rows is
// summarised in the Selection dock; the panels' requests (zoom,
// search, highlight, clear the range) reach the timeline.
#include "session/session.h"

#include <QObject>

#include <memory>
#include <optional>

class QAction;
class QDockWidget;

namespace rankscope {

class CollectiveLookup;
class DetailsPanel;
class EventsPanel;
class SearchBar;
class SelectionPanel;
class StatsDock;
class TimelineView;

struct LinkedViews {
    TimelineView *timeline = nullptr;
    DetailsPanel *details = nullptr;
    EventsPanel *events = nullptr;
    QDockWidget *eventsDock = nullptr; // shown when a row's events are listed
    SearchBar *search = nullptr;
    StatsDock *stats = nullptr;
    SelectionPanel *selection = nullptr; // the area selection's summary
    QDockWidget *selectionDock = nullptr;
};

class ViewLinks : public QObject {
    Q_OBJECT
public:
    ViewLinks(const LinkedViews &views, QObject *parent);
    ~ViewLinks() override;

    // View > Collapsed Ranks Without Communication Wait: collapsed ranks
    // draw their GPU busy less the time their communication kernels
    // waited for the last rank (matching the collectives first, on a
    // worker), so a straggler stands out among ranks that all look busy.
    QAction *busyWithoutWaitAction() const { return m_busyWithoutWait; }

signals:
    void message(const QString &text, int timeoutMs = 0); // for the status bar; empty: clear it

private:
    // The selected kernel's collective, in the Details dock and across the
    // ranks; matched first (on a worker) if it is not yet.
    void showCollectiveOf(const std::optional<EventLocation> &event);
    // Lists a timeline row's events in the Events dock (and shows the dock).
    void showRowEvents(int row);

    LinkedViews m_views;
    // The user closed the Events dock after it was shown: a click lists the
    // row in it still, but does not open it again (View > Events does).
    bool m_eventsDockClosedByUser = false;
    bool m_selectionDockClosedByUser = false; // Shift+drag then leaves it closed
    std::unique_ptr<CollectiveLookup> m_collectives;
    QAction *m_busyWithoutWait;
    void applyBusyWithoutWait();
};

} // namespace rankscope
