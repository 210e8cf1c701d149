#include "load/kineto/kinetoloader.h"

#include "core/narrowing.h"
#include "core/units.h"
#include "load/gzipreader.h"
#include "load/kernelconfigs.h"
#include "load/kineto/kinetoparser.h"
#include "load/memorycheck.h"
#include "load/reportfinish.h"
#include "load/textsource.h"
#include "load/trackregistry.h"

#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace rankscope {

using kineto::KinetoEvent;
using kineto::kNone;

int dtypeSize(std::string_view dtype)
{
    static const std::map<std::string_view, int> sizes{
        {"Float", 4},           {"float", 4},       {"Double", 8},        {"double", 8},      {"Half", 2},
        {"BFloat16", 2},        {"Int", 4},         {"int", 4},           {"Long", 8},        {"long int", 8},
        {"Short", 2},           {"Char", 1},        {"Byte", 1},          {"Bool", 1},        {"ComplexFloat", 8},
        {"ComplexDouble", 16},  {"ComplexHalf", 4}, {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1}, {"Float8_e4m3fnuz", 1},
        {"Float8_e5m2fnuz", 1}, {"UInt16", 2},      {"UInt32", 4},        {"UInt64", 8}};
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

bool KinetoLoader::canLoad(const QString &path)
{
    if (isGzipFile(path))
        return true;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    for (char c : f.read(4096)) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        return c == '{' || c == '[';
    }
    return false;
}

namespace {

// Kineto times are µs since the epoch or since the process started: never
// negative. Within [0, kTraceTimeLimit] they stay in range after the shift
// to the report's origin.
bool isKinetoTime(TimeNs t)
{
    return t >= 0 && t <= kTraceTimeLimit;
}

// Kineto category -> what it becomes. Old traces capitalise categories.
enum class Category { CpuRange, CudaRuntime, CudaDriver, Kernel, Memcpy, Memset, GpuAnnotation, Sync, Ignored };

bool equalsNoCase(std::string_view a, std::string_view lowerB)
{
    if (a.size() != lowerB.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != lowerB[i])
            return false;
    return true;
}

Category categoryOf(std::string_view cat, std::string_view &domain)
{
    // Runs once per event: compare in place, allocate nothing.
    struct Lower {
        std::string_view text;
        bool operator==(std::string_view lowerName) const { return equalsNoCase(text, lowerName); }
    } lower{cat};
    if (lower == "cpu_op" || lower == "operator") {
        domain = "cpu_op";
        return Category::CpuRange;
    }
    if (lower == "user_annotation") {
        domain = "user_annotation";
        return Category::CpuRange;
    }
    if (lower == "python_function") {
        domain = "python_function";
        return Category::CpuRange;
    }
    if (lower == "cuda_runtime" || lower == "runtime")
        return Category::CudaRuntime;
    if (lower == "cuda_driver")
        return Category::CudaDriver;
    if (lower == "kernel")
        return Category::Kernel;
    if (lower == "gpu_memcpy" || lower == "memcpy")
        return Category::Memcpy;
    if (lower == "gpu_memset" || lower == "memset")
        return Category::Memset;
    if (lower == "gpu_user_annotation")
        return Category::GpuAnnotation;
    if (lower == "cuda_sync")
        return Category::Sync;
    return Category::Ignored;
}

MemoryKind memoryKindNamed(std::string_view name)
{
    static const std::pair<std::string_view, MemoryKind> kinds[] = {
        {"Pageable", MemoryKind::Pageable}, {"Pinned", MemoryKind::Pinned}, {"Device Static", MemoryKind::DeviceStatic},
        {"Device", MemoryKind::Device},     {"Array", MemoryKind::Array},   {"Managed Static", MemoryKind::ManagedStatic},
        {"Managed", MemoryKind::Managed}};
    for (const auto &[label, kind] : kinds)
        if (name == label)
            return kind;
    return MemoryKind::Unknown;
}

// "Memcpy HtoD (Pageable -> Device)" -> HtoD, Pageable, Device.
void parseMemcpyName(std::string_view name, MemcpyRecord &m)
{
    static const std::pair<std::string_view, MemcpyKind> kinds[] = {
        {"HtoD", MemcpyKind::HtoD}, {"DtoH", MemcpyKind::DtoH}, {"DtoD", MemcpyKind::DtoD}, {"HtoH", MemcpyKind::HtoH}, {"PtoP", MemcpyKind::PtoP},
        {"HtoA", MemcpyKind::HtoA}, {"AtoH", MemcpyKind::AtoH}, {"AtoA", MemcpyKind::AtoA}, {"AtoD", MemcpyKind::AtoD}, {"DtoA", MemcpyKind::DtoA}};
    std::string_view rest = name.substr(std::min(name.size(), std::string_view("Memcpy ").size()));
    const std::string_view token = rest.substr(0, rest.find(' '));
    for (const auto &[label, kind] : kinds)
        if (token == label)
            m.copyKind = kind;
    m.copyKindId = std::uint8_t(m.copyKind);
    const auto open = name.find('('), arrow = name.find(" -> "), close = name.rfind(')');
    if (open != std::string_view::npos && arrow != std::string_view::npos && close != std::string_view::npos && open < arrow && arrow < close) {
        m.srcKind = memoryKindNamed(name.substr(open + 1, arrow - open - 1));
        m.dstKind = memoryKindNamed(name.substr(arrow + 4, close - arrow - 4));
    }
}

SyncKind syncKindNamed(std::string_view name)
{
    if (name == "Stream Sync")
        return SyncKind::StreamSync;
    if (name == "Event Sync")
        return SyncKind::EventSync;
    if (name == "Context Sync")
        return SyncKind::ContextSync;
    if (name == "Stream Wait Event")
        return SyncKind::StreamWaitEvent;
    return SyncKind::Unknown;
}

// Kineto writes some thread ids negative; the magnitude names the thread
// (computed unsigned: -INT64_MIN does not exist). Absent reads as 0.
std::uint32_t threadIdOf(std::int64_t tid)
{
    if (tid == kNone)
        return 0;
    return std::uint32_t(tid < 0 ? 0 - std::uint64_t(tid) : std::uint64_t(tid));
}

// Fills a Report from the parsed events.
class KinetoBuilder {
public:
    explicit KinetoBuilder(Report &r) : m_report(r), m_tracks(r), m_configs(r.kernelConfigs) { }

    void add(const KinetoEvent &e)
    {
        auto count = m_categoryCounts.find(e.cat);
        if (count == m_categoryCounts.end())
            count = m_categoryCounts.emplace(std::string(e.cat), 0).first;
        ++count->second;
        switch (e.ph) {
        case 'X':
            addComplete(e);
            break;
        case 'M':
            addMetadata(e);
            break;
        case 'i':
        case 'I':
            addInstant(e);
            break;
        case 'C':
            addCounter(e);
            break;
        case 's':
        case 'f':
            addFlowPoint(e);
            break;
        default:
            break;
        }
    }

    void finish(const kineto::TraceHeader &header);

private:
    void noteTime(TimeNs t)
    {
        if (t != kNone)
            m_minTime = std::min(m_minTime, t);
    }

    // What every complete ('X') event has, read once; then one method per category.
    struct Complete {
        TimeNs start = 0, end = 0;
        StringId name = StringTable::kEmpty;
        std::uint32_t pid = 0, tid = 0;
        std::uint32_t externalId = 0, correlation = 0;
        int device = 0;           // GPU events: the device
        std::uint32_t stream = 0; // GPU events: the stream
    };
    void addComplete(const KinetoEvent &e);
    void addCpuRange(const Complete &c, std::string_view category);
    void addApiCall(const Complete &c, int eventClass);
    void addKernel(const Complete &c, const KinetoEvent &e);
    CollectiveRecord collectiveOf(const KinetoEvent &e);
    void addMemcpy(const Complete &c, const KinetoEvent &e);
    void addMemset(const Complete &c, const KinetoEvent &e);
    void addGpuAnnotation(const Complete &c);
    void addSync(const Complete &c, const KinetoEvent &e);
    void addMetadata(const KinetoEvent &e);
    void addInstant(const KinetoEvent &e);
    void addCounter(const KinetoEvent &e);
    // "ac2g" flows repeat the correlation ids the events carry; "fwdbwd"
    // ones link a forward op to its backward op and are kept.
    void addFlowPoint(const KinetoEvent &e);
    CounterTrack &counter(const QString &name, std::uint32_t pid, int device, const QString &unit);

    std::map<std::int64_t, std::pair<FlowRecord, int>> m_flows; // by id: the flow, which ends were seen (1 start, 2 finish)
    Report &m_report;
    TrackRegistry m_tracks;
    KernelConfigInterner m_configs;
    TimeNs m_minTime = kTimeMax;
    std::size_t m_outOfRange = 0;
    std::size_t m_skipped = 0, m_badDuration = 0;
    std::map<std::uint32_t, std::size_t> m_apiCallsByPid;
    std::map<std::uint32_t, QString> m_processNames;
    std::map<std::pair<std::uint32_t, std::uint32_t>, QString> m_threadNames;
    std::map<std::tuple<QString, std::uint32_t, int>, std::size_t> m_counterIndex;
    std::map<std::string_view, StringId> m_domainIds;
    std::map<std::string, std::size_t, std::less<>> m_categoryCounts;
    StringId m_memcpyNames[kMemcpyKindCount] = {};
};

void KinetoBuilder::addComplete(const KinetoEvent &e)
{
    std::string_view domain;
    const Category category = categoryOf(e.cat, domain);
    if (category == Category::Ignored)
        return;
    if (e.tsNs == kNone || e.durNs == kNone || e.pid == kNone) {
        ++m_skipped;
        return;
    }
    if (!isKinetoTime(e.tsNs) || !isTraceTime(e.durNs)) {
        ++m_outOfRange;
        return;
    }
    TimeNs duration = e.durNs;
    if (duration < 0) {
        ++m_badDuration;
        duration = 0;
    }
    noteTime(e.tsNs);
    Complete c;
    c.start = e.tsNs;
    c.end = e.tsNs + duration;
    c.name = m_report.strings.intern(e.name);
    c.pid = std::uint32_t(e.pid);
    c.tid = threadIdOf(e.tid);
    c.externalId = saturate<std::uint32_t>(e.externalId);
    c.correlation = saturate<std::uint32_t>(e.correlation);
    // GPU events: pid = device, tid = stream (args say so too, when present).
    c.device = int(e.device != kNone ? e.device : e.pid);
    c.stream = std::uint32_t(e.stream != kNone && e.stream >= 0 ? e.stream : c.tid);
    switch (category) {
    case Category::CpuRange:
        addCpuRange(c, domain);
        break;
    case Category::CudaRuntime:
    case Category::CudaDriver:
        addApiCall(c, category == Category::CudaDriver ? EventClass::CudaDriver : EventClass::CudaRuntime);
        break;
    case Category::Kernel:
        addKernel(c, e);
        break;
    case Category::Memcpy:
        addMemcpy(c, e);
        break;
    case Category::Memset:
        addMemset(c, e);
        break;
    case Category::GpuAnnotation:
        addGpuAnnotation(c);
        break;
    case Category::Sync:
        addSync(c, e);
        break;
    case Category::Ignored:
        break;
    }
}

void KinetoBuilder::addCpuRange(const Complete &c, std::string_view category)
{
    // A CPU scope has nothing but its External id besides its name and
    // times: that is its payload, with no record to store.
    Report &r = m_report;
    auto [it, added] = m_domainIds.try_emplace(category, StringId(m_domainIds.size() + 1));
    Track &t = m_tracks.host(TrackKind::CpuOp, c.pid, c.tid, it->second);
    if (t.domainName == StringTable::kEmpty)
        t.domainName = r.strings.intern(category);
    t.slices.append(c.start, c.end, c.name, c.externalId);
}

void KinetoBuilder::addApiCall(const Complete &c, int eventClass)
{
    ApiCallRecord a;
    a.correlationId = c.correlation;
    a.externalId = c.externalId;
    a.eventClass = eventClass;
    m_tracks.host(TrackKind::CudaApi, c.pid, c.tid).slices.append(c.start, c.end, c.name, std::uint32_t(m_report.apiCalls.size()));
    m_report.apiCalls.push_back(a);
    ++m_apiCallsByPid[c.pid];
}

void KinetoBuilder::addKernel(const Complete &c, const KinetoEvent &e)
{
    Report &r = m_report;
    KernelRecord k;
    k.shortName = c.name;
    k.correlationId = c.correlation;
    k.externalId = c.externalId;
    KernelConfig config;
    config.gridX = saturate<std::uint32_t>(e.grid[0]), config.gridY = saturate<std::uint32_t>(e.grid[1]),
    config.gridZ = saturate<std::uint32_t>(e.grid[2]);
    config.blockX = saturate<std::uint32_t>(e.block[0]), config.blockY = saturate<std::uint32_t>(e.block[1]),
    config.blockZ = saturate<std::uint32_t>(e.block[2]);
    config.registersPerThread = saturate<std::uint32_t>(e.registers);
    config.staticSharedMemory = saturate<std::uint32_t>(e.sharedMemory); // Kineto reports static + dynamic together
    k.config = m_configs.intern(config);
    if (!e.collectiveName.empty() || e.inNelems != kNone) {
        k.collective = std::uint32_t(r.collectives.size());
        r.collectives.push_back(collectiveOf(e));
    }
    m_tracks.gpu(TrackKind::Kernel, c.pid, c.device, c.stream, 0).slices.append(c.start, c.end, c.name, std::uint32_t(r.kernels.size()));
    r.kernels.push_back(k);
}

CollectiveRecord KinetoBuilder::collectiveOf(const KinetoEvent &e)
{
    StringTable &strings = m_report.strings;
    CollectiveRecord c;
    c.name = strings.intern(e.collectiveName);
    c.dtype = strings.intern(e.dtype);
    const int size = dtypeSize(e.dtype);
    c.inNelems = e.inNelems == kNone ? -1 : e.inNelems;
    c.outNelems = e.outNelems == kNone ? -1 : e.outNelems;
    c.inBytes = size && c.inNelems >= 0 ? c.inNelems * size : -1;
    c.outBytes = size && c.outNelems >= 0 ? c.outNelems * size : -1;
    c.groupSize = e.groupSize == kNone ? 0 : int(e.groupSize);
    c.processGroupName = strings.intern(e.processGroupName);
    c.processGroupRanks = strings.intern(e.processGroupRanks);
    c.sequence = e.seq == kNone ? -1 : e.seq;
    if (e.rank != kNone)
        c.commRank = int(e.rank);
    // A send names its destination, a receive its source: the peer.
    const std::int64_t peer = e.p2pDst != kNone ? e.p2pDst : e.p2pSrc;
    if (peer != kNone && peer != e.rank)
        c.peers = strings.intern(std::to_string(peer));
    return c;
}

void KinetoBuilder::addMemcpy(const Complete &c, const KinetoEvent &e)
{
    Report &r = m_report;
    MemcpyRecord m;
    parseMemcpyName(e.name, m);
    m.bytes = e.bytes == kNone ? 0 : std::uint64_t(std::max<std::int64_t>(e.bytes, 0));
    m.correlationId = c.correlation;
    m.externalId = c.externalId;
    StringId &nsysName = m_memcpyNames[int(m.copyKind)]; // nsys' names, so statistics read alike
    if (nsysName == StringTable::kEmpty)
        nsysName = r.strings.intern(QStringLiteral("[CUDA memcpy %1]").arg(builtinMemcpyKindLabel(int(m.copyKind))).toStdString());
    m_tracks.gpu(TrackKind::Memcpy, c.pid, c.device, c.stream, 0).slices.append(c.start, c.end, nsysName, std::uint32_t(r.memcpys.size()));
    r.memcpys.push_back(m);
}

void KinetoBuilder::addMemset(const Complete &c, const KinetoEvent &e)
{
    Report &r = m_report;
    MemsetRecord m;
    m.bytes = e.bytes == kNone ? 0 : std::uint64_t(std::max<std::int64_t>(e.bytes, 0));
    m.correlationId = c.correlation;
    m.externalId = c.externalId;
    const auto open = e.name.find('('), close = e.name.rfind(')');
    if (open != std::string_view::npos && close != std::string_view::npos && open < close)
        m.memKind = memoryKindNamed(e.name.substr(open + 1, close - open - 1));
    m_tracks.gpu(TrackKind::Memset, c.pid, c.device, c.stream, 0)
        .slices.append(c.start, c.end, r.strings.intern("[CUDA memset]"), std::uint32_t(r.memsets.size()));
    r.memsets.push_back(m);
}

void KinetoBuilder::addGpuAnnotation(const Complete &c)
{
    // The GPU-side span of a record_function scope: a projection the
    // profiler made itself.
    Report &r = m_report;
    NvtxRecord n;
    n.externalId = c.externalId;
    NvtxProjectionRecord p;
    p.nvtxRow = std::uint32_t(r.nvtx.size());
    p.cpuDuration = c.end - c.start;
    r.nvtx.push_back(n);
    m_tracks.gpu(TrackKind::NvtxGpuProjection, c.pid, c.device, 0, 0).slices.append(c.start, c.end, c.name, std::uint32_t(r.nvtxProjections.size()));
    r.nvtxProjections.push_back(p);
}

void KinetoBuilder::addSync(const Complete &c, const KinetoEvent &e)
{
    SyncRecord s;
    s.correlationId = c.correlation;
    s.kind = syncKindNamed(e.name);
    if (s.kind == SyncKind::StreamWaitEvent) {
        if (e.waitOnStream >= 0 && e.waitOnStream <= std::numeric_limits<std::int32_t>::max())
            s.awaitedStream = std::int32_t(e.waitOnStream);
        if (e.waitOnRecordCorrelation > 0)
            s.recordCorrelationId = saturate<std::uint32_t>(e.waitOnRecordCorrelation);
    }
    m_tracks.gpu(TrackKind::Sync, c.pid, c.device, c.stream, 0).slices.append(c.start, c.end, c.name, std::uint32_t(m_report.syncs.size()));
    m_report.syncs.push_back(s);
}

void KinetoBuilder::addMetadata(const KinetoEvent &e)
{
    if (e.pid == kNone || e.argName.empty())
        return;
    const QString value = QString::fromUtf8(e.argName.data(), qsizetype(e.argName.size()));
    if (e.name == "process_name")
        m_processNames[std::uint32_t(e.pid)] = value;
    else if (e.name == "thread_name" && e.tid != kNone)
        m_threadNames[{std::uint32_t(e.pid), threadIdOf(e.tid)}] = value;
}

CounterTrack &KinetoBuilder::counter(const QString &name, std::uint32_t pid, int device, const QString &unit)
{
    auto [it, added] = m_counterIndex.try_emplace({name, pid, device}, m_report.counters.size());
    if (added) {
        CounterTrack c;
        c.name = name;
        c.unit = unit;
        c.pid = pid;
        c.deviceId = device;
        m_report.counters.push_back(std::move(c));
    }
    return m_report.counters[it->second];
}

void KinetoBuilder::addInstant(const KinetoEvent &e)
{
    // [memory] instants carry the allocator's running totals.
    if (e.name != "[memory]" || e.tsNs == kNone || e.totalAllocated == kNone || e.pid == kNone)
        return;
    if (!isKinetoTime(e.tsNs)) {
        ++m_outOfRange;
        return;
    }
    noteTime(e.tsNs);
    const bool gpu = e.deviceType == 1;
    const int device = gpu ? int(e.deviceId == kNone ? 0 : e.deviceId) : -1;
    CounterTrack &c = counter(gpu ? QStringLiteral("Memory allocated (GPU %1)").arg(device) : QStringLiteral("Memory allocated (CPU)"),
                              std::uint32_t(e.pid), device, QStringLiteral("B"));
    c.time.push_back(e.tsNs);
    c.value.push_back(double(e.totalAllocated));
}

void KinetoBuilder::addCounter(const KinetoEvent &e)
{
    if (e.tsNs == kNone || e.pid == kNone)
        return;
    if (!isKinetoTime(e.tsNs)) {
        ++m_outOfRange;
        return;
    }
    noteTime(e.tsNs);
    for (const auto &[key, value] : e.counterValues) {
        CounterTrack &c = counter(QString::fromUtf8(e.name.data(), qsizetype(e.name.size())) + QStringLiteral(": ")
                                      + QString::fromUtf8(key.data(), qsizetype(key.size())),
                                  std::uint32_t(e.pid), -1, QString());
        c.time.push_back(e.tsNs);
        c.value.push_back(value);
    }
}

void KinetoBuilder::addFlowPoint(const KinetoEvent &e)
{
    if (e.cat != "fwdbwd" || e.id == kNone || e.pid == kNone || e.tsNs == kNone || !isKinetoTime(e.tsNs))
        return;
    auto &flow = m_flows[e.id];
    FlowPoint &point = e.ph == 's' ? flow.first.from : flow.first.to;
    point = {std::uint32_t(e.pid), threadIdOf(e.tid), e.tsNs};
    flow.second |= e.ph == 's' ? 1 : 2;
}

void KinetoBuilder::finish(const kineto::TraceHeader &header)
{
    Report &r = m_report;
    ReportMetadata &meta = r.meta;
    meta.format = QStringLiteral("PyTorch profiler (Kineto) JSON");
    for (const auto &[category, count] : m_categoryCounts)
        meta.sourceEventCounts[QString::fromStdString(category)] = count;
    meta.source = TraceSource::Kineto;
    meta.microsecondTimestamps = true;
    if (header.rank)
        meta.declaredRank = header.rank;
    meta.worldSize = header.worldSize;
    meta.distributedBackend = QString::fromStdString(header.backend);
    for (const kineto::ProcessGroup &pg : header.processGroups)
        meta.processGroups.push_back(
            {QString::fromStdString(pg.name), QString::fromStdString(pg.description), pg.size, QString::fromStdString(pg.ranks)});
    for (const kineto::DeviceProperties &d : header.devices)
        r.gpus.push_back({d.id, QString::fromStdString(d.name), d.numSms, d.totalGlobalMem, d.computeMajor, d.computeMinor, {}, {}});

    // GPU rows belong to the process that launched their work: the one that
    // made the CUDA calls (Kineto writes the device index as their pid).
    std::uint32_t launcher = 0;
    std::size_t most = 0;
    for (const auto &[pid, calls] : m_apiCallsByPid)
        if (calls > most) {
            most = calls;
            launcher = pid;
        }
    for (Track &t : r.tracks)
        if (isGpuTrack(t.kind) || t.kind == TrackKind::NvtxGpuProjection)
            t.pid = launcher;

    // Report time starts at the first event (rounded down to a whole µs so
    // HTA's µs rounding stays exact); the absolute start keeps the rest.
    TimeNs origin = m_minTime == kTimeMax ? 0 : m_minTime;
    origin = (origin >= 0 ? origin : origin - 999) / 1000 * 1000;
    meta.rawTimeOrigin = origin;
    const TimeNs base = header.baseTimeNanoseconds.value_or(0);
    if (base == 0) {
        meta.utcStartNs = std::max<TimeNs>(origin, 0); // absolute µs, as the 2020 form writes them
    } else if (isUtcTime(base)) {
        meta.utcStartNs = std::max<TimeNs>(base + origin, 0); // |origin| <= 2^61: no overflow
    } else {
        r.diagnostics.push_back({Diagnostic::Severity::Warning, std::nullopt,
                                 QStringLiteral("baseTimeNanoseconds %1 is not a time since 1970 (0 to 2^62 ns); the file is not aligned "
                                                "with the others by its start")
                                     .arg(base)});
    }
    for (Track &t : r.tracks)
        t.slices.shift(-origin);
    for (auto &[id, flow] : m_flows)
        if (flow.second == 3) { // both ends seen
            flow.first.from.time -= origin;
            flow.first.to.time -= origin;
            r.flows.push_back(flow.first);
        }
    for (CounterTrack &c : r.counters) // made final with the report (finishReport)
        for (TimeNs &t : c.time)
            t -= origin;

    std::set<std::uint32_t> pids;
    for (const Track &t : r.tracks)
        if (!isGpuTrack(t.kind) && t.kind != TrackKind::NvtxGpuProjection) {
            pids.insert(t.pid);
            const auto name = m_threadNames.find({t.pid, t.tid});
            if (std::none_of(r.threads.begin(), r.threads.end(), [&](const ThreadInfo &th) { return th.pid == t.pid && th.tid == t.tid; }))
                r.threads.push_back({t.tid, t.pid, name != m_threadNames.end() ? name->second : QString()});
        }
    pids.insert(std::uint32_t(launcher));
    for (std::uint32_t pid : pids)
        r.processes.push_back({pid, m_processNames.count(pid) ? m_processNames[pid] : QString()});

    if (m_skipped)
        r.diagnostics.push_back(
            {Diagnostic::Severity::Warning, std::nullopt, QStringLiteral("%1 events without ts, dur or pid were skipped").arg(m_skipped)});
    if (m_outOfRange)
        r.diagnostics.push_back({Diagnostic::Severity::Warning, std::nullopt,
                                 QStringLiteral("%1 events with a negative or out-of-range ts or dur were skipped").arg(m_outOfRange)});
    if (m_badDuration)
        r.diagnostics.push_back(
            {Diagnostic::Severity::Warning, std::nullopt, QStringLiteral("%1 events had a negative duration; shown as instants").arg(m_badDuration)});
    if (header.bareArray)
        r.diagnostics.push_back({Diagnostic::Severity::Info, std::nullopt, QStringLiteral("old trace format: a bare event array without metadata")});
}

// The smallest event the builder takes becomes about 92 bytes of model
// (docs/performance.md): every event needs at least this much.
constexpr std::uint64_t kKinetoModelBytesPerEventAtLeast = 80;

// Refuses a text whose model outgrows the memory there was when its load
// began, as the events arrive: the text is read as it is parsed (a gzip's
// size says nothing of how many events it holds: a 42 MB .gz of tiny
// events inflated to 1.06 GB and built 3.3 GB more), so there is no count
// to check before.
class RunningMemoryCheck {
public:
    explicit RunningMemoryCheck(const LoadControl &control) : m_available(availableMemoryFor(control)) { }
    // False once the events so far need more than there is.
    bool add()
    {
        ++m_events;
        if ((m_events & 0xffff) != 0 || m_available == 0)
            return true;
        m_refused = m_refused || m_events * kKinetoModelBytesPerEventAtLeast > m_available;
        return !m_refused;
    }
    bool refused() const { return m_refused; }
    QString message() const
    {
        return QStringLiteral("needs more than %1 of memory to load (more than %2 events, and its JSON text goes on); %3 is available")
            .arg(formatBinarySize(m_events * kKinetoModelBytesPerEventAtLeast), formatInteger(std::int64_t(m_events)), formatBinarySize(m_available));
    }

private:
    std::uint64_t m_available = 0;
    std::uint64_t m_events = 0;
    bool m_refused = false;
};

} // namespace

LoadResult KinetoLoader::load(const QString &path, const LoadControl &control)
{
    QElapsedTimer timer;
    timer.start();
    // The text is read as it is parsed, a few parts of it in flight
    // (kineto::parseTrace); only a small document is held whole, and only
    // that much is needed before reading.
    const std::uint64_t fileBytes = contentBytesAtLeast(path);
    const std::uint64_t textAtOnce = std::min<std::uint64_t>(fileBytes, 2 * kineto::kDefaultPartBytes);
    if (const QString shortfall = memoryShortfall({textAtOnce, 0}, control); !shortfall.isEmpty())
        return LoadResult::failure(shortfall);
    TextSource source(path);
    if (source.failed())
        return LoadResult::failure(source.error());
    control.report(0.05);
    auto report = std::make_shared<Report>();
    report->filePath = path;
    KinetoBuilder builder(*report);
    kineto::TraceHeader header;
    RunningMemoryCheck memory(control);
    const auto parseError = kineto::parseTrace(
        source, header,
        [&](const KinetoEvent &e) {
            if (memory.add())
                builder.add(e);
        },
        [&] { return memory.refused() || control.isCancelled(); }, kineto::kDefaultPartBytes,
        [&](std::size_t documentEnd) {
            // The parse is most of the load: its share of the bar by the text
            // handed on (for gzip, whose text size is unknown, by the
            // compressed bytes read, a few parts ahead).
            const double done = source.isGzip() || textAtOnce == 0 ? source.fractionRead() : std::min(1.0, double(documentEnd) / double(fileBytes));
            control.report(0.05 + 0.75 * done);
        });
    if (memory.refused())
        return LoadResult::failure(memory.message());
    if (control.isCancelled() || (parseError && parseError->cancelled))
        return {nullptr, QStringLiteral("cancelled"), true};
    if (parseError && parseError->readFailure)
        return LoadResult::failure(parseError->message);
    if (parseError)
        return LoadResult::failure(QStringLiteral("%1 (at byte %2 of the JSON text)").arg(parseError->message).arg(parseError->byteOffset));
    control.report(0.8);
    builder.finish(header);
    ReportFinish finish;
    finish.projectionRecorded = true; // the GPU-side annotations are Kineto's own projection
    finishReport(*report, finish);
    if (report->eventCount() == 0)
        report->diagnostics.push_back({Diagnostic::Severity::Warning, std::nullopt, QStringLiteral("the trace holds no events")});
    report->loadSeconds = double(timer.nsecsElapsed()) / 1e9;
    control.report(1.0);
    return {report, {}, false};
}

} // namespace rankscope
