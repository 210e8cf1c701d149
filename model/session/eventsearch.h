#pragma once
// Finding events by name across every rank of a session.
#include "session/session.h"

#include <QString>
#include <atomic>
#include <functional>
#include <vector>

namespace rankscope {

struct SearchQuery {
    QString text;
    bool regularExpression = false;
    bool caseSensitive = false;
};

// Matching recorded events (derived tracks are left out so nothing is found
// twice), ordered by session start time (ties by rank, track, event): the
// first `limit` matches in time, whatever track they are on. An invalid
// regular expression matches nothing.
//
// Cost: one pass over each report's string table, then a merge of the
// tracks (each sorted by start) that reads each event once and stops after
// `limit` matches. `onBatch`, when given, receives the matches found so far
// in order, every `batchSize`, so a caller on another thread can show the
// first ones at once; `cancel` stops the search (what was found is returned).
std::vector<EventLocation> findEvents(const Session &session, const SearchQuery &query, std::size_t limit = 1000000,
                                      const std::atomic<bool> *cancel = nullptr,
                                      const std::function<void(std::vector<EventLocation> batch)> &onBatch = {}, std::size_t batchSize = 1000);

} // namespace rankscope
