#pragma once
// CUDA enumerations as Nsight Systems numbers them (ENUM_* tables of the
// export). Exports that lack the tables fall back to these built-in names.
#include <QString>
#include <cstdint>

namespace rankscope {

// ENUM_CUDA_MEMCPY_OPER
enum class MemcpyKind : std::uint8_t {
    Unknown = 0,
    HtoD = 1,
    DtoH = 2,
    HtoA = 3,
    AtoH = 4,
    AtoA = 5,
    AtoD = 6,
    DtoA = 7,
    DtoD = 8,
    HtoH = 9,
    PtoP = 10,
    UvmHtoD = 11,
    UvmDtoH = 12,
    UvmDtoD = 13,
};
constexpr int kMemcpyKindCount = int(MemcpyKind::UvmDtoD) + 1;

// ENUM_CUDA_MEM_KIND. Note: not CUPTI's numbering, where 0 is Unknown.
enum class MemoryKind : std::uint8_t {
    Pageable = 0,
    Pinned = 1,
    Device = 2,
    Array = 3,
    Managed = 4,
    DeviceStatic = 5,
    ManagedStatic = 6,
    Unknown = 7,
};
constexpr int kMemoryKindCount = int(MemoryKind::Unknown) + 1;

// ENUM_CUPTI_SYNC_TYPE
enum class SyncKind : std::uint8_t {
    Unknown = 0,
    EventSync = 1,
    StreamWaitEvent = 2,
    StreamSync = 3,
    ContextSync = 4,
};
constexpr int kSyncKindCount = int(SyncKind::ContextSync) + 1;

// ENUM_NSYS_EVENT_CLASS values that Rankscope tells apart.
namespace EventClass {
constexpr int CudaRuntime = 0;
constexpr int CudaDriver = 1;
constexpr int OsRuntime = 27;
constexpr int OsRuntimeStart = 31;  // marker rows, not calls
constexpr int OsRuntimeFinish = 32; // marker rows, not calls
constexpr int CudaBacktrace = 67;
} // namespace EventClass

// ENUM_NSYS_EVENT_TYPE values of NVTX_EVENTS.
namespace NvtxEventType {
constexpr int Category = 33;
constexpr int Mark = 34;
constexpr int Thread = 39;
constexpr int PushPopRange = 59;
constexpr int StartEndRange = 60;
constexpr int NvtxtPushPop = 70;
constexpr int NvtxtStartEnd = 71;
constexpr int DomainCreate = 75;
constexpr int DomainDestroy = 76;
} // namespace NvtxEventType

QString builtinMemcpyKindLabel(int kind);     // "Host-to-Device"
QString builtinMemoryKindLabel(int kind);     // "Pageable"
QString builtinSyncKindLabel(int kind);       // "Stream sync"
QString memcpyKindShortName(MemcpyKind kind); // "HtoD"

} // namespace rankscope
