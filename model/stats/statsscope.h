#pragma once
// What part of a session a statistic covers: a time range (session time)
// and one rank or all of them. Statistics count an event when it starts
// inside the range, so every event is counted once however the range cuts.
#include "session/session.h"

#include <optional>
#include <vector>

namespace rankscope::stats {

// One report seen through a filter: the events of one process (when a rank
// is one process of a shared export) that start in a report-time range.
struct ReportSlice {
    const Report *report = nullptr;
    int rankIndex = -1;                        // index into Session::ranks(), if from one
    TimeRange range = TimeRange::everything(); // report time
    std::optional<std::uint32_t> pid;

    bool acceptsTrack(const Track &track) const { return acceptsProcess(track.pid); }
    bool acceptsProcess(std::uint32_t process) const { return !pid || process == *pid; }
    // First and one-past-last event of a track that start in the range
    // (tracks are sorted by start).
    std::pair<std::size_t, std::size_t> eventsIn(const Track &track) const;
};

struct StatsScope {
    std::optional<TimeRange> range; // session time; none = everything
    std::optional<int> rankIndex;   // index into Session::ranks(); none = all
    bool operator==(const StatsScope &) const = default;
};

// The slices a scope covers, one per rank entry.
std::vector<ReportSlice> slicesOf(const Session &session, const StatsScope &scope);
ReportSlice wholeReport(const Report &report);

} // namespace rankscope::stats
