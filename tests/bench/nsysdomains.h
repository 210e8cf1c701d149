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
    bool cudnnCublas = false; // CUDNN_EVENTS, CUBLAS_EVENTS
    bool openAcc = false;     // CUPTI_ACTIVITY_KIND_OPENACC_DATA, _LAUNCH, _OTHER
    bool openMp = false;      // OPENMP_EVENT_KIND_PARALLEL, _SYNC_REGION_WAIT
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

} // namespace tracegen
