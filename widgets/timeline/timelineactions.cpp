#include "timeline/timelineactions.h"

#include "timeline/timelinecanvas.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"

#include <QAction>
#include <QRegularExpression>

namespace rankscope {

namespace {

const char *const kGestures = "rankscope.gestures";

QAction *makeAction(TimelineView *view, const QString &text, const QList<QKeySequence> &keys, const QString &gestures, const QString &what)
{
    auto *action = new QAction(text, view);
    action->setShortcuts(keys);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    action->setStatusTip(what);
    action->setProperty(kGestures, gestures);
    view->addAction(action);
    return action;
}

} // namespace

QString TimelineActions::keysOf(const QAction *action)
{
    QStringList keys;
    for (const QKeySequence &k : action->shortcuts())
        keys << QStringLiteral("`%1`").arg(k.toString(QKeySequence::PortableText));
    const QString gestures = action->property(kGestures).toString();
    if (!gestures.isEmpty())
        keys << gestures;
    return keys.join(QStringLiteral(", "));
}

TimelineActions::TimelineActions(TimelineView *view) : QObject(view)
{
    ZoomState *zoom = view->zoom();
    TimelineCanvas *canvas = view->canvas();
    const QString around = tr("around the mouse (the view centre when the mouse is elsewhere)");
    zoomIn = makeAction(view, tr("Zoom &In"), {QKeySequence(Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal)}, tr("`Ctrl`+wheel up"),
                        tr("zoom in by %1× %2").arg(ZoomState::kZoomStep).arg(around));
    zoomOut = makeAction(view, tr("Zoom &Out"), {QKeySequence(Qt::Key_Minus), QKeySequence(Qt::CTRL | Qt::Key_Minus)}, tr("`Ctrl`+wheel down"),
                         tr("zoom out by %1× %2").arg(ZoomState::kZoomStep).arg(around));
    panLeft = makeAction(view, tr("Pan &Left"), {QKeySequence(Qt::Key_Left)}, tr("drag right, `Shift`+wheel up"), tr("pan towards earlier times"));
    panRight = makeAction(view, tr("Pan &Right"), {QKeySequence(Qt::Key_Right)}, tr("drag left, `Shift`+wheel down"), tr("pan towards later times"));
    zoomToSelection =
        makeAction(view, tr("Zoom to &Selection"), {QKeySequence(Qt::Key_Z)}, tr("double-click the ruler"), tr("zoom to the selected time range"));
    fit = makeAction(view, tr("&Fit Session"), {QKeySequence(Qt::Key_F), QKeySequence(Qt::Key_Home)}, QString(), tr("fit the whole session"));
    back = makeAction(view, tr("&Back"), {QKeySequence(Qt::Key_Backspace)}, QString(), tr("back to the previous zoom"));
    clearSelection =
        makeAction(view, tr("&Clear Selection"), {QKeySequence(Qt::Key_Escape)}, QString(), tr("clear the selected event and time range"));
    find = makeAction(view, tr("&Find..."), {QKeySequence(QKeySequence::Find)}, tr("`Enter`, `Shift+Enter`, `Esc` in the search field"),
                      tr("find events by name (substring or regex) in every rank; next; previous; back to the timeline"));
    find->setShortcutContext(Qt::WindowShortcut);

    connect(zoomIn, &QAction::triggered, zoom, [zoom, canvas] { zoom->zoomIn(canvas->anchorTime()); });
    connect(zoomOut, &QAction::triggered, zoom, [zoom, canvas] { zoom->zoomOut(canvas->anchorTime()); });
    connect(panLeft, &QAction::triggered, zoom, [zoom] { zoom->panSteps(-1); });
    connect(panRight, &QAction::triggered, zoom, [zoom] { zoom->panSteps(1); });
    connect(zoomToSelection, &QAction::triggered, zoom, [zoom] { zoom->zoomToSelection(); });
    connect(fit, &QAction::triggered, zoom, [zoom] { zoom->fit(); });
    connect(back, &QAction::triggered, zoom, [zoom] { zoom->back(); });
    connect(clearSelection, &QAction::triggered, canvas, [zoom, canvas] {
        zoom->setSelection(std::nullopt);
        canvas->selectEvent(std::nullopt);
        canvas->showMark(std::nullopt);
    });
}

QList<QAction *> TimelineActions::all() const
{
    return {zoomIn, zoomOut, panLeft, panRight, zoomToSelection, fit, back, clearSelection, find};
}

QList<TimelineActions::HelpRow> TimelineActions::gestureRows()
{
    return {
        {tr("`Shift`+drag"),
         tr("select a time range (the ruler shows its duration) and the rows dragged across (the Selection dock sums up their slices by name)")},
        {tr("click an event"), tr("select it; its details show in the Details dock")},
        {tr("double-click an event"), tr("zoom to it")},
        {tr("click a row name"), tr("fold or unfold a group; list a row's events in the Events dock")},
        {tr("right-click a row"), tr("pin it to the top, hide it, move it; the critical path of the step at that time; expand or collapse all; show "
                                     "only GPU or NCCL rows; show all (remembered)")},
    };
}

QList<TimelineActions::HelpRow> TimelineActions::helpRows() const
{
    QList<HelpRow> rows;
    for (const QAction *action : all())
        rows.push_back({keysOf(action), action->statusTip()});
    return rows + gestureRows();
}

QString TimelineActions::markdownOf(const QList<HelpRow> &rows)
{
    QStringList lines{QStringLiteral("| keys | action |"), QStringLiteral("|---|---|")};
    for (const HelpRow &row : rows)
        lines << QStringLiteral("| %1 | %2 |").arg(row.keys, row.what);
    return lines.join(QLatin1Char('\n'));
}

QString TimelineActions::htmlOf(const QList<HelpRow> &rows)
{
    static const QRegularExpression code(QStringLiteral("`([^`]+)`"));
    QString html = QStringLiteral("<table cellspacing='4'>");
    for (const HelpRow &row : rows) {
        QString keys = row.keys.toHtmlEscaped();
        keys.replace(code, QStringLiteral("<b>\\1</b>"));
        html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(keys, row.what.toHtmlEscaped());
    }
    return html + QStringLiteral("</table>");
}

} // namespace rankscope
