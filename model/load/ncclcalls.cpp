#include "load/ncclcalls.h"

#include "load/derivedtracks.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace rankscope {

namespace {

bool isCommunicationCall(const NcclCall &c)
{
    return c.communicator && c.bytes; // init, split and destroy carry no message
}

std::string hex(std::uint64_t v)
{
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%016llx", static_cast<unsigned long long>(v));
    return buffer;
}

// One kernel's record from the calls that launched it. Sizes as nccl-tests
// count them (see stats::CollectiveInstance::bytes): NCCL records the
// all-gather's send and the reduce-scatter's receive count, a rank's share.
// A process's place in a communicator, from its init call: (size, rank).
using CommunicatorPlaces = std::map<std::pair<std::uint32_t, std::uint64_t>, std::pair<int, int>>;

CollectiveRecord recordOf(Report &r, const std::vector<const NcclCall *> &calls, const CommunicatorPlaces &inits)
{
    CollectiveRecord c;
    std::vector<std::string> names;
    std::int64_t sent = 0, received = 0, other = 0;
    bool sends = false;
    std::set<std::int64_t> peers;
    for (const NcclCall *call : calls) {
        const std::string name = r.strings.string(call->name).toStdString();
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
        const bool isSend = name.find("Send") != std::string::npos, isRecv = name.find("Recv") != std::string::npos;
        (isSend ? sent : isRecv ? received : other) += *call->bytes;
        sends |= isSend;
        if (call->peer)
            peers.insert(*call->peer);
        if (call->root)
            c.root = int(*call->root);
    }
    std::string joined;
    for (const std::string &n : names)
        joined += (joined.empty() ? "" : " + ") + n;
    c.name = r.strings.intern(joined);
    const NcclCall &first = *calls.front();
    c.processGroupName = r.strings.intern("NCCL comm " + hex(*first.communicator));
    const auto init = inits.find({first.pid, *first.communicator});
    if (init != inits.end()) {
        c.groupSize = init->second.first;
        c.commRank = init->second.second;
    }
    const std::int64_t n = std::max(c.groupSize, 1);
    if (sends || received > 0) {
        c.inBytes = sent;
        c.outBytes = received;
    } else if (joined.find("AllGather") != std::string::npos) {
        c.inBytes = other;
        c.outBytes = c.groupSize > 0 ? other * n : -1;
    } else if (joined.find("ReduceScatter") != std::string::npos) {
        c.inBytes = c.groupSize > 0 ? other * n : -1;
        c.outBytes = other;
    } else {
        c.inBytes = c.outBytes = other;
    }
    if (!peers.empty()) {
        std::string list;
        for (const std::int64_t p : peers)
            list += (list.empty() ? "" : ",") + std::to_string(p);
        c.peers = r.strings.intern(list);
    }
    return c;
}

} // namespace

void attachNcclCalls(Report &r, std::vector<NcclCall> calls)
{
    if (calls.empty())
        return;
    // Which rank of which communicator each process is, from its init calls.
    CommunicatorPlaces inits;
    for (const NcclCall &c : calls)
        if (c.communicator && c.ranks)
            inits[{c.pid, *c.communicator}] = {int(*c.ranks), int(c.rank.value_or(-1))};
    std::erase_if(calls, [](const NcclCall &c) { return !isCommunicationCall(c); });
    std::sort(calls.begin(), calls.end(),
              [](const NcclCall &a, const NcclCall &b) { return std::tie(a.pid, a.tid, a.start) < std::tie(b.pid, b.tid, b.start); });
    for (const Track &api : r.tracks) {
        if (api.kind != TrackKind::CudaApi)
            continue;
        auto first = std::lower_bound(calls.begin(), calls.end(), std::pair(api.pid, api.tid),
                                      [](const NcclCall &c, const auto &key) { return std::pair(c.pid, c.tid) < key; });
        auto next = first; // the first call not yet attached
        for (std::size_t i = 0; i < api.slices.size() && next != calls.end() && next->pid == api.pid && next->tid == api.tid; ++i) {
            const std::uint32_t id = r.correlationIdOf(api, i);
            if (id == 0)
                continue;
            std::vector<KernelRecord *> kernels;
            for (const TrackEvent &op : r.gpuOpsFor(Report::correlationKey(api.pid, id))) {
                const Track &gpu = r.tracks[op.track];
                if (gpu.kind != TrackKind::Kernel || !isNcclKernelName(r.strings.view(gpu.slices.name(op.event))))
                    continue;
                kernels.push_back(&r.kernels[gpu.slices.payload(op.event)]);
            }
            if (kernels.empty())
                continue;
            std::vector<const NcclCall *> launched;
            for (; next != calls.end() && next->pid == api.pid && next->tid == api.tid && next->start <= api.slices.start(i); ++next)
                launched.push_back(&*next);
            if (launched.empty())
                continue;
            const auto record = std::uint32_t(r.collectives.size());
            r.collectives.push_back(recordOf(r, launched, inits));
            for (KernelRecord *k : kernels)
                if (k->collective == KernelRecord::kNoCollective)
                    k->collective = record;
        }
    }
}

} // namespace rankscope
