#include "nsysdomains.h"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace tracegen {

bool Domains::parse(const std::string &list)
{
    std::stringstream in(list);
    for (std::string domain; std::getline(in, domain, ',');) {
        if (domain == "cudnn" || domain == "cublas")
            cudnnCublas = true;
        else if (domain == "openacc")
            openAcc = true;
        else if (domain == "openmp")
            openMp = true;
        else if (domain == "um")
            unifiedMemory = true;
        else if (domain == "graphs")
            graphs = true;
        else if (domain == "nic")
            nic = true;
        else if (!domain.empty())
            return false;
    }
    return true;
}

namespace {

bool run(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

int addString(sqlite3 *db, const char *text, int &nextStringId)
{
    sqlite3_stmt *str = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO StringIds VALUES(?,?)", -1, &str, nullptr);
    sqlite3_bind_int(str, 1, nextStringId);
    sqlite3_bind_text(str, 2, text, -1, SQLITE_STATIC);
    sqlite3_step(str);
    sqlite3_finalize(str);
    return nextStringId++;
}

std::int64_t globalPidOf(std::int64_t globalTid)
{
    return globalTid & ~std::int64_t(0xFFFFFF);
}

} // namespace

bool writeLibraryCalls(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId)
{
    // The columns of nsys 2022's export (pipit's saxpy export has both tables, empty).
    if (!run(db, "CREATE TABLE CUDNN_EVENTS(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,"
                 " nameId INTEGER NOT NULL);"
                 "CREATE TABLE CUBLAS_EVENTS(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,"
                 " nameId INTEGER NOT NULL);"))
        return false;
    static const char *const kCudnn[] = {"cudnnConvolutionForward", "cudnnBatchNormalizationForwardTraining"};
    static const char *const kCublas[] = {"cublasGemmEx", "cublasSgemm_v2"};
    int cudnnIds[2], cublasIds[2];
    for (int i = 0; i < 2; ++i) {
        cudnnIds[i] = addString(db, kCudnn[i], nextStringId);
        cublasIds[i] = addString(db, kCublas[i], nextStringId);
    }
    sqlite3_stmt *cudnn = nullptr, *cublas = nullptr;
    // eventClass: an ENUM_NSYS_EVENT_CLASS id Rankscope does not read; these two are placeholders.
    sqlite3_prepare_v2(db, "INSERT INTO CUDNN_EVENTS VALUES(?,?,55,?,?)", -1, &cudnn, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUBLAS_EVENTS VALUES(?,?,56,?,?)", -1, &cublas, nullptr);
    for (const ApiCall &c : calls) {
        sqlite3_stmt *s = c.correlation % 3 == 0 ? cudnn : c.correlation % 5 == 0 ? cublas : nullptr;
        if (!s)
            continue;
        const int *ids = s == cudnn ? cudnnIds : cublasIds;
        sqlite3_bind_int64(s, 1, c.start - 400);
        sqlite3_bind_int64(s, 2, c.end + 300);
        sqlite3_bind_int64(s, 3, c.globalTid);
        sqlite3_bind_int64(s, 4, ids[(c.correlation / 15) % 2]);
        sqlite3_step(s);
        sqlite3_reset(s);
    }
    sqlite3_finalize(cudnn);
    sqlite3_finalize(cublas);
    return true;
}

bool writeOpenAcc(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId)
{
    // The columns of nsys 2022's export (pipit's saxpy export has the three
    // tables, empty): the common ones, then each table's own.
    const char *common = "start INTEGER NOT NULL, end INTEGER NOT NULL, nameId INTEGER NOT NULL, globalTid INTEGER, eventKind INTEGER NOT NULL,"
                         " DeviceType INTEGER NOT NULL, lineNo INTEGER NOT NULL, cuDeviceId INTEGER NOT NULL, cuContextId INTEGER NOT NULL,"
                         " cuStreamId INTEGER NOT NULL, srcFile INTEGER, funcName INTEGER";
    const std::string schema = std::string("CREATE TABLE CUPTI_ACTIVITY_KIND_OPENACC_DATA(") + common + ", bytes INTEGER, varName INTEGER);"
                               + "CREATE TABLE CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH(" + common
                               + ", numGangs INTEGER, numWorkers INTEGER, vectorLength INTEGER, kernelName INTEGER);"
                               + "CREATE TABLE CUPTI_ACTIVITY_KIND_OPENACC_OTHER(" + common + ");";
    if (!run(db, schema.c_str()))
        return false;
    const int launchName = addString(db, "acc_enqueue_launch", nextStringId);
    const int uploadName = addString(db, "acc_enqueue_upload", nextStringId);
    const int waitName = addString(db, "acc_wait", nextStringId);
    const int file = addString(db, "saxpy.c", nextStringId);
    const int function = addString(db, "saxpy", nextStringId);
    const int variable = addString(db, "x", nextStringId);
    sqlite3_stmt *launch = nullptr, *data = nullptr, *other = nullptr;
    // eventKind: CUpti_OpenAccEventKind's enqueue launch (10), enqueue upload (11), wait (14); DeviceType 4: acc_device_nvidia.
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH VALUES(?,?,?,?,10,4,?,0,1,7,?,?,256,1,128,NULL)", -1, &launch, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_OPENACC_DATA VALUES(?,?,?,?,11,4,?,0,1,7,?,?,4096,?)", -1, &data, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_OPENACC_OTHER VALUES(?,?,?,?,14,4,?,0,1,7,NULL,NULL)", -1, &other, nullptr);
    for (const ApiCall &c : calls) {
        sqlite3_stmt *s = c.correlation % 7 == 0 ? launch : c.correlation % 11 == 0 ? data : c.correlation % 13 == 0 ? other : nullptr;
        if (!s)
            continue;
        sqlite3_bind_int64(s, 1, c.start - 200);
        sqlite3_bind_int64(s, 2, c.end + 100);
        sqlite3_bind_int64(s, 3, s == launch ? launchName : s == data ? uploadName : waitName);
        sqlite3_bind_int64(s, 4, c.globalTid);
        sqlite3_bind_int64(s, 5, s == launch ? 40 + (c.correlation / 7) % 3 : s == data ? 30 : 0);
        if (s != other) {
            sqlite3_bind_int64(s, 6, file);
            sqlite3_bind_int64(s, 7, function);
        }
        if (s == data)
            sqlite3_bind_int64(s, 8, variable);
        sqlite3_step(s);
        sqlite3_reset(s);
    }
    for (sqlite3_stmt *s : {launch, data, other})
        sqlite3_finalize(s);
    return true;
}

bool writeOpenMp(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId)
{
    // Two of nsys' per-kind tables, with the columns of nsys 2022's export.
    if (!run(db, "CREATE TABLE OPENMP_EVENT_KIND_PARALLEL(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,"
                 " globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, eventKind INTEGER, parallelId INTEGER, parentTaskId INTEGER);"
                 "CREATE TABLE OPENMP_EVENT_KIND_SYNC_REGION_WAIT(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,"
                 " globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, eventKind INTEGER, parallelId INTEGER, taskId INTEGER,"
                 " kind INTEGER);"))
        return false;
    const int parallelName = addString(db, "OpenMP Parallel", nextStringId);
    const int barrierName = addString(db, "OpenMP Barrier Wait", nextStringId);
    sqlite3_stmt *parallel = nullptr, *wait = nullptr;
    // eventClass and eventKind: placeholders (Rankscope reads neither).
    sqlite3_prepare_v2(db, "INSERT INTO OPENMP_EVENT_KIND_PARALLEL VALUES(?,?,78,?,NULL,?,1,?,0)", -1, &parallel, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO OPENMP_EVENT_KIND_SYNC_REGION_WAIT VALUES(?,?,78,?,NULL,?,11,?,0,1)", -1, &wait, nullptr);
    for (const ApiCall &c : calls) {
        if (c.correlation % 4 != 0)
            continue;
        for (const auto &[s, from, to, name] :
             {std::tuple{parallel, c.start - 1000, c.end + 1000, parallelName}, std::tuple{wait, c.end + 100, c.end + 900, barrierName}}) {
            sqlite3_bind_int64(s, 1, from);
            sqlite3_bind_int64(s, 2, to);
            sqlite3_bind_int64(s, 3, c.globalTid);
            sqlite3_bind_int64(s, 4, name);
            sqlite3_bind_int64(s, 5, c.correlation / 4);
            sqlite3_step(s);
            sqlite3_reset(s);
        }
    }
    sqlite3_finalize(parallel);
    sqlite3_finalize(wait);
    return true;
}

std::uint64_t unifiedMemoryPage(int correlation)
{
    return 0x7f0000000000ull + std::uint64_t(correlation % 8) * 0x200000ull;
}

bool writeUnifiedMemory(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId, bool withSource)
{
    // nsys 2024's columns (the schema reference), or nsys 2022's (pipit's saxpy export, empty).
    const std::string cpuTable = std::string("CREATE TABLE CUDA_UM_CPU_PAGE_FAULT_EVENTS(start INTEGER NOT NULL, globalPid INTEGER NOT NULL,"
                                             " address INTEGER NOT NULL, originalFaultPc INTEGER, CpuInstruction INTEGER NOT NULL,"
                                             " module INTEGER NOT NULL, unresolvedFaultPc INTEGER")
                                 + (withSource ? ", sourceFile INTEGER, sourceLine INTEGER);" : ");");
    if (!run(db, cpuTable.c_str())
        || !run(db, "CREATE TABLE CUDA_UM_GPU_PAGE_FAULT_EVENTS(start INTEGER NOT NULL, end INTEGER NOT NULL, globalPid INTEGER NOT NULL,"
                    " deviceId INTEGER NOT NULL, address INTEGER NOT NULL, numberOfPageFaults INTEGER NOT NULL, faultAccessType INTEGER NOT NULL);"
                    "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY ADD COLUMN virtualAddress INTEGER;"))
        return false;
    const int functions[] = {addString(db, "init_data", nextStringId), addString(db, "check_result", nextStringId)};
    const int module = addString(db, "saxpy", nextStringId);
    const int file = addString(db, "saxpy.cu", nextStringId);
    sqlite3_stmt *cpu = nullptr, *gpu = nullptr, *copy = nullptr;
    sqlite3_prepare_v2(db,
                       withSource ? "INSERT INTO CUDA_UM_CPU_PAGE_FAULT_EVENTS VALUES(?,?,?,4198400,?,?,0,?,?)"
                                  : "INSERT INTO CUDA_UM_CPU_PAGE_FAULT_EVENTS VALUES(?,?,?,4198400,?,?,0)",
                       -1, &cpu, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUDA_UM_GPU_PAGE_FAULT_EVENTS VALUES(?,?,?,0,?,?,?)", -1, &gpu, nullptr);
    // Managed memory (4) on both sides; a migration has no API call of its own.
    sqlite3_prepare_v2(db,
                       "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes,"
                       " copyKind, srcKind, dstKind, virtualAddress) VALUES(?,?,0,1,0,0,?,?,?,4,4,?)",
                       -1, &copy, nullptr);
    for (const ApiCall &c : calls) {
        if (c.correlation == 0) // a call without a correlation id touches no managed memory here
            continue;
        const auto page = std::int64_t(unifiedMemoryPage(c.correlation));
        const std::int64_t pid = globalPidOf(c.globalTid);
        if (c.correlation % 6 == 0) {
            const bool init = (c.correlation / 6) % 2 == 0;
            sqlite3_bind_int64(cpu, 1, c.start - 50);
            sqlite3_bind_int64(cpu, 2, pid);
            sqlite3_bind_int64(cpu, 3, page);
            sqlite3_bind_int64(cpu, 4, functions[init ? 0 : 1]);
            sqlite3_bind_int64(cpu, 5, module);
            if (withSource) {
                sqlite3_bind_int64(cpu, 6, file);
                sqlite3_bind_int64(cpu, 7, init ? 20 : 60);
            }
            sqlite3_step(cpu);
            sqlite3_reset(cpu);
        }
        if (c.correlation % 9 == 0) {
            sqlite3_bind_int64(gpu, 1, c.end + 100);
            sqlite3_bind_int64(gpu, 2, c.end + 2100);
            sqlite3_bind_int64(gpu, 3, pid);
            sqlite3_bind_int64(gpu, 4, page);
            sqlite3_bind_int64(gpu, 5, 1 + c.correlation % 5);
            sqlite3_bind_int64(gpu, 6, 1 + c.correlation % 2);
            sqlite3_step(gpu);
            sqlite3_reset(gpu);
        }
        for (const auto &[planted, kind, bytes, duration] :
             {std::tuple{c.correlation % 10 == 0, 11, std::int64_t(65536), 5000},
              std::tuple{c.correlation % 15 == 0, 12, std::int64_t(4096) * (1 + c.correlation % 3), 3000}}) {
            if (!planted)
                continue;
            sqlite3_bind_int64(copy, 1, c.end + 200);
            sqlite3_bind_int64(copy, 2, c.end + 200 + duration);
            sqlite3_bind_int64(copy, 3, pid);
            sqlite3_bind_int64(copy, 4, bytes);
            sqlite3_bind_int64(copy, 5, kind);
            sqlite3_bind_int64(copy, 6, page);
            sqlite3_step(copy);
            sqlite3_reset(copy);
        }
    }
    for (sqlite3_stmt *s : {cpu, gpu, copy})
        sqlite3_finalize(s);
    return true;
}

bool writeGraphLaunches(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId)
{
    // nsys 2024.3's columns.
    if (!run(db, "CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,"
                 " contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
                 " graphId INTEGER NOT NULL, graphExecId INTEGER NOT NULL);"))
        return false;
    const int launchName = addString(db, "cudaGraphLaunch_v10000", nextStringId);
    sqlite3_stmt *launch = nullptr, *graph = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(?,?,0,?,?,?,0)", -1, &launch, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES(?,?,0,1,NULL,13,?,?,?,?)", -1, &graph, nullptr);
    for (const ApiCall &c : calls) {
        if (c.correlation == 0 || c.correlation % 8 != 0) // a call without a correlation id launches nothing
            continue;
        const int correlation = 50'000'000 + c.correlation;
        const int graphId = 1 + (c.correlation / 8) % 2;
        sqlite3_bind_int64(launch, 1, c.start);
        sqlite3_bind_int64(launch, 2, c.end);
        sqlite3_bind_int64(launch, 3, c.globalTid);
        sqlite3_bind_int64(launch, 4, correlation);
        sqlite3_bind_int64(launch, 5, launchName);
        sqlite3_step(launch);
        sqlite3_reset(launch);
        sqlite3_bind_int64(graph, 1, c.end + 1000);
        sqlite3_bind_int64(graph, 2, c.end + 31000);
        sqlite3_bind_int64(graph, 3, correlation);
        sqlite3_bind_int64(graph, 4, globalPidOf(c.globalTid));
        sqlite3_bind_int64(graph, 5, graphId);
        sqlite3_bind_int64(graph, 6, 100 + graphId);
        sqlite3_step(graph);
        sqlite3_reset(graph);
    }
    sqlite3_finalize(launch);
    sqlite3_finalize(graph);
    return true;
}

bool writeNicMetrics(sqlite3 *db, const std::vector<ApiCall> &calls)
{
    // The columns of the schema reference (nsys 2024+); what `value` holds
    // per sample is not confirmed by a real file (docs/trace-formats.md).
    if (calls.empty()
        || !run(db, "CREATE TABLE NET_NIC_METRIC(start INTEGER NOT NULL, end INTEGER NOT NULL, globalId INTEGER NOT NULL, portId INTEGER NOT NULL,"
                    " metricsListId INTEGER NOT NULL, metricsIdx INTEGER NOT NULL, value INTEGER NOT NULL);"
                    "CREATE TABLE TARGET_INFO_NETWORK_METRICS(metricsListId INTEGER NOT NULL, metricsIdx INTEGER NOT NULL, name TEXT NOT NULL,"
                    " description TEXT NOT NULL, unit TEXT NOT NULL);"
                    "CREATE TABLE NIC_ID_MAP(nicId INTEGER NOT NULL, globalId INTEGER NOT NULL);"
                    "CREATE TABLE TARGET_INFO_NIC_INFO(GUID INTEGER NOT NULL, stateName TEXT NOT NULL, nicId INTEGER NOT NULL, name TEXT NOT NULL,"
                    " deviceId INTEGER NOT NULL, vendorId INTEGER NOT NULL, linkLayer INTEGER NOT NULL);"
                    "INSERT INTO TARGET_INFO_NETWORK_METRICS VALUES(0,0,'Bytes received','Bytes received by the port','bytes'),"
                    "(0,1,'Packets received','Packets received by the port','packets'),(0,2,'Bytes sent','Bytes sent by the port','bytes'),"
                    "(0,3,'Packets sent','Packets sent by the port','packets');"
                    "INSERT INTO NIC_ID_MAP VALUES(0,72057594037927936);"
                    "INSERT INTO TARGET_INFO_NIC_INFO VALUES(1311768467463790320,'Active',0,'mlx5_0',4123,5555,1);"))
        return false;
    std::int64_t from = calls.front().start, to = calls.front().end;
    for (const ApiCall &c : calls)
        from = std::min(from, c.start), to = std::max(to, c.end);
    constexpr std::int64_t kInterval = 1'000'000;
    sqlite3_stmt *sample = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO NET_NIC_METRIC VALUES(?,?,72057594037927936,1,0,?,?)", -1, &sample, nullptr);
    for (std::int64_t k = 0, t = from; t < to; ++k, t += kInterval) {
        const std::int64_t received = (k % 10 + 1) * 1'000'000, sent = received / 2;
        const std::int64_t values[] = {received, received / 4096, sent, sent / 4096};
        for (int metric = 0; metric < 4; ++metric) {
            sqlite3_bind_int64(sample, 1, t);
            sqlite3_bind_int64(sample, 2, t + kInterval);
            sqlite3_bind_int64(sample, 3, metric);
            sqlite3_bind_int64(sample, 4, values[metric]);
            sqlite3_step(sample);
            sqlite3_reset(sample);
        }
    }
    sqlite3_finalize(sample);
    return true;
}

} // namespace tracegen
