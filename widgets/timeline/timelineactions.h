#pragma once
// Every command of the timeline as one QAction (after KDAB Hotspot's
// FilterAndZoomStack::Actions). The menus, the keys and Help > Keyboard
// Shortcuts all read this set, so each shortcut is written exactly once:
// here. The mouse gestures that do the same thing are written beside the
// action they belong to; gestures with no action (click, drag) are listed
// in gestureRows().
#include <QList>
#include <QObject>
#include <QString>

class QAction;

namespace rankscope {

class TimelineView;

class TimelineActions : public QObject {
    Q_OBJECT
public:
    // The actions act on `view` and are added to it: their keys work while
    // the timeline has the focus. find works anywhere in the window.
    explicit TimelineActions(TimelineView *view);

    QAction *zoomIn;
    QAction *zoomOut;
    QAction *panLeft;
    QAction *panRight;
    QAction *zoomToSelection;
    QAction *fit;
    QAction *back;
    QAction *clearSelection;
    QAction *find; // the window connects it to its search bar

    QList<QAction *> all() const;

    // One row of the shortcut table: keys (each in backticks) and what they do.
    struct HelpRow {
        QString keys;
        QString what;
    };
    // The table Help > Keyboard Shortcuts shows and the README writes:
    // a row per action (its shortcuts, then its gestures), then the
    // gestures that have no action.
    QList<HelpRow> helpRows() const;
    static QList<HelpRow> gestureRows();
    // Any action's keys as a row writes them: each shortcut in backticks,
    // then the gestures written beside it.
    static QString keysOf(const QAction *action);
    static QString markdownOf(const QList<HelpRow> &rows);
    static QString htmlOf(const QList<HelpRow> &rows);
};

} // namespace rankscope
