#pragma once
// Several reports opened together as one multi-rank view on a common time
// axis. Each rank is a report, or one process of a report when a single
// export holds several CUDA processes (torchrun under one nsys).
#include "core/report.h"
#include "load/loadcontrol.h"

#include <QStringList>
#include <optional>
#include <vector>

namespace rankscope {

// Which run of a comparison a rank belongs to (File > Compare With...):
// "A" (the session open before) or "B" (the one compared with it).
enum class RunSide : std::uint8_t { None, A, B };
QString runSideName(RunSide side); // "A", "B", ""

struct RankEntry {
    int rank = 0;
    ReportPtr report;
    std::optional<std::uint32_t> pid; // set when the report is split by process
    // Add to a report time to get session time (ns since the earliest
    // report's start): reports align on their absolute UTC start.
    TimeNs sessionOffset = 0;
    RunSide side = RunSide::None;

    // "rank 3", or in a comparison "B · rank 3": how every view names it.
    QString displayName() const;
};

// One event of a session: rank entry, track of that rank's report, event.
struct EventLocation {
    int rank = -1; // index into Session::ranks()
    std::uint32_t track = 0;
    std::uint32_t event = 0;

    bool isValid() const { return rank >= 0; }
    bool operator==(const EventLocation &) const = default;
};

struct LoadFailure {
    QString path;
    QString error;
};

class Session {
public:
    // Loads every file (a directory: the trace files in it), in parallel.
    // Files that fail are listed in failures(); the rest still open.
    static Session load(const QStringList &pathsOrDirectories, const LoadControl &control = {});
    // Builds a session from loaded reports, in this order.
    static Session fromReports(std::vector<ReportPtr> reports);
    // The same session with the ranks opened with their summaries only
    // (hasSummariesOnlyRanks) opened whole, the other reports shared: each
    // of those files loaded again, `control` asking for no summaries; one
    // that fails now is listed in failures() and its rank leaves.
    Session withWholeReports(const LoadControl &control) const;

    const std::vector<ReportPtr> &reports() const { return m_reports; }
    const std::vector<RankEntry> &ranks() const { return m_ranks; }
    const std::vector<LoadFailure> &failures() const { return m_failures; }
    bool wasCancelled() const { return m_cancelled; }
    // Whether a rank was opened from its cache's summaries only
    // (Report::summariesOnly): a first frame, its events still to come.
    bool hasSummariesOnlyRanks() const;

    // Whether a track of the entry's report belongs to that rank (all of
    // them, unless the report is split by process).
    static bool ownsTrack(const RankEntry &entry, const Track &track);
    static bool ownsProcess(const RankEntry &entry, std::uint32_t pid); // its GPU busy summaries, say
    const Track &track(const EventLocation &at) const;
    // Start and end of the event in session time.
    TimeRange sessionTime(const EventLocation &at) const;
    // The union of every rank's events, in session time.
    TimeRange extent() const;
    // Session time one rank recorded anything in; empty (end < start) when
    // it recorded nothing.
    static TimeRange recordedExtent(const RankEntry &entry);
    // The same ranks (the reports shared) with rank i's session times moved
    // by shift[i]: e.g. the clock offsets that line up collectives.
    Session withShiftedRanks(const std::vector<TimeNs> &shift) const;

    // Two runs side by side (File > Compare With...): A's ranks, then B's,
    // each marked with its side; B's session times moved by `shiftB`.
    static Session comparison(const Session &a, const Session &b, TimeNs shiftB = 0);
    bool isComparison() const;
    // The indices (into ranks()) of one side's ranks; RunSide::None: all.
    std::vector<int> rankIndicesOf(RunSide side) const;
    // Only these ranks (indices into ranks()), in this order, the reports
    // shared; failures are kept.
    Session subset(const std::vector<int> &rankIndices) const;

private:
    void assignRanks();

    std::vector<ReportPtr> m_reports;
    std::vector<RankEntry> m_ranks;
    std::vector<LoadFailure> m_failures;
    bool m_cancelled = false;
};

// "rank3", "rank_3", "rank-3" anywhere in the file name, or a trailing
// "_3" before the extension (what %q{RANK} writes). A report's rank comes
// from the trace itself (Kineto distributedInfo), else from this, else from
// the recorded launch environment or MPI ranks, else by order.
std::optional<int> rankFromFileName(const QString &path);

QStringList expandTracePaths(const QStringList &pathsOrDirectories);

} // namespace rankscope
