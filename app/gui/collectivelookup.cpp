#include "collectivelookup.h"

namespace rankscope {

void CollectiveLookup::forget()
{
    m_match.reset();
    m_job.cancel();
}

void CollectiveLookup::setWorkspace(WorkspacePtr workspace)
{
    if (workspace == m_workspace)
        return;
    m_workspace = std::move(workspace);
    forget();
    if (m_workspace)
        m_match = m_workspace->readyCollectiveMatch(MatchClock::Recorded);
}

bool CollectiveLookup::isCollectivePart(const EventLocation &event) const
{
    if (!m_workspace || !event.isValid() || std::size_t(event.rank) >= m_workspace->session()->ranks().size())
        return false;
    const Session &session = *m_workspace->session();
    const Track &track = session.track(event);
    const Report &report = *session.ranks()[std::size_t(event.rank)].report;
    if (track.kind == TrackKind::Mpi)
        return report.mpiCalls[track.slices.payload(event.event)].kind == MpiCallKind::Collective;
    if (track.kind != TrackKind::Kernel && track.kind != TrackKind::NcclKernels)
        return false;
    return m_workspace->classes().classify(report.strings.view(track.slices.name(event.event))) == stats::KernelClass::Communication;
}

void CollectiveLookup::prepare()
{
    if (!m_workspace || m_match || m_job.isRunning())
        return;
    // The worker holds the workspace: it outlives one replaced meanwhile.
    m_job.start([workspace = m_workspace](const JobToken &) { return workspace->collectiveMatch(MatchClock::Recorded); },
                [this](std::shared_ptr<const stats::CollectiveMatch> match) {
                    m_match = std::move(match);
                    emit ready();
                });
}

const stats::CollectiveInstance *CollectiveLookup::instanceOf(const EventLocation &event) const
{
    if (!m_match || !isCollectivePart(event))
        return nullptr;
    return stats::instanceOfKernel(*m_workspace->session(), *m_match, event);
}

} // namespace rankscope
