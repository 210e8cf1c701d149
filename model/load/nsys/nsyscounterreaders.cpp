#include "load/nsys/nsysreaders.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace rankscope::nsys {

void readMemoryUsage(NsysLoadContext &ctx)
{
    static const char *table = "CUDA_GPU_MEMORY_USAGE_EVENTS";
    if (!ctx.db.hasTable(table))
        return;
    // Rows are allocations and frees; the viewer shows the running total of
    // bytes in use per process and device, so they are taken in time order:
    // sorted here (stable: equal times keep the table's order), not by an
    // ORDER BY, as every table is read with a bare scan.
    const std::string sql = ctx.db.selectColumns(table, {"start", "globalPid", "deviceId", "bytes", "memoryOperationType"});
    struct Change {
        TimeNs time;
        std::size_t counter;
        double bytes; // negative for a free
    };
    std::vector<Change> changes;
    ctx.reserveFor(changes, table);
    std::map<std::pair<std::uint32_t, int>, std::size_t> counterOf;
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const std::uint32_t pid = pidOfGlobalId(row.int64(1));
        const int device = int(row.int64(2));
        auto [it, added] = counterOf.try_emplace({pid, device}, ctx.report.counters.size());
        if (added) {
            CounterTrack c;
            c.name = QStringLiteral("CUDA memory in use (GPU %1)").arg(device);
            c.unit = QStringLiteral("B");
            c.pid = pid;
            c.deviceId = device;
            ctx.report.counters.push_back(std::move(c));
        }
        const double bytes = double(std::max<std::int64_t>(row.int64(3), 0));
        const bool isFree = row.int64(4) == 1; // ENUM_CUDA_DEV_MEM_EVENT_OPER: 0 alloc, 1 free
        changes.push_back({row.int64(0), it->second, isFree ? -bytes : bytes});
    });
    std::stable_sort(changes.begin(), changes.end(), [](const Change &a, const Change &b) { return a.time < b.time; });
    std::vector<double> totals(ctx.report.counters.size(), 0.0);
    for (const Change &change : changes) {
        double &total = totals[change.counter];
        total = std::max(0.0, total + change.bytes);
        CounterTrack &c = ctx.report.counters[change.counter];
        c.time.push_back(change.time);
        c.value.push_back(total);
    }
}

namespace {

// The unit a metric's samples are stored in, from the "[...]" at the end of
// its name. Clock frequencies are named "[MHz]" but nsys writes them in Hz
// (2.01e9 for an H100's GPC clock); older exports that wrote MHz are told
// apart by size and scaled, so a frequency counter always holds Hz.
struct MetricUnit {
    QString unit;
    double scaleToUnit = 1.0; // applied to every sample
};

MetricUnit metricUnitOf(const QString &name, double largestSample)
{
    const qsizetype open = name.lastIndexOf(QLatin1Char('['));
    const QString bracket = open >= 0 && name.endsWith(QLatin1Char(']')) ? name.mid(open + 1, name.size() - open - 2) : QString();
    if (bracket.endsWith(QLatin1Char('%')))
        return {QStringLiteral("%"), 1.0};
    if (bracket.compare(QLatin1String("MHz"), Qt::CaseInsensitive) == 0)
        return {QStringLiteral("Hz"), largestSample >= 1e6 ? 1.0 : 1e6};
    if (bracket.compare(QLatin1String("bytes"), Qt::CaseInsensitive) == 0 || bracket == QLatin1String("B"))
        return {QStringLiteral("B"), 1.0};
    // "[Avg]", "[Max]", "[Avg Warps per Cycle]" say how the value was
    // taken, not its unit ("max 25.6 MAvg" read as mega-Avg): a unit is one
    // short word that is no such qualifier.
    static const QStringList qualifiers{QStringLiteral("Avg"),   QStringLiteral("Max"),   QStringLiteral("Min"), QStringLiteral("Sum"),
                                        QStringLiteral("Count"), QStringLiteral("Total"), QStringLiteral("Mean")};
    if (bracket.contains(QLatin1Char(' ')) || bracket.size() > 6 || qualifiers.contains(bracket, Qt::CaseInsensitive))
        return {QString(), 1.0};
    return {bracket, 1.0};
}

// Whether a metric's samples are a signed byte that wrapped past 127: all
// whole numbers from -128 to 127, some negative. No GPU count is negative
// (warps, instructions), so those are 128 to 255.
bool isWrappedSignedByte(const CounterTrack &c)
{
    bool negative = false;
    for (const double v : c.value) {
        if (v < -128.0 || v > 127.0 || v != std::floor(v))
            return false;
        negative = negative || v < 0;
    }
    return negative;
}

} // namespace

void readGpuMetrics(NsysLoadContext &ctx)
{
    if (!ctx.db.hasTable("GPU_METRICS"))
        return;
    // Metric ids are only unique together with typeId; gpu = typeId & 0xFF.
    std::map<std::pair<std::int64_t, std::int64_t>, QString> metricNames;
    if (ctx.db.hasTable("TARGET_INFO_GPU_METRICS")) {
        const std::string sql = ctx.db.selectColumns("TARGET_INFO_GPU_METRICS", {"typeId", "metricId", "metricName"});
        ctx.forEachRow("TARGET_INFO_GPU_METRICS", sql, [&](const SqliteStatement &row) { metricNames[{row.int64(0), row.int64(1)}] = row.qtext(2); });
    }
    // A GPU samples a few dozen metrics at 10 kHz, one row each: the
    // counter of a row is found by a linear search of the few keys seen,
    // starting after the previous row's (rows cycle through the metrics).
    struct MetricKey {
        std::int64_t typeId, metricId;
        std::size_t counter;
        // Most samples repeat the value in force (dropRepeatedValues()):
        // while a counter's rows come in time order, a repeat is dropped as
        // it is read, so the raw samples are never held. A row out of order
        // after a drop means the drops may have been wrong: that counter is
        // read again, whole; one before any drop stops the drops.
        TimeNs lastTime = kTimeMin;
        bool dropped = false, disordered = false, readAgain = false;
    };
    std::vector<MetricKey> keys;
    std::size_t previous = 0;
    const std::string sql = ctx.db.selectColumns("GPU_METRICS", {"timestamp", "typeId", "metricId", "value"});
    bool secondPass = false;
    const auto addSample = [&](MetricKey &key, TimeNs time, double value) {
        CounterTrack &c = ctx.report.counters[key.counter];
        if (secondPass) {
            if (key.readAgain) {
                c.time.push_back(time);
                c.value.push_back(value);
            }
            return;
        }
        if (key.readAgain)
            return;
        if (time < key.lastTime && key.dropped) {
            key.readAgain = true;
            c.time = {};
            c.value = {};
            return;
        }
        key.disordered = key.disordered || time < key.lastTime;
        key.lastTime = std::max(key.lastTime, time);
        if (!key.disordered && !c.value.empty() && c.value.back() == value) {
            key.dropped = true;
            return;
        }
        c.time.push_back(time);
        c.value.push_back(value);
    };
    const auto findKey = [&](std::int64_t typeId, std::int64_t metricId) {
        std::size_t found = keys.size();
        for (std::size_t n = 0; n < keys.size(); ++n) {
            const std::size_t k = (previous + 1 + n) % keys.size();
            if (keys[k].typeId == typeId && keys[k].metricId == metricId) {
                found = k;
                break;
            }
        }
        if (found == keys.size()) {
            CounterTrack c;
            const auto name = metricNames.find({typeId, metricId});
            c.deviceId = int(typeId & 0xFF);
            c.name = name != metricNames.end() ? name->second : QStringLiteral("metric %1").arg(metricId);
            keys.push_back({typeId, metricId, ctx.report.counters.size()});
            ctx.report.counters.push_back(std::move(c));
        }
        previous = found;
        return found;
    };
    const auto readRows = [&] {
        return ctx.forEachRow("GPU_METRICS", sql,
                              [&](const SqliteStatement &row) { addSample(keys[findKey(row.int64(1), row.int64(2))], row.int64(0), row.real(3)); });
    };
    if (!readRows())
        return;
    if (std::any_of(keys.begin(), keys.end(), [](const MetricKey &k) { return k.readAgain; })) {
        secondPass = true;
        if (!readRows())
            return;
    }
    // Samples are written per GPU in batches; keep each counter in time
    // order, without the samples that repeat the value in force, and in the
    // unit its name gives.
    for (const MetricKey &key : keys) {
        CounterTrack &c = ctx.report.counters[key.counter];
        c.sortByTime();
        c.dropRepeatedValues();
        const double largest = c.value.empty() ? 0.0 : *std::max_element(c.value.begin(), c.value.end());
        const MetricUnit unit = metricUnitOf(c.name, largest);
        c.unit = unit.unit;
        // Counts without a unit only: a percentage or a clock below 0 is no byte.
        if (unit.unit.isEmpty() && isWrappedSignedByte(c)) {
            for (double &v : c.value)
                if (v < 0)
                    v += 256.0;
            ctx.report.diagnostics.push_back({Diagnostic::Severity::Warning, std::nullopt,
                                              QStringLiteral("GPU metric \"%1\": the export holds its samples as a signed byte (-128 to 127, wrapped "
                                                             "past 127); read as 0 to 255.")
                                                  .arg(c.name)});
        }
        if (unit.scaleToUnit != 1.0)
            for (double &v : c.value)
                v *= unit.scaleToUnit;
    }
}

namespace {

// A NIC metric's unit per second: bytes as "B/s" (the viewer scales them to
// kB/s, MB/s, ...), anything else as its unit, or its name's last word,
// per second ("packets/s").
QString perSecond(const QString &unit, const QString &name)
{
    const QString u = unit.trimmed().toLower();
    if (u == QLatin1String("b") || u.startsWith(QLatin1String("byte")) || (u.isEmpty() && name.contains(QLatin1String("byte"), Qt::CaseInsensitive)))
        return QStringLiteral("B/s");
    if (!u.isEmpty())
        return unit.trimmed() + QStringLiteral("/s");
    if (name.contains(QLatin1String("packet"), Qt::CaseInsensitive))
        return QStringLiteral("packets/s");
    return QStringLiteral("/s");
}

} // namespace

void readNicMetrics(NsysLoadContext &ctx)
{
    static const char *table = "NET_NIC_METRIC";
    if (!ctx.isReadableEventTable(table))
        return;
    // What each (list, index) measures and in what unit; which NIC a
    // globalId is (NIC_ID_MAP, then TARGET_INFO_NIC_INFO's name).
    std::map<std::pair<std::int64_t, std::int64_t>, std::pair<QString, QString>> metrics;
    if (ctx.db.hasTable("TARGET_INFO_NETWORK_METRICS")) {
        const std::string sql = ctx.db.selectColumns("TARGET_INFO_NETWORK_METRICS", {"metricsListId", "metricsIdx", "name", "unit"});
        ctx.forEachRow("TARGET_INFO_NETWORK_METRICS", sql, [&](const SqliteStatement &row) {
            metrics[{row.int64(0), row.int64(1)}] = {row.qtext(2), row.qtext(3)};
        });
    }
    std::map<std::int64_t, std::int64_t> nicOfGlobalId;
    if (ctx.db.hasTable("NIC_ID_MAP"))
        ctx.forEachRow("NIC_ID_MAP", ctx.db.selectColumns("NIC_ID_MAP", {"nicId", "globalId"}),
                       [&](const SqliteStatement &row) { nicOfGlobalId[row.int64(1)] = row.int64(0); });
    std::map<std::int64_t, QString> nicNames;
    if (ctx.db.hasTable("TARGET_INFO_NIC_INFO"))
        ctx.forEachRow("TARGET_INFO_NIC_INFO", ctx.db.selectColumns("TARGET_INFO_NIC_INFO", {"nicId", "name"}),
                       [&](const SqliteStatement &row) { nicNames[row.int64(0)] = row.qtext(1); });
    const auto nicName = [&](std::int64_t globalId) {
        const auto nic = nicOfGlobalId.find(globalId);
        if (nic != nicOfGlobalId.end())
            if (const auto name = nicNames.find(nic->second); name != nicNames.end() && !name->second.isEmpty())
                return name->second;
        return nic != nicOfGlobalId.end() ? QStringLiteral("NIC %1").arg(nic->second)
                                          : QStringLiteral("NIC 0x%1").arg(std::uint64_t(globalId), 0, 16);
    };
    // A row is what the port counted over [start, end): shown as a rate over
    // that interval, falling to 0 where the next interval does not follow on.
    struct Sample {
        TimeNs start, end;
        double rate;
    };
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>, std::vector<Sample>> series; // (NIC, port, list, index)
    ctx.forEachRow(table, ctx.db.selectColumns(table, {"start", "end", "globalId", "portId", "metricsListId", "metricsIdx", "value"}),
                   [&](const SqliteStatement &row) {
                       const std::optional<TimeRange> span = ctx.checkedSpan(table, row, 0, 1);
                       if (!span || span->duration() <= 0)
                           return;
                       series[{row.int64(2), row.int64(3), row.int64(4), row.int64(5)}].push_back(
                           {span->start, span->end, row.real(6) * 1e9 / double(span->duration())});
                   });
    for (auto &[key, samples] : series) {
        const auto &[globalId, port, list, index] = key;
        const auto metric = metrics.find({list, index});
        const QString name = metric != metrics.end() ? metric->second.first : QStringLiteral("metric %1.%2").arg(list).arg(index);
        CounterTrack c;
        c.name = QStringLiteral("%1 port %2 · %3").arg(nicName(globalId)).arg(port).arg(name);
        c.unit = perSecond(metric != metrics.end() ? metric->second.second : QString(), name);
        std::stable_sort(samples.begin(), samples.end(), [](const Sample &a, const Sample &b) { return a.start < b.start; });
        for (std::size_t i = 0; i < samples.size(); ++i) {
            c.time.push_back(samples[i].start);
            c.value.push_back(samples[i].rate);
            if (i + 1 == samples.size() || samples[i + 1].start > samples[i].end) {
                c.time.push_back(samples[i].end);
                c.value.push_back(0.0);
            }
        }
        c.dropRepeatedValues();
        ctx.report.counters.push_back(std::move(c));
    }
}

void readDiagnosticEvents(NsysLoadContext &ctx)
{
    static const char *table = "DIAGNOSTIC_EVENT";
    if (!ctx.db.hasTable(table))
        return;
    std::map<std::int64_t, QString> severityNames;
    if (ctx.db.hasTable("ENUM_DIAGNOSTIC_SEVERITY_LEVEL"))
        ctx.forEachRow("ENUM_DIAGNOSTIC_SEVERITY_LEVEL", "SELECT id, name FROM ENUM_DIAGNOSTIC_SEVERITY_LEVEL",
                       [&](const SqliteStatement &row) { severityNames[row.int64(0)] = row.qtext(1); });
    // A rowid table's scan visits rows in rowid order: the order nsys wrote them.
    const std::string sql = ctx.db.selectColumns(table, {"timestamp", "severity", "text"});
    ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
        const QString severity = severityNames.count(row.int64(1)) ? severityNames[row.int64(1)].toUpper() : QString();
        Diagnostic d;
        d.severity = severity.contains(QLatin1String("ERROR"))  ? Diagnostic::Severity::Error
                     : severity.contains(QLatin1String("WARN")) ? Diagnostic::Severity::Warning
                                                                : Diagnostic::Severity::Info;
        if (!row.isNull(0))
            d.timestamp = row.int64(0);
        d.text = row.qtext(2);
        ctx.report.diagnostics.push_back(std::move(d));
    });
}

} // namespace rankscope::nsys
