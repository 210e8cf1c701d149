#include "collectivelookup.h"

namespace rankscope {

void CollectiveLookup::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    m_match.reset();
}

void CollectiveLookup::setCommunicationPattern(const QString &pattern)
{
    if (pattern == m_pattern)
        return;
    m_pattern = pattern;
    m_match.reset();
}

const stats::CollectiveInstance *CollectiveLookup::instanceOf(const EventLocation &event)
{
    if (!m_session || !event.isValid() || std::size_t(event.rank) >= m_session->ranks().size())
        return nullptr;
    const Track &track = m_session->track(event);
    if (track.kind != TrackKind::Kernel && track.kind != TrackKind::NcclKernels)
        return nullptr;
    const stats::KernelClassifier classes = stats::KernelClassifier::rankscope(m_pattern);
    const Report &report = *m_session->ranks()[std::size_t(event.rank)].report;
    if (classes.classify(report.strings.view(track.slices.name(event.event))) != stats::KernelClass::Communication)
        return nullptr;
    if (!m_match)
        m_match = std::make_unique<stats::CollectiveMatch>(stats::matchCollectives(*m_session, classes));
    return stats::instanceOfKernel(*m_session, *m_match, event);
}

} // namespace rankscope
