#include "stats/nsys/apirules.h"
#include "stats/reportcatalog.h"

#include "core/asciitext.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_map>

namespace rankscope::stats {

namespace {

// SQLite's LIKE is case-insensitive for ASCII: 'cudaMemcpy%Async%' also
// matches "cudaMemcpy2DAsync_v3020" and "cudamemcpyasync".
bool startsWith(const std::string &s, std::string_view prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

// The API names each rule joins on, as nsys' `sid` CTEs select them.
bool isAsyncMemcpyApi(const std::string &n) // 'cudaMemcpy%Async%'
{
    return startsWith(n, "cudamemcpy") && n.find("async", 10) != std::string::npos;
}
bool isSyncMemcpyApi(const std::string &n) // 'cudaMemcpy%' AND NOT '%async%'
{
    return startsWith(n, "cudamemcpy") && n.find("async") == std::string::npos;
}
bool isSyncMemsetApi(const std::string &n) // 'cudaMemset%' AND NOT '%async%'
{
    return startsWith(n, "cudamemset") && n.find("async") == std::string::npos;
}
bool isSyncApi(const std::string &n) // 'cudaDeviceSynchronize%' OR 'cudaStreamSynchronize%'
{
    return startsWith(n, "cudadevicesynchronize") || startsWith(n, "cudastreamsynchronize");
}

using NameFilter = bool (*)(const std::string &);

// Calls each CUDA API call whose name passes the filter (as the rule's
// `sid` CTE selects names; decided once per name) with its track and index.
template <class OnCall>
void forEachApiCallNamed(const Report &r, NameFilter filter, OnCall &&onCall)
{
    std::unordered_map<StringId, bool> passes;
    for (const Track &track : r.tracks) {
        if (track.kind != TrackKind::CudaApi)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const StringId name = track.slices.name(i);
            auto [it, added] = passes.try_emplace(name, false);
            if (added)
                it->second = filter(asciiLowered(r.strings.view(name)));
            if (it->second)
                onCall(track, i);
        }
    }
}

// Correlation id -> the names of the runtime calls with it that pass the
// filter (across processes, as nsys' join).
std::unordered_multimap<std::uint32_t, StringId> apiCallsByCorrelation(const Report &r, NameFilter filter)
{
    std::unordered_multimap<std::uint32_t, StringId> calls;
    forEachApiCallNamed(r, filter, [&](const Track &track, std::size_t i) { calls.emplace(r.correlationIdOf(track, i), track.slices.name(i)); });
    return calls;
}

constexpr double kMB = 1e6;

// Longest first; ties by start, then as found.
void orderAndLimit(ResultTable &t, int rowLimit)
{
    t.sortRows([&t](std::size_t a, std::size_t b) {
        if (t.integerAt(a, 0) != t.integerAt(b, 0))
            return t.integerAt(a, 0) > t.integerAt(b, 0);
        return t.integerAt(a, 1) < t.integerAt(b, 1);
    });
    if (rowLimit >= 0)
        t.truncateRows(std::size_t(rowLimit));
}

const QStringList &copyHeaders()
{
    static const QStringList headers{QStringLiteral("Duration (ns)"), QStringLiteral("Start (ns)"), QStringLiteral("Src Kind"),
                                     QStringLiteral("Dst Kind"),      QStringLiteral("Bytes (MB)"), QStringLiteral("PID"),
                                     QStringLiteral("Device ID"),     QStringLiteral("Context ID"), QStringLiteral("Green Context ID"),
                                     QStringLiteral("Stream ID"),     QStringLiteral("API Name")};
    return headers;
}

// One row per (copy, joined call). Green contexts are not read: their
// column stays empty, as nsys prints it for copies outside one.
ResultTable copyRule(const QString &reportName, const Report &r, NameFilter api, bool pageableOnly, int rowLimit)
{
    ResultTable t = declaredTable(reportName);
    t.headers = copyHeaders();
    const auto calls = apiCallsByCorrelation(r, api);
    for (const Track &track : r.tracks) {
        if (track.kind != TrackKind::Memcpy)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const MemcpyRecord &m = r.memcpys[track.slices.payload(i)];
            if (pageableOnly && !m.isPageable())
                continue;
            const auto [first, last] = calls.equal_range(m.correlationId);
            for (auto it = first; it != last; ++it)
                t.addRow({Cell::ofInteger(track.slices.duration(i)), Cell::ofInteger(track.slices.start(i)),
                          Cell::ofText(r.memoryKindLabel(int(m.srcKind))), Cell::ofText(r.memoryKindLabel(int(m.dstKind))),
                          Cell::ofDecimal(double(m.bytes) / kMB, 3), Cell::ofInteger(track.pid), Cell::ofInteger(track.deviceId),
                          Cell::ofInteger(track.contextId), Cell{}, Cell::ofInteger(track.streamId), Cell::ofText(r.strings.string(it->second))});
        }
    }
    orderAndLimit(t, rowLimit);
    return t;
}

} // namespace

ResultTable cudaMemcpyAsyncRule(const Report &r, int rowLimit)
{
    return copyRule(QStringLiteral("cuda_memcpy_async"), r, isAsyncMemcpyApi, true, rowLimit);
}

ResultTable cudaMemcpySyncRule(const Report &r, int rowLimit)
{
    return copyRule(QStringLiteral("cuda_memcpy_sync"), r, isSyncMemcpyApi, false, rowLimit);
}

ResultTable cudaMemsetSyncRule(const Report &r, int rowLimit)
{
    ResultTable t = declaredTable(QStringLiteral("cuda_memset_sync"));
    t.headers =
        QStringList{QStringLiteral("Duration (ns)"), QStringLiteral("Start (ns)"), QStringLiteral("Memory Kind"), QStringLiteral("Bytes (MB)"),
                    QStringLiteral("PID"),           QStringLiteral("Device ID"),  QStringLiteral("Context ID"),  QStringLiteral("Green Context ID"),
                    QStringLiteral("Stream ID"),     QStringLiteral("API Name")};
    const auto calls = apiCallsByCorrelation(r, isSyncMemsetApi);
    for (const Track &track : r.tracks) {
        if (track.kind != TrackKind::Memset)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const MemsetRecord &m = r.memsets[track.slices.payload(i)];
            if (m.memKind != MemoryKind::Pinned && m.memKind != MemoryKind::Managed) // memKind 1 or 4
                continue;
            const auto [first, last] = calls.equal_range(m.correlationId);
            for (auto it = first; it != last; ++it)
                t.addRow({Cell::ofInteger(track.slices.duration(i)), Cell::ofInteger(track.slices.start(i)),
                          Cell::ofText(r.memoryKindLabel(int(m.memKind))), Cell::ofDecimal(double(m.bytes) / kMB, 3), Cell::ofInteger(track.pid),
                          Cell::ofInteger(track.deviceId), Cell::ofInteger(track.contextId), Cell{}, Cell::ofInteger(track.streamId),
                          Cell::ofText(r.strings.string(it->second))});
        }
    }
    orderAndLimit(t, rowLimit);
    return t;
}

ResultTable cudaApiSyncRule(const Report &r, int rowLimit)
{
    ResultTable t = declaredTable(QStringLiteral("cuda_api_sync"));
    t.headers = QStringList{QStringLiteral("Duration (ns)"), QStringLiteral("Start (ns)"), QStringLiteral("PID"), QStringLiteral("TID"),
                            QStringLiteral("API Name")};
    forEachApiCallNamed(r, isSyncApi, [&](const Track &track, std::size_t i) {
        t.addRow({Cell::ofInteger(track.slices.duration(i)), Cell::ofInteger(track.slices.start(i)), Cell::ofInteger(track.pid),
                  Cell::ofInteger(track.tid), Cell::ofText(r.strings.string(track.slices.name(i)))});
    });
    orderAndLimit(t, rowLimit);
    return t;
}

} // namespace rankscope::stats
