#pragma once
// Which collective a selected kernel is part of, for the Details dock and
// the timeline's band across ranks. The session's collectives are matched
// the first time a communication kernel is selected (not at load: a
// session nobody clicks a collective in pays nothing), and again when the
// user changes which kernels are communication.
#include "stats/collectives.h"

#include <memory>

namespace rankscope {

class CollectiveLookup {
public:
    void setSession(std::shared_ptr<const Session> session);
    void setCommunicationPattern(const QString &pattern);
    // Null unless `event` is a communication kernel matched on other ranks.
    const stats::CollectiveInstance *instanceOf(const EventLocation &event);

private:
    std::shared_ptr<const Session> m_session;
    QString m_pattern;
    std::unique_ptr<stats::CollectiveMatch> m_match; // built on first need
};

} // namespace rankscope
