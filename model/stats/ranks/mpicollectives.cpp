#include "stats/ranks/mpicollectives.h"
#include "stats/ranks/collectivematching.h"

#include <algorithm>

namespace rankscope::stats {

namespace {

// A blocking all-to-all operation returns on every rank once the last has
// entered: its ends line up and can anchor the clocks. A rooted one (a
// broadcast's root, a reduce's senders) may return before the others, a
// non-blocking one returns at once.
bool endsTogether(const QString &name, CollectiveKind kind)
{
    if (isMpiNonBlocking(name.toStdString()))
        return false;
    return kind == CollectiveKind::AllReduce || kind == CollectiveKind::AllGather || kind == CollectiveKind::AllToAll
           || kind == CollectiveKind::ReduceScatter || name.contains(QLatin1String("Barrier"));
}

} // namespace

bool isMpiCommunicator(const QString &communicator)
{
    return communicator.contains(QLatin1String("MPI comm "));
}

std::vector<CollectiveInstance> mpiCollectiveInstances(const Session &session, const MpiMatch &match)
{
    std::vector<CollectiveInstance> instances;
    instances.reserve(match.collectives.size());
    for (const MpiCollective &collective : match.collectives) {
        if (collective.calls.empty())
            continue;
        CollectiveInstance c;
        c.communicator = (collective.side == RunSide::None ? QString() : runSideName(collective.side) + QStringLiteral(": "))
                         + mpiCommunicatorName(collective.communicator);
        c.sequence = collective.index;
        c.name = collective.name;
        c.kind = collectiveKindOf(collective.name.toStdString(), {});
        c.endsTogether = endsTogether(collective.name, c.kind);
        c.groupSize = int(collective.calls.size());
        for (const MpiCall &call : collective.calls) {
            const RankEntry &entry = session.ranks()[std::size_t(call.at.rank)];
            const MpiRecord &m = entry.report->mpiCalls[session.track(call.at).slices.payload(call.at.event)];
            if (m.size != MpiRecord::kNone)
                c.bytes = std::max(c.bytes, m.size);
            c.arrivals.push_back({call.at.rank, call.at, call.start, call.end, std::nullopt});
        }
        std::sort(c.arrivals.begin(), c.arrivals.end(),
                  [](const CollectiveArrival &a, const CollectiveArrival &b) { return a.rankIndex < b.rankIndex; });
        measureInstance(c);
        instances.push_back(std::move(c));
    }
    return instances;
}

} // namespace rankscope::stats
