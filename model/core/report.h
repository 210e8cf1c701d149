#pragma once
// One loaded trace file: its processes, threads, GPUs, tracks and side
// tables. A loader builds it; after that it is immutable and shared between
// threads as std::shared_ptr<const Report>.
#include "core/column.h"
#include "core/countertrack.h"
#include "core/cpusampling.h"
#include "core/cudaenums.h"
#include "core/gputimesplit.h"
#include "core/mappedpages.h"
#include "core/namesummaries.h"
#include "core/slicetrack.h"
#include "core/stringtable.h"
#include "core/timetypes.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rankscope {

struct ProcessInfo {
    std::uint32_t pid = 0;
    QString name;
};

struct ThreadInfo {
    static constexpr std::int32_t kNoPriority = std::numeric_limits<std::int32_t>::min();
    std::uint32_t tid = 0;
    std::uint32_t pid = 0;
    QString name;
    std::int32_t priority = kNoPriority; // its run priority (nsys' ThreadNames); kNoPriority: not recorded
};

struct GpuInfo {
    int id = 0; // the deviceId that GPU activity rows carry
    QString name;
    int smCount = 0;
    std::int64_t totalMemory = 0;
    int computeMajor = 0;
    int computeMinor = 0;
    QString busLocation;
    QString uuid;
};

// What a track holds. Each kind is declared once, in kTrackKinds
// (report.cpp): its name, where it lives and what its slices' payloads are.
enum class TrackKind : std::uint8_t {
    OsRuntime,   // per thread
    CudaApi,     // per thread: CUDA runtime and driver calls
    Nvtx,        // per thread and NVTX domain
    CpuOp,       // per thread and Kineto category: PyTorch's CPU scopes (cpu_op, user_annotation, python_function)
    Mpi,         // per thread: MPI calls (nsys --trace=mpi)
    CudaLibrary, // per thread: cuDNN and cuBLAS calls (nsys --trace=cudnn,cublas)
    OpenAcc,     // per thread: OpenACC data, launch and other events (nsys --trace=openacc)
    OpenMp,      // per thread and OpenMP event kind (its table; the track's domain): nsys --trace=openmp
    // Per process (tid 0): the host's faults on unified memory, instants
    // (nsys --cuda-um-cpu-page-faults).
    UmCpuPageFault,
    Kernel, // per process, device and stream
    Memcpy,
    Memset,
    Sync,           // CUDA synchronization seen on the GPU side
    UmGpuPageFault, // per process and device: a GPU's faults on unified memory (nsys --cuda-um-gpu-page-faults)
    CudaGraph,      // per process, device and stream: CUDA graph launches (nsys --cuda-graph-trace=graph, or =node: see GraphLaunchRecord)
    // Derived after loading, from the tracks above (not counted twice by
    // statistics or event counts):
    NvtxGpuProjection, // per process and device: NVTX ranges projected onto the GPU
    NcclKernels,       // per process and device: the NCCL kernels of all streams
};
inline constexpr std::size_t kTrackKindCount = std::size_t(TrackKind::NcclKernels) + 1;

// What a slice's payload is, by the kind of its track.
enum class SlicePayload : std::uint8_t {
    None,        // unused (OS runtime calls)
    Row,         // a row of the kind's side table (forEachSideTable)
    OptionalRow, // the same, or NvtxRecord::kNoRecord for a plain range
    ExternalId,  // Kineto's "External id", which ties a CPU scope to the calls it made
};

struct TrackKindInfo {
    TrackKind kind;
    const char *name;     // "CUDA API": row labels, Details, the Events table
    bool onGpu;           // recorded GPU activity, per process, device and stream
    bool gpuOperation;    // keeps a GPU busy: kernels, copies, memsets
    bool derived;         // built from other tracks after loading
    bool hostRange;       // a range a program or its profiler opened on a thread (steps, phases, ops)
    SlicePayload payload; // what its slices' payloads are
};
const TrackKindInfo &trackKindInfo(TrackKind kind);
bool isKnownTrackKind(std::uint8_t value); // a byte read from a file
QString trackKindName(TrackKind kind);
bool isGpuTrack(TrackKind kind); // recorded GPU activity
// Kernels, copies and memsets: what keeps a GPU busy (nsys' gpu_gaps and
// gpu_time_util rules, Report::gpuBusy, a collapsed group's graph).
bool isGpuOperation(TrackKind kind);
bool isDerivedTrack(TrackKind kind); // built from other tracks after loading
// Recorded on a host thread: neither on a GPU nor derived (a process's
// rows in the timeline, Report::hostBusy).
bool isHostTrack(TrackKind kind);
// NVTX ranges and Kineto's CPU scopes: what steps, phases and host time
// are read from.
bool isHostRange(TrackKind kind);

// A track and an event in it, within one report.
struct TrackEvent {
    std::uint32_t track = 0;
    std::uint32_t event = 0;
    bool operator==(const TrackEvent &) const = default;
};

struct Track {
    TrackKind kind = TrackKind::OsRuntime;
    std::uint32_t pid = 0;
    std::uint32_t tid = 0;       // host tracks
    int deviceId = -1;           // GPU tracks
    std::uint32_t streamId = 0;  // GPU tracks
    std::uint32_t contextId = 0; // GPU tracks
    std::uint32_t domainId = 0;  // NVTX tracks; 0 = default domain
    StringId domainName = StringTable::kEmpty;
    SliceTrack slices; // event names: see each record type below
};

// Side tables: a slice's payload is its row in the table of its track kind.

// How a kernel was launched. A training step launches the same few
// configurations over and over: each is stored once (Report::kernelConfigs).
struct KernelConfig {
    std::uint32_t gridX = 0, gridY = 0, gridZ = 0;
    std::uint32_t blockX = 0, blockY = 0, blockZ = 0;
    std::uint32_t registersPerThread = 0;
    std::uint32_t staticSharedMemory = 0;
    std::uint32_t dynamicSharedMemory = 0;
    std::int32_t launchType = -1;
    bool operator==(const KernelConfig &) const = default;
};

// Kernel slice name: the demangled name (what `nsys stats` groups by).
struct KernelRecord {
    StringId shortName = 0;
    StringId mangledName = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t config = 0;                 // row in Report::kernelConfigs
    std::uint32_t externalId = 0;             // Kineto: links to the enclosing CPU op
    std::uint32_t collective = kNoCollective; // row in Report::collectives
    std::int64_t graphNodeId = -1;
    static constexpr std::uint32_t kNoCollective = 0xffffffffu;
};

// The arguments of a collective on its NCCL kernel: Kineto's copy of the
// record_param_comms op's, or NCCL's own NVTX payloads under nsys
// (load/ncclcalls.h).
struct CollectiveRecord {
    StringId name = 0;  // "allreduce", "ncclAllReduce", "ncclSend + ncclRecv"
    StringId dtype = 0; // "Float"
    std::int64_t inNelems = -1, outNelems = -1;
    std::int64_t inBytes = -1, outBytes = -1; // -1 unknown
    int groupSize = 0;
    int commRank = -1;             // this rank's place in the communicator; -1 unknown
    int root = -1;                 // broadcast and reduce
    StringId processGroupName = 0; // Kineto's process group, or "NCCL comm 0x…"
    StringId processGroupRanks = 0;
    StringId peers = 0;         // send/receive: the peers' ranks in the communicator, "1" or "0,2"
    std::int64_t sequence = -1; // the operation's number on its process group (Kineto's "Seq"); -1 unknown
};

// Memcpy slice name: "[CUDA memcpy <copy kind label>]".
struct MemcpyRecord {
    std::uint64_t bytes = 0;
    std::uint32_t correlationId = 0;
    MemcpyKind copyKind = MemcpyKind::Unknown;
    std::uint8_t copyKindId = 0; // as stored, for the export's own labels
    MemoryKind srcKind = MemoryKind::Unknown;
    MemoryKind dstKind = MemoryKind::Unknown;
    std::int32_t srcDevice = -1;
    std::int32_t dstDevice = -1;
    std::uint32_t copyCount = 1;
    std::uint32_t externalId = 0;
    // A unified-memory migration's page(s): their virtual base address.
    std::uint64_t virtualAddress = kNoAddress;
    static constexpr std::uint64_t kNoAddress = ~std::uint64_t(0);
    // From or to pageable host memory: staged through a pinned buffer, never truly asynchronous.
    bool isPageable() const { return srcKind == MemoryKind::Pageable || dstKind == MemoryKind::Pageable; }
};

// Memset slice name: "[CUDA memset]".
struct MemsetRecord {
    std::uint64_t bytes = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t value = 0;
    MemoryKind memKind = MemoryKind::Unknown;
    std::uint32_t externalId = 0;
};

// Sync slice name: the sync kind label.
struct SyncRecord {
    std::uint32_t correlationId = 0;
    SyncKind kind = SyncKind::Unknown;
    std::int64_t eventId = -1;
    // A stream wait (cudaStreamWaitEvent): the stream the awaited CUDA
    // event was recorded on, and the cudaEventRecord call that recorded it
    // (its correlation id), as the trace names them; -1 and 0 where it
    // does not (an nsys export without CUPTI_ACTIVITY_KIND_CUDA_EVENT rows).
    std::int32_t awaitedStream = -1;
    std::uint32_t recordCorrelationId = 0;
};

// Unified-memory CPU page fault slice name: "CPU page fault". The faulting
// instruction's function and module, and its source line where nsys
// resolved it (kEmpty, -1 where not).
struct UmCpuFaultRecord {
    std::uint64_t address = 0;
    StringId instruction = 0;
    StringId module = 0;
    StringId sourceFile = 0;
    std::int32_t sourceLine = -1;
};

// Unified-memory GPU page fault slice name: "GPU page fault"; the faults
// the GPU grouped on one page over the slice's time.
struct UmGpuFaultRecord {
    std::uint64_t address = 0;
    std::uint32_t faults = 0;
    std::uint32_t accessType = 0; // CUpti_ActivityUnifiedMemoryAccessType: 1 read, 2 write, 3 atomic, 4 prefetch
};

// CUDA graph slice name: "Graph <graphId>"; one launch of an executable
// graph on one stream: traced whole (no kernel rows of its own), or, where
// nsys traced the nodes, the span of its kernels there ("Graph of node N"
// when the export names no graph; graphId 0, graphExecId 0).
struct GraphLaunchRecord {
    std::uint32_t correlationId = 0; // its cudaGraphLaunch call
    std::uint32_t graphId = 0;
    std::uint32_t graphExecId = 0;
};

// API slice name: the function name as recorded (with its _vNNNN suffix).
struct ApiCallRecord {
    std::uint32_t correlationId = 0;
    std::int32_t returnValue = 0;
    std::int32_t eventClass = EventClass::CudaRuntime;
    std::uint32_t externalId = 0;
};

// What an NVTX range or mark has besides its name and times. Most ranges
// (emit_nvtx writes one per op) have none of it: their slice's payload is
// kNoRecord and they share the default record, so a record is stored only
// for a range with a payload, colour, category, another type or thread.
struct NvtxRecord {
    static constexpr std::uint32_t kNoRecord = 0xFFFFFFFFu; // slice payload of a plain push/pop range

    enum class PayloadKind : std::uint8_t { None, Int, Unsigned, Double, Json, Fields };
    std::uint8_t eventType = NvtxEventType::PushPopRange;
    PayloadKind payloadKind = PayloadKind::None;
    bool hasColor = false;
    bool openAtEnd = false;  // no end recorded: ends at the last NVTX time
    std::uint32_t color = 0; // ARGB
    std::uint32_t category = 0;
    StringId categoryName = 0;
    std::uint32_t endTid = 0;    // start/end ranges may end on another thread; 0: the one it started on
    std::int64_t intPayload = 0; // Int and Unsigned (bit pattern)
    double doublePayload = 0.0;
    StringId jsonPayload = 0;     // Json: the text; Fields: "name: value" lines (an extended payload)
    std::uint32_t externalId = 0; // Kineto CPU ops and annotations

    // Whether a range needs a record of its own (anything but the default).
    bool isDefault() const;
};

// What nsys records of an MPI call, by the table it is in.
enum class MpiCallKind : std::uint8_t {
    PointToPoint, // MPI_P2P_EVENTS: sends and receives, blocking or not
    Collective,   // MPI_COLLECTIVES_EVENTS
    StartWait,    // MPI_START_WAIT_EVENTS: MPI_Wait*, MPI_Test*, MPI_Start*
    Other,        // MPI_OTHER_EVENTS: MPI_Init, MPI_Comm_split, ...
};
inline constexpr int kMpiCallKindCount = 4;
// nsys' name for each (mpi_event_sum's Source column): "p2p", "collectives",
// "start-wait", "other".
const char *mpiCallKindSource(MpiCallKind kind);

// MPI slice name: the function ("MPI_Send"). A value the table leaves NULL
// (or that its table lacks) is kNone.
struct MpiRecord {
    static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min();
    std::int64_t size = kNone;      // a message's bytes; a collective's sent bytes
    std::int64_t recvSize = kNone;  // a collective's received bytes
    std::int64_t tag = kNone;       // a message's tag
    std::int64_t peer = kNone;      // remoteRank: a send's destination, a receive's source
    std::int64_t root = kNone;      // a rooted collective's root
    std::uint64_t communicator = 0; // the MPI_Comm handle, as the process saw it; 0 unknown
    std::uint64_t request = 0;      // the MPI_Request handle of a non-blocking call or of a wait; 0 none
    std::int32_t rank = -1;         // the calling thread's rank (MPI_RANKS); -1 not listed
    MpiCallKind kind = MpiCallKind::Other;
};

// Payload of a NvtxGpuProjection slice: the NVTX range it projects and what
// GPU work the range launched.
struct NvtxProjectionRecord {
    std::uint32_t nvtxRow = 0; // its record: Report::nvtxRecord(nvtxRow)
    std::uint32_t gpuOps = 0;  // kernels, memcpys and memsets launched inside it
    TimeNs cpuDuration = 0;    // the range's length on its thread
    TimeNs gpuBusyNs = 0;      // union of those ops' time on the GPU
};
static_assert(sizeof(NvtxProjectionRecord) == 24, "one per projected NVTX range: keep it unpadded");

// A flow arrow as the trace wrote it: from a point on one thread to a point
// on another, each bound to the innermost slice open there (Kineto's
// "fwdbwd" flows: a forward op to the backward op autograd ran for it).
struct FlowPoint {
    std::uint32_t pid = 0, tid = 0;
    TimeNs time = 0; // report time
};
struct FlowRecord {
    FlowPoint from, to;
};

// When one process's GPU is busy (Report::gpuBusy: the union of its
// kernels, copies and memsets; concurrent work counts once), or its
// threads (Report::hostBusy: the union of its host tracks), as disjoint
// runs, a track of its own with its summaries (about 20 bytes per run; a
// GPU busy back to back has few runs). The rank x time map and a collapsed
// rank or process read these, so many ranks cost kilobytes each (the
// summary levels in view), not their events.
struct BusySummary {
    std::uint32_t pid = 0;
    int deviceId = -1; // -1 for a process's threads
    TimeRange span;    // first op's start to last op's end, report time
    TimeNs busy = 0;   // total busy time in the span
    SliceTrack runs;
};

// A kernel the built-in communication patterns name
// (core/communicationkernels.h), with what matching collectives reads of
// it, its kernel record and its launch: copied here, because reading them
// there reads a page of its track's columns, of the kernel table and of
// the correlation index for every communication kernel (one kernel in
// twenty is one: a rank's every page of them).
struct CommunicationKernel {
    static constexpr TimeNs kNoLaunch = kTimeMin;
    std::uint32_t track = 0, event = 0;
    std::uint32_t collective = KernelRecord::kNoCollective; // its kernel record's row in Report::collectives
    StringId name = 0;                                      // its slice's name
    TimeNs start = 0, end = 0;                              // its slice's times, report time
    TimeNs launch = kNoLaunch;                              // its launching API call's start, report time
};
static_assert(sizeof(CommunicationKernel) == 40, "one per communication kernel: keep it unpadded");

// What matching collectives reads of a report, kept as it loads (and in
// its index cache) so a match over many ranks reads a rank's few thousand
// communication kernels, not its million events.
struct CommunicationSummary {
    bool present = false;                // built (load/derivedtracks.h); a report put together by hand has none
    Column<CommunicationKernel> kernels; // by track, then event
    // Per process and device, when its GPU ran anything but those kernels
    // (kernels, copies, memsets), as Report::gpuBusy: what the late split
    // of a collective wait measures.
    std::vector<BusySummary> otherGpuBusy;
};

struct Diagnostic {
    enum class Severity : std::uint8_t { Info, Warning, Error };
    Severity severity = Severity::Info;
    std::optional<TimeNs> timestamp;
    QString text;
};

struct ProcessGroupInfo {
    QString name;
    QString description;
    int size = 0;
    QString ranks;
};

enum class TraceSource { NsysSqlite, Kineto };

struct ReportMetadata {
    QString format;         // "Nsight Systems SQLite export"
    QString productVersion; // "2025.3.2.0"
    QString schemaVersion;  // "3.20.3"
    QString hostName;
    std::int64_t utcStartNs = 0; // absolute start of the session timeline
    TimeRange analysisRange{0, -1};
    std::optional<int> environmentRank; // RANK=, OMPI_COMM_WORLD_RANK=, ... if recorded
    std::map<std::uint32_t, int> mpiRankByPid;
    // Kineto: distributedInfo, and the time base HTA's rounding needs.
    std::optional<int> declaredRank;
    std::optional<int> worldSize;
    QString distributedBackend;
    std::vector<ProcessGroupInfo> processGroups;
    // What wrote the file: Kineto rows follow PyTorch's and HTA's rules
    // (CPU scopes named by category, HTA's step window), nsys rows nsys' rules.
    TraceSource source = TraceSource::NsysSqlite;
    bool microsecondTimestamps = false;               // times came as (fractional) µs: statistics round as HTA does
    TimeNs rawTimeOrigin = 0;                         // report time + this = time as written in the file (ns)
    std::map<QString, std::size_t> sourceEventCounts; // events per category as read
};

// Shared (ReportPtr): a statistics table names its strings through it.
struct Report : std::enable_shared_from_this<Report> {
    QString filePath;
    ReportMetadata meta;
    StringTable strings;

    std::vector<ProcessInfo> processes;
    std::vector<ThreadInfo> threads;
    std::vector<GpuInfo> gpus;
    std::vector<Track> tracks;
    std::vector<CounterTrack> counters;
    std::vector<Diagnostic> diagnostics;

    Column<KernelRecord> kernels;
    Column<KernelConfig> kernelConfigs;
    Column<MemcpyRecord> memcpys;
    Column<MemsetRecord> memsets;
    Column<SyncRecord> syncs;
    Column<ApiCallRecord> apiCalls;
    Column<NvtxRecord> nvtx; // see NvtxRecord::kNoRecord; read through nvtxRecord()
    Column<MpiRecord> mpiCalls;
    Column<UmCpuFaultRecord> umCpuFaults;
    Column<UmGpuFaultRecord> umGpuFaults;
    Column<GraphLaunchRecord> graphLaunches;
    Column<NvtxProjectionRecord> nvtxProjections;
    Column<CollectiveRecord> collectives;
    Column<FlowRecord> flows;         // Kineto's forward -> backward arrows
    std::vector<BusySummary> gpuBusy; // per (pid, device), by pid then device
    // Per process with host tracks, by pid (hostTracksOf in
    // load/derivedtracks.h): built when an index cache is written, read
    // back from it (a report parsed now has none).
    std::vector<BusySummary> hostBusy;
    CommunicationSummary communication;
    CpuSampling sampling; // CPU samples and backtraces (nsys' --sample=cpu, --cudabacktrace, --osrt-backtrace)
    // Built when an index cache is written, read back from it (core/namesummaries.h).
    NameSummaries byName;
    // The same: the GPU time split over all time (core/gputimesplit.h);
    // empty when not built.
    std::vector<GpuTimeSplit> timeSplits;

    // API call <-> GPU work, by (pid, correlation id): ids repeat across
    // processes. Events sorted by that key, 8 bytes each: the key itself is
    // read back from the event (a hash map would cost ~50 bytes per event).
    // Filled once tracks are final.
    Column<TrackEvent> apiByCorrelation; // one per key
    Column<TrackEvent> gpuByCorrelation; // several per key
    static std::uint64_t correlationKey(std::uint32_t pid, std::uint32_t correlationId) { return (std::uint64_t(pid) << 32) | correlationId; }
    std::uint64_t correlationKeyOf(const TrackEvent &at) const
    {
        return correlationKey(tracks[at.track].pid, correlationIdOf(tracks[at.track], at.event));
    }
    std::optional<TrackEvent> apiCallFor(std::uint64_t key) const;
    std::span<const TrackEvent> gpuOpsFor(std::uint64_t key) const;
    // The same for keys asked in mostly rising order (a step's calls in
    // time order): each search gallops from where the last ended, `hint`,
    // over a few neighbours (whose keys are cached) instead of halving
    // millions of entries, each read through two other columns.
    std::optional<TrackEvent> apiCallFor(std::uint64_t key, std::size_t &hint) const;
    std::span<const TrackEvent> gpuOpsFor(std::uint64_t key, std::size_t &hint) const;
    // The correlation id of an API call or GPU op; 0 when it has none.
    std::uint32_t correlationIdOf(const Track &track, std::size_t event) const;

    // Labels the export gives its enums (index = id); empty = built in.
    std::vector<QString> memcpyKindLabels;
    std::vector<QString> memoryKindLabels;

    double loadSeconds = 0.0;
    // Opened from its index cache's summaries only (load/cache/cachefile.h,
    // CacheOpenDepth::Summaries): a first frame of many ranks while their
    // caches are checked whole. Its tracks, counters and GPU busy summaries
    // are there, the tracks' events and every table of them are not (each
    // track keeps the range its events cover), so nothing reads a byte of
    // the cache not yet checked; the viewer replaces it with the whole
    // report once that is checked.
    bool summariesOnly = false;
    // Opened from an index cache (load/cache/): the mapped file its columns
    // are views of (not counted by memoryBytes()); null when parsed.
    std::shared_ptr<const MappedPages> indexCache;
    std::uint64_t indexCacheBytes() const { return indexCache ? indexCache->bytes() : 0; }
    // Who wrote that cache, when not this user alone (a shared cache
    // folder): it was read from a private copy bound to the trace's content.
    QString indexCacheWrittenBy;

    const KernelConfig &launch(const KernelRecord &k) const { return kernelConfigs[k.config]; }
    QString memcpyKindLabel(int id) const;
    QString memoryKindLabel(int id) const;
    const ProcessInfo *process(std::uint32_t pid) const;
    const ThreadInfo *thread(std::uint32_t pid, std::uint32_t tid) const;
    const GpuInfo *gpu(int deviceId) const;
    // Processes with CUDA work (API calls or GPU activity), by pid.
    std::vector<std::uint32_t> cudaProcesses() const;
    std::size_t eventCount(TrackKind kind) const;
    // An NVTX slice's record, by its payload (the default one for kNoRecord).
    const NvtxRecord &nvtxRecord(std::uint32_t payload) const;
    std::size_t eventCount() const;
    // Union of all track extents, in report time.
    TimeRange extent() const;
    std::size_t memoryBytes() const; // the sum of memoryParts()
    // Where memoryBytes() goes: a named part and its bytes, in a fixed order.
    struct MemoryPart {
        const char *name;
        std::size_t bytes;
    };
    std::vector<MemoryPart> memoryParts() const;
    // Gives back the spare capacity the per-kind tables grew while loading
    // (a vector doubles: up to half of a table is slack); loaders call it last.
    void shrinkToFit();
};

using ReportPtr = std::shared_ptr<const Report>;

// The side tables slices name by row (SlicePayload::Row, OptionalRow),
// each with the kinds of track whose slices read it, the first its owner:
// the one list the loaders' finishing order (load/sidetableorder.h), the
// index cache and its checks (load/cache/) and shrinkToFit walk. A new
// kind of record is its member in Report and one line here.
template <class R, class Visit>
void forEachSideTable(R &report, Visit &&visit)
{
    visit(report.apiCalls, {TrackKind::CudaApi});
    visit(report.kernels, {TrackKind::Kernel, TrackKind::NcclKernels});
    visit(report.memcpys, {TrackKind::Memcpy});
    visit(report.memsets, {TrackKind::Memset});
    visit(report.syncs, {TrackKind::Sync});
    visit(report.nvtx, {TrackKind::Nvtx});
    visit(report.mpiCalls, {TrackKind::Mpi});
    visit(report.umCpuFaults, {TrackKind::UmCpuPageFault});
    visit(report.umGpuFaults, {TrackKind::UmGpuPageFault});
    visit(report.graphLaunches, {TrackKind::CudaGraph});
    visit(report.nvtxProjections, {TrackKind::NvtxGpuProjection});
}

// What a track is in its source's own words: Kineto's CPU scopes by their
// category ("cpu_op", "user_annotation", "python_function"), an NVTX
// range by its domain ("NVTX: NCCL"), else the kind ("CUDA API"). Row
// labels, Details and the Events table say the same.
QString trackName(const Report &report, const Track &track);

// The NVTX event type of a host range (isHostRange): an NVTX range's own;
// Kineto's CPU scopes nest on their thread as push/pop ranges do.
std::uint8_t hostRangeEventType(const Report &report, const Track &track, std::size_t event);

} // namespace rankscope
