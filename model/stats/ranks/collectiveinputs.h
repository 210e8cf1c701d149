#pragma once
// What matching collectives reads of each rank: its communication kernels,
// keyed by communicator, and its other GPU work (for splitting late time).
// Extracted one rank at a time, so under MPI each process reads its own
// ranks' events and process 0 matches the compact records it gathers
// (app/cli/statsacrossprocesses.h) instead of reading every rank again.
#include "core/intervals.h"
#include "session/session.h"
#include "stats/kernelclasses.h"
#include "stats/ranks/collectives.h"

#include <QDataStream>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace rankscope::stats {

// One communication kernel of a rank, before matching.
struct CollectiveOp {
    TimeNs start = 0, end = 0;          // session time
    std::optional<TimeNs> launch;       // the launching API call's start, session time
    std::uint32_t track = 0, event = 0; // the kernel, in its rank's report
    CollectiveKind kind = CollectiveKind::Other;
    QString name;            // as the trace names it, else the kind's name
    std::int64_t bytes = -1; // nccl-tests' message size; -1 unknown
    int groupSize = 0;
    std::int64_t sequence = -1; // the trace's number of it on its process group; -1 unknown
};

struct RankCollectiveOps {
    // Whether the trace named a process group for any of them (else the
    // communicators are "stream #k", the k-th communication stream).
    bool keyedByGroup = false;
    std::map<QString, std::vector<CollectiveOp>> byCommunicator; // each in time order
    // The rank's GPU work other than communication, sorted disjoint runs in
    // session time; read when first needed (the late split of rank waits).
    std::optional<std::vector<Interval>> otherGpuWork;

    // From one session's time to another's: what the rank's entry adds in
    // the session that reads them, less what it added where they were read.
    void shiftTimes(TimeNs shift);
};

RankCollectiveOps collectiveOpsOfRank(const Session &session, int rankIndex, const KernelClassifier &classes);
std::vector<Interval> otherGpuWorkOfRank(const Session &session, int rankIndex, const KernelClassifier &classes);

// Each rank of one report read alone (each process of it, when it is split
// by process), its records in the report's own time: what an MPI process
// sends process 0 for a file of its share.
struct ReportRankOps {
    std::optional<std::uint32_t> pid; // the rank's process, when the report is split by process
    RankCollectiveOps ops;
};
std::vector<ReportRankOps> collectiveOpsOfReport(const ReportPtr &report, const KernelClassifier &classes, bool withOtherGpuWork);

QDataStream &operator<<(QDataStream &out, const RankCollectiveOps &ops);
QDataStream &operator>>(QDataStream &in, RankCollectiveOps &ops);

// Per rank of a session, its operations: those given (gathered from other
// processes), else read from the session when first asked for. Not for use
// from several threads at once.
class CollectiveInputs {
public:
    CollectiveInputs(const Session &session, KernelClassifier classes);

    // `ops` in this session's time; a rank given none is read when asked.
    void give(int rankIndex, RankCollectiveOps ops);
    // The same for the rank of this session that is the report at
    // `filePath` (its process `pid`), `ops` in the report's own time (as
    // collectiveOpsOfReport gives them); false when no rank is.
    bool giveOfReport(const QString &filePath, std::optional<std::uint32_t> pid, RankCollectiveOps ops);
    std::size_t given() const { return m_given; }

    const RankCollectiveOps &of(int rankIndex);
    // The collectives matched from them, as recorded or aligned on the
    // collectives' ends: computed once for every report that reads them.
    const CollectiveMatch &match(bool alignOnCollectives) { return *sharedMatch(alignOnCollectives); }
    std::shared_ptr<const CollectiveMatch> sharedMatch(bool alignOnCollectives);
    // The match if it is computed, else null (computes nothing).
    std::shared_ptr<const CollectiveMatch> readyMatch(bool alignOnCollectives) const { return alignOnCollectives ? m_aligned : m_recorded; }
    const KernelClassifier &classes() const { return m_classes; }
    const std::vector<Interval> &otherGpuWorkOf(int rankIndex);
    const Session &session() const { return m_session; }

private:
    const Session &m_session;
    KernelClassifier m_classes;
    std::vector<std::optional<RankCollectiveOps>> m_ops;              // per rank index, without otherGpuWork
    std::vector<std::optional<std::vector<Interval>>> m_otherGpuWork; // per rank index
    std::size_t m_given = 0;
    std::shared_ptr<const CollectiveMatch> m_recorded, m_aligned;
    std::map<std::pair<QString, std::optional<std::uint32_t>>, int> m_rankOfReport; // built on the first giveOfReport
};

} // namespace rankscope::stats
