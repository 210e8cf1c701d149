#pragma once
// rankscope-tracegen's nsys domains beyond CUDA, NVTX, OS runtime and MPI
// (--domains): each writes its tables as nsys does, around the CUDA API
// calls the profile made, by a rule a test can count from the calls.
#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tracegen {

// A CUDA API call as written to CUPTI_ACTIVITY_KIND_RUNTIME.
struct ApiCall {
    std::int64_t start = 0, end = 0;
    std::int64_t globalTid = 0;
    int correlation = 0;
};

// The domains --domains names, comma separated; false for an unknown one.
struct Domains {
    bool cudnnCublas = false;   // CUDNN_EVENTS, CUBLAS_EVENTS
    bool openAcc = false;       // CUPTI_ACTIVITY_KIND_OPENACC_DATA, _LAUNCH, _OTHER
    bool openMp = false;        // OPENMP_EVENT_KIND_PARALLEL, _SYNC_REGION_WAIT
    bool unifiedMemory = false; // CUDA_UM_CPU/GPU_PAGE_FAULT_EVENTS, migrations in CUPTI_ACTIVITY_KIND_MEMCPY
    bool graphs = false;        // CUPTI_ACTIVITY_KIND_GRAPH_TRACE and their cudaGraphLaunch calls
    bool nic = false;           // NET_NIC_METRIC and its TARGET_INFO_NETWORK_METRICS, NIC_ID_MAP, TARGET_INFO_NIC_INFO
    bool any() const { return cudnnCublas || openAcc || openMp || unifiedMemory || graphs || nic; }
    bool parse(const std::string &list);
};

// cuDNN and cuBLAS: a call of each library around the API calls whose
// correlation id is a multiple of 3 (cuDNN) or, of the rest, of 5
// (cuBLAS), from 400 ns before the CUDA call to 300 ns after it, on its
// thread; the names alternate by correlation id (docs/statistics.md).
// `nextStringId` is the next free StringIds id.
bool writeLibraryCalls(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId);

// OpenACC: around the API calls whose correlation id is a multiple of 7 a
// launch event (acc_enqueue_launch@saxpy.c:LINE, LINE 40 + (id / 7) % 3),
// of the rest of 11 a data event of 4096 B (acc_enqueue_upload@saxpy.c:30),
// of the rest of 13 an event with no source file (acc_wait), each from
// 200 ns before the call to 100 ns after it, on its thread.
bool writeOpenAcc(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId);

// OpenMP: around the API calls whose correlation id is a multiple of 4 a
// parallel region (from 1000 ns before to 1000 ns after the call), and in
// it a barrier wait (from 100 to 900 ns after the call), on its thread.
bool writeOpenMp(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId);

// The page a unified-memory event of API call `correlation` touches: one of
// 8 pages 2 MiB apart from 0x7f0000000000, by correlation id modulo 8.
std::uint64_t unifiedMemoryPage(int correlation);

// Unified memory, by correlation id (none for id 0): a CPU page fault 50 ns
// before each call whose id is a multiple of 6 (function init_data at saxpy.cu:20 when
// id / 6 is even, else check_result at saxpy.cu:60; module saxpy), a GPU
// page fault of 1 + id % 5 faults from 100 to 2100 ns after each call
// whose id is a multiple of 9 (access type 1 + id % 2), a Unified HtoD
// migration (copy kind 11) of 64 KiB over 5000 ns after each multiple of
// 10 and a Unified DtoH one (12) of 4096 * (1 + id % 3) B over 3000 ns
// after each multiple of 15; all on the page unifiedMemoryPage(id), of the
// calling process, on GPU 0. `withSource`: nsys 2024's sourceFile and
// sourceLine columns; without, the 2022 table (schema 2.9.1).
bool writeUnifiedMemory(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId, bool withSource = true);

// CUDA graphs traced whole: for each call whose id is a non-zero multiple of 8, a
// cudaGraphLaunch_v10000 call over the same time on its thread (correlation
// id 50,000,000 + id) and its graph on GPU 0, stream 13, from 1000 to 31000
// ns after the call: graph 1 + (id / 8) % 2, executable graph 100 + that.
bool writeGraphLaunches(sqlite3 *db, const std::vector<ApiCall> &calls, int &nextStringId);

// NIC metrics: one NIC (mlx5_0, port 1) sampled every 1 ms over the
// calls' span, four metrics per sample (bytes and packets received and
// sent); sample k of the span receives (k % 10 + 1) MB and sends half of
// it, in packets of 4096 B (rounded down).
bool writeNicMetrics(sqlite3 *db, const std::vector<ApiCall> &calls);

} // namespace tracegen
