#pragma once
// The table readers of the Nsight Systems SQLite loader, one per kind of
// data. Each reads its tables if present (a table with no rows is not
// created by nsys) and tolerates columns that older schemas lack.
#include "load/nsys/nsysloadcontext.h"

namespace rankscope::nsys {

// Host side (nsyshostreaders.cpp)
void readCudaApi(NsysLoadContext &ctx);
void readOsRuntime(NsysLoadContext &ctx);
// cuDNN and cuBLAS calls (CUDNN_EVENTS, CUBLAS_EVENTS; --trace=cudnn,cublas).
void readCudaLibraries(NsysLoadContext &ctx);
// OpenACC events (CUPTI_ACTIVITY_KIND_OPENACC_DATA, _LAUNCH, _OTHER) and
// OpenMP events (OPENMP_EVENT_KIND_*): --trace=openacc,openmp. They
// intern names, so they run beside the main report's readers, not the
// host calls'.
void readOpenAcc(NsysLoadContext &ctx);
void readOpenMp(NsysLoadContext &ctx);
void readNvtx(NsysLoadContext &ctx);

// CPU sampling and backtraces (nsyssamplingreaders.cpp): samples and the
// callchain tables, read beside the host calls (the string table is the
// main report's, read-only here); attachBacktraces binds the CUDA API and
// OS runtime calls to theirs once the tracks are final (sorted, side
// tables not yet reordered), clears the ids the OS runtime slices carried
// and marks the frames of .py modules as Python frames.
void readCpuSampling(NsysLoadContext &ctx);
void attachBacktraces(Report &report, const std::vector<std::uint32_t> &apiCallchainIds, const CallchainIds &cudaChains,
                      const CallchainIds &osrtChains);

// GPU side (nsysgpureaders.cpp)
void readKernels(NsysLoadContext &ctx);
void readMemcpys(NsysLoadContext &ctx);
void readMemsets(NsysLoadContext &ctx);
void readSyncs(NsysLoadContext &ctx);
// Whole CUDA graph launches (CUPTI_ACTIVITY_KIND_GRAPH_TRACE).
void readGraphLaunches(NsysLoadContext &ctx);

// Unified-memory page faults (nsysumreaders.cpp): CUDA_UM_CPU_PAGE_FAULT_EVENTS
// per process, CUDA_UM_GPU_PAGE_FAULT_EVENTS per process and device.
void readUnifiedMemoryFaults(NsysLoadContext &ctx);

// MPI calls (nsysmpireaders.cpp): MPI_P2P_EVENTS, MPI_COLLECTIVES_EVENTS,
// MPI_START_WAIT_EVENTS and MPI_OTHER_EVENTS, with the callers' ranks from
// MPI_RANKS.
void readMpi(NsysLoadContext &ctx);

// Counters and messages (nsyscounterreaders.cpp)
void readMemoryUsage(NsysLoadContext &ctx);
void readGpuMetrics(NsysLoadContext &ctx);
// NIC and InfiniBand port counters (NET_NIC_METRIC, --nic-metrics): a
// counter per NIC, port and metric, in units per second.
void readNicMetrics(NsysLoadContext &ctx);
void readDiagnosticEvents(NsysLoadContext &ctx);

} // namespace rankscope::nsys
