#pragma once
// The critical path as tables: `rankscope-cli stats --report critical_path`
// (a row per segment) and `critical_path_summary` (a row per step), which
// the Critical path panel shows and exports as well.
#include "stats/criticalpath/criticalpath.h"
#include "stats/resulttable.h"

#include <array>

namespace rankscope::stats {

// What a segment is called: its event's name, "" for idle time between
// events; a segment reached from another rank says which.
QString segmentName(const Session &session, const PathSegment &segment);

// Step, Segment, Rank, Kind, Name, Start (ns), End (ns), Duration (ns):
// one row per segment, times from the session's first event (as the
// collectives report gives them, on the same clock); in a comparison a
// last column, Run (A or B).
ResultTable criticalPathTable(const Session &session, const std::vector<StepCriticalPath> &paths);

// A step's path in a few numbers and words, without its segments: what
// the summary keeps of every step while only the steps looked at keep
// their segments.
struct StepPathSummary {
    bool solved = false; // false: only the step is known (its path not solved yet)
    int step = -1;
    RunSide side = RunSide::None;
    TimeRange window;
    int endRankIndex = -1;
    TimeNs endShift = 0; // the end rank's clock shift (the window on the session's clock is window - endShift)
    std::size_t segments = 0;
    std::optional<TimeNs> whatIfLength;
    std::array<TimeNs, kPathKindCount> byKind{};
    std::vector<TimeNs> byRank; // per rank index
    QString crossed;            // who waited how long for whom where the path crossed ranks
    QString topNames;           // the three names with the most time on the path
    TimeNs length() const { return window.duration(); }
};
StepPathSummary summarizePath(const Session &session, const StepCriticalPath &path);

// Per step: its duration, the rank it ended on, the time per kind, per
// rank, where the path crossed ranks (who waited how long for whom), the
// top names on the path and (with what-ifs) the re-solved length. A step
// not solved yet has its number alone.
ResultTable criticalPathSummaryTable(const Session &session, const std::vector<StepCriticalPath> &paths);
ResultTable criticalPathSummaryTable(const Session &session, const std::vector<StepPathSummary> &steps);

// The names on a path with the most time on it, most first, at most `limit`.
struct PathName {
    QString name;
    PathKind kind = PathKind::Idle;
    TimeNs time = 0;
    std::size_t segments = 0;
    EventLocation longest; // its longest segment's event
    TimeNs longestTime = 0;
};
std::vector<PathName> topPathNames(const Session &session, const StepCriticalPath &path, std::size_t limit);

} // namespace rankscope::stats
