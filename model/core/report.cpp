#include "core/report.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace rankscope {

namespace {

using enum SlicePayload;
// Each kind of track, in TrackKind's order.
constexpr TrackKindInfo kTrackKinds[] = {
    // kind, name, on GPU, GPU operation, derived, host range, payload
    {TrackKind::OsRuntime, "OS runtime", false, false, false, false, None},
    {TrackKind::CudaApi, "CUDA API", false, false, false, false, Row},
    {TrackKind::Nvtx, "NVTX", false, false, false, true, OptionalRow},
    {TrackKind::CpuOp, "CPU ops", false, false, false, true, ExternalId},
    {TrackKind::Mpi, "MPI", false, false, false, false, Row},
    {TrackKind::CudaLibrary, "cuDNN/cuBLAS", false, false, false, false, None},
    {TrackKind::OpenAcc, "OpenACC", false, false, false, false, None},
    {TrackKind::OpenMp, "OpenMP", false, false, false, false, None},
    {TrackKind::UmCpuPageFault, "Unified memory CPU page faults", false, false, false, false, Row},
    {TrackKind::Kernel, "Kernels", true, true, false, false, Row},
    {TrackKind::Memcpy, "Memcpy", true, true, false, false, Row},
    {TrackKind::Memset, "Memset", true, true, false, false, Row},
    {TrackKind::Sync, "Sync", true, false, false, false, Row},
    {TrackKind::UmGpuPageFault, "Unified memory GPU page faults", true, false, false, false, Row},
    {TrackKind::CudaGraph, "CUDA graphs", true, false, false, false, Row},
    {TrackKind::NvtxGpuProjection, "NVTX (GPU)", false, false, true, false, Row},
    {TrackKind::NcclKernels, "NCCL", false, false, true, false, Row},
};
static_assert(std::size(kTrackKinds) == kTrackKindCount, "one declaration per track kind");
constexpr bool declaredInOrder()
{
    for (std::size_t i = 0; i < std::size(kTrackKinds); ++i)
        if (std::size_t(kTrackKinds[i].kind) != i)
            return false;
    return true;
}
static_assert(declaredInOrder(), "kTrackKinds follows TrackKind's order");

} // namespace

const char *mpiCallKindSource(MpiCallKind kind)
{
    static const char *const sources[kMpiCallKindCount] = {"p2p", "collectives", "start-wait", "other"};
    return sources[std::size_t(kind)];
}

const TrackKindInfo &trackKindInfo(TrackKind kind)
{
    return kTrackKinds[std::size_t(kind)];
}

bool isKnownTrackKind(std::uint8_t value)
{
    return value < kTrackKindCount;
}

QString trackKindName(TrackKind kind)
{
    return QString::fromLatin1(trackKindInfo(kind).name);
}

bool isGpuTrack(TrackKind kind)
{
    return trackKindInfo(kind).onGpu;
}

bool isGpuOperation(TrackKind kind)
{
    return trackKindInfo(kind).gpuOperation;
}

bool isDerivedTrack(TrackKind kind)
{
    return trackKindInfo(kind).derived;
}

bool isHostTrack(TrackKind kind)
{
    // A kind no loader makes (a crafted report being written) is none.
    return isKnownTrackKind(std::uint8_t(kind)) && !isGpuTrack(kind) && !isDerivedTrack(kind);
}

bool isHostRange(TrackKind kind)
{
    return trackKindInfo(kind).hostRange;
}

std::uint32_t Report::correlationIdOf(const Track &track, std::size_t event) const
{
    const std::uint32_t row = track.slices.payload(event);
    switch (track.kind) {
    case TrackKind::CudaApi:
        return apiCalls[row].correlationId;
    case TrackKind::Kernel:
    case TrackKind::NcclKernels:
        return kernels[row].correlationId;
    case TrackKind::Memcpy:
        return memcpys[row].correlationId;
    case TrackKind::Memset:
        return memsets[row].correlationId;
    case TrackKind::Sync:
        return syncs[row].correlationId;
    case TrackKind::CudaGraph:
        return graphLaunches[row].correlationId;
    default:
        return 0;
    }
}

std::optional<TrackEvent> Report::apiCallFor(std::uint64_t key) const
{
    const auto it = std::lower_bound(apiByCorrelation.begin(), apiByCorrelation.end(), key,
                                     [&](const TrackEvent &e, std::uint64_t k) { return correlationKeyOf(e) < k; });
    if (it == apiByCorrelation.end() || correlationKeyOf(*it) != key)
        return std::nullopt;
    return *it;
}

std::span<const TrackEvent> Report::gpuOpsFor(std::uint64_t key) const
{
    const auto first = std::lower_bound(gpuByCorrelation.begin(), gpuByCorrelation.end(), key,
                                        [&](const TrackEvent &e, std::uint64_t k) { return correlationKeyOf(e) < k; });
    const auto last =
        std::upper_bound(first, gpuByCorrelation.end(), key, [&](std::uint64_t k, const TrackEvent &e) { return k < correlationKeyOf(e); });
    return {first, last};
}

namespace {

// The first entry of `byKey` whose key is not below `key`, searched from
// `hint` outwards by doubling steps, then halving between the last two.
template <class KeyOf>
std::size_t gallopLowerBound(const Column<TrackEvent> &byKey, std::uint64_t key, std::size_t hint, KeyOf keyOf)
{
    const std::size_t n = byKey.size();
    const auto lowerBound = [&](std::size_t lo, std::size_t hi) {
        return std::size_t(std::lower_bound(byKey.begin() + std::ptrdiff_t(lo), byKey.begin() + std::ptrdiff_t(hi), key,
                                            [&](const TrackEvent &e, std::uint64_t k) { return keyOf(e) < k; })
                           - byKey.begin());
    };
    const std::size_t h = std::min(hint, n);
    if (h < n && keyOf(byKey[h]) < key) { // rightwards: the answer is past h
        std::size_t bound = 1;
        while (h + bound < n && keyOf(byKey[h + bound]) < key)
            bound *= 2;
        return lowerBound(h + bound / 2 + 1, std::min(h + bound, n));
    }
    // leftwards: the answer is h or before it
    std::size_t bound = 1;
    while (bound <= h && keyOf(byKey[h - bound]) >= key)
        bound *= 2;
    return lowerBound(bound > h ? 0 : h - bound + 1, h - bound / 2);
}

} // namespace

std::optional<TrackEvent> Report::apiCallFor(std::uint64_t key, std::size_t &hint) const
{
    const auto keyOf = [&](const TrackEvent &e) { return correlationKeyOf(e); };
    hint = gallopLowerBound(apiByCorrelation, key, hint, keyOf);
    if (hint == apiByCorrelation.size() || keyOf(apiByCorrelation[hint]) != key)
        return std::nullopt;
    return apiByCorrelation[hint];
}

std::span<const TrackEvent> Report::gpuOpsFor(std::uint64_t key, std::size_t &hint) const
{
    const auto keyOf = [&](const TrackEvent &e) { return correlationKeyOf(e); };
    hint = gallopLowerBound(gpuByCorrelation, key, hint, keyOf);
    std::size_t last = hint;
    while (last < gpuByCorrelation.size() && keyOf(gpuByCorrelation[last]) == key)
        ++last;
    return {gpuByCorrelation.begin() + std::ptrdiff_t(hint), gpuByCorrelation.begin() + std::ptrdiff_t(last)};
}

QString Report::memcpyKindLabel(int id) const
{
    if (id >= 0 && std::size_t(id) < memcpyKindLabels.size() && !memcpyKindLabels[id].isEmpty())
        return memcpyKindLabels[id];
    return builtinMemcpyKindLabel(id);
}

QString Report::memoryKindLabel(int id) const
{
    if (id >= 0 && std::size_t(id) < memoryKindLabels.size() && !memoryKindLabels[id].isEmpty())
        return memoryKindLabels[id];
    return builtinMemoryKindLabel(id);
}

const ProcessInfo *Report::process(std::uint32_t pid) const
{
    for (const ProcessInfo &p : processes)
        if (p.pid == pid)
            return &p;
    return nullptr;
}

const ThreadInfo *Report::thread(std::uint32_t pid, std::uint32_t tid) const
{
    for (const ThreadInfo &t : threads)
        if (t.pid == pid && t.tid == tid)
            return &t;
    return nullptr;
}

const GpuInfo *Report::gpu(int deviceId) const
{
    for (const GpuInfo &g : gpus)
        if (g.id == deviceId)
            return &g;
    return nullptr;
}

std::vector<std::uint32_t> Report::cudaProcesses() const
{
    std::set<std::uint32_t> pids;
    for (const Track &t : tracks)
        if ((isGpuTrack(t.kind) || t.kind == TrackKind::CudaApi) && !t.slices.extent().isEmpty()) // summariesOnly: the range stays
            pids.insert(t.pid);
    return {pids.begin(), pids.end()};
}

std::size_t Report::eventCount(TrackKind kind) const
{
    std::size_t n = 0;
    for (const Track &t : tracks)
        if (t.kind == kind)
            n += t.slices.size();
    return n;
}

bool NvtxRecord::isDefault() const
{
    return eventType == NvtxEventType::PushPopRange && payloadKind == PayloadKind::None && !hasColor && !openAtEnd && color == 0 && category == 0
           && categoryName == 0 && endTid == 0 && externalId == 0;
}

const NvtxRecord &Report::nvtxRecord(std::uint32_t payload) const
{
    static const NvtxRecord plainRange;
    return payload < nvtx.size() ? nvtx[payload] : plainRange;
}

std::size_t Report::eventCount() const
{
    std::size_t n = 0;
    for (const Track &t : tracks)
        if (!isDerivedTrack(t.kind))
            n += t.slices.size();
    return n;
}

TimeRange Report::extent() const
{
    TimeRange r{kTimeMax, kTimeMin};
    for (const Track &t : tracks) {
        if (t.slices.extent().isEmpty()) // no events (or, summariesOnly, none kept: the range is)
            continue;
        r.start = std::min(r.start, t.slices.extent().start);
        r.end = std::max(r.end, t.slices.extent().end);
    }
    for (const CounterTrack &c : counters) {
        if (c.time.empty())
            continue;
        r.start = std::min(r.start, c.time.front());
        r.end = std::max(r.end, c.time.back());
    }
    if (r.start > r.end)
        return meta.analysisRange;
    return r;
}

void Report::shrinkToFit()
{
    forEachSideTable(*this, [](auto &table, std::initializer_list<TrackKind>) { table.shrink_to_fit(); });
    kernelConfigs.shrink_to_fit();
    collectives.shrink_to_fit();
    apiByCorrelation.shrink_to_fit();
    gpuByCorrelation.shrink_to_fit();
    tracks.shrink_to_fit();
    sampling.frames.shrink_to_fit();
    sampling.chainFrames.shrink_to_fit();
    sampling.chainStarts.shrink_to_fit();
    sampling.samples.shrink_to_fit();
    sampling.backtraces.shrink_to_fit();
    strings.releaseLookup();
}

std::vector<Report::MemoryPart> Report::memoryParts() const
{
    SliceTrack::MemoryParts slices;
    std::size_t derivedTracks = 0;
    for (const Track &t : tracks) {
        const SliceTrack::MemoryParts p = t.slices.memoryParts();
        if (isDerivedTrack(t.kind)) {
            derivedTracks += p.total();
            continue;
        }
        slices.times += p.times;
        slices.names += p.names;
        slices.payloads += p.payloads;
        slices.depths += p.depths;
        slices.index += p.index;
        slices.lod += p.lod;
        slices.depthRows += p.depthRows;
    }
    std::size_t counterBytes = 0;
    for (const CounterTrack &c : counters)
        counterBytes += c.memoryBytes();
    std::size_t busyBytes = 0;
    for (const auto *summaries : {&gpuBusy, &communication.otherGpuBusy, &hostBusy})
        for (const BusySummary &g : *summaries)
            busyBytes += sizeof(BusySummary) + g.runs.memoryBytes();
    return {
        {"strings", strings.memoryBytes()},
        {"event times", slices.times},
        {"event names", slices.names},
        {"event side-table rows", slices.payloads},
        {"event depths", slices.depths},
        {"interval index", slices.index},
        {"zoomed-out summaries", slices.lod},
        {"rows per nesting depth", slices.depthRows},
        {"derived tracks (NCCL lanes, NVTX on the GPU)", derivedTracks},
        {"counters", counterBytes},
        {"busy runs (GPUs, processes)", busyBytes},
        {"kernel records", kernels.capacity() * sizeof(KernelRecord) + kernelConfigs.capacity() * sizeof(KernelConfig)},
        {"memcpy and memset records", memcpys.capacity() * sizeof(MemcpyRecord) + memsets.capacity() * sizeof(MemsetRecord)},
        {"CUDA API and sync records", apiCalls.capacity() * sizeof(ApiCallRecord) + syncs.capacity() * sizeof(SyncRecord)},
        {"NVTX records", nvtx.capacity() * sizeof(NvtxRecord)},
        {"MPI calls", mpiCalls.capacity() * sizeof(MpiRecord)},
        {"NVTX projections", nvtxProjections.capacity() * sizeof(NvtxProjectionRecord)},
        {"collectives and communication kernels",
         collectives.capacity() * sizeof(CollectiveRecord) + communication.kernels.capacity() * sizeof(CommunicationKernel)},
        {"API <-> GPU correlations", (apiByCorrelation.capacity() + gpuByCorrelation.capacity()) * sizeof(TrackEvent)},
        {"CPU samples and backtraces", sampling.memoryBytes()},
        {"summaries by name and time splits", byName.memoryBytes() + timeSplits.capacity() * sizeof(GpuTimeSplit)},
        {"processes, threads, tracks, diagnostics", sizeof(Report) + tracks.size() * sizeof(Track) + (processes.capacity() + threads.capacity()) * 48
                                                        + diagnostics.capacity() * 64 + flows.capacity() * sizeof(FlowRecord)},
    };
}

std::size_t Report::memoryBytes() const
{
    std::size_t bytes = 0;
    for (const MemoryPart &part : memoryParts())
        bytes += part.bytes;
    return bytes;
}

QString trackName(const Report &report, const Track &track)
{
    if (track.kind == TrackKind::CpuOp && track.domainName != StringTable::kEmpty)
        return report.strings.string(track.domainName);
    if ((track.kind == TrackKind::Nvtx || track.kind == TrackKind::OpenMp) && track.domainName != StringTable::kEmpty)
        return trackKindName(track.kind) + QStringLiteral(": ") + report.strings.string(track.domainName);
    return trackKindName(track.kind);
}

std::uint8_t hostRangeEventType(const Report &report, const Track &track, std::size_t event)
{
    if (track.kind == TrackKind::Nvtx)
        return report.nvtxRecord(track.slices.payload(event)).eventType;
    return NvtxEventType::PushPopRange;
}

} // namespace rankscope
