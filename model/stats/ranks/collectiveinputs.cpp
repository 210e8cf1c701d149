#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/cpucommunication.h"

#include "core/cancellation.h"
#include "core/qthash.h"
#include "session/eventlinks.h"
#include "session/residentbudget.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace rankscope::stats {

namespace {

std::int64_t bytesOf(const CollectiveRecord &c, CollectiveKind kind)
{
    // nccl-tests' size: the gathered output for all-gather, the input
    // otherwise (all-reduce, reduce-scatter's whole input, send/recv).
    const std::int64_t preferred = kind == CollectiveKind::AllGather ? c.outBytes : c.inBytes;
    return preferred >= 0 ? preferred : std::max(c.inBytes, c.outBytes);
}

// A send or receive pairs with its peer's: both key it by their ranks in
// the communicator, so a pipeline's sends between stages 2 and 3 match
// each other, not stage 0's. A send from 2 to 3 and 3's receive from 2
// are "ranks 2→3", apart from the sends the other way: NCCL pairs the
// k-th send with the peer's k-th receive, whatever each side ran between
// (a stage posts a gradient's receive early, its peer sends it late). A
// grouped send and receive ("ranks 2↔3") pairs with its peer's group.
QString pointToPointPair(const Report &r, const CollectiveRecord &c, CollectiveKind kind)
{
    if (c.commRank < 0 || c.peers == StringTable::kEmpty)
        return {};
    const QStringList peers = r.strings.string(c.peers).split(QLatin1Char(','));
    if ((kind == CollectiveKind::Send || kind == CollectiveKind::Recv) && peers.size() == 1 && peers[0].toInt() != c.commRank) {
        const int peer = peers[0].toInt();
        const auto [from, to] = kind == CollectiveKind::Send ? std::pair(c.commRank, peer) : std::pair(peer, c.commRank);
        return QStringLiteral(" ranks %1→%2").arg(from).arg(to);
    }
    QList<int> ranks{c.commRank};
    for (const QString &peer : peers)
        if (!ranks.contains(peer.toInt()))
            ranks << peer.toInt();
    std::sort(ranks.begin(), ranks.end());
    QStringList names;
    for (const int rank : ranks)
        names << QString::number(rank);
    return QStringLiteral(" ranks ") + names.join(ranks.size() == 2 ? QStringLiteral("↔") : QStringLiteral(","));
}

} // namespace

// The communication kernels of one rank, keyed by communicator: the
// process group's name when the trace records it, else the rank's k-th
// stream that runs communication kernels ("stream #k", streams in order of
// first use), each list in time order. matchCollectives pairs them across
// ranks by their end.
RankCollectiveOps collectiveOpsOfRank(const Session &session, int rankIndex, const KernelClassifier &classes)
{
    const RankEntry &entry = session.ranks()[std::size_t(rankIndex)];
    const Report &r = *entry.report;
    struct Pending {
        CollectiveOp op;
        int group = -1;                       // into `groups`; -1: keyed by its stream
        std::pair<int, std::uint32_t> stream; // device, stream
    };
    std::vector<Pending> pending;
    pending.reserve(r.communication.present ? r.communication.kernels.size() : 0);
    // Kind and name per (collective name, kernel name): a rank runs the same
    // few thousands of times, and reading the kind from the names is slow.
    struct NamedKind {
        CollectiveKind kind;
        QString name; // as the trace names it, else the kind's name
    };
    std::map<std::pair<StringId, StringId>, NamedKind> kinds;
    auto kindOf = [&](StringId collectiveName, StringId kernelName) -> const NamedKind & {
        auto it = kinds.find({collectiveName, kernelName});
        if (it == kinds.end()) {
            const std::string_view collective = r.strings.view(collectiveName);
            const CollectiveKind kind = collectiveKindOf(collective, r.strings.view(kernelName));
            it = kinds
                     .emplace(std::pair(collectiveName, kernelName),
                              NamedKind{kind, collective.empty() ? collectiveKindName(kind)
                                                                 : QString::fromUtf8(collective.data(), qsizetype(collective.size()))})
                     .first;
        }
        return it->second;
    };
    // The communicator a collective names, as a number: its process group
    // (and, for a send or receive, the pair of ranks), named once per
    // distinct one rather than a text built per kernel.
    std::vector<QString> groups;
    // (group name, point to point, its kind, rank, peers)
    std::map<std::tuple<StringId, bool, CollectiveKind, int, StringId>, int> groupOf;
    auto groupIndexOf = [&](const CollectiveRecord &c, CollectiveKind kind) {
        const bool pointToPoint = isPointToPoint(kind);
        const auto key = pointToPoint ? std::tuple(c.processGroupName, true, kind, c.commRank, c.peers)
                                      : std::tuple(c.processGroupName, false, CollectiveKind::Other, 0, StringTable::kEmpty);
        auto it = groupOf.find(key);
        if (it == groupOf.end()) {
            QString group = r.strings.string(c.processGroupName);
            if (pointToPoint && !group.isEmpty())
                group += pointToPointPair(r, c, kind);
            int index = -1;
            if (!group.isEmpty()) {
                index = int(groups.size());
                groups.push_back(std::move(group));
            }
            it = groupOf.emplace(key, index).first;
        }
        return it->second;
    };
    // A kernel (its name and times, report time), its row in the
    // collectives table and its launch (session time).
    auto add = [&](std::uint32_t t, std::size_t i, StringId kernelName, TimeRange when, std::uint32_t collective, std::optional<TimeNs> launch) {
        const Track &track = r.tracks[t];
        Pending p;
        p.op.start = when.start + entry.sessionOffset;
        p.op.end = when.end + entry.sessionOffset;
        p.op.track = t;
        p.op.event = std::uint32_t(i);
        p.op.launch = launch;
        p.stream = {track.deviceId, track.streamId};
        const CollectiveRecord *c =
            collective != KernelRecord::kNoCollective && collective < r.collectives.size() ? &r.collectives[collective] : nullptr;
        const NamedKind &named = kindOf(c ? c->name : StringTable::kEmpty, kernelName);
        p.op.kind = named.kind;
        p.op.name = named.name; // shared, not a copy per kernel
        if (c) {
            p.group = groupIndexOf(*c, p.op.kind);
            p.op.bytes = bytesOf(*c, p.op.kind);
            p.op.groupSize = c->groupSize;
            p.op.sequence = c->sequence;
        }
        pending.push_back(std::move(p));
    };
    if (classes.hasBuiltInCommunication() && r.communication.present) {
        // The kernels the report keeps as communication: a rank's few
        // thousand, not its every kernel's name.
        for (const CommunicationKernel &kernel : r.communication.kernels)
            if (Session::ownsTrack(entry, r.tracks[kernel.track]))
                add(kernel.track, kernel.event, kernel.name, {kernel.start, kernel.end}, kernel.collective,
                    kernel.launch == CommunicationKernel::kNoLaunch ? std::nullopt : std::optional(kernel.launch + entry.sessionOffset));
    } else {
        KernelClassCache classOf(r.strings, classes);
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
            const Track &track = r.tracks[t];
            if (track.kind != TrackKind::Kernel || !Session::ownsTrack(entry, track))
                continue;
            for (std::size_t i = 0; i < track.slices.size(); ++i) {
                if (classOf.of(track.slices.name(i)) != KernelClass::Communication)
                    continue;
                const auto call = launchingApiCall(session, {rankIndex, t, std::uint32_t(i)});
                add(t, i, track.slices.name(i), {track.slices.start(i), track.slices.end(i)}, r.kernels[track.slices.payload(i)].collective,
                    call ? std::optional(session.sessionTime(*call).start) : std::nullopt);
            }
        }
    }
    if (pending.empty()) {
        // No communication kernel: a Gloo run communicates on the CPU, its
        // collectives the gloo:* ranges around them. DDP runs two at once
        // (on two threads, which differ from rank to rank), so each name is
        // a communicator of its own, numbered in order of start: the k-th
        // gloo:all_reduce of every rank is one collective.
        struct CpuSeries {
            NamedKind named;
            int group = -1;
            std::int64_t count = 0;
        };
        std::map<StringId, CpuSeries> series;
        for (const CpuCollectiveRange &c : cpuCollectivesOfRank(entry)) {
            auto it = series.find(c.name);
            if (it == series.end()) {
                const std::string_view name = r.strings.view(c.name);
                CpuSeries s{{collectiveKindOf(name.substr(name.find(':') + 1), {}), QString::fromUtf8(name.data(), qsizetype(name.size()))},
                            int(groups.size()),
                            0};
                groups.push_back(cpuCommunicatorOf(s.named.name));
                it = series.emplace(c.name, std::move(s)).first;
            }
            Pending p;
            p.op.start = c.start + entry.sessionOffset;
            p.op.end = c.end + entry.sessionOffset;
            p.op.track = c.track;
            p.op.event = c.event;
            p.op.kind = it->second.named.kind;
            p.op.name = it->second.named.name;
            p.op.sequence = it->second.count++;
            p.group = it->second.group;
            pending.push_back(std::move(p));
        }
    }
    // In time order (ties in the order read): the ops' places sorted, not
    // the ops, which are large.
    std::vector<std::pair<TimeNs, std::uint32_t>> order(pending.size());
    for (std::size_t i = 0; i < pending.size(); ++i)
        order[i] = {pending[i].op.start, std::uint32_t(i)};
    std::sort(order.begin(), order.end());
    // Each op to its communicator's list, the list found once per
    // communicator (streams numbered in order of first use) and sized
    // before it is filled.
    RankCollectiveOps ops;
    std::vector<std::vector<CollectiveOp> *> groupList(groups.size(), nullptr);
    std::map<std::pair<int, std::uint32_t>, std::vector<CollectiveOp> *> streamList;
    std::vector<std::vector<CollectiveOp> *> listOf(pending.size(), nullptr);
    std::map<std::vector<CollectiveOp> *, std::size_t> sizes;
    for (const auto &[start, i] : order) {
        const Pending &p = pending[i];
        std::vector<CollectiveOp> *&list = listOf[i];
        if (p.group >= 0) {
            list = groupList[std::size_t(p.group)];
            if (!list)
                list = groupList[std::size_t(p.group)] = &ops.byCommunicator[groups[std::size_t(p.group)]];
            ops.keyedByGroup = true;
        } else {
            auto it = streamList.find(p.stream);
            if (it == streamList.end())
                it = streamList.emplace(p.stream, &ops.byCommunicator[QStringLiteral("stream #%1").arg(streamList.size())]).first;
            list = it->second;
        }
        ++sizes[list];
    }
    for (const auto &[list, n] : sizes)
        list->reserve(n);
    for (const auto &[start, i] : order)
        listOf[i]->push_back(std::move(pending[i].op));
    return ops;
}

// What "GPU busy with other work" means for the late split.
std::vector<Interval> otherGpuWorkOfRank(const Session &session, int rankIndex, const KernelClassifier &classes)
{
    const RankEntry &entry = session.ranks()[std::size_t(rankIndex)];
    const Report &r = *entry.report;
    std::vector<Interval> busy;
    if (classes.hasBuiltInCommunication() && r.communication.present) {
        // Kept per process and device as the report loaded.
        for (const BusySummary &gpu : r.communication.otherGpuBusy)
            if (!entry.pid || gpu.pid == *entry.pid)
                for (std::size_t i = 0; i < gpu.runs.size(); ++i)
                    busy.emplace_back(gpu.runs.start(i) + entry.sessionOffset, gpu.runs.end(i) + entry.sessionOffset);
        return unionOf(std::move(busy));
    }
    KernelClassCache classOf(r.strings, classes);
    for (const Track &track : r.tracks) {
        if (!Session::ownsTrack(entry, track))
            continue;
        if (track.kind != TrackKind::Kernel && track.kind != TrackKind::Memcpy && track.kind != TrackKind::Memset)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            if (track.kind == TrackKind::Kernel && classOf.of(track.slices.name(i)) == KernelClass::Communication)
                continue;
            busy.emplace_back(track.slices.start(i) + entry.sessionOffset, track.slices.end(i) + entry.sessionOffset);
        }
    }
    return unionOf(std::move(busy));
}

std::vector<ReportRankOps> collectiveOpsOfReport(const ReportPtr &report, const KernelClassifier &classes, bool withOtherGpuWork)
{
    const Session alone = Session::fromReports({report});
    std::vector<ReportRankOps> ranks;
    for (int ri = 0; ri < int(alone.ranks().size()); ++ri) {
        const RankEntry &entry = alone.ranks()[std::size_t(ri)];
        RankCollectiveOps ops = collectiveOpsOfRank(alone, ri, classes);
        if (withOtherGpuWork)
            ops.otherGpuWork = otherGpuWorkOfRank(alone, ri, classes);
        ops.shiftTimes(-entry.sessionOffset);
        ranks.push_back({entry.pid, std::move(ops)});
    }
    return ranks;
}

void RankCollectiveOps::shiftTimes(TimeNs shift)
{
    for (auto &[communicator, ops] : byCommunicator)
        for (CollectiveOp &op : ops) {
            op.start += shift;
            op.end += shift;
            if (op.launch)
                *op.launch += shift;
        }
    if (otherGpuWork)
        for (Interval &run : *otherGpuWork) {
            run.first += shift;
            run.second += shift;
        }
}

// Each distinct name once, then the operations naming it by its index: a
// rank has thousands of operations and a handful of names.
QDataStream &operator<<(QDataStream &out, const RankCollectiveOps &ops)
{
    std::unordered_map<QString, quint32, QtHash> nameIndex; // not QHash: see core/qthash.h
    QStringList names;
    for (const auto &[communicator, list] : ops.byCommunicator)
        for (const CollectiveOp &op : list)
            if (!nameIndex.contains(op.name)) {
                nameIndex.emplace(op.name, quint32(names.size()));
                names << op.name;
            }
    out << ops.keyedByGroup << names << quint64(ops.byCommunicator.size());
    for (const auto &[communicator, list] : ops.byCommunicator) {
        out << communicator << quint64(list.size());
        for (const CollectiveOp &op : list)
            out << qint64(op.start) << qint64(op.end) << op.launch.has_value() << qint64(op.launch.value_or(0)) << op.track << op.event
                << qint32(op.kind) << nameIndex.at(op.name) << qint64(op.bytes) << qint32(op.groupSize) << qint64(op.sequence);
    }
    out << ops.otherGpuWork.has_value();
    if (ops.otherGpuWork) {
        out << quint64(ops.otherGpuWork->size());
        for (const Interval &run : *ops.otherGpuWork)
            out << qint64(run.first) << qint64(run.second);
    }
    return out;
}

QDataStream &operator>>(QDataStream &in, RankCollectiveOps &ops)
{
    ops = {};
    QStringList names;
    quint64 communicators = 0;
    in >> ops.keyedByGroup >> names >> communicators;
    for (quint64 c = 0; c < communicators && in.status() == QDataStream::Ok; ++c) {
        QString communicator;
        quint64 count = 0;
        in >> communicator >> count;
        std::vector<CollectiveOp> &list = ops.byCommunicator[communicator];
        for (quint64 i = 0; i < count && in.status() == QDataStream::Ok; ++i) {
            CollectiveOp op;
            qint64 start = 0, end = 0, launch = 0, bytes = 0, sequence = 0;
            qint32 kind = 0, groupSize = 0;
            quint32 name = 0;
            bool launched = false;
            in >> start >> end >> launched >> launch >> op.track >> op.event >> kind >> name >> bytes >> groupSize >> sequence;
            if (name >= quint32(names.size())) {
                in.setStatus(QDataStream::ReadCorruptData);
                break;
            }
            op.start = start, op.end = end;
            if (launched)
                op.launch = launch;
            op.kind = kind >= 0 && kind <= qint32(CollectiveKind::Other) ? CollectiveKind(kind) : CollectiveKind::Other;
            op.name = names[name];
            op.bytes = bytes, op.groupSize = groupSize, op.sequence = sequence;
            list.push_back(std::move(op));
        }
    }
    bool withWork = false;
    in >> withWork;
    if (withWork) {
        quint64 runs = 0;
        in >> runs;
        std::vector<Interval> work;
        for (quint64 i = 0; i < runs && in.status() == QDataStream::Ok; ++i) {
            qint64 first = 0, second = 0;
            in >> first >> second;
            work.emplace_back(first, second);
        }
        ops.otherGpuWork = std::move(work);
    }
    return in;
}

CollectiveInputs::CollectiveInputs(const Session &session, KernelClassifier classes)
    : m_session(session), m_classes(std::move(classes)), m_ops(session.ranks().size()), m_otherGpuWork(session.ranks().size())
{
}

void CollectiveInputs::give(int rankIndex, RankCollectiveOps ops)
{
    const auto ri = std::size_t(rankIndex);
    m_given += !m_ops[ri].has_value();
    if (ops.otherGpuWork) {
        m_otherGpuWork[ri] = std::move(ops.otherGpuWork);
        ops.otherGpuWork.reset();
    }
    m_ops[ri] = std::move(ops);
}

bool CollectiveInputs::giveOfReport(const QString &filePath, std::optional<std::uint32_t> pid, RankCollectiveOps ops)
{
    if (m_rankOfReport.empty())
        for (int ri = 0; ri < int(m_session.ranks().size()); ++ri) {
            const RankEntry &entry = m_session.ranks()[std::size_t(ri)];
            m_rankOfReport.try_emplace({entry.report->filePath, entry.pid}, ri);
        }
    const auto it = m_rankOfReport.find({filePath, pid});
    if (it == m_rankOfReport.end())
        return false;
    ops.shiftTimes(m_session.ranks()[std::size_t(it->second)].sessionOffset);
    give(it->second, std::move(ops));
    return true;
}

const RankCollectiveOps &CollectiveInputs::of(int rankIndex)
{
    std::optional<RankCollectiveOps> &slot = m_ops[std::size_t(rankIndex)];
    if (!slot) {
        throwIfCancelled(); // before the rank is read: nothing half-stored
        slot = collectiveOpsOfRank(m_session, rankIndex, m_classes);
        // Copied out: the rank's mapped pages are given back (a match over
        // hundreds of ranks would otherwise hold every rank's).
        ResidentBudget::process().doneReading(*m_session.ranks()[std::size_t(rankIndex)].report);
    }
    return *slot;
}

std::shared_ptr<const CollectiveMatch> CollectiveInputs::sharedMatch(bool alignOnCollectives)
{
    if (!m_recorded)
        m_recorded = std::make_shared<const CollectiveMatch>(matchCollectives(*this));
    if (!alignOnCollectives)
        return m_recorded;
    if (!m_aligned)
        m_aligned = std::make_shared<const CollectiveMatch>(alignedOnCollectives(m_session, *m_recorded));
    return m_aligned;
}

const std::vector<Interval> &CollectiveInputs::otherGpuWorkOf(int rankIndex)
{
    std::optional<std::vector<Interval>> &work = m_otherGpuWork[std::size_t(rankIndex)];
    if (!work) {
        throwIfCancelled();
        work = otherGpuWorkOfRank(m_session, rankIndex, m_classes);
        ResidentBudget::process().doneReading(*m_session.ranks()[std::size_t(rankIndex)].report);
    }
    return *work;
}

} // namespace rankscope::stats
