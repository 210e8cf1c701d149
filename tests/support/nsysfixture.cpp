#include "nsysfixture.h"

#include <QFile>
#include <QTest>
#include <sqlite3.h>

namespace rankscope::test {

bool writableCopy(const QString &from, const QString &to)
{
    return QFile::copy(from, to) && QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
}

NsysFixture::NsysFixture(const QString &path) : m_path(path)
{
    if (sqlite3_open(path.toUtf8().constData(), &m_db) != SQLITE_OK)
        QTest::qFail("cannot create fixture", __FILE__, __LINE__);
}

NsysFixture::~NsysFixture()
{
    close();
}

void NsysFixture::close()
{
    if (m_db)
        sqlite3_close(m_db);
    m_db = nullptr;
}

void NsysFixture::exec(const QString &sql)
{
    char *error = nullptr;
    if (sqlite3_exec(m_db, sql.toUtf8().constData(), nullptr, nullptr, &error) != SQLITE_OK) {
        const QByteArray message = QByteArray("fixture SQL failed: ") + error + " in: " + sql.left(200).toUtf8();
        sqlite3_free(error);
        QTest::qFail(message.constData(), __FILE__, __LINE__);
    }
}

void NsysFixture::addMetadata(const QString &table, const QString &product, const QString &schema)
{
    exec(QStringLiteral("CREATE TABLE IF NOT EXISTS %1(name TEXT, value TEXT);").arg(table));
    exec(QStringLiteral("INSERT INTO %1 VALUES('EXPORT_PRODUCT_VERSION','%2');").arg(table, product));
    const QStringList parts = schema.split(QLatin1Char('.'));
    exec(QStringLiteral("INSERT INTO %1 VALUES('EXPORT_SCHEMA_VERSION_MAJOR','%2'),('EXPORT_SCHEMA_VERSION_MINOR','%3'),"
                        "('EXPORT_SCHEMA_VERSION_MICRO','%4');")
             .arg(table, parts.value(0), parts.value(1), parts.value(2)));
}

void NsysFixture::addString(int id, const QString &value)
{
    QString escaped = value;
    escaped.replace(QLatin1String("'"), QLatin1String("''"));
    exec(QStringLiteral("INSERT INTO StringIds VALUES(%1,'%2');").arg(id).arg(escaped));
}

void NsysFixture::createSchema2022()
{
    // Only split version keys, as some old exports wrote them.
    addMetadata(QStringLiteral("EXPORT_META_DATA"), QStringLiteral("2022.1.1.61"), QStringLiteral("2.9.0"));
    exec(
        QStringLiteral("CREATE TABLE StringIds(id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
                       "CREATE TABLE ENUM_CUDA_KRENEL_LAUNCH_TYPE(id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
                       "INSERT INTO ENUM_CUDA_KRENEL_LAUNCH_TYPE VALUES(0,'CUDA_KERNEL_LAUNCH_TYPE_REGULAR','Regular');"
                       "CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER NOT NULL, utcTime TEXT NOT NULL, localTime TEXT NOT NULL);"
                       "CREATE TABLE TARGET_INFO_CUDA_GPU(deviceId INTEGER NOT NULL, name TEXT NOT NULL, busLocation TEXT NOT NULL, "
                       "  totalMemory INTEGER NOT NULL, smCount INTEGER NOT NULL, computeMajor INTEGER NOT NULL, computeMinor INTEGER NOT NULL);"
                       "CREATE TABLE ThreadNames(nameId INTEGER NOT NULL, priority INTEGER NOT NULL, globalTid INTEGER NOT NULL);"
                       "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                       "  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER NOT NULL, globalPid INTEGER NOT NULL, "
                       "  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, launchType INTEGER NOT NULL, cacheConfig INTEGER NOT NULL, "
                       "  registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, "
                       "  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, "
                       "  dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, "
                       "  gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER NOT NULL);"
                       "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                       "  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER NOT NULL, globalPid INTEGER NOT NULL, "
                       "  bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER NOT NULL, srcKind INTEGER NOT NULL, "
                       "  dstKind INTEGER NOT NULL, srcDeviceId INTEGER NOT NULL, srcContextId INTEGER NOT NULL, dstDeviceId INTEGER NOT NULL, "
                       "  dstContextId INTEGER NOT NULL, migrationCause INTEGER NOT NULL);"
                       "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                       "  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER NOT NULL, globalPid INTEGER NOT NULL, "
                       "  syncType INTEGER NOT NULL, eventId INTEGER NOT NULL);"
                       "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, "
                       "  globalTid INTEGER NOT NULL, correlationId INTEGER NOT NULL, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);"
                       "CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER NOT NULL, eventType INTEGER NOT NULL, rangeId INTEGER NOT NULL, "
                       "  category INTEGER NOT NULL, color INTEGER NOT NULL, text TEXT, globalTid INTEGER NOT NULL, endGlobalTid INTEGER NOT NULL, "
                       "  textId INTEGER NOT NULL, domainId INTEGER NOT NULL, uint64Value INTEGER NOT NULL, int64Value INTEGER NOT NULL, "
                       "  doubleValue REAL NOT NULL, uint32Value INTEGER NOT NULL, int32Value INTEGER NOT NULL, floatValue REAL NOT NULL);"
                       "CREATE TABLE OSRT_API(start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER NOT NULL, nameId INTEGER NOT NULL, "
                       "  returnValue INTEGER NOT NULL, nestingLevel INTEGER NOT NULL, callchainId INTEGER NOT NULL);"));
}

void NsysFixture::createSchema2025()
{
    addMetadata(QStringLiteral("META_DATA_EXPORT"), QStringLiteral("2025.3.2.0"), QStringLiteral("3.20.3"));
    exec(QStringLiteral("INSERT INTO META_DATA_EXPORT VALUES('EXPORT_SCHEMA_VERSION','3.20.3');"));
    exec(QStringLiteral(
        "CREATE TABLE StringIds(id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE ENUM_CUDA_MEMCPY_OPER(id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
        "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES(1,'CUDA_MEMCPY_KIND_HTOD','Host-to-Device'),(2,'CUDA_MEMCPY_KIND_DTOH','Device-to-Host'),"
        "  (8,'CUDA_MEMCPY_KIND_DTOD','Device-to-Device'),(10,'CUDA_MEMCPY_KIND_PTOP','Peer-to-Peer');"
        "CREATE TABLE ENUM_CUDA_MEM_KIND(id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
        "INSERT INTO ENUM_CUDA_MEM_KIND VALUES(0,'P','Pageable'),(1,'PI','Pinned'),(2,'D','Device');"
        "CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);"
        "CREATE TABLE TARGET_INFO_GPU(vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT, totalMemory INTEGER, "
        "  smCount INTEGER, computeMajor INTEGER, computeMinor INTEGER, uuid TEXT);"
        "CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);"
        "CREATE TABLE ThreadNames(nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
        "  contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
        "  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, "
        "  registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, "
        "  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, "
        "  dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, "
        "  gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
        "  contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
        "  bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, "
        "  srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, "
        "  graphNodeId INTEGER, virtualAddress INTEGER, copyCount INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
        "  contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
        "  value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, "
        "  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);"
        "CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, "
        "  color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, "
        "  int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, "
        "  jsonText TEXT, binaryData TEXT);"
        "CREATE TABLE OSRT_API(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, "
        "  nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, nestingLevel INTEGER, callchainId INTEGER NOT NULL);"));
}

void NsysFixture::createSchema2026()
{
    addMetadata(QStringLiteral("META_DATA_EXPORT"), QStringLiteral("2026.4.1.0"), QStringLiteral("3.28.1"));
    exec(QStringLiteral("INSERT INTO META_DATA_EXPORT VALUES('EXPORT_SCHEMA_VERSION','3.28.1');"));
    exec(
        QStringLiteral("CREATE TABLE StringIds(id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
                       "CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER, utcTime TEXT, localTime TEXT, systemClockNs INTEGER, "
                       "  sessionStartCntVctNs INTEGER);"
                       "CREATE TABLE TARGET_INFO_GPU(vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER, smCount INTEGER);"
                       "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                       "  contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
                       "  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER, "
                       "  registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, "
                       "  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, "
                       "  dynamicSharedMemory INTEGER NOT NULL, graphNodeId INTEGER, graphId INTEGER, clusterX INTEGER, clusterY INTEGER, "
                       "  clusterZ INTEGER, clusterSchedulingPolicy INTEGER, tensorSizeMinusOneElements INTEGER);"
                       "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                       "  contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
                       "  deprecatedSyncType INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL, eventSyncId INTEGER);"
                       "CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, "
                       "  color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, "
                       "  int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, "
                       "  jsonText TEXT, binaryData TEXT, eventId INTEGER PRIMARY KEY);"));
}

void NsysFixture::fillWithCalls(int calls)
{
    createSchema2025();
    addString(1, QStringLiteral("cudaLaunchKernel"));
    addString(2, QStringLiteral("read"));
    addString(3, QStringLiteral("sgemm_kernel"));
    const std::int64_t tid = globalId(1000, 1000);
    exec(QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %1)"
                        " INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(start, end, eventClass, globalTid, correlationId, nameId, returnValue)"
                        " SELECT i * 100, i * 100 + 40, 1, %2, i, 1, 0 FROM n;")
             .arg(calls)
             .arg(tid));
    exec(QStringLiteral("INSERT INTO OSRT_API(start, end, eventClass, globalTid, nameId, returnValue, callchainId)"
                        " SELECT start + 50, start + 90, 27, globalTid, 2, 0, 0 FROM CUPTI_ACTIVITY_KIND_RUNTIME;"));
    exec(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start, end, deviceId, contextId, streamId, correlationId, globalPid,"
                        " demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ,"
                        " staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId)"
                        " SELECT start + 60, start + 95, 0, 1, 7, correlationId, %1, 3, 3, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, correlationId"
                        " FROM CUPTI_ACTIVITY_KIND_RUNTIME;")
             .arg(globalId(1000)));
}

} // namespace rankscope::test
