#include "session/eventdetails.h"

#include "core/units.h"
#include "session/eventlinks.h"
#include "session/mpimessages.h"
#include "session/sampledetails.h"

namespace rankscope {

QString threadLabel(const Report &r, std::uint32_t pid, std::uint32_t tid)
{
    const ThreadInfo *t = r.thread(pid, tid);
    return t && !t->name.isEmpty() ? QStringLiteral("%1 [%2]").arg(t->name).arg(tid) : QString::number(tid);
}

namespace {

QString processLabel(const Report &r, std::uint32_t pid)
{
    const ProcessInfo *p = r.process(pid);
    return p && !p->name.isEmpty() ? QStringLiteral("%1 (%2)").arg(p->name).arg(pid) : QString::number(pid);
}

QString deviceLabel(const Report &r, int device)
{
    const GpuInfo *g = r.gpu(device);
    return g ? QStringLiteral("%1: %2").arg(device).arg(g->name) : QString::number(device);
}

void addKernelFields(EventDetails &d, const Report &r, const Track &t, std::size_t i)
{
    const KernelRecord &k = r.kernels[t.slices.payload(i)];
    const KernelConfig &launch = r.launch(k);
    d.fields.push_back({QStringLiteral("Full name"), r.strings.string(t.slices.name(i)), {}});
    d.fields.push_back({QStringLiteral("Grid"), QStringLiteral("%1 × %2 × %3").arg(launch.gridX).arg(launch.gridY).arg(launch.gridZ), {}});
    d.fields.push_back({QStringLiteral("Block"), QStringLiteral("%1 × %2 × %3").arg(launch.blockX).arg(launch.blockY).arg(launch.blockZ), {}});
    d.fields.push_back({QStringLiteral("Registers per thread"), QString::number(launch.registersPerThread), {}});
    d.fields.push_back({QStringLiteral("Shared memory"),
                        QStringLiteral("%1 static + %2 dynamic").arg(formatBytes(launch.staticSharedMemory), formatBytes(launch.dynamicSharedMemory)),
                        {}});
    if (k.graphNodeId >= 0)
        d.fields.push_back({QStringLiteral("Graph node"), QString::number(k.graphNodeId), {}});
    d.fields.push_back({QStringLiteral("Correlation id"), QString::number(k.correlationId), {}});
    if (k.collective != KernelRecord::kNoCollective) {
        const CollectiveRecord &c = r.collectives[k.collective];
        d.fields.push_back({QStringLiteral("Collective"), r.strings.string(c.name), {}});
        if (c.inBytes >= 0) {
            QString size = formatBytes(std::uint64_t(c.inBytes));
            if (c.inNelems >= 0)
                size += QStringLiteral(" (%1 × %2)").arg(c.inNelems).arg(r.strings.string(c.dtype));
            d.fields.push_back({QStringLiteral("Message size"), size, {}});
        }
        if (c.outBytes >= 0 && c.outBytes != c.inBytes)
            d.fields.push_back({QStringLiteral("Output size"), formatBytes(std::uint64_t(c.outBytes)), {}});
        if (c.groupSize > 0)
            d.fields.push_back({QStringLiteral("Group size"), QString::number(c.groupSize), {}});
        d.fields.push_back({QStringLiteral("Process group"),
                            QStringLiteral("%1 %2").arg(r.strings.string(c.processGroupName), r.strings.string(c.processGroupRanks)).trimmed(),
                            {}});
        if (c.commRank >= 0)
            d.fields.push_back({QStringLiteral("Rank in communicator"), QString::number(c.commRank), {}});
        if (c.peers)
            d.fields.push_back({QStringLiteral("Peer"), r.strings.string(c.peers), {}});
        if (c.root >= 0)
            d.fields.push_back({QStringLiteral("Root"), QString::number(c.root), {}});
    }
}

// CUpti_ActivityUnifiedMemoryAccessType, as nsys' GUI names it.
QString faultAccessLabel(std::uint32_t type)
{
    static const char *const labels[] = {"Unknown", "Read", "Write", "Atomic", "Prefetch"};
    return type < std::size(labels) ? QLatin1String(labels[type]) : QStringLiteral("Unknown (%1)").arg(type);
}

void addUnifiedMemoryFaultFields(EventDetails &d, const Report &r, const Track &t, std::size_t i)
{
    if (t.kind == TrackKind::UmCpuPageFault) {
        const UmCpuFaultRecord &f = r.umCpuFaults[t.slices.payload(i)];
        d.fields.push_back({QStringLiteral("Virtual address"), QStringLiteral("0x%1").arg(f.address, 0, 16), {}});
        if (f.instruction != StringTable::kEmpty)
            d.fields.push_back({QStringLiteral("CPU instruction"), r.strings.string(f.instruction), {}});
        if (f.module != StringTable::kEmpty)
            d.fields.push_back({QStringLiteral("Module"), r.strings.string(f.module), {}});
        if (f.sourceFile != StringTable::kEmpty)
            d.fields.push_back({QStringLiteral("Source"),
                                r.strings.string(f.sourceFile) + (f.sourceLine >= 0 ? QStringLiteral(":%1").arg(f.sourceLine) : QString()),
                                {}});
        return;
    }
    const UmGpuFaultRecord &f = r.umGpuFaults[t.slices.payload(i)];
    d.fields.push_back({QStringLiteral("Virtual address"), QStringLiteral("0x%1").arg(f.address, 0, 16), {}});
    d.fields.push_back({QStringLiteral("Page faults"), QString::number(f.faults), {}});
    d.fields.push_back({QStringLiteral("Access"), faultAccessLabel(f.accessType), {}});
}

void addMemcpyFields(EventDetails &d, const Report &r, const Track &t, std::size_t i)
{
    const MemcpyRecord &m = r.memcpys[t.slices.payload(i)];
    d.fields.push_back({QStringLiteral("Size"), formatBytes(m.bytes), {}});
    d.fields.push_back(
        {QStringLiteral("Direction"), QStringLiteral("%1 (%2)").arg(memcpyKindShortName(m.copyKind), r.memcpyKindLabel(m.copyKindId)), {}});
    d.fields.push_back({QStringLiteral("Source memory"), r.memoryKindLabel(int(m.srcKind)), {}});
    d.fields.push_back({QStringLiteral("Destination memory"), r.memoryKindLabel(int(m.dstKind)), {}});
    d.fields.push_back({QStringLiteral("Throughput"), formatThroughput(m.bytes, t.slices.duration(i)), {}});
    if (m.srcDevice >= 0 || m.dstDevice >= 0)
        d.fields.push_back({QStringLiteral("Devices"), QStringLiteral("%1 → %2").arg(m.srcDevice).arg(m.dstDevice), {}});
    if (m.virtualAddress != MemcpyRecord::kNoAddress) // a unified-memory migration
        d.fields.push_back({QStringLiteral("Virtual address"), QStringLiteral("0x%1").arg(m.virtualAddress, 0, 16), {}});
    if (m.isPageable())
        d.fields.push_back({QStringLiteral("Note"),
                            QStringLiteral("Pageable host memory: the copy is staged and synchronous; pinned memory (pin_memory=True) avoids this."),
                            {}});
    d.fields.push_back({QStringLiteral("Correlation id"), QString::number(m.correlationId), {}});
}

// What a CPU range launched on the GPU, as links; or why it has no GPU
// projection.
void addLaunchedWork(EventDetails &d, const Session &session, const EventLocation &at)
{
    constexpr std::size_t kListed = 50;
    const RangeGpuWork work = gpuWorkOfRange(session, at, kListed);
    for (const EventLocation &op : work.ops)
        d.fields.push_back({QStringLiteral("Launched"),
                            eventName(session, op) + QStringLiteral(" (") + formatDuration(session.sessionTime(op).duration()) + QLatin1Char(')'),
                            op});
    if (work.opCount > work.ops.size())
        d.fields.push_back({QStringLiteral("Launched"),
                            QStringLiteral("… and %1 more (%2 GPU ops in all)").arg(work.opCount - work.ops.size()).arg(work.opCount),
                            {}});
    const Report &r = *session.ranks()[std::size_t(at.rank)].report;
    const QString other = work.busiestOtherOps == 0 ? QString()
                                                    : QStringLiteral("thread %1 launched %2 GPU ops while it was open")
                                                          .arg(threadLabel(r, session.track(at).pid, work.busiestOtherTid))
                                                          .arg(work.busiestOtherOps);
    if (work.opCount == 0)
        d.fields.push_back({QStringLiteral("GPU work"),
                            QStringLiteral("no GPU projection: its thread launched no GPU work while it was open")
                                + (other.isEmpty() ? QString() : QStringLiteral("; ") + other),
                            {}});
    else if (work.busiestOtherOps > work.opCount) // most of its GPU work came from elsewhere
        d.fields.push_back({QStringLiteral("GPU work"), QStringLiteral("more ran elsewhere: ") + other, {}});
}

// What nsys recorded of an MPI call, in the words of its arguments.
void addMpiFields(EventDetails &d, const Report &r, const Track &t, std::size_t i)
{
    static const char *const kinds[kMpiCallKindCount] = {"point to point", "collective", "wait or start", "other"};
    const MpiRecord &m = r.mpiCalls[t.slices.payload(i)];
    d.fields.push_back({QStringLiteral("MPI call"), QString::fromLatin1(kinds[std::size_t(m.kind)]), {}});
    if (m.rank >= 0)
        d.fields.push_back({QStringLiteral("MPI rank"), QString::number(m.rank), {}});
    const bool receives = r.strings.view(t.slices.name(i)).find("ecv") != std::string_view::npos;
    if (m.peer != MpiRecord::kNone)
        d.fields.push_back({receives ? QStringLiteral("Source rank") : QStringLiteral("Peer rank"), QString::number(m.peer), {}});
    if (m.tag != MpiRecord::kNone)
        d.fields.push_back({QStringLiteral("Tag"), QString::number(m.tag), {}});
    if (m.root != MpiRecord::kNone)
        d.fields.push_back({QStringLiteral("Root rank"), QString::number(m.root), {}});
    if (m.size != MpiRecord::kNone && m.size >= 0)
        d.fields.push_back(
            {m.kind == MpiCallKind::Collective ? QStringLiteral("Sent") : QStringLiteral("Size"), formatBytes(std::uint64_t(m.size)), {}});
    if (m.recvSize != MpiRecord::kNone && m.recvSize >= 0)
        d.fields.push_back({QStringLiteral("Received"), formatBytes(std::uint64_t(m.recvSize)), {}});
    if (m.communicator != 0)
        d.fields.push_back({QStringLiteral("Communicator"), QStringLiteral("0x%1").arg(m.communicator, 0, 16), {}});
    if (m.request != 0)
        d.fields.push_back({QStringLiteral("Request"), QStringLiteral("0x%1").arg(m.request, 0, 16), {}});
}

void addNvtxFields(EventDetails &d, const Report &r, const Track &t, std::size_t i)
{
    const NvtxRecord &n = r.nvtxRecord(t.slices.payload(i));
    const QString domain = r.strings.string(t.domainName);
    d.fields.push_back({QStringLiteral("Domain"), domain.isEmpty() ? QStringLiteral("(default)") : domain, {}});
    if (n.category)
        d.fields.push_back({QStringLiteral("Category"), n.categoryName ? r.strings.string(n.categoryName) : QString::number(n.category), {}});
    d.fields.push_back({QStringLiteral("Depth"), QString::number(t.slices.depth(i)), {}});
    using PK = NvtxRecord::PayloadKind;
    switch (n.payloadKind) {
    case PK::Int:
        d.fields.push_back({QStringLiteral("Payload"), QString::number(n.intPayload), {}});
        break;
    case PK::Unsigned:
        d.fields.push_back({QStringLiteral("Payload"), QString::number(std::uint64_t(n.intPayload)), {}});
        break;
    case PK::Double:
        d.fields.push_back({QStringLiteral("Payload"), QString::number(n.doublePayload), {}});
        break;
    case PK::Json:
        d.fields.push_back({QStringLiteral("Payload"), r.strings.string(n.jsonPayload), {}});
        break;
    case PK::Fields: // one row per field: "Message size [bytes]" | "4194304"
        for (const QString &line : r.strings.string(n.jsonPayload).split(QLatin1Char('\n'))) {
            const qsizetype colon = line.indexOf(QStringLiteral(": "));
            d.fields.push_back({colon < 0 ? QStringLiteral("Payload") : line.left(colon), colon < 0 ? line : line.mid(colon + 2), {}});
        }
        break;
    case PK::None:
        break;
    }
    if (n.openAtEnd)
        d.fields.push_back({QStringLiteral("Note"), QStringLiteral("Still open when capture stopped"), {}});
    if (n.endTid != 0 && n.endTid != t.tid)
        d.fields.push_back({QStringLiteral("Ended on thread"), QString::number(n.endTid), {}});
}

} // namespace

QString collectiveSummary(const Report &r, const KernelRecord &k)
{
    if (k.collective == KernelRecord::kNoCollective || k.collective >= r.collectives.size())
        return {};
    const CollectiveRecord &c = r.collectives[k.collective];
    QString text = r.strings.string(c.name);
    if (c.inBytes >= 0)
        text += QLatin1Char(' ') + formatBytes(std::uint64_t(c.inBytes));
    if (c.peers)
        text += QStringLiteral(" peer ") + r.strings.string(c.peers);
    if (c.root >= 0)
        text += QStringLiteral(" root %1").arg(c.root);
    return text;
}

QString eventName(const Session &session, const EventLocation &at)
{
    const Report &r = *session.ranks()[std::size_t(at.rank)].report;
    const Track &t = session.track(at);
    if (t.kind == TrackKind::Kernel || t.kind == TrackKind::NcclKernels) {
        const QString shortName = r.strings.string(r.kernels[t.slices.payload(at.event)].shortName);
        if (!shortName.isEmpty())
            return shortName;
    }
    return r.strings.string(t.slices.name(at.event));
}

EventDetails describeEvent(const Session &session, const EventLocation &at)
{
    EventDetails d;
    if (!at.isValid() || std::size_t(at.rank) >= session.ranks().size())
        return d;
    const RankEntry &entry = session.ranks()[std::size_t(at.rank)];
    const Report &r = *entry.report;
    const Track &t = session.track(at);
    const std::size_t i = at.event;
    const TimeRange when = session.sessionTime(at);
    const TimeNs zero = session.extent().start;
    d.title = eventName(session, at);
    d.kind = trackName(r, t);
    // To the nanosecond: a 327 µs copy must not read "7.096 s - 7.096 s".
    d.fields.push_back({QStringLiteral("Start"), formatTimestamp(when.start - zero), {}});
    d.fields.push_back({QStringLiteral("End"), formatTimestamp(when.end - zero), {}});
    d.fields.push_back({QStringLiteral("Duration"),
                        formatDuration(when.duration()) + QStringLiteral(" (") + formatInteger(when.duration()) + QStringLiteral(" ns)"),
                        {}});
    d.fields.push_back({QStringLiteral("Rank"), QString::number(entry.rank), {}});
    d.fields.push_back({QStringLiteral("Process"), processLabel(r, t.pid), {}});
    if (isGpuTrack(t.kind) || isDerivedTrack(t.kind)) {
        d.fields.push_back({QStringLiteral("Device"), deviceLabel(r, t.deviceId), {}});
        if (isGpuTrack(t.kind) && t.kind != TrackKind::UmGpuPageFault) // a fault is the device's, on no stream
            d.fields.push_back({QStringLiteral("Stream"), QString::number(t.streamId), {}});
    } else if (t.kind != TrackKind::UmCpuPageFault) { // the process's, on no thread it names
        d.fields.push_back({QStringLiteral("Thread"), threadLabel(r, t.pid, t.tid), {}});
    }
    d.fields.push_back({QStringLiteral("Track"), trackName(r, t), {}});

    switch (t.kind) {
    case TrackKind::Kernel:
    case TrackKind::NcclKernels:
        addKernelFields(d, r, t, i);
        break;
    case TrackKind::Memcpy:
        addMemcpyFields(d, r, t, i);
        break;
    case TrackKind::Memset: {
        const MemsetRecord &m = r.memsets[t.slices.payload(i)];
        d.fields.push_back({QStringLiteral("Size"), formatBytes(m.bytes), {}});
        d.fields.push_back({QStringLiteral("Value"), QString::number(m.value), {}});
        d.fields.push_back({QStringLiteral("Memory"), r.memoryKindLabel(int(m.memKind)), {}});
        break;
    }
    case TrackKind::Sync:
        d.fields.push_back({QStringLiteral("Kind"), builtinSyncKindLabel(int(r.syncs[t.slices.payload(i)].kind)), {}});
        break;
    case TrackKind::CudaApi: {
        const ApiCallRecord &a = r.apiCalls[t.slices.payload(i)];
        d.fields.push_back(
            {QStringLiteral("API"), a.eventClass == EventClass::CudaDriver ? QStringLiteral("CUDA driver") : QStringLiteral("CUDA runtime"), {}});
        d.fields.push_back({QStringLiteral("Return value"), QString::number(a.returnValue), {}});
        d.fields.push_back({QStringLiteral("Correlation id"), QString::number(a.correlationId), {}});
        for (const EventLocation &work : launchedGpuWork(session, at))
            d.fields.push_back(
                {QStringLiteral("GPU work"),
                 eventName(session, work) + QStringLiteral(" (") + formatDuration(session.sessionTime(work).duration()) + QLatin1Char(')'), work});
        break;
    }
    case TrackKind::Nvtx:
    case TrackKind::CpuOp:
        if (t.kind == TrackKind::Nvtx)
            addNvtxFields(d, r, t, i);
        else if (const std::uint32_t externalId = t.slices.payload(i))
            d.fields.push_back({QStringLiteral("External id"), QString::number(externalId), {}});
        addLaunchedWork(d, session, at);
        for (const EventLocation &other : flowPartners(session, at)) // forward <-> backward
            d.fields.push_back(
                {session.sessionTime(other).start > session.sessionTime(at).start ? QStringLiteral("Backward op") : QStringLiteral("Forward op"),
                 eventName(session, other) + QStringLiteral(" (") + formatDuration(session.sessionTime(other).duration()) + QLatin1Char(')'), other});
        break;
    case TrackKind::Mpi:
        addMpiFields(d, r, t, i);
        for (const EventLocation &other : mpiPartners(session, at)) // the other end of its message, or of its collective
            d.fields.push_back({QStringLiteral("Matched"),
                                session.ranks()[std::size_t(other.rank)].displayName() + QStringLiteral(": ") + eventName(session, other)
                                    + QStringLiteral(" (") + formatDuration(session.sessionTime(other).duration()) + QLatin1Char(')'),
                                other});
        break;
    case TrackKind::NvtxGpuProjection: {
        const NvtxProjectionRecord &p = r.nvtxProjections[t.slices.payload(i)];
        if (p.gpuOps > 0) { // projected by Rankscope (a Kineto trace records its own)
            d.fields.push_back({QStringLiteral("CPU range"), formatDuration(p.cpuDuration), {}});
            d.fields.push_back({QStringLiteral("GPU ops launched"), QString::number(p.gpuOps), {}});
            d.fields.push_back({QStringLiteral("GPU time covered"), formatDuration(p.gpuBusyNs), {}});
        }
        break;
    }
    case TrackKind::UmCpuPageFault:
    case TrackKind::UmGpuPageFault:
        addUnifiedMemoryFaultFields(d, r, t, i);
        break;
    case TrackKind::CudaGraph: {
        const GraphLaunchRecord &g = r.graphLaunches[t.slices.payload(i)];
        d.fields.push_back({QStringLiteral("Graph id"), QString::number(g.graphId), {}});
        d.fields.push_back({QStringLiteral("Executable graph id"), QString::number(g.graphExecId), {}});
        d.fields.push_back({QStringLiteral("Correlation id"), QString::number(g.correlationId), {}});
        break;
    }
    case TrackKind::OsRuntime:
    case TrackKind::CudaLibrary:
    case TrackKind::OpenAcc:
    case TrackKind::OpenMp: // its kind in the title's kind, "OpenMP: parallel"
        break;
    }
    if (const auto api = launchingApiCall(session, at))
        d.fields.push_back({QStringLiteral("Launched by"), eventName(session, *api), api});
    // Which code made the call (nsys' --cudabacktrace, --osrt-backtrace):
    // the call's own, or for GPU work its launching call's.
    std::optional<std::uint32_t> backtrace;
    if (t.kind == TrackKind::CudaApi || t.kind == TrackKind::OsRuntime)
        backtrace = r.sampling.backtraceOf({at.track, at.event});
    else if (const auto api = launchingApiCall(session, at); api && api->rank == at.rank)
        backtrace = r.sampling.backtraceOf({api->track, api->event});
    if (backtrace) {
        d.fields.push_back(
            {isGpuTrack(t.kind) ? QStringLiteral("Launch backtrace") : QStringLiteral("Backtrace"), QStringLiteral("innermost frame first"), {}});
        const std::vector<DetailField> frames = backtraceFields(r, *backtrace);
        d.fields.insert(d.fields.end(), frames.begin(), frames.end());
    }
    return d;
}

} // namespace rankscope
