#include "nsysdomains.h"

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

} // namespace tracegen
