#include "sessioncontroller.h"

#include "core/units.h"
#include "panels/statsdock.h"
#include "stats/ranks/collectives.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"

#include <QAction>
#include <QSignalBlocker>

#include <algorithm>

namespace rankscope {

SessionController::SessionController(TimelineView *timeline, std::shared_ptr<const AnalysisWorkspaces> analysis, QObject *parent)
    : QObject(parent), m_timeline(timeline), m_analysis(std::move(analysis))
{
    createActions();
}

void SessionController::createActions()
{
    m_alignAction = new QAction(tr("&Align Ranks on Collectives"), this);
    m_alignAction->setCheckable(true);
    m_alignAction->setEnabled(false);
    m_alignAction->setToolTip(tr("Move each rank by the clock offset that lines up the ends of its collectives "
                                 "(recorded start times differ by milliseconds across hosts)"));
    connect(m_alignAction, &QAction::toggled, this, [this](bool on) { alignOnCollectives(on); });
    auto add = [this](const QString &text, auto slot) {
        auto *action = new QAction(text, this);
        connect(action, &QAction::triggered, this, slot);
        m_runsActions << action;
        return action;
    };
    add(tr("On Their &First Steps"), [this] { alignRuns(stats::RunAnchor::FirstStep); });
    add(tr("On Their First &Events"), [this] { alignRuns(stats::RunAnchor::Starts); });
    QAction *onSelected = add(tr("On the &Selected Event and Its Counterpart"), [this] { alignRunsOnSelectedEvent(); });
    onSelected->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    onSelected->setStatusTip(tr("align the compared runs on the selected event and its counterpart"));
    auto *separator = new QAction(this);
    separator->setSeparator(true);
    m_runsActions << separator;
    m_stretchAction = new QAction(tr("S&tretch Steps Over Each Other"), this);
    m_stretchAction->setCheckable(true);
    m_stretchAction->setToolTip(tr("Draw step k of run B over step k of run A, each step of B stretched or squeezed to A's length "
                                   "(the drawing only: times and durations stay as recorded)"));
    connect(m_stretchAction, &QAction::toggled, this, [this](bool on) { stretchSteps(on); });
    m_runsActions << m_stretchAction;
    for (QAction *action : m_runsActions)
        action->setEnabled(false);
}

void SessionController::setChecked(QAction *action, bool checked)
{
    const QSignalBlocker block(action); // the state follows what was done, it does not do it again
    action->setChecked(checked);
}

void SessionController::setSession(std::shared_ptr<const Session> session)
{
    m_recorded = session;
    m_alignJob.cancel(); // an alignment still computing was for the last one
    setChecked(m_alignAction, false);
    const bool comparison = session && session->isComparison();
    for (QAction *action : m_runsActions)
        action->setEnabled(comparison);
    if (!comparison)
        setChecked(m_stretchAction, false);
    show(std::move(session), false);
}

void SessionController::replaceWithWhole(std::shared_ptr<const Session> whole)
{
    m_recorded = whole;
    m_alignJob.cancel();
    m_timeline->replaceSession(whole);
    m_alignAction->setEnabled(whole->ranks().size() > 1);
    emit shown(whole, true);
}

void SessionController::show(std::shared_ptr<const Session> session, bool keepView)
{
    const TimeRange visible = m_timeline->zoom()->visible(); // the user keeps looking where they were
    m_timeline->setSession(session);
    if (m_stretchAction->isChecked() && session->isComparison()) // the canvas dropped it with the old session
        m_timeline->canvas()->setStretch(*workspaceOf(session)->stepStretchPoints());
    // Matching collectives reads every rank's events: not over ranks shown
    // from their summaries only (replaceWithWhole enables it).
    m_alignAction->setEnabled(session->ranks().size() > 1 && !session->hasSummariesOnlyRanks());
    emit shown(session, false);
    if (keepView)
        m_timeline->zoom()->show(visible);
}

void SessionController::compare(std::shared_ptr<const Session> both)
{
    setSession(std::move(both));
    // The same step of both runs one above the other, if both have steps.
    if (alignRuns(stats::RunAnchor::FirstStep).isEmpty())
        alignRuns(stats::RunAnchor::Starts);
}

void SessionController::showComparison(const Session &runB)
{
    // Run A is what was open; comparing again replaces run B.
    const Session runA = m_recorded->isComparison() ? m_recorded->subset(m_recorded->rankIndicesOf(RunSide::A)) : *m_recorded;
    compare(std::make_shared<const Session>(Session::comparison(runA, runB)));
}

bool SessionController::compareRanks(int a, int b)
{
    if (!m_recorded || a == b || a < 0 || b < 0 || std::size_t(std::max(a, b)) >= m_recorded->ranks().size()) {
        emit message(tr("Choose two different ranks of the session."));
        return false;
    }
    // Each rank becomes a run of its own (the reports shared), so aligning,
    // stretching and the counterpart of an event work as for two runs.
    compare(std::make_shared<const Session>(Session::comparison(m_recorded->subset({a}), m_recorded->subset({b}))));
    return true;
}

void SessionController::moveRunB(TimeNs delta)
{
    m_recorded = std::make_shared<const Session>(stats::movedRun(*m_recorded, RunSide::B, delta));
    const auto shown = m_timeline->session();
    show(shown.get() == m_recorded.get() ? m_recorded : std::make_shared<const Session>(stats::movedRun(*shown, RunSide::B, delta)), true);
}

QString SessionController::alignRuns(stats::RunAnchor anchor)
{
    const auto shown = m_timeline->session();
    if (!shown || !shown->isComparison())
        return {};
    const std::optional<TimeNs> delta = workspaceOf(shown)->runAnchorDelta(anchor);
    const QString what = anchor == stats::RunAnchor::FirstStep ? tr("their first steps") : tr("their first events");
    if (!delta) {
        emit message(tr("Cannot align the runs on %1: a run has none (steps are ProfilerStep# or NVTX \"step N\" ranges).").arg(what));
        return {};
    }
    moveRunB(*delta);
    const QString text = tr("Runs A and B aligned on %1 (B moved by %2).").arg(what, formatDuration(*delta));
    emit message(text);
    return text;
}

QString SessionController::alignRunsOnSelectedEvent()
{
    const auto shown = m_timeline->session();
    const std::optional<EventLocation> selected = m_timeline->canvas()->selectedEvent();
    if (!shown || !shown->isComparison() || !selected) {
        emit message(tr("Select an event of run A or B first: its counterpart in the other run is the same occurrence of its name."));
        return {};
    }
    const std::optional<EventLocation> other = stats::counterpartEvent(*shown, *selected);
    if (!other) {
        emit message(tr("The other run has no counterpart of this event (no event of this name, or fewer of them)."));
        return {};
    }
    const bool selectedInA = shown->ranks()[std::size_t(selected->rank)].side == RunSide::A;
    const EventLocation a = selectedInA ? *selected : *other, b = selectedInA ? *other : *selected;
    const TimeNs delta = shown->sessionTime(a).start - shown->sessionTime(b).start;
    moveRunB(delta);
    m_timeline->canvas()->selectEvent(*selected, false);
    const QString text = tr("Runs aligned on this event and its counterpart (B moved by %1).").arg(formatDuration(delta));
    emit message(text);
    return text;
}

QString SessionController::stretchSteps(bool stretch)
{
    const auto shown = m_timeline->session();
    if (m_stretchAction->isChecked() != stretch)
        setChecked(m_stretchAction, stretch);
    if (!stretch || !shown || !shown->isComparison()) {
        m_timeline->canvas()->setStretch({});
        return {};
    }
    m_timeline->canvas()->setStretch(*workspaceOf(shown)->stepStretchPoints());
    const QString text = m_timeline->canvas()->displayTime().isStretched()
                             ? tr("Step k of run B drawn over step k of run A (stretched to its length; times stay as recorded).")
                             : tr("Nothing to stretch: a run has no steps (ProfilerStep#, NVTX \"step N\" or \"iteration N\").");
    emit message(text);
    return text;
}

void SessionController::alignOnCollectives(bool align)
{
    if (!m_recorded)
        return;
    if (m_alignAction->isChecked() != align)
        setChecked(m_alignAction, align);
    auto showAligned = [this](std::shared_ptr<const Session> session, const QString &note) {
        if (m_timeline->canvas()->session() != session.get())
            show(std::move(session), true);
        emit message(note);
    };
    if (!align) {
        m_alignJob.cancel(); // a result still computing is for another choice
        showAligned(m_recorded, tr("Ranks aligned on their recorded start times."));
        return;
    }
    // Matching reads every rank's communication kernels: seconds for
    // hundreds of ranks, on a worker while the window keeps painting.
    emit message(tr("Matching collectives across %1 rank(s) to align them...").arg(m_recorded->ranks().size()), 0);
    const WorkspacePtr workspace = workspaceOf(m_recorded);
    m_alignJob.start(
        [recorded = m_recorded, workspace](const JobToken &) {
            const stats::CollectiveMatch &aligned = *workspace->collectiveMatch(MatchClock::Aligned);
            AlignedSession result;
            result.note = aligned.notes.isEmpty() ? QString() : aligned.notes.back();
            if (std::any_of(aligned.clockShift.begin(), aligned.clockShift.end(), [](TimeNs shift) { return shift != 0; }))
                result.session = std::make_shared<const Session>(recorded->withShiftedRanks(aligned.clockShift));
            return result;
        },
        [this, showAligned](AlignedSession aligned) {
            if (!aligned.session) // nothing to move: stay on the recorded starts
                setChecked(m_alignAction, false);
            showAligned(aligned.session ? aligned.session : m_recorded, aligned.note);
        });
}

WorkspacePtr SessionController::workspaceOf(const std::shared_ptr<const Session> &session) const
{
    return m_analysis->of(session);
}

} // namespace rankscope
