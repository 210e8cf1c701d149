#pragma once
// Finding events by name across every rank of a session.
#include "session/session.h"

#include <QString>
#include <vector>

namespace rankscope {

struct SearchQuery {
    QString text;
    bool regularExpression = false;
    bool caseSensitive = false;
};

// Matching recorded events (derived tracks are left out so nothing is found
// twice), ordered by session start time. An invalid regular expression
// matches nothing. Cost: one pass over each report's string table, then one
// integer comparison per event.
std::vector<EventLocation> findEvents(const Session &session, const SearchQuery &query,
                                      std::size_t limit = 1000000);

} // namespace rankscope
