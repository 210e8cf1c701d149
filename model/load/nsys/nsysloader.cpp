#include "load/nsys/nsysloader.h"

#include "core/narrowing.h"

#include "load/memorycheck.h"
#include "load/nsys/nsysreaders.h"
#include "load/reportfinish.h"
#include "load/workerpool.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <set>

namespace rankscope {

namespace {

// Tables of which at least one marks a file as an nsys export.
constexpr const char *kNsysMarkerTables[] = {"META_DATA_EXPORT",
                                             "EXPORT_META_DATA",
                                             "StringIds",
                                             "CUPTI_ACTIVITY_KIND_KERNEL",
                                             "CUPTI_ACTIVITY_KIND_RUNTIME",
                                             "NVTX_EVENTS",
                                             "OSRT_API",
                                             "TARGET_INFO_SESSION_START_TIME"};

void readMetadata(NsysLoadContext &ctx)
{
    ReportMetadata &meta = ctx.report.meta;
    meta.format = QStringLiteral("Nsight Systems SQLite export");
    // Older exports call the table EXPORT_META_DATA.
    for (const char *table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!ctx.db.hasTable(table))
            continue;
        QString major, minor, micro;
        ctx.forEachRow(table, ctx.db.selectColumns(table, {"name", "value"}), [&](const SqliteStatement &row) {
            const std::string_view name = row.text(0);
            const QString value = row.qtext(1);
            if (name == "EXPORT_PRODUCT_VERSION")
                meta.productVersion = value;
            else if (name == "EXPORT_SCHEMA_VERSION")
                meta.schemaVersion = value;
            else if (name == "EXPORT_SCHEMA_VERSION_MAJOR")
                major = value;
            else if (name == "EXPORT_SCHEMA_VERSION_MINOR")
                minor = value;
            else if (name == "EXPORT_SCHEMA_VERSION_MICRO")
                micro = value;
        });
        if (meta.schemaVersion.isEmpty() && !major.isEmpty())
            meta.schemaVersion = QStringList{major, minor, micro}.join(QLatin1Char('.'));
        break;
    }
    if (ctx.db.hasTable("TARGET_INFO_SESSION_START_TIME"))
        ctx.forEachRow("TARGET_INFO_SESSION_START_TIME", ctx.db.selectColumns("TARGET_INFO_SESSION_START_TIME", {"utcEpochNs"}),
                       [&](const SqliteStatement &row) {
                           const TimeNs utc = row.int64(0);
                           if (isUtcTime(utc))
                               meta.utcStartNs = utc;
                           else
                               ctx.note(Diagnostic::Severity::Warning,
                                        QStringLiteral("TARGET_INFO_SESSION_START_TIME.utcEpochNs %1 is not a time since 1970 (0 to 2^62 ns); "
                                                       "the export is not aligned with the others by its start")
                                            .arg(utc));
                       });
    if (ctx.db.hasTable("ANALYSIS_DETAILS"))
        ctx.forEachRow("ANALYSIS_DETAILS", ctx.db.selectColumns("ANALYSIS_DETAILS", {"startTime", "stopTime"}), [&](const SqliteStatement &row) {
            meta.analysisRange = {row.int64(0), row.int64(1)};
        });
    if (ctx.db.hasTable("TARGET_INFO_SYSTEM_ENV")) {
        // The launch environment tells the rank of a process started by
        // torchrun, mpirun or srun.
        static const QRegularExpression rankVar(QStringLiteral("(?:^|;)(?:RANK|OMPI_COMM_WORLD_RANK|PMI_RANK|PMIX_RANK|SLURM_PROCID)=(\\d+)(?:;|$)"));
        ctx.forEachRow("TARGET_INFO_SYSTEM_ENV", ctx.db.selectColumns("TARGET_INFO_SYSTEM_ENV", {"name", "value"}), [&](const SqliteStatement &row) {
            if (row.text(0) == "Hostname")
                meta.hostName = row.qtext(1);
            else if (row.text(0) == "DeviceEnvironment") {
                const auto match = rankVar.match(row.qtext(1));
                if (match.hasMatch())
                    meta.environmentRank = match.captured(1).toInt();
            }
        });
    }
    if (ctx.db.hasTable("MPI_RANKS"))
        ctx.forEachRow("MPI_RANKS", ctx.db.selectColumns("MPI_RANKS", {"globalTid", "rank"}),
                       [&](const SqliteStatement &row) { meta.mpiRankByPid[pidOfGlobalId(row.int64(0))] = int(row.int64(1)); });
}

void readEnumLabels(NsysLoadContext &ctx, const char *table, std::vector<QString> &labels)
{
    if (!ctx.db.hasTable(table))
        return; // built-in names serve
    ctx.forEachRow(table, ctx.db.selectColumns(table, {"id", "label"}), [&](const SqliteStatement &row) {
        const std::int64_t id = row.int64(0, -1);
        if (id < 0 || id > 255 || row.isNull(1))
            return;
        if (labels.size() <= std::size_t(id))
            labels.resize(std::size_t(id) + 1);
        labels[std::size_t(id)] = row.qtext(1);
    });
}

void readProcessesAndThreads(NsysLoadContext &ctx)
{
    Report &r = ctx.report;
    std::map<std::uint32_t, QString> processNames;
    if (ctx.db.hasTable("PROCESSES"))
        ctx.forEachRow("PROCESSES", ctx.db.selectColumns("PROCESSES", {"globalPid", "pid", "name"}), [&](const SqliteStatement &row) {
            const std::uint32_t pid = row.isNull(1) ? pidOfGlobalId(row.int64(0)) : std::uint32_t(row.int64(1));
            processNames[pid] = row.qtext(2);
        });
    std::map<std::pair<std::uint32_t, std::uint32_t>, QString> threadNames;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::int32_t> threadPriorities;
    if (ctx.db.hasTable("ThreadNames"))
        ctx.forEachRow("ThreadNames", ctx.db.selectColumns("ThreadNames", {"globalTid", "nameId", "priority"}), [&](const SqliteStatement &row) {
            const std::int64_t g = row.int64(0);
            threadNames[{pidOfGlobalId(g), tidOfGlobalId(g)}] = ctx.report.strings.string(ctx.mapString(row.int64(1)));
            if (!row.isNull(2))
                threadPriorities[{pidOfGlobalId(g), tidOfGlobalId(g)}] = saturate<std::int32_t>(row.int64(2));
        });
    // Every thread and process that owns a track is listed, named or not.
    std::set<std::pair<std::uint32_t, std::uint32_t>> threadIds;
    std::set<std::uint32_t> pids;
    for (const auto &[pid, name] : processNames)
        pids.insert(pid);
    for (const auto &[key, name] : threadNames)
        threadIds.insert(key), pids.insert(key.first);
    for (const Track &t : r.tracks) {
        pids.insert(t.pid);
        if (!isGpuTrack(t.kind) && t.kind != TrackKind::UmCpuPageFault) // faults are the process's
            threadIds.insert({t.pid, t.tid});
    }
    for (const auto &[pid, tid] : threadIds) {
        const auto it = threadNames.find({pid, tid});
        const auto priority = threadPriorities.find({pid, tid});
        r.threads.push_back({tid, pid, it != threadNames.end() ? it->second : QString(),
                             priority != threadPriorities.end() ? priority->second : ThreadInfo::kNoPriority});
    }
    for (std::uint32_t pid : pids) {
        QString name = processNames.count(pid) ? processNames[pid] : QString();
        if (name.isEmpty() && threadNames.count({pid, pid}))
            name = threadNames[{pid, pid}]; // the main thread names the process
        r.processes.push_back({pid, name});
    }
}

void readGpus(NsysLoadContext &ctx)
{
    Report &r = ctx.report;
    // TARGET_INFO_GPU (key `id`) since 2021.4; TARGET_INFO_CUDA_GPU (key
    // `deviceId`) before.
    if (ctx.db.hasTable("TARGET_INFO_GPU")) {
        const std::string sql =
            ctx.db.selectColumns("TARGET_INFO_GPU", {"id", "name", "smCount", "totalMemory", "computeMajor", "computeMinor", "busLocation", "uuid"});
        ctx.forEachRow("TARGET_INFO_GPU", sql, [&](const SqliteStatement &row) {
            r.gpus.push_back(
                {int(row.int64(0)), row.qtext(1), int(row.int64(2)), row.int64(3), int(row.int64(4)), int(row.int64(5)), row.qtext(6), row.qtext(7)});
        });
    } else if (ctx.db.hasTable("TARGET_INFO_CUDA_GPU")) {
        const std::string sql = ctx.db.selectColumns(
            "TARGET_INFO_CUDA_GPU", {"deviceId", "name", "smCount", "totalMemory", "computeMajor", "computeMinor", "busLocation", "uuid"});
        ctx.forEachRow("TARGET_INFO_CUDA_GPU", sql, [&](const SqliteStatement &row) {
            r.gpus.push_back(
                {int(row.int64(0)), row.qtext(1), int(row.int64(2)), row.int64(3), int(row.int64(4)), int(row.int64(5)), row.qtext(6), row.qtext(7)});
        });
    }
    // Devices that did work but are not described still get a row.
    const bool describesGpus = ctx.db.hasTable("TARGET_INFO_GPU") || ctx.db.hasTable("TARGET_INFO_CUDA_GPU");
    std::set<int> seen;
    for (const Track &t : r.tracks)
        if (isGpuTrack(t.kind))
            seen.insert(t.deviceId);
    for (int device : seen)
        if (!r.gpu(device)) {
            if (describesGpus)
                ctx.note(Diagnostic::Severity::Warning,
                         QStringLiteral("GPU %1 ran work but is not described in the export (no TARGET_INFO_GPU row)").arg(device));
            GpuInfo g;
            g.id = device;
            g.name = QStringLiteral("GPU %1").arg(device);
            r.gpus.push_back(g);
        }
    std::sort(r.gpus.begin(), r.gpus.end(), [](const GpuInfo &a, const GpuInfo &b) { return a.id < b.id; });
}

// What the model of this export needs at least: its event rows times the
// model's smallest size per event. A crafted rowid cannot claim more rows
// than the file's bytes could hold.
MemoryNeed modelNeed(SqliteDatabase &db, qint64 fileBytes)
{
    static constexpr const char *kEventTables[] = {"NVTX_EVENTS",
                                                   "CUPTI_ACTIVITY_KIND_KERNEL",
                                                   "CUPTI_ACTIVITY_KIND_MEMCPY",
                                                   "CUPTI_ACTIVITY_KIND_MEMSET",
                                                   "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                                                   "CUPTI_ACTIVITY_KIND_RUNTIME",
                                                   "OSRT_API",
                                                   "CUDA_GPU_MEMORY_USAGE_EVENTS",
                                                   "GPU_METRICS",
                                                   "COMPOSITE_EVENTS"};
    std::uint64_t rows = 0;
    for (const char *table : kEventTables)
        rows += std::uint64_t(db.maxRowid(table));
    rows = std::min(rows, NsysLoadContext::rowsFileCanHold(fileBytes));
    return {rows * kModelBytesPerEventAtLeast, rows};
}
} // namespace

bool NsysSqliteLoader::canLoad(const QString &path)
{
    return looksLikeSqliteFile(path);
}

LoadResult NsysSqliteLoader::load(const QString &path, const LoadControl &control)
{
    QElapsedTimer timer;
    timer.start();
    SqliteDatabase db;
    QString error;
    if (!db.open(path, &error, control.cancel))
        return LoadResult::failure(error);
    if (std::none_of(std::begin(kNsysMarkerTables), std::end(kNsysMarkerTables), [&](const char *t) { return db.hasTable(t); }))
        return LoadResult::failure(QStringLiteral("SQLite database, but not an Nsight Systems export (none of its tables)"));

    if (const QString shortfall = memoryShortfall(modelNeed(db, QFileInfo(path).size()), control); !shortfall.isEmpty())
        return LoadResult::failure(shortfall);

    auto report = std::make_shared<Report>();
    report->filePath = path;
    for (const std::string &view : db.views())
        report->diagnostics.push_back(
            {Diagnostic::Severity::Warning, std::nullopt,
             QStringLiteral("%1 is a view, not a table: not read (an nsys export has no views)").arg(QString::fromStdString(view))});
    for (const auto &[table, why] : db.refusedTables())
        report->diagnostics.push_back(
            {Diagnostic::Severity::Warning, std::nullopt, QStringLiteral("table %1 not read: %2").arg(QString::fromStdString(table).left(100), why)});
    NsysLoadContext ctx(db, *report, control);
    ctx.filePath = path;
    using Step = void (*)(NsysLoadContext &);
    auto run = [&](NsysLoadContext &c, std::initializer_list<Step> steps) {
        for (Step step : steps) {
            step(c);
            if (control.isCancelled() || !c.fatalError.isEmpty())
                return false;
        }
        return true;
    };
    auto stopped = [&](const NsysLoadContext &c) -> std::optional<LoadResult> {
        if (control.isCancelled())
            return LoadResult{nullptr, QStringLiteral("cancelled"), true};
        if (const QString overBudget = c.db.budgetError(); !overBudget.isEmpty())
            return LoadResult::failure(overBudget);
        if (!c.fatalError.isEmpty())
            return LoadResult::failure(c.fatalError);
        return std::nullopt;
    };

    // 1. What every table needs: metadata, enum labels, StringIds.
    run(ctx, {readMetadata,
              [](NsysLoadContext &c) {
                  readEnumLabels(c, "ENUM_CUDA_MEMCPY_OPER", c.report.memcpyKindLabels);
                  readEnumLabels(c, "ENUM_CUDA_MEM_KIND", c.report.memoryKindLabels);
              },
              [](NsysLoadContext &c) { c.readStringIds(); }});
    if (auto s = stopped(ctx))
        return *s;
    control.report(0.2);

    // 2. The tables, on two connections at once. The CUDA API and OS runtime
    // readers only look names up (they add no strings), so they can fill a
    // report of their own beside the main one and be merged after.
    Report hostCalls;
    SqliteDatabase secondDb;
    QString secondError;
    const bool parallel = loadThreadPool()->maxThreadCount() > 1 && secondDb.open(path, &secondError, control.cancel);
    NsysLoadContext hostCtx(parallel ? secondDb : db, hostCalls, control);
    hostCtx.filePath = path;
    hostCtx.shareStringsFrom(ctx);
    // Progress by the rows read of the tables that hold the events (a 94 MB
    // export spends nearly all of its load here).
    std::uint64_t eventRows = 0;
    for (const char *table : {"CUPTI_ACTIVITY_KIND_RUNTIME",
                              "OSRT_API",
                              "NVTX_EVENTS",
                              "CUPTI_ACTIVITY_KIND_KERNEL",
                              "CUPTI_ACTIVITY_KIND_MEMCPY",
                              "CUPTI_ACTIVITY_KIND_MEMSET",
                              "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                              "CUDA_GPU_MEMORY_USAGE_EVENTS",
                              "GPU_METRICS",
                              "COMPOSITE_EVENTS",
                              "SAMPLING_CALLCHAINS",
                              "MPI_P2P_EVENTS",
                              "MPI_COLLECTIVES_EVENTS",
                              "MPI_START_WAIT_EVENTS",
                              "MPI_OTHER_EVENTS",
                              "CUDNN_EVENTS",
                              "CUBLAS_EVENTS",
                              "CUPTI_ACTIVITY_KIND_OPENACC_DATA",
                              "CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH",
                              "CUPTI_ACTIVITY_KIND_OPENACC_OTHER",
                              "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
                              "CUDA_UM_CPU_PAGE_FAULT_EVENTS",
                              "CUDA_UM_GPU_PAGE_FAULT_EVENTS",
                              "NET_NIC_METRIC"})
        if (db.hasTable(table))
            eventRows += ctx.rowsAtMost(table);
    TableProgress tableProgress(control, eventRows, 0.2, 0.8);
    ctx.tableProgress = &tableProgress;
    hostCtx.tableProgress = &tableProgress;
    // CPU samples and callchains too: they only look names up.
    const std::initializer_list<Step> hostSteps{nsys::readCudaApi, nsys::readOsRuntime, nsys::readCudaLibraries, nsys::readCpuSampling};
    const std::initializer_list<Step> mainSteps{nsys::readNvtx,
                                                nsys::readKernels,
                                                nsys::readMemcpys,
                                                nsys::readMemsets,
                                                nsys::readSyncs,
                                                nsys::readMemoryUsage,
                                                nsys::readGpuMetrics,
                                                nsys::readDiagnosticEvents,
                                                nsys::readMpi,
                                                nsys::readOpenAcc,
                                                nsys::readOpenMp,
                                                nsys::readGraphLaunches,
                                                nsys::readUnifiedMemoryFaults,
                                                nsys::readNicMetrics};
    if (parallel) // on the load pool, or one after the other here when it is busy
        parallelFor(2, [&](std::size_t i) { i == 0 ? run(hostCtx, hostSteps) : run(ctx, mainSteps); });
    else
        run(hostCtx, hostSteps) && run(ctx, mainSteps);
    if (auto s = stopped(hostCtx))
        return *s;
    if (auto s = stopped(ctx))
        return *s;
    ctx.tableProgress = nullptr;
    hostCtx.tableProgress = nullptr;
    hostCtx.flushOddities();
    // hostCalls' API rows are the only ones: its payload indices stay valid.
    report->apiCalls = std::move(hostCalls.apiCalls);
    report->sampling = std::move(hostCalls.sampling);
    std::move(hostCalls.tracks.begin(), hostCalls.tracks.end(), std::back_inserter(report->tracks));
    std::move(hostCalls.diagnostics.begin(), hostCalls.diagnostics.end(), std::back_inserter(report->diagnostics));
    control.report(0.8);

    // 3. What needs every track: processes, threads, GPUs.
    run(ctx, {readProcessesAndThreads, readGpus});
    if (auto s = stopped(ctx))
        return *s;
    ctx.flushOddities();
    if (report->eventCount() == 0 && report->counters.empty())
        ctx.note(Diagnostic::Severity::Warning, QStringLiteral("the export holds no events"));
    ReportFinish finish;
    // Only NCCL's calls name new strings once the tracks are final.
    finish.namesStringsLater = !ctx.ncclCalls.empty();
    finish.onSortedTracks = [&](Report &r) { nsys::attachBacktraces(r, hostCtx.apiCallchainIds, hostCtx.cudaCallchains, hostCtx.osrtCallchains); };
    finish.beforeCommunication = [&](Report &r) { attachNcclCalls(r, std::move(ctx.ncclCalls)); };
    finishReport(*report, finish);
    report->loadSeconds = double(timer.nsecsElapsed()) / 1e9;
    control.report(1.0);
    return {report, {}, false};
}

} // namespace rankscope
