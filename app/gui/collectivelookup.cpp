#include "collectivelookup.h"

#include <QFutureWatcher>
#include <QtConcurrent>

namespace rankscope {

void CollectiveLookup::forget()
{
    m_match.reset();
    m_underWay = false;
    ++m_generation;
}

void CollectiveLookup::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    forget();
}

void CollectiveLookup::setCommunicationPattern(const QString &pattern)
{
    if (pattern == m_pattern)
        return;
    m_pattern = pattern;
    m_classes = stats::KernelClassifier::rankscope(pattern);
    forget();
}

bool CollectiveLookup::isCommunicationKernel(const EventLocation &event) const
{
    if (!m_session || !event.isValid() || std::size_t(event.rank) >= m_session->ranks().size())
        return false;
    const Track &track = m_session->track(event);
    if (track.kind != TrackKind::Kernel && track.kind != TrackKind::NcclKernels)
        return false;
    const Report &report = *m_session->ranks()[std::size_t(event.rank)].report;
    return m_classes.classify(report.strings.view(track.slices.name(event.event))) == stats::KernelClass::Communication;
}

void CollectiveLookup::prepare()
{
    if (!m_session || m_match || m_underWay)
        return;
    m_underWay = true;
    using Result = std::shared_ptr<const stats::CollectiveMatch>;
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, generation = m_generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // for a session or pattern no longer shown
        m_match = watcher->result();
        m_underWay = false;
        emit ready();
    });
    // The worker holds the session: it outlives a session replaced meanwhile.
    watcher->setFuture(QtConcurrent::run([session = m_session, classes = m_classes]() -> Result {
        return std::make_shared<const stats::CollectiveMatch>(stats::matchCollectives(*session, classes));
    }));
}

const stats::CollectiveInstance *CollectiveLookup::instanceOf(const EventLocation &event) const
{
    if (!m_match || !isCommunicationKernel(event))
        return nullptr;
    return stats::instanceOfKernel(*m_session, *m_match, event);
}

} // namespace rankscope
