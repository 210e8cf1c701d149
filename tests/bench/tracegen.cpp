// rankscope-tracegen: writes synthetic traces for benchmarks, deterministic
// for a seed. Two profiles:
// - synthetic (the first benchmarks' mix): per step an NVTX "step k" range
//   with nested phases, CUDA runtime calls that launch kernels on several
//   streams, memcpys of varied sizes and kinds (some pageable), memsets,
//   NCCL all-reduce kernels, and OS runtime calls.
// - pytorch (shaped like a real export of a training run recorded with
//   torch.autograd.profiler.emit_nvtx()): an NVTX range per op with a text
//   of its own ("aten::linear, seq = 12, op_id = 345", one in eight with
//   "sizes = [...]"),
//   nested three deep, forward on the main thread and backward on the
//   autograd thread; CUDA runtime calls with driver calls mixed in; kernels
//   with long template names; CUDA memory allocations and frees; OS runtime
//   calls on a helper thread and in four data-loader worker processes.
//   About 50% NVTX, 23% CUDA API, 16% OS runtime, 11% kernels (the held-out
//   GPT-2 export: 55%, 21%, 13%, 9%).
// --shuffle writes each table's rows out of time order, as nsys 2025.6 and
// later may. --gpu-metrics-hz samples a GPU metric set (nsys
// --gpu-metrics-devices) over the trace: 10 kHz, nsys' default, in the
// pytorch profile; none in the synthetic one.
//
// - ddp: ranks of one data-parallel job on a common time axis, with an
//   NCCL all-reduce per step and planted truth: --straggler, --clock-offsets-us,
//   --skip (see makeDdpRanks).
// - launchbound, synchost: one problem each for the Diagnosis' tests
//   (kernels shorter than their launches; a sync per step draining the GPU,
//   with --warmup-ms a long first step the Diagnosis leaves out).
// - pipeline: one stage per rank passing activations with NCCL send/receive,
//   NCCL's NVTX payloads included (nsys), a planted bubble (makePipelineRanks);
//   with --schedule gpipe|1f1b and --microbatches M, the stages run that
//   schedule's forwards and backwards, the bubble known in closed form
//   (pipelineschedule.h, makeScheduledPipelineRanks); --p2p mpi passes them
//   by MPI_Send and MPI_Recv instead (an MPI pipeline, nsys only).
// - mpi: ranks of an MPI job (nsys only), each file its own session, with
//   planted MPI wait states (makeMpiRanks).
//
//   rankscope-tracegen --format nsys|kineto [--profile synthetic|pytorch|ddp|launchbound|synchost|pipeline|mpi] [--shuffle]
//                      [--gpu-metrics-hz HZ] [--cpu-samples-hz HZ] [--straggler R:US[:EVERY]] [--clock-offsets-us A,B,..]
//                      [--skip R:STEP] [--only-ranks FIRST:LAST] [--warmup-ms MS] [--schedule gpipe|1f1b --microbatches M [--p2p nccl|mpi]] [--domains cudnn,cublas,openacc,openmp,um,graphs,nic] --ranks R --events N [--seed S] OUTDIR
#include "nsysdomains.h"
#include "pipelineschedule.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTextStream>
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

// One event of the generated mix, in ns on the rank's timeline.
struct Event {
    enum Kind { Api, Kernel, Nccl, Memcpy, Memset, Nvtx, Osrt, Mpi } kind;
    std::int64_t start, end;
    int name; // index into the name lists below
    int stream = 7;
    int correlation = 0;
    std::int64_t bytes = 0;
    int copyKind = 1, srcKind = 0, dstKind = 2;
    int depth = 0;
    int tid = 0;      // thread of its process: 0 main, 1 helper, 2 autograd
    int process = 0;  // 0 the training process, 1.. its data-loader workers
    std::string text; // an NVTX range's own text (pytorch profile; NCCL's calls in the pipeline profile)
    int peer = -1;    // ncclSend/ncclRecv: the peer rank; ncclCommInitRank: the communicator's size; MPI: the peer or root
    // An MPI call (its function in `text`, its size in `bytes`): the table
    // nsys writes it to, its tag and its request handle (0: none).
    enum MpiTable { PointToPoint, Collective, StartWait, Other } mpiTable = Other;
    std::int64_t tag = -1;
    std::uint64_t request = 0;
};

const std::vector<std::string> kKernels{
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int, T1, T2)",
    "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel",
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1, true>(cudnnTensorStruct)",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float>>>(T3)",
    "ampere_sgemm_128x64_nn",
    "void at::native::softmax_warp_forward<float, float, float, 10, true>(T2 *, const T1 *)",
};
const std::vector<std::string> kNccl{"ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ncclDevKernel_AllGather_RING_LL"};
const std::vector<std::string> kApis{"cudaLaunchKernel_v7000", "cudaMemcpyAsync_v3020", "cudaMemsetAsync_v3020", "cudaStreamSynchronize_v3020"};
const std::vector<std::string> kPhases{"data_loading", "forward", "backward", "optimizer"};
const std::vector<std::string> kOsrt{"read", "poll", "ioctl", "pthread_cond_wait", "mmap64", "futex"};

std::vector<Event> makeRank(std::size_t n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> kernelName(0, int(kKernels.size()) - 1), osrtName(0, int(kOsrt.size()) - 1);
    std::uniform_int_distribution<int> sizeLog(2, 26), stream(0, 3);
    std::vector<Event> events;
    events.reserve(n + 64);
    std::int64_t t = 1'000'000;
    int correlation = 1, step = 0;
    while (events.size() < n) {
        const std::int64_t stepStart = t;
        const std::size_t stepIndex = events.size();
        events.push_back({Event::Nvtx, stepStart, 0, step++, 7, 0, 0, 1, 0, 2, 0, 0, 0, {}});
        for (int phase = 0; phase < 4 && events.size() < n; ++phase) {
            const std::int64_t phaseStart = t;
            const std::size_t phaseIndex = events.size();
            events.push_back({Event::Nvtx, phaseStart, 0, phase, 7, 0, 0, 1, 0, 2, 1, 0, 0, {}}); // depth 1: a phase
            const int ops = 40 + int(rng() % 40);
            for (int k = 0; k < ops && events.size() + 4 < n; ++k) {
                // A CPU call launches GPU work a little later; OS runtime
                // calls run on a helper thread meanwhile.
                const int corr = correlation++;
                const std::int64_t apiDur = 3'000 + std::int64_t(rng() % 6'000);
                const bool copy = phase == 0 && k % 4 == 0;
                const bool nccl = phase == 2 && k % 10 == 9;
                const bool memset = !copy && k % 25 == 24;
                events.push_back({Event::Api, t, t + apiDur, copy ? 1 : memset ? 2 : 0, 7, corr, 0, 1, 0, 2, 0, 0, 0, {}});
                const std::int64_t gpuStart = t + apiDur + 2'000 + std::int64_t(rng() % 20'000);
                Event gpu{Event::Kernel,
                          gpuStart,
                          gpuStart + 5'000 + std::int64_t(rng() % 200'000),
                          kernelName(rng),
                          7 + 4 * stream(rng),
                          corr,
                          0,
                          1,
                          0,
                          2,
                          0,
                          0,
                          0,
                          {}};
                if (copy) {
                    gpu.kind = Event::Memcpy;
                    gpu.bytes = std::int64_t(1) << sizeLog(rng);
                    gpu.copyKind = k % 8 == 0 ? 2 : 1;
                    gpu.srcKind = gpu.copyKind == 1 ? int(rng() % 2) : 2; // pageable or pinned host memory
                    gpu.dstKind = gpu.copyKind == 1 ? 2 : 1;
                    gpu.end = gpu.start + 1'000 + gpu.bytes / 20;
                    gpu.stream = 7;
                } else if (memset) {
                    gpu.kind = Event::Memset;
                    gpu.bytes = std::int64_t(1) << sizeLog(rng);
                    gpu.end = gpu.start + 1'000 + gpu.bytes / 200;
                } else if (nccl) {
                    gpu.kind = Event::Nccl;
                    gpu.name = int(rng() % kNccl.size());
                    gpu.stream = 30;
                }
                events.push_back(gpu);
                events.push_back({Event::Osrt, t, t + 1'000 + std::int64_t(rng() % 50'000), osrtName(rng), 7, 0, 0, 1, 0, 2, 0, 1, 0, {}});
                t += apiDur + 500 + std::int64_t(rng() % 3'000);
            }
            events[phaseIndex].end = t;
        }
        events[stepIndex].end = t;
        t += 200'000 + std::int64_t(rng() % 2'000'000); // the loader's gap between steps
    }
    return events;
}

// `count` kernels of `kernelNs` on stream 7, each launched by a
// cudaLaunchKernel of `callNs`, one every `everyNs` from t (advanced past
// them); the GPU runs them in order, each 1 µs after its call returns at
// the earliest. Returns when the GPU is free again.
std::int64_t launchKernels(std::vector<Event> &events, std::int64_t &t, int &correlation, int count, std::int64_t callNs, std::int64_t everyNs,
                           std::int64_t kernelNs)
{
    std::int64_t gpuFree = t;
    for (int k = 0; k < count; ++k) {
        const int corr = correlation++;
        events.push_back({Event::Api, t, t + callNs, 0, 7, corr, 0, 1, 0, 2, 0, 0, 0, {}});
        const std::int64_t start = std::max(gpuFree, t + callNs + 1'000);
        events.push_back({Event::Kernel, start, start + kernelNs, k % int(kKernels.size()), 7, corr, 0, 1, 0, 2, 0, 0, 0, {}});
        gpuFree = start + kernelNs;
        t += everyNs;
    }
    return gpuFree;
}

// The pipeline profile: one stage per rank, one communicator, NCCL's
// annotated calls (NVTX domain "NCCL" with their payloads, as NCCL 2.2x
// writes them under nsys). Per step, stage s > 0 posts its receive from
// s-1 at the step's start (its kernel starts 9 µs later); each stage
// computes 1 ms once its input arrived, then sends to s+1 (the send
// kernel starts 1 µs after the compute ends); a transfer ends 50 µs after
// the send starts, on both sides. So the pair (s, s+1) has the sender last,
// by 1001 + 1051 s µs: the pipeline's bubble, planted.
constexpr std::int64_t kPipelineComputeNs = 1'000'000, kPipelineTransferNs = 50'000, kPipelineMessageBytes = 8 << 20;
std::vector<std::vector<Event>> makePipelineRanks(int ranks, std::size_t perRank)
{
    std::vector<std::vector<Event>> out(static_cast<std::size_t>(ranks));
    const std::size_t steps = std::max<std::size_t>(1, perRank / 10);
    std::vector<int> correlation(static_cast<std::size_t>(ranks), 1);
    auto nccl = [](std::int64_t at, const char *call, int peer) {
        Event e{Event::Nvtx, at, at + 10'000, 0, 7, 0, kPipelineMessageBytes, 1, 0, 2, 1, 0, 0, call};
        e.peer = peer;
        return e;
    };
    for (int s = 0; s < ranks; ++s) {
        Event init = nccl(500'000, "ncclCommInitRank", ranks);
        init.depth = 0;
        out[std::size_t(s)].push_back(init);
    }
    const std::int64_t period = std::int64_t(ranks + 1) * (kPipelineComputeNs + kPipelineTransferNs) + 1'000'000;
    for (std::size_t step = 0; step < steps; ++step) {
        const std::int64_t stepStart = 1'000'000 + std::int64_t(step) * period;
        std::int64_t previousSendStart = 0;
        for (int s = 0; s < ranks; ++s) {
            std::vector<Event> &ev = out[std::size_t(s)];
            int &corr = correlation[std::size_t(s)];
            ev.push_back({Event::Nvtx, stepStart, stepStart + period - 500'000, int(step), 7, 0, 0, 1, 0, 2, 0, 0, 0, {}});
            std::int64_t computeStart = stepStart + 9'000;
            if (s > 0) { // receive from s-1: the call, its launch, the kernel waiting for the data
                ev.push_back(nccl(stepStart, "ncclRecv", s - 1));
                ev.push_back({Event::Api, stepStart + 2'000, stepStart + 8'000, 0, 7, corr, 0, 1, 0, 2, 0, 0, 0, {}});
                computeStart = previousSendStart + kPipelineTransferNs;
                ev.push_back({Event::Nccl, stepStart + 9'000, computeStart, 0, 30, corr++, 0, 1, 0, 2, 0, 0, 0, {}});
            }
            ev.push_back({Event::Api, stepStart + 12'000, stepStart + 16'000, 0, 7, corr, 0, 1, 0, 2, 0, 0, 0, {}});
            ev.push_back({Event::Kernel, computeStart, computeStart + kPipelineComputeNs, 1, 7, corr++, 0, 1, 0, 2, 0, 0, 0, {}});
            if (s + 1 < ranks) { // send to s+1 once the compute is done
                const std::int64_t sendStart = computeStart + kPipelineComputeNs + 1'000;
                ev.push_back(nccl(stepStart + 20'000, "ncclSend", s + 1));
                ev.push_back({Event::Api, stepStart + 22'000, stepStart + 28'000, 0, 7, corr, 0, 1, 0, 2, 0, 0, 0, {}});
                ev.push_back({Event::Nccl, sendStart, sendStart + kPipelineTransferNs, 0, 30, corr++, 0, 1, 0, 2, 0, 0, 0, {}});
                previousSendStart = sendStart;
            }
        }
    }
    return out;
}

// The pipeline profile with a schedule (--schedule gpipe|1f1b,
// --microbatches M): stage s runs on rank (s + 1) % R (so stage order is
// not rank order), each micro-batch's forward 1 ms and backward 2 ms on
// stream 7, launched from the main thread; the activations and gradients
// go between neighbouring stages by NCCL send and receive kernels (their
// annotated calls on threads of their own, the receive posted ahead on a
// stream per direction), 20 µs from the sender's compute end to the
// receiver's input (pipelineschedule.h, where the bubble is known). With
// `mpi`, blocking MPI_Send and MPI_Recv on those threads move the data
// instead (tag 0 the activations, 1 the gradients), over the same times.
int stageRank(int stage, int ranks)
{
    return (stage + 1) % ranks;
}

std::vector<std::vector<Event>> makeScheduledPipelineRanks(int ranks, std::size_t perRank, tracegen::PipelineSchedule schedule, int microBatches,
                                                           bool mpi)
{
    const tracegen::PipelineTimes times;
    const auto ops = tracegen::simulatePipeline(schedule, ranks, microBatches, times);
    std::int64_t span = 0;
    for (const auto &stage : ops)
        for (const tracegen::StageOp &op : stage)
            span = std::max(span, op.end);
    constexpr std::int64_t kLead = 20'000; // the first launch comes this long after the step's start
    const std::int64_t period = kLead + span + 1'000'000;
    const std::size_t steps = std::max<std::size_t>(1, perRank / std::size_t(12 * microBatches));
    std::vector<std::vector<Event>> out(static_cast<std::size_t>(ranks));
    std::vector<int> correlation(static_cast<std::size_t>(ranks), 1);
    const auto ncclCall = [](std::int64_t at, const char *call, int tid, int peer) {
        Event e{Event::Nvtx, at - 900, at, 0, 7, 0, kPipelineMessageBytes, 1, 0, 2, 0, tid, 0, call};
        e.peer = peer;
        return e;
    };
    // An annotated NCCL call on `tid` whose kernel runs [start, end) on
    // `stream`; with `mpi`, the MPI call on `tid` over [start, end).
    const auto p2p = [&](int rank, const char *call, int tid, int peer, int stream, std::int64_t start, std::int64_t end) {
        std::vector<Event> &ev = out[std::size_t(rank)];
        int &corr = correlation[std::size_t(rank)];
        if (mpi) {
            const bool send = std::string_view(call) == "ncclSend";
            Event e{Event::Mpi, start, end, 0, 7, 0, kPipelineMessageBytes, 1, 0, 2, 0, tid, 0, send ? "MPI_Send" : "MPI_Recv"};
            e.mpiTable = Event::PointToPoint;
            e.peer = peer;
            e.tag = (tid - 1) % 2; // the direction: threads 1 and 3 carry activations, 2 and 4 gradients
            ev.push_back(e);
            return;
        }
        ev.push_back(ncclCall(start, call, tid, peer));
        ev.push_back({Event::Api, start - 700, start - 200, 0, 7, corr, 0, 1, 0, 2, 0, tid, 0, {}});
        ev.push_back({Event::Nccl, start, end, 0, stream, corr++, 0, 1, 0, 2, 0, 0, 0, {}});
    };
    for (int r = 0; r < ranks && !mpi; ++r) {
        Event init = ncclCall(500'000, "ncclCommInitRank", 0, ranks);
        out[std::size_t(r)].push_back(init);
    }
    for (std::size_t step = 0; step < steps; ++step) {
        const std::int64_t stepStart = 1'000'000 + std::int64_t(step) * period;
        const std::int64_t at = stepStart + kLead; // op times count from here
        for (int s = 0; s < ranks; ++s) {
            const int rank = stageRank(s, ranks);
            out[std::size_t(rank)].push_back({Event::Nvtx, stepStart, stepStart + kLead + span + 500'000, int(step), 7, 0, 0, 1, 0, 2, 0, 0, 0, {}});
            std::int64_t lastReceive[2] = {stepStart + 9'000, stepStart + 9'000}; // per direction: when the stream is free
            for (const tracegen::StageOp &op : ops[std::size_t(s)]) {
                int &corr = correlation[std::size_t(rank)];
                out[std::size_t(rank)].push_back({Event::Api, at + op.start - 8'000, at + op.start - 2'000, 0, 7, corr, 0, 1, 0, 2, 0, 0, 0, {}});
                out[std::size_t(rank)].push_back({Event::Kernel, at + op.start, at + op.end, op.forward ? 1 : 4, 7, corr++, 0, 1, 0, 2, 0, 0, 0, {}});
                if (op.inputSent < 0)
                    continue;
                const int from = stageRank(op.forward ? s - 1 : s + 1, ranks);
                const int direction = op.forward ? 0 : 1;
                const std::int64_t arrival = at + op.inputArrived;
                const std::int64_t posted = std::min(lastReceive[direction] + 1'000, arrival - 1'000);
                p2p(rank, "ncclRecv", 3 + direction, from, 31 + direction, posted, arrival);
                lastReceive[direction] = arrival;
                p2p(from, "ncclSend", 1 + direction, rank, 33 + direction, at + op.inputSent, arrival);
            }
        }
    }
    for (std::vector<Event> &ev : out)
        std::stable_sort(ev.begin(), ev.end(), [](const Event &a, const Event &b) { return a.start < b.start; });
    return out;
}

// The mpi profile (mpirun -n R nsys profile --trace=mpi,cuda,nvtx): per
// step each rank computes (5 kernels, then a stream sync), exchanges 1 MiB
// with its ring neighbours non-blockingly (MPI_Irecv, MPI_Isend, an
// MPI_Wait on each, no waits planted), then the planted waits:
// - Late Sender: rank 1's MPI_Recv from rank 0 is posted kLateSenderNs
//   before rank 0's MPI_Send begins;
// - Late Receiver: rank 1's MPI_Ssend to rank 0 begins kLateReceiverNs
//   before rank 0 posts its MPI_Recv;
// - Wait at Collective: the last rank enters the MPI_Allreduce
//   kLateAtCollectiveNs after the others, who wait that long.
// An MPI_Barrier all enter together closes the step. Times are on one true
// axis; each rank's file starts its own session (mpirun starts the
// processes one after another): see main.
constexpr std::int64_t kLateSenderNs = 1'500'000, kLateReceiverNs = 400'000, kLateAtCollectiveNs = 2'000'000;
constexpr std::int64_t kMpiStepNs = 10'000'000;
std::vector<std::vector<Event>> makeMpiRanks(int ranks, std::size_t perRank)
{
    std::vector<std::vector<Event>> out(static_cast<std::size_t>(ranks));
    const std::size_t steps = std::max<std::size_t>(1, perRank / 24);
    auto mpi = [](std::int64_t start, std::int64_t end, const char *function, Event::MpiTable table, int peer, std::int64_t bytes, std::int64_t tag,
                  std::uint64_t request) {
        Event e{Event::Mpi, start, end, 0, 7, 0, bytes, 1, 0, 2, 0, 0, 0, function};
        e.mpiTable = table;
        e.peer = peer;
        e.tag = tag;
        e.request = request;
        return e;
    };
    for (int r = 0; r < ranks; ++r) {
        std::vector<Event> &ev = out[std::size_t(r)];
        int correlation = 1;
        // Open MPI's requests are addresses in the process: numbered here.
        std::uint64_t request = 0x55d4a0000000ull + std::uint64_t(r) * 0x1000000ull;
        ev.push_back(mpi(60'000 + 137'000 * r, 900'000, "MPI_Init", Event::Other, -1, 0, -1, 0));
        const int left = (r + ranks - 1) % ranks, right = (r + 1) % ranks;
        for (std::size_t k = 0; k < steps; ++k) {
            const std::int64_t at = 1'000'000 + std::int64_t(k) * kMpiStepNs;
            ev.push_back({Event::Nvtx, at, at + kMpiStepNs - 500'000, int(k), 7, 0, 0, 1, 0, 2, 0, 0, 0, {}});
            std::int64_t t = at;
            const std::int64_t gpuFree = launchKernels(ev, t, correlation, 5, 5'000, 10'000, 350'000);
            ev.push_back({Event::Api, t, gpuFree + 5'000, 3, 7, correlation++, 0, 1, 0, 2, 0, 0, 0, {}});
            // The ring exchange, completed by a wait on each request.
            const std::int64_t c = at + 2'500'000;
            const std::uint64_t receiveRequest = request += 0x100, sendRequest = request += 0x100;
            ev.push_back(mpi(c, c + 5'000, "MPI_Irecv", Event::PointToPoint, left, 1 << 20, 1, receiveRequest));
            ev.push_back(mpi(c + 10'000, c + 16'000, "MPI_Isend", Event::PointToPoint, right, 1 << 20, 1, sendRequest));
            ev.push_back(mpi(c + 20'000, c + 120'000, "MPI_Wait", Event::StartWait, -1, 0, -1, receiveRequest));
            ev.push_back(mpi(c + 125'000, c + 130'000, "MPI_Wait", Event::StartWait, -1, 0, -1, sendRequest));
            // The late sender, then the late receiver, between ranks 0 and 1.
            const std::int64_t d = c + 200'000;
            if (r == 0)
                ev.push_back(mpi(d + kLateSenderNs, d + kLateSenderNs + 50'000, "MPI_Send", Event::PointToPoint, 1, 4 << 20, 2, 0));
            if (r == 1)
                ev.push_back(mpi(d, d + kLateSenderNs + 60'000, "MPI_Recv", Event::PointToPoint, 0, 4 << 20, 2, 0));
            const std::int64_t e = d + kLateSenderNs + 200'000;
            if (r == 1)
                ev.push_back(mpi(e, e + kLateReceiverNs + 60'000, "MPI_Ssend", Event::PointToPoint, 0, 64 << 10, 3, 0));
            if (r == 0)
                ev.push_back(mpi(e + kLateReceiverNs, e + kLateReceiverNs + 55'000, "MPI_Recv", Event::PointToPoint, 1, 64 << 10, 3, 0));
            // The last rank late at the allreduce; all leave together.
            const std::int64_t f = e + kLateReceiverNs + 300'000;
            ev.push_back(mpi(f + (r == ranks - 1 ? kLateAtCollectiveNs : 0), f + kLateAtCollectiveNs + 40'000, "MPI_Allreduce", Event::Collective, -1,
                             8192, -1, 0));
            const std::int64_t g = f + kLateAtCollectiveNs + 100'000;
            ev.push_back(mpi(g, g + 20'000, "MPI_Barrier", Event::Collective, -1, 0, -1, 0));
        }
        const std::int64_t end = 1'000'000 + std::int64_t(steps) * kMpiStepNs;
        ev.push_back(mpi(end, end + 300'000 + 11 * r, "MPI_Finalize", Event::Other, -1, 0, -1, 0));
    }
    return out;
}

// The launchbound profile: steps of 200 kernels of 3 µs, each launched by
// an 8 µs cudaLaunchKernel: the GPU idles between kernels waiting for the
// next launch (the Diagnosis' launch-bound finding, and no other).
std::vector<Event> makeLaunchBoundRank(std::size_t n)
{
    std::vector<Event> events;
    std::int64_t t = 1'000'000;
    int correlation = 1, step = 0;
    while (events.size() < n) {
        const std::size_t stepIndex = events.size();
        events.push_back({Event::Nvtx, t, 0, step++, 7, 0, 0, 1, 0, 2, 0, 0, 0, {}});
        launchKernels(events, t, correlation, 200, 8'000, 8'500, 3'000);
        events[stepIndex].end = t;
        t += 20'000;
    }
    return events;
}

// The synchost profile: steps of 20 kernels of 0.5 ms queued back to
// back, then a cudaStreamSynchronize that waits for them, then 2 ms of
// host work (an "optimizer" range) before the next step's launches: the
// GPU runs dry after every sync (the Diagnosis' synchronisation finding,
// and no other). With a warm-up, step 0 launches its kernels `warmupNs` / 20
// apart (a first iteration's autotuning and lazy loading): the GPU idles in
// between, the step is longer than the rest by about `warmupNs`.
std::vector<Event> makeSyncHostRank(std::size_t n, std::int64_t warmupNs)
{
    std::vector<Event> events;
    std::int64_t t = 1'000'000;
    int correlation = 1, step = 0;
    while (events.size() < n) {
        const std::size_t stepIndex = events.size();
        const std::int64_t launchEvery = step == 0 && warmupNs > 0 ? warmupNs / 20 : 6'000;
        events.push_back({Event::Nvtx, t, 0, step++, 7, 0, 0, 1, 0, 2, 0, 0, 0, {}});
        const std::int64_t gpuFree = launchKernels(events, t, correlation, 20, 5'000, launchEvery, 500'000);
        events.push_back({Event::Api, t, gpuFree + 10'000, 3, 7, correlation++, 0, 1, 0, 2, 0, 0, 0, {}}); // cudaStreamSynchronize
        t = gpuFree + 10'000;
        events.push_back({Event::Nvtx, t, t + 2'000'000, 3, 7, 0, 0, 1, 0, 2, 1, 0, 0, {}}); // "optimizer", on the host
        t += 2'000'000;
        events[stepIndex].end = t;
    }
    return events;
}

// The ddp profile's planted truth (the tests of the cross-rank analysis
// recover it): a straggler delayed before chosen all-reduces, clock offsets
// of the recorded starts, a rank that skips one all-reduce.
struct CollectivePlan {
    int straggler = -1;
    std::int64_t delayNs = 0;
    int every = 4;                           // delayed before the all-reduce of steps 0, every, 2 every, ...
    std::vector<std::int64_t> clockOffsetNs; // per rank, added to its recorded start
    int skipRank = -1, skipStep = -1;
};

// Ranks of one data-parallel job on a common true time axis: per step an
// NVTX "step k" range, 20 compute kernels of 0.2-0.8 ms (the same on every rank,
// plus under 1 µs of per-rank jitter on the first), then an NCCL
// all-reduce on stream 30. Each rank's all-reduce starts when its GPU is
// free (its arrival) and all end together 200 µs after the last arrival.
// The straggler runs an extra kernel of the planted delay before its
// all-reduce every `every` steps. Only the ranks `keep` accepts are kept
// (the others are made step by step and dropped, so a 256-rank set can be
// written in parts that fit in memory and still agree).
std::vector<std::vector<Event>> makeDdpRanks(int ranks, std::size_t perRank, std::uint64_t seed, const CollectivePlan &plan,
                                             const std::function<bool(int)> &keep)
{
    std::mt19937_64 rng(seed);
    std::vector<std::vector<Event>> out(static_cast<std::size_t>(ranks));
    std::vector<int> correlation(static_cast<std::size_t>(ranks), 1);
    const std::size_t perStep = 2 * 20 + 3;
    const std::size_t steps = std::max<std::size_t>(1, perRank / perStep);
    std::int64_t stepStart = 1'000'000;
    for (std::size_t step = 0; step < steps; ++step) {
        std::int64_t lengths[20];
        for (std::int64_t &l : lengths)
            l = 200'000 + std::int64_t(rng() % 600'000);
        std::vector<std::int64_t> arrival(std::size_t(ranks), -1);
        std::vector<std::size_t> ncclAt(std::size_t(ranks), 0);
        for (int r = 0; r < ranks; ++r) {
            std::vector<Event> &ev = out[std::size_t(r)];
            if (!keep(r))
                ev.clear();
            std::int64_t cpu = stepStart, gpuFree = stepStart;
            const std::size_t stepRange = ev.size();
            ev.push_back({Event::Nvtx, stepStart, 0, int(step), 7, 0, 0, 1, 0, 2, 0, 0, 0, {}});
            auto launch = [&](Event::Kind kind, int name, std::int64_t length, int stream) {
                const int corr = correlation[std::size_t(r)]++;
                ev.push_back({Event::Api, cpu, cpu + 4'000, 0, 7, corr, 0, 1, 0, 2, 0, 0, 0, {}});
                const std::int64_t start = std::max(gpuFree, cpu + 6'000);
                ev.push_back({kind, start, start + length, name, stream, corr, 0, 1, 0, 2, 0, 0, 0, {}});
                cpu += 8'000;
                return ev.size() - 1;
            };
            for (int k = 0; k < 20; ++k) {
                const std::int64_t jitter = k == 0 ? std::int64_t(rng() % 1'000) : 0;
                gpuFree = ev[launch(Event::Kernel, k % int(kKernels.size()), lengths[k] + jitter, 7)].end;
            }
            if (r == plan.straggler && plan.every > 0 && step % std::size_t(plan.every) == 0)
                gpuFree = ev[launch(Event::Kernel, 1, plan.delayNs, 7)].end;
            if (r == plan.skipRank && int(step) == plan.skipStep) {
                ev[stepRange].end = cpu;
                continue;
            }
            ncclAt[std::size_t(r)] = launch(Event::Nccl, 0, 0, 30);
            Event &nccl = ev[ncclAt[std::size_t(r)]];
            nccl.start = std::max(nccl.start, gpuFree);
            arrival[std::size_t(r)] = nccl.start;
            ev[stepRange].end = cpu;
        }
        const std::int64_t end = *std::max_element(arrival.begin(), arrival.end()) + 200'000;
        for (int r = 0; r < ranks; ++r)
            if (arrival[std::size_t(r)] >= 0) {
                out[std::size_t(r)][ncclAt[std::size_t(r)]].end = end;
                out[std::size_t(r)][ncclAt[std::size_t(r)] - 1].end = std::min(out[std::size_t(r)][ncclAt[std::size_t(r)] - 1].end, end);
            }
        stepStart = end + 50'000 + std::int64_t(rng() % 100'000); // the host's turn between steps
    }
    return out;
}

// Names as PyTorch's CUDA kernels are printed: long template instantiations.
std::vector<std::string> pytorchKernelNames()
{
    std::vector<std::string> names;
    const char *ops[] = {"CUDAFunctor_add<float>",     "GeluCUDAKernelImpl<c10::BFloat16>",
                         "MulFunctor<float>",          "AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float>>",
                         "FillFunctor<c10::BFloat16>", "softmax_warp_forward<c10::BFloat16, c10::BFloat16, float, 10, false, false>"};
    for (const char *op : ops)
        for (int vec : {2, 4})
            names.push_back(std::string("void at::native::vectorized_elementwise_kernel<") + std::to_string(vec) + ", at::native::" + op
                            + ", at::detail::Array<char*, 3>>(int, at::native::" + op + ", at::detail::Array<char*, 3>)");
    for (int tile : {64, 128, 256})
        for (const char *layout : {"nn", "nt", "tn"})
            names.push_back(std::string("sm90_xmma_gemm_bf16bf16_bf16f32_f32_") + layout + "_n_tilesize" + std::to_string(tile)
                            + "x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas");
    names.push_back("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, "
                    "c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)");
    names.push_back(
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, "
        "float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>>(at::native::ReduceOp<float, "
        "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
        "unsigned int, float, 4>)");
    names.push_back("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<4>, "
                    "at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, "
                    "double, double, double, bool, float*, float*>");
    return names;
}
const std::vector<std::string> kPytorchKernels = pytorchKernelNames();
// Runtime calls with driver calls mixed in, as PyTorch makes them.
const std::vector<std::string> kPytorchApis{"cudaLaunchKernel_v7000", "cuLaunchKernel",        "cudaStreamIsCapturing_v10000",
                                            "cudaGetDevice_v3020",    "cudaMemcpyAsync_v3020", "cudaStreamSynchronize_v3020"};
const std::vector<std::string> kPytorchOsrt{"read", "poll", "pthread_cond_timedwait", "ioctl", "mmap64", "futex", "recvmsg", "write"};
const char *kForwardOps[][3] = {{"aten::linear", "aten::matmul", "aten::mm"},
                                {"aten::layer_norm", "aten::native_layer_norm", "aten::empty_like"},
                                {"aten::gelu", "aten::empty", "aten::resize_"},
                                {"aten::softmax", "aten::_softmax", "aten::empty_strided"},
                                {"aten::add", "aten::to", "aten::copy_"}};
const char *kBackwardOps[][3] = {{"MmBackward0", "aten::mm", "aten::conj"},
                                 {"NativeLayerNormBackward0", "aten::native_layer_norm_backward", "aten::empty_like"},
                                 {"GeluBackward0", "aten::gelu_backward", "aten::empty"},
                                 {"AddBackward0", "aten::sum", "aten::as_strided"}};

std::string sizesText(std::mt19937_64 &rng)
{
    const int dims[] = {32, 64, 768, 1024, 2304, 3072, 50257};
    std::string s = "sizes = [[";
    const int tensors = 1 + int(rng() % 3);
    for (int t = 0; t < tensors; ++t) {
        if (t)
            s += "], [";
        const int rank = 1 + int(rng() % 3);
        for (int d = 0; d < rank; ++d)
            s += (d ? ", " : "") + std::to_string(dims[rng() % 7]);
    }
    return s + "]]";
}

std::vector<Event> makePytorchRank(std::size_t n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<Event> events;
    events.reserve(n + 64);
    std::int64_t t = 1'000'000;
    int correlation = 1, step = 0, seq = 0, opId = 0;
    std::int64_t gpuFree = 0; // the GPU runs one kernel after another
    auto event = [](Event::Kind kind, std::int64_t start, std::int64_t end, int name, int tid) {
        Event e{};
        e.kind = kind;
        e.start = start;
        e.end = end;
        e.name = name;
        e.tid = tid;
        return e;
    };
    // One op: three nested NVTX ranges; the innermost launches a kernel two
    // times in three; OS runtime calls run meanwhile elsewhere.
    auto op = [&](bool backward, int tid) {
        const auto &names = backward ? kBackwardOps[rng() % 4] : kForwardOps[rng() % 5];
        const int mySeq = backward ? int(rng() % std::max(seq, 1)) : seq++;
        std::size_t open[3];
        for (int depth = 0; depth < 3; ++depth) {
            Event e = event(Event::Nvtx, t, t, 0, tid);
            e.depth = depth;
            const int id = opId++;
            // Shapes only now and then (emit_nvtx writes them with
            // record_shapes=True): texts average 39 B, the held-out GPT-2
            // export's 16.5 MB over 447,926 ranges 37 B.
            const bool shapes = rng() % 8 == 0;
            e.text = std::string(names[depth]) + (depth == 0 ? ", seq = " + std::to_string(mySeq) : std::string()) + ", op_id = " + std::to_string(id)
                     + (shapes ? ", " + sizesText(rng) + (depth == 0 ? ", input_op_ids = [" + std::to_string(std::max(id - 4, 0)) + "]" : "")
                               : std::string());
            open[depth] = events.size();
            events.push_back(std::move(e));
            t += 1'000 + std::int64_t(rng() % 4'000);
        }
        if (rng() % 3 != 2) {
            const int corr = correlation++;
            const bool driver = rng() % 5 == 0;
            const std::int64_t apiDur = 2'000 + std::int64_t(rng() % 5'000);
            Event api = event(Event::Api, t, t + apiDur, driver ? 1 : 0, tid);
            api.correlation = corr;
            events.push_back(api);
            const std::int64_t gpuStart = std::max(gpuFree, t + apiDur + 3'000);
            Event kernel = event(Event::Kernel, gpuStart, gpuStart + 2'000 + std::int64_t(rng() % 120'000), int(rng() % kPytorchKernels.size()), 0);
            kernel.correlation = corr;
            kernel.stream = 7;
            gpuFree = kernel.end;
            events.push_back(kernel);
            t += apiDur + 1'000;
        }
        if (rng() % 4 != 0) {
            const std::int64_t apiDur = 500 + std::int64_t(rng() % 1'500);
            events.push_back(event(Event::Api, t, t + apiDur, 2 + int(rng() % 2), tid));
            t += apiDur + 500;
        }
        for (int depth = 2; depth >= 0; --depth) {
            events[open[depth]].end = t;
            t += 500 + std::int64_t(rng() % 2'000);
        }
        const int osCalls = int(rng() % 3);
        for (int k = 0; k < osCalls; ++k) {
            Event os = event(Event::Osrt, t - std::int64_t(rng() % 20'000), 0, int(rng() % kPytorchOsrt.size()), 1);
            os.end = os.start + 1'000 + std::int64_t(rng() % 30'000);
            if (rng() % 2) { // a data-loader worker reading samples
                os.process = 1 + int(rng() % 4);
                os.tid = 0;
            }
            events.push_back(os);
        }
    };
    while (events.size() < n) {
        const std::size_t stepIndex = events.size();
        Event stepRange = event(Event::Nvtx, t, t, 0, 0);
        stepRange.text = "ProfilerStep#" + std::to_string(step++);
        events.push_back(stepRange);
        t += 5'000;
        for (int k = 0; k < 300 && events.size() + 16 < n; ++k)
            op(false, 0);
        for (int k = 0; k < 200 && events.size() + 16 < n; ++k)
            op(true, 2);
        events[stepIndex].end = t;
        t += 100'000 + std::int64_t(rng() % 500'000);
    }
    return events;
}

bool exec(sqlite3 *db, const char *sql)
{
    char *error = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        std::fprintf(stderr, "sqlite: %s\n", error);
        sqlite3_free(error);
        return false;
    }
    return true;
}

// The name lists a profile's events index into.
struct Names {
    const std::vector<std::string> &kernels, &nccl, &apis, &osrt;
};
const Names kSyntheticNames{kKernels, kNccl, kApis, kOsrt};
const Names kPytorchNames{kPytorchKernels, kNccl, kPytorchApis, kPytorchOsrt};
const std::vector<std::string> kPointToPointNccl{"ncclDevKernel_SendRecv"};
const Names kPipelineNames{kKernels, kPointToPointNccl, kApis, kOsrt};

// An NVTX range's text: its own, or the synthetic profile's step and phases.
std::string nvtxText(const Event &e, const char *stepPrefix)
{
    if (!e.text.empty())
        return e.text;
    return e.depth == 1 ? kPhases[std::size_t(e.name)] : stepPrefix + std::to_string(e.name);
}

// The H100 metric set's names as TARGET_INFO_GPU_METRICS lists them, and a
// sample of each for a GPU that is busy (a kernel runs) or idle.
struct MetricDefinition {
    const char *name;
    int busy, idle;
};
const std::vector<MetricDefinition> kGpuMetrics{
    {"GPC Clock Frequency [MHz]", 1980, 1755},
    {"SYS Clock Frequency [MHz]", 1755, 1755},
    {"GR Active [Throughput %]", 97, 0},
    {"Sync Compute In Flight [Throughput %]", 0, 0},
    {"Async Compute In Flight [Throughput %]", 96, 0},
    {"SMs Active [Throughput %]", 88, 0},
    {"SM Issue [Throughput %]", 41, 0},
    {"Tensor Active [Throughput %]", 35, 0},
    {"Compute Warps In Flight [Throughput %]", 52, 0},
    {"Unallocated Warps in Active SMs [Throughput %]", 31, 0},
    {"DRAM Read Bandwidth [Throughput %]", 44, 0},
    {"DRAM Write Bandwidth [Throughput %]", 18, 0},
    {"NVLink RX Bandwidth [Throughput %]", 3, 0},
    {"NVLink TX Bandwidth [Throughput %]", 3, 0},
    {"PCIe RX Throughput [Throughput %]", 1, 0},
    {"PCIe TX Throughput [Throughput %]", 1, 0},
};

// GPU_METRICS rows every 1/hz s over the events' extent: per sample one row
// per metric, its value by whether a kernel ran at that time; busy
// throughputs vary by a few percent from sample to sample, as measured ones
// do, clocks and idle zeros repeat.
// CPU sampling as nsys --sample=cpu writes it: COMPOSITE_EVENTS rows at
// `hz` per sampled thread (the training thread and each data-loader
// worker) over the trace's span, each with a callchain in
// SAMPLING_CALLCHAINS (depth 0 innermost) drawn from a few hundred stacks
// of Python and native frames, the common ones most often (as a training
// loop samples the same stacks over and over).
void writeCpuSamples(sqlite3 *db, const std::vector<Event> &events, int hz, const std::vector<std::int64_t> &globalTids, int firstStringId,
                     std::uint32_t seed)
{
    if (hz <= 0 || events.empty() || globalTids.empty())
        return;
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    for (const Event &e : events) {
        first = std::min(first, e.start);
        last = std::max(last, e.end);
    }
    exec(db, "CREATE TABLE COMPOSITE_EVENTS(id INTEGER NOT NULL PRIMARY KEY, start INTEGER NOT NULL, cpu INTEGER, threadState INTEGER,"
             " globalTid INTEGER, cpuCycles INTEGER NOT NULL);"
             "CREATE TABLE SAMPLING_CALLCHAINS(id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL, kernelMode INTEGER,"
             " thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER, unwindMethod INTEGER, stackDepth INTEGER NOT NULL,"
             " PRIMARY KEY (id, stackDepth));");
    // Frames: (function, module); outermost first in each stack below.
    static const std::pair<const char *, const char *> kFrames[] = {{"_start", "/usr/bin/python3.11"},
                                                                    {"__libc_start_main", "/usr/lib/x86_64-linux-gnu/libc.so.6"},
                                                                    {"Py_RunMain", "/usr/bin/python3.11"},
                                                                    {"_PyEval_EvalFrameDefault", "/usr/bin/python3.11"},
                                                                    {"train", "train.py"},
                                                                    {"train_step", "train.py"},
                                                                    {"__next__", "torch/utils/data/dataloader.py"},
                                                                    {"_next_data", "torch/utils/data/dataloader.py"},
                                                                    {"__getitem__", "dataset.py"},
                                                                    {"open", "PIL/Image.py"},
                                                                    {"decode_jpeg", "/usr/lib/x86_64-linux-gnu/libjpeg.so.8"},
                                                                    {"jpeg_idct_islow", "/usr/lib/x86_64-linux-gnu/libjpeg.so.8"},
                                                                    {"forward", "torch/nn/modules/module.py"},
                                                                    {"at::native::add_out", "libtorch_cpu.so"},
                                                                    {"at::native::mm", "libtorch_cuda.so"},
                                                                    {"cudaLaunchKernel", "libcudart.so.12"},
                                                                    {"cuLaunchKernel", "libcuda.so.1"},
                                                                    {"pthread_cond_wait", "/usr/lib/x86_64-linux-gnu/libc.so.6"},
                                                                    {"backward", "torch/_tensor.py"},
                                                                    {"torch::autograd::Engine::thread_main", "libtorch_cpu.so"},
                                                                    {"0x7f3a11c2d4e0", "libcuda.so.1"},
                                                                    {"__memmove_avx_unaligned_erms", "/usr/lib/x86_64-linux-gnu/libc.so.6"},
                                                                    {"do_syscall_64", "[kernel.kallsyms]"},
                                                                    {"copy_user_generic", "[kernel.kallsyms]"}};
    constexpr int kFrameCount = int(sizeof kFrames / sizeof kFrames[0]);
    std::string strings = "INSERT INTO StringIds VALUES";
    for (int f = 0; f < kFrameCount; ++f) // function f at firstStringId + 2f, its module at + 2f + 1
        strings += (f ? "," : "") + std::string("(") + std::to_string(firstStringId + 2 * f) + ",'" + kFrames[f].first + "'),("
                   + std::to_string(firstStringId + 2 * f + 1) + ",'" + kFrames[f].second + "')";
    exec(db, (strings + ";").c_str());
    // Stacks: a Python prefix, then a path into the data loader, the
    // forward or backward pass, a launch, or a wait; some end in the kernel.
    std::mt19937 rng(seed);
    std::vector<std::vector<int>> stacks;
    const std::vector<std::vector<int>> tails = {
        {6, 7, 8, 9, 10, 11}, {6, 7, 8, 9, 10},    {12, 13}, {12, 14, 15, 16}, {12, 14, 15, 16, 20}, {18, 19}, {17}, {6, 7, 21},
        {6, 7, 8, 22, 23},    {12, 14, 15, 16, 22}};
    for (int s = 0; s < 300; ++s) {
        std::vector<int> stack = {0, 1, 2, 3, 4};
        for (int extra = int(rng() % 12); extra > 0; --extra) // Python frames of varying depth
            stack.push_back(3);
        stack.push_back(5);
        const std::vector<int> &tail = tails[std::size_t(s) % tails.size()];
        stack.insert(stack.end(), tail.begin(), tail.end());
        stacks.push_back(std::move(stack));
    }
    sqlite3_stmt *sample = nullptr, *frame = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO COMPOSITE_EVENTS VALUES(?,?,?,?,?,0)", -1, &sample, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO SAMPLING_CALLCHAINS VALUES(?,?,?,?,0,?,0,0,1,?)", -1, &frame, nullptr);
    const std::int64_t period = std::max<std::int64_t>(1, 1'000'000'000 / hz);
    std::int64_t id = 1;
    for (std::size_t t = 0; t < globalTids.size(); ++t)
        for (std::int64_t time = first + std::int64_t(t) * 997; time <= last; time += period, ++id) {
            // Zipf-like: the first stacks most often.
            const double u = double(rng() % 1'000'000) / 1e6;
            const auto pick = std::min<std::size_t>(stacks.size() - 1, std::size_t(double(stacks.size()) * u * u * u));
            const std::vector<int> &stack = stacks[pick];
            const bool running = stack.back() != 17;
            sqlite3_bind_int64(sample, 1, id);
            sqlite3_bind_int64(sample, 2, time);
            sqlite3_bind_int64(sample, 3, std::int64_t(t % 16));
            sqlite3_bind_int64(sample, 4, running ? 1 : 7);
            sqlite3_bind_int64(sample, 5, globalTids[t]);
            sqlite3_step(sample);
            sqlite3_reset(sample);
            for (std::size_t depth = 0; depth < stack.size(); ++depth) {
                const int f = stack[stack.size() - 1 - depth];
                sqlite3_bind_int64(frame, 1, id);
                sqlite3_bind_int64(frame, 2, firstStringId + 2 * f);
                sqlite3_bind_int64(frame, 3, firstStringId + 2 * f + 1);
                sqlite3_bind_int64(frame, 4, f >= 22 ? 1 : 0);
                sqlite3_bind_int64(frame, 5, f == 20 ? 1 : 0);
                sqlite3_bind_int64(frame, 6, std::int64_t(depth));
                sqlite3_step(frame);
                sqlite3_reset(frame);
            }
        }
    sqlite3_finalize(sample);
    sqlite3_finalize(frame);
}

void writeGpuMetrics(sqlite3 *db, const std::vector<Event> &events, int hz)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> kernels;
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    for (const Event &e : events) {
        first = std::min(first, e.start);
        last = std::max(last, e.end);
        if (e.kind == Event::Kernel || e.kind == Event::Nccl)
            kernels.emplace_back(e.start, e.end);
    }
    if (hz <= 0 || events.empty())
        return;
    std::sort(kernels.begin(), kernels.end());
    const std::int64_t typeId = std::int64_t(1) << 8; // GPU 0 (typeId & 0xFF)
    exec(db, "CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER NOT NULL, sourceId INTEGER NOT NULL, typeName TEXT NOT NULL,"
             " metricId INTEGER NOT NULL, metricName TEXT NOT NULL);"
             "CREATE TABLE GPU_METRICS(rawTimestamp INTEGER NOT NULL, timestamp INTEGER, typeId INTEGER NOT NULL, metricId INTEGER NOT NULL, value "
             "INTEGER NOT NULL);");
    sqlite3_stmt *info = nullptr, *sample = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO TARGET_INFO_GPU_METRICS VALUES(?,0,'GH100',?,?)", -1, &info, nullptr);
    for (std::size_t m = 0; m < kGpuMetrics.size(); ++m) {
        sqlite3_bind_int64(info, 1, typeId);
        sqlite3_bind_int64(info, 2, std::int64_t(m));
        sqlite3_bind_text(info, 3, kGpuMetrics[m].name, -1, SQLITE_STATIC);
        sqlite3_step(info);
        sqlite3_reset(info);
    }
    sqlite3_finalize(info);
    sqlite3_prepare_v2(db, "INSERT INTO GPU_METRICS VALUES(?,?,?,?,?)", -1, &sample, nullptr);
    const std::int64_t period = 1000000000 / hz;
    std::mt19937 jitter(12345);
    std::size_t k = 0;
    std::int64_t runningUntil = INT64_MIN; // latest end of the kernels started so far
    for (std::int64_t t = first; t <= last; t += period) {
        while (k < kernels.size() && kernels[k].first <= t)
            runningUntil = std::max(runningUntil, kernels[k++].second);
        const bool busy = runningUntil > t;
        for (std::size_t m = 0; m < kGpuMetrics.size(); ++m) {
            sqlite3_bind_int64(sample, 1, t);
            sqlite3_bind_int64(sample, 2, t);
            sqlite3_bind_int64(sample, 3, typeId);
            sqlite3_bind_int64(sample, 4, std::int64_t(m));
            const int base = busy ? kGpuMetrics[m].busy : kGpuMetrics[m].idle;
            const bool varies = busy && base > 0 && base <= 100;
            sqlite3_bind_int64(sample, 5, varies ? std::clamp(base + int(jitter() % 9) - 4, 0, 100) : base);
            sqlite3_step(sample);
            sqlite3_reset(sample);
        }
    }
    sqlite3_finalize(sample);
}

// NCCL's annotations under nsys (pipeline profile): domain 1 named
// "NCCL", the schemas of NCCL 2.2x's payloads for its send/receive and
// communicator init (as in the real exports of tests/data/third-party),
// each call's struct in binaryData.
constexpr std::int64_t kNcclDomain = 1;
constexpr std::uint64_t kPipelineCommunicator = 0x5eedc0ffee000001ull;
constexpr std::int64_t kCommInitRankSchema = 16777218, kPeerSchema = 16777225;

void appendLittleEndian(std::string &out, std::uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out += char((v >> (8 * i)) & 0xFF);
}

std::string ncclPayload(const Event &e, int rank)
{
    std::string p;
    if (e.peer < 0 || !e.text.starts_with("nccl"))
        return p;
    appendLittleEndian(p, kPipelineCommunicator, 8);
    if (e.text == "ncclCommInitRank") { // comm, nranks, rank, device, padding
        appendLittleEndian(p, std::uint64_t(e.peer), 4);
        appendLittleEndian(p, std::uint64_t(rank), 4);
        appendLittleEndian(p, 0, 4);
    } else { // comm, size, peer, padding
        appendLittleEndian(p, std::uint64_t(e.bytes), 8);
        appendLittleEndian(p, std::uint64_t(e.peer), 4);
    }
    appendLittleEndian(p, 0, 4);
    return p;
}

template <class GlobalTidOf>
void writeNcclPayloadSchemas(sqlite3 *db, const std::vector<Event> &events, GlobalTidOf globalTidOf)
{
    const auto first = std::find_if(events.begin(), events.end(), [](const Event &e) { return e.peer >= 0; });
    if (first == events.end())
        return;
    const std::string sql =
        "CREATE TABLE NVTX_PAYLOAD_SCHEMAS(domainId INTEGER, schemaId INTEGER, name TEXT, type INTEGER, flags INTEGER, numEntries INTEGER,"
        " payloadSize INTEGER, alignTo INTEGER);"
        "CREATE TABLE NVTX_PAYLOAD_SCHEMA_ENTRIES(domainId INTEGER NOT NULL, schemaId INTEGER NOT NULL, idx INTEGER NOT NULL, flags INTEGER,"
        " type INTEGER, name TEXT, description TEXT, arrayOrUnionDetail INTEGER, offset INTEGER);"
        "INSERT INTO NVTX_PAYLOAD_SCHEMAS VALUES(1,"
        + std::to_string(kCommInitRankSchema) + ",NULL,1,NULL,4,24,NULL),(1," + std::to_string(kPeerSchema)
        + ",NULL,1,NULL,3,24,NULL);"
          "INSERT INTO NVTX_PAYLOAD_SCHEMA_ENTRIES VALUES"
          "(1,"
        + std::to_string(kCommInitRankSchema)
        + ",0,NULL,18,'NCCL communicator ID',NULL,NULL,NULL),"
          "(1,"
        + std::to_string(kCommInitRankSchema)
        + ",1,NULL,5,'No. of ranks',NULL,NULL,8),"
          "(1,"
        + std::to_string(kCommInitRankSchema)
        + ",2,NULL,5,'Rank',NULL,NULL,12),"
          "(1,"
        + std::to_string(kCommInitRankSchema)
        + ",3,NULL,5,'CUDA device',NULL,NULL,16),"
          "(1,"
        + std::to_string(kPeerSchema)
        + ",0,NULL,18,'NCCL communicator ID',NULL,NULL,NULL),"
          "(1,"
        + std::to_string(kPeerSchema)
        + ",1,NULL,22,'Message size [bytes]',NULL,NULL,8),"
          "(1,"
        + std::to_string(kPeerSchema)
        + ",2,NULL,5,'Peer rank',NULL,NULL,16);"
          "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, domainId, binaryData) VALUES(0,0,75,'NCCL',"
        + std::to_string(globalTidOf(*first)) + ",1,NULL);";
    exec(db, sql.c_str());
}

// MPI calls as nsys --trace=mpi writes them: four tables by kind of call,
// each naming its function by textId, and MPI_RANKS giving the calling
// thread's rank. Communicator handles are Open MPI's, addresses that
// differ from process to process. Strings from `id` on.
template <class GlobalTidOf>
void writeMpi(sqlite3 *db, const std::vector<Event> &events, int rank, GlobalTidOf globalTidOf, int &id)
{
    if (std::none_of(events.begin(), events.end(), [](const Event &e) { return e.kind == Event::Mpi; }))
        return;
    exec(db, "CREATE TABLE MPI_RANKS(globalTid INTEGER NOT NULL, rank INTEGER NOT NULL);"
             "CREATE TABLE MPI_P2P_EVENTS(start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER, textId INTEGER NOT NULL,"
             " commHandle INTEGER, tag INTEGER, remoteRank INTEGER, size INTEGER, requestHandle INTEGER);"
             "CREATE TABLE MPI_COLLECTIVES_EVENTS(start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER, textId INTEGER NOT NULL,"
             " commHandle INTEGER, rootRank INTEGER, size INTEGER, recvSize INTEGER, requestHandle INTEGER);"
             "CREATE TABLE MPI_START_WAIT_EVENTS(start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER, textId INTEGER NOT NULL,"
             " requestHandle INTEGER);"
             "CREATE TABLE MPI_OTHER_EVENTS(start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER, textId INTEGER NOT NULL);");
    const std::int64_t communicator = 0x7f3a5c601240ll + std::int64_t(rank) * 0x10000;
    std::map<std::string, int> functionIds;
    sqlite3_stmt *str = nullptr, *row[4] = {};
    sqlite3_prepare_v2(db, "INSERT INTO StringIds VALUES(?,?)", -1, &str, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO MPI_P2P_EVENTS VALUES(?,?,?,?,?,?,?,?,?)", -1, &row[Event::PointToPoint], nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO MPI_COLLECTIVES_EVENTS VALUES(?,?,?,?,?,?,?,?,?)", -1, &row[Event::Collective], nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO MPI_START_WAIT_EVENTS VALUES(?,?,?,?,?)", -1, &row[Event::StartWait], nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO MPI_OTHER_EVENTS VALUES(?,?,?,?)", -1, &row[Event::Other], nullptr);
    std::set<std::int64_t> threads; // each calling thread's rank goes to MPI_RANKS
    const auto bindOrNull = [](sqlite3_stmt *s, int column, std::int64_t value, bool present) {
        if (present)
            sqlite3_bind_int64(s, column, value);
        else
            sqlite3_bind_null(s, column);
    };
    for (const Event &e : events) {
        if (e.kind != Event::Mpi)
            continue;
        const std::int64_t thread = globalTidOf(e);
        threads.insert(thread);
        auto [it, added] = functionIds.try_emplace(e.text, id);
        if (added) {
            sqlite3_bind_int(str, 1, id++);
            sqlite3_bind_text(str, 2, e.text.c_str(), int(e.text.size()), SQLITE_TRANSIENT);
            sqlite3_step(str);
            sqlite3_reset(str);
        }
        sqlite3_stmt *s = row[e.mpiTable];
        sqlite3_bind_int64(s, 1, e.start);
        sqlite3_bind_int64(s, 2, e.end);
        sqlite3_bind_int64(s, 3, thread);
        sqlite3_bind_int64(s, 4, it->second);
        switch (e.mpiTable) {
        case Event::PointToPoint:
            sqlite3_bind_int64(s, 5, communicator);
            sqlite3_bind_int64(s, 6, e.tag);
            sqlite3_bind_int64(s, 7, e.peer);
            sqlite3_bind_int64(s, 8, e.bytes);
            bindOrNull(s, 9, std::int64_t(e.request), e.request != 0);
            break;
        case Event::Collective:
            sqlite3_bind_int64(s, 5, communicator);
            bindOrNull(s, 6, e.peer, e.peer >= 0);
            bindOrNull(s, 7, e.bytes, e.bytes > 0);
            bindOrNull(s, 8, e.bytes, e.bytes > 0);
            bindOrNull(s, 9, std::int64_t(e.request), e.request != 0);
            break;
        case Event::StartWait:
            sqlite3_bind_int64(s, 5, std::int64_t(e.request));
            break;
        case Event::Other:
            break;
        }
        sqlite3_step(s);
        sqlite3_reset(s);
    }
    for (sqlite3_stmt *s : {str, row[0], row[1], row[2], row[3]})
        sqlite3_finalize(s);
    for (const std::int64_t thread : threads)
        exec(db, ("INSERT INTO MPI_RANKS VALUES(" + std::to_string(thread) + "," + std::to_string(rank) + ");").c_str());
}

bool writeNsys(const QString &path, const std::vector<Event> &events, int rank, const Names &names, const tracegen::Domains &domains,
               int gpuMetricsHz, std::int64_t startOffsetNs, int cpuSamplesHz)
{
    QFile::remove(path);
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK)
        return false;
    exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;");
    exec(
        db,
        "CREATE TABLE META_DATA_EXPORT(name TEXT, value TEXT);"
        "INSERT INTO META_DATA_EXPORT VALUES('EXPORT_PRODUCT_VERSION','2025.3.2.0'),('EXPORT_SCHEMA_VERSION','3.20.3');"
        "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);"
        "CREATE TABLE TARGET_INFO_GPU(vmId INTEGER, id INTEGER, name TEXT, totalMemory INTEGER, smCount INTEGER);"
        "INSERT INTO TARGET_INFO_GPU VALUES(0,0,'NVIDIA H100 80GB HBM3',85017493504,132);"
        "CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,"
        " streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL,"
        " registersPerThread INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER,"
        " staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,"
        " streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, srcKind INTEGER, "
        "dstKind INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,"
        " streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, memKind INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,"
        " correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);"
        // NVTX_EVENTS as nsys 2025 writes it: every payload column, NULL on a plain range.
        "CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER,"
        " color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER,"
        " int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER,"
        " jsonText TEXT, binaryData BLOB);"
        "CREATE TABLE OSRT_API(start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, nameId INTEGER NOT NULL,"
        " returnValue INTEGER NOT NULL, nestingLevel INTEGER, callchainId INTEGER NOT NULL);"
        "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS(start INTEGER NOT NULL, globalPid INTEGER, deviceId INTEGER NOT NULL, bytes INTEGER NOT NULL,"
        " memoryOperationType INTEGER NOT NULL, memKind INTEGER, address INTEGER, correlationId INTEGER);");
    // Strings: kernels, NCCL kernels, APIs, OS calls.
    int id = 1;
    std::vector<int> kernelIds, ncclIds, apiIds, osrtIds;
    sqlite3_stmt *str = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO StringIds VALUES(?,?)", -1, &str, nullptr);
    auto addString = [&](const std::string &s, std::vector<int> &ids) {
        sqlite3_bind_int(str, 1, id);
        sqlite3_bind_text(str, 2, s.c_str(), int(s.size()), SQLITE_TRANSIENT);
        sqlite3_step(str);
        sqlite3_reset(str);
        ids.push_back(id++);
    };
    for (const auto &s : names.kernels)
        addString(s, kernelIds);
    for (const auto &s : names.nccl)
        addString(s, ncclIds);
    for (const auto &s : names.apis)
        addString(s, apiIds);
    for (const auto &s : names.osrt)
        addString(s, osrtIds);
    sqlite3_finalize(str);
    // Process p of the rank: the training process (0) and its workers.
    auto pidOf = [&](int process) { return std::int64_t(1000 + rank * 10 + process); };
    auto globalPidOf = [&](int process) { return (std::int64_t(1) << 56) | (pidOf(process) << 24); };
    auto globalTidOf = [&](const Event &e) { return globalPidOf(e.process) | (pidOf(e.process) + e.tid); };
    const std::int64_t globalPid = globalPidOf(0);
    int processes = 1;
    for (const Event &e : events)
        processes = std::max(processes, e.process + 1);
    std::string meta = "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(" + std::to_string(1795351401000000000LL + startOffsetNs) + ",'','');";
    for (int p = 0; p < processes; ++p)
        meta += " INSERT INTO PROCESSES VALUES(" + std::to_string(globalPidOf(p)) + "," + std::to_string(pidOf(p))
                + (p ? ",'pt_data_worker');" : ",'python3');");
    exec(db, meta.c_str());
    sqlite3_stmt *kernel = nullptr, *memcpy = nullptr, *memset = nullptr, *api = nullptr, *nvtx = nullptr, *osrt = nullptr, *memory = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(?,?,0,1,?,?,?,?,?,64,128,1,1,256,1,1,0,0,NULL)", -1, &kernel, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES(?,?,0,1,?,?,?,?,?,?,?)", -1, &memcpy, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES(?,?,0,1,?,?,?,0,?,2)", -1, &memset, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(?,?,0,?,?,?,0)", -1, &api, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, domainId, binaryData) VALUES(?,?,59,?,?,?,?)", -1, &nvtx,
                       nullptr);
    writeNcclPayloadSchemas(db, events, globalTidOf);
    sqlite3_prepare_v2(db, "INSERT INTO OSRT_API VALUES(?,?,27,?,?,0,0,0)", -1, &osrt, nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES(?,?,0,?,?,1,0,?)", -1, &memory, nullptr);
    // The pytorch profile's caching allocator: a workspace allocated before
    // each kernel and freed after it, rows in the events' order (shuffled
    // with them).
    auto memoryRow = [&](std::int64_t time, std::int64_t bytes, bool free, int correlation) {
        sqlite3_bind_int64(memory, 1, time);
        sqlite3_bind_int64(memory, 2, globalPid);
        sqlite3_bind_int64(memory, 3, bytes);
        sqlite3_bind_int64(memory, 4, free ? 1 : 0);
        sqlite3_bind_int64(memory, 5, correlation);
        sqlite3_step(memory);
        sqlite3_reset(memory);
    };
    for (const Event &e : events) {
        sqlite3_stmt *s = nullptr;
        switch (e.kind) {
        case Event::Kernel:
        case Event::Nccl:
            if (&names == &kPytorchNames && e.correlation % 4 == 0) {
                memoryRow(e.start - 500, std::int64_t(1) << (20 + e.correlation % 8), false, e.correlation);
                memoryRow(e.end + 500, std::int64_t(1) << (20 + e.correlation % 8), true, e.correlation);
            }
            s = kernel;
            sqlite3_bind_int64(s, 3, e.stream);
            sqlite3_bind_int64(s, 4, e.correlation);
            sqlite3_bind_int64(s, 5, globalPid);
            sqlite3_bind_int64(s, 6, e.kind == Event::Nccl ? ncclIds[std::size_t(e.name)] : kernelIds[std::size_t(e.name)]);
            sqlite3_bind_int64(s, 7, e.kind == Event::Nccl ? ncclIds[std::size_t(e.name)] : kernelIds[std::size_t(e.name)]);
            break;
        case Event::Memcpy:
            s = memcpy;
            sqlite3_bind_int64(s, 3, e.stream);
            sqlite3_bind_int64(s, 4, e.correlation);
            sqlite3_bind_int64(s, 5, globalPid);
            sqlite3_bind_int64(s, 6, e.bytes);
            sqlite3_bind_int64(s, 7, e.copyKind);
            sqlite3_bind_int64(s, 8, e.srcKind);
            sqlite3_bind_int64(s, 9, e.dstKind);
            break;
        case Event::Memset:
            s = memset;
            sqlite3_bind_int64(s, 3, e.stream);
            sqlite3_bind_int64(s, 4, e.correlation);
            sqlite3_bind_int64(s, 5, globalPid);
            sqlite3_bind_int64(s, 6, e.bytes);
            break;
        case Event::Api:
            s = api;
            sqlite3_bind_int64(s, 3, globalTidOf(e));
            sqlite3_bind_int64(s, 4, e.correlation);
            sqlite3_bind_int64(s, 5, apiIds[std::size_t(e.name)]);
            break;
        case Event::Nvtx: {
            s = nvtx;
            const std::string text = nvtxText(e, "step ");
            sqlite3_bind_text(s, 3, text.c_str(), int(text.size()), SQLITE_TRANSIENT);
            sqlite3_bind_int64(s, 4, globalTidOf(e));
            const std::string payload = ncclPayload(e, rank);
            sqlite3_bind_int64(s, 5, payload.empty() ? 0 : kNcclDomain);
            if (payload.empty())
                sqlite3_bind_null(s, 6);
            else
                sqlite3_bind_blob(s, 6, payload.data(), int(payload.size()), SQLITE_TRANSIENT);
            break;
        }
        case Event::Osrt:
            s = osrt;
            sqlite3_bind_int64(s, 3, globalTidOf(e));
            sqlite3_bind_int64(s, 4, osrtIds[std::size_t(e.name)]);
            break;
        case Event::Mpi: // writeMpi's
            continue;
        }
        sqlite3_bind_int64(s, 1, e.start);
        sqlite3_bind_int64(s, 2, e.end);
        sqlite3_step(s);
        sqlite3_reset(s);
    }
    for (sqlite3_stmt *s : {kernel, memcpy, memset, api, nvtx, osrt, memory})
        sqlite3_finalize(s);
    if (domains.any()) {
        std::vector<tracegen::ApiCall> calls;
        for (const Event &e : events)
            if (e.kind == Event::Api)
                calls.push_back({e.start, e.end, globalTidOf(e), e.correlation});
        if ((domains.cudnnCublas && !tracegen::writeLibraryCalls(db, calls, id)) || (domains.openAcc && !tracegen::writeOpenAcc(db, calls, id))
            || (domains.openMp && !tracegen::writeOpenMp(db, calls, id)) || (domains.unifiedMemory && !tracegen::writeUnifiedMemory(db, calls, id))
            || (domains.graphs && !tracegen::writeGraphLaunches(db, calls, id)) || (domains.nic && !tracegen::writeNicMetrics(db, calls)))
            return false;
    }
    writeGpuMetrics(db, events, gpuMetricsHz);
    writeMpi(db, events, rank, globalTidOf, id);
    {
        // The training thread and the first thread of each worker process.
        std::vector<std::int64_t> sampled;
        for (int p = 0; p < processes; ++p)
            sampled.push_back(globalPidOf(p) | pidOf(p));
        writeCpuSamples(db, events, cpuSamplesHz, sampled, id, std::uint32_t(rank) * 7919u + 17u);
    }
    const bool ok = exec(db, "COMMIT;");
    sqlite3_close(db);
    return ok;
}

std::string jsonString(const std::string &s)
{
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\\\"") : std::string(1, c);
    return out + "\"";
}

// Kineto's µs with three decimals.
std::string micros(std::int64_t ns)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
    return buf;
}

bool writeKineto(const QString &path, const std::vector<Event> &events, int rank, int ranks, const Names &names, std::int64_t startOffsetNs)
{
    std::FILE *f = std::fopen(path.toUtf8().constData(), "wb");
    if (!f)
        return false;
    const int pid = 1000 + rank;
    std::fprintf(f,
                 "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85017493504, "
                 "\"numSms\": 132}],\n"
                 " \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, \"world_size\": %d},\n \"baseTimeNanoseconds\": %lld,\n"
                 " \"traceEvents\": [\n  {\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"tid\": 0, \"args\": {\"name\": \"python3\"}}",
                 rank, ranks, (long long)(1790857026000000000LL + startOffsetNs), pid);
    static const char *copyNames[] = {"", "Memcpy HtoD (%s -> Device)", "Memcpy DtoH (Device -> %s)"};
    const std::string groupArgs =
        ", \"Collective name\": \"allreduce\", \"dtype\": \"Float\", \"In msg nelems\": 1048576, \"Group size\": " + std::to_string(ranks);
    for (const Event &e : events) {
        const std::string ts = micros(e.start), dur = micros(e.end - e.start);
        switch (e.kind) {
        case Event::Nvtx: {
            const std::string name = nvtxText(e, "ProfilerStep#");
            std::fprintf(f, ",\n  {\"ph\": \"X\", \"cat\": \"%s\", \"name\": %s, \"pid\": %d, \"tid\": %d, \"ts\": %s, \"dur\": %s}",
                         e.text.empty() || e.text.starts_with("ProfilerStep#") ? "user_annotation" : "cpu_op", jsonString(name).c_str(), pid,
                         pid + e.tid, ts.c_str(), dur.c_str());
            break;
        }
        case Event::Api:
            std::fprintf(f,
                         ",\n  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": %s, \"pid\": %d, \"tid\": %d, \"ts\": %s, \"dur\": %s, \"args\": "
                         "{\"correlation\": %d}}",
                         jsonString(names.apis[std::size_t(e.name)].substr(0, names.apis[std::size_t(e.name)].find("_v"))).c_str(), pid, pid + e.tid,
                         ts.c_str(), dur.c_str(), e.correlation);
            break;
        case Event::Kernel:
        case Event::Nccl: {
            const std::string &name = e.kind == Event::Nccl ? names.nccl[std::size_t(e.name)] : names.kernels[std::size_t(e.name)];
            std::fprintf(f,
                         ",\n  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": %s, \"pid\": 0, \"tid\": %d, \"ts\": %s, \"dur\": %s, \"args\": "
                         "{\"device\": 0, \"stream\": %d, \"correlation\": %d, \"registers per thread\": 64, \"grid\": [128, 1, 1], \"block\": [256, "
                         "1, 1]%s}}",
                         jsonString(name).c_str(), e.stream, ts.c_str(), dur.c_str(), e.stream, e.correlation,
                         e.kind == Event::Nccl ? groupArgs.c_str() : "");
            break;
        }
        case Event::Memcpy: {
            char name[96];
            std::snprintf(name, sizeof name, copyNames[e.copyKind], e.srcKind == 0 || e.dstKind == 0 ? "Pageable" : "Pinned");
            std::fprintf(
                f,
                ",\n  {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, \"ts\": %s, \"dur\": %s, \"args\": "
                "{\"device\": 0, \"stream\": %d, \"correlation\": %d, \"bytes\": %lld}}",
                name, e.stream, ts.c_str(), dur.c_str(), e.stream, e.correlation, (long long)e.bytes);
            break;
        }
        case Event::Memset:
            std::fprintf(f,
                         ",\n  {\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset (Device)\", \"pid\": 0, \"tid\": %d, \"ts\": %s, \"dur\": "
                         "%s, \"args\": "
                         "{\"device\": 0, \"stream\": %d, \"correlation\": %d, \"bytes\": %lld}}",
                         e.stream, ts.c_str(), dur.c_str(), e.stream, e.correlation, (long long)e.bytes);
            break;
        case Event::Osrt:
            std::fprintf(f, ",\n  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": %s, \"pid\": %d, \"tid\": %d, \"ts\": %s, \"dur\": %s}",
                         jsonString("aten::" + names.osrt[std::size_t(e.name)]).c_str(), pid + 100 * e.process, pid + 100 * e.process + 1, ts.c_str(),
                         dur.c_str());
            break;
        case Event::Mpi: // nsys only (main refuses the mpi profile for Kineto)
            break;
        }
    }
    std::fprintf(f, "\n]}\n");
    return std::fclose(f) == 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Writes synthetic traces for Rankscope benchmarks."));
    parser.addHelpOption();
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("nsys or kineto"), QStringLiteral("FORMAT"), QStringLiteral("nsys"));
    const QCommandLineOption ranks(QStringLiteral("ranks"), QStringLiteral("Ranks (files)"), QStringLiteral("R"), QStringLiteral("1"));
    const QCommandLineOption events(QStringLiteral("events"), QStringLiteral("Events per rank"), QStringLiteral("N"), QStringLiteral("1000000"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Random seed"), QStringLiteral("S"), QStringLiteral("1"));
    const QCommandLineOption profile(
        QStringLiteral("profile"),
        QStringLiteral("synthetic (default), pytorch (shaped like a real emit_nvtx export), ddp, launchbound, synchost, pipeline or mpi"),
        QStringLiteral("PROFILE"), QStringLiteral("synthetic"));
    const QCommandLineOption shuffle(QStringLiteral("shuffle"), QStringLiteral("Write rows out of time order (as nsys 2025.6 and later may)"));
    const QCommandLineOption gpuMetricsHz(QStringLiteral("gpu-metrics-hz"),
                                          QStringLiteral("GPU metric samples per second, nsys only (default: 10000 for pytorch, 0 for synthetic)"),
                                          QStringLiteral("HZ"));
    const QCommandLineOption cpuSamplesHz(QStringLiteral("cpu-samples-hz"),
                                          QStringLiteral("CPU samples per second and sampled thread (nsys --sample=cpu), nsys only (default: 0)"),
                                          QStringLiteral("HZ"));
    const QCommandLineOption straggler(QStringLiteral("straggler"),
                                       QStringLiteral("ddp: RANK:DELAY_US[:EVERY]: that rank runs DELAY_US more compute before the all-reduce "
                                                      "of every EVERY-th step (default 4)"),
                                       QStringLiteral("PLAN"));
    const QCommandLineOption clockOffsets(QStringLiteral("clock-offsets-us"),
                                          QStringLiteral("ddp, mpi: per rank, µs added to its recorded start (clocks off by that much)"),
                                          QStringLiteral("A,B,..."));
    const QCommandLineOption skip(QStringLiteral("skip"), QStringLiteral("ddp: RANK:STEP: that rank skips the all-reduce of that step (a desync)"),
                                  QStringLiteral("PLAN"));
    const QCommandLineOption only(QStringLiteral("only-ranks"),
                                  QStringLiteral("ddp: FIRST:LAST: write only these ranks of the set (a large set in parts)"),
                                  QStringLiteral("FIRST:LAST"));
    const QCommandLineOption domainsOption(
        QStringLiteral("domains"),
        QStringLiteral("nsys only: more of what nsys records, comma separated: cudnn, cublas, openacc, openmp, um, graphs, nic (see nsysdomains.h)"),
        QStringLiteral("LIST"));
    const QCommandLineOption warmup(
        QStringLiteral("warmup-ms"),
        QStringLiteral("synchost: step 0 launches its 20 kernels MS / 20 ms apart, the GPU idle between them (a warm-up)"), QStringLiteral("MS"),
        QStringLiteral("0"));
    const QCommandLineOption schedule(QStringLiteral("schedule"),
                                      QStringLiteral("pipeline: gpipe or 1f1b, stages run forwards and backwards of --microbatches micro-batches "
                                                     "(default: one compute per step, the bubble planted in the sends)"),
                                      QStringLiteral("SCHEDULE"));
    const QCommandLineOption microBatches(QStringLiteral("microbatches"),
                                          QStringLiteral("pipeline with --schedule: micro-batches per step (default 8)"), QStringLiteral("M"),
                                          QStringLiteral("8"));
    const QCommandLineOption pointToPoint(QStringLiteral("p2p"),
                                          QStringLiteral("pipeline with --schedule: how stages pass data, nccl (default) or mpi (nsys only)"),
                                          QStringLiteral("LIBRARY"), QStringLiteral("nccl"));
    parser.addOptions({format, profile, shuffle, gpuMetricsHz, cpuSamplesHz, ranks, events, seed, straggler, clockOffsets, skip, only, domainsOption,
                       warmup, schedule, microBatches, pointToPoint});
    parser.addPositionalArgument(QStringLiteral("outdir"), QStringLiteral("Where to write the files"));
    parser.process(app);
    if (parser.positionalArguments().size() != 1) {
        QTextStream(stderr) << "rankscope-tracegen: give one output directory\n";
        return 1;
    }
    const QDir out(parser.positionalArguments().front());
    QDir().mkpath(out.path());
    const int rankCount = parser.value(ranks).toInt();
    const auto perRank = std::size_t(parser.value(events).toLongLong());
    const bool kineto = parser.value(format) == QLatin1String("kineto");
    const bool pytorch = parser.value(profile) == QLatin1String("pytorch");
    const bool ddp = parser.value(profile) == QLatin1String("ddp");
    const bool launchBound = parser.value(profile) == QLatin1String("launchbound");
    const bool syncHost = parser.value(profile) == QLatin1String("synchost");
    const bool pipeline = parser.value(profile) == QLatin1String("pipeline");
    const bool mpi = parser.value(profile) == QLatin1String("mpi");
    if (!pytorch && !ddp && !launchBound && !syncHost && !pipeline && !mpi && parser.value(profile) != QLatin1String("synthetic")) {
        QTextStream(stderr) << "rankscope-tracegen: --profile is synthetic, pytorch, ddp, launchbound, synchost, pipeline or mpi\n";
        return 1;
    }
    tracegen::Domains domains;
    if (!domains.parse(parser.value(domainsOption).toStdString()) || (kineto && parser.isSet(domainsOption))) {
        QTextStream(stderr) << "rankscope-tracegen: --domains takes cudnn, cublas, openacc, openmp, um, graphs and nic, for nsys exports\n";
        return 1;
    }
    if (mpi && (kineto || rankCount < 2)) {
        QTextStream(stderr) << "rankscope-tracegen: the mpi profile writes nsys exports of two ranks or more\n";
        return 1;
    }
    CollectivePlan plan;
    if (parser.isSet(straggler)) {
        const QStringList parts = parser.value(straggler).split(QLatin1Char(':'));
        plan.straggler = parts.value(0).toInt();
        plan.delayNs = std::int64_t(parts.value(1).toDouble() * 1000);
        plan.every = parts.size() > 2 ? parts[2].toInt() : 4;
    }
    for (const QString &offset : parser.value(clockOffsets).split(QLatin1Char(','), Qt::SkipEmptyParts))
        plan.clockOffsetNs.push_back(std::int64_t(offset.toDouble() * 1000));
    if (parser.isSet(skip)) {
        const QStringList parts = parser.value(skip).split(QLatin1Char(':'));
        plan.skipRank = parts.value(0).toInt();
        plan.skipStep = parts.value(1).toInt();
    }
    const Names &names = pytorch ? kPytorchNames : pipeline ? kPipelineNames : kSyntheticNames;
    const QString stem = parser.value(profile);
    const int metricsHz = parser.isSet(gpuMetricsHz) ? parser.value(gpuMetricsHz).toInt() : pytorch ? 10000 : 0;
    std::vector<std::vector<Event>> ddpRanks;
    int firstWritten = 0, lastWritten = rankCount - 1;
    if (parser.isSet(only)) {
        const QStringList parts = parser.value(only).split(QLatin1Char(':'));
        firstWritten = parts.value(0).toInt();
        lastWritten = parts.value(1).toInt();
    }
    const auto written = [&](int r) { return r >= firstWritten && r <= lastWritten; };
    if (ddp)
        ddpRanks = makeDdpRanks(rankCount, perRank, parser.value(seed).toULongLong(), plan, written);
    else if (pipeline && parser.isSet(schedule)) {
        const QString name = parser.value(schedule);
        const int m = parser.value(microBatches).toInt();
        const QString library = parser.value(pointToPoint);
        if ((name != QLatin1String("gpipe") && name != QLatin1String("1f1b")) || m < 1 || rankCount < 2
            || (library != QLatin1String("nccl") && library != QLatin1String("mpi")) || (library == QLatin1String("mpi") && kineto)) {
            QTextStream(stderr) << "rankscope-tracegen: --schedule is gpipe or 1f1b, with --microbatches 1 or more, --ranks 2 or more and --p2p "
                                   "nccl or mpi (nsys only)\n";
            return 1;
        }
        ddpRanks = makeScheduledPipelineRanks(rankCount, perRank,
                                              name == QLatin1String("gpipe") ? tracegen::PipelineSchedule::GPipe
                                                                             : tracegen::PipelineSchedule::OneForwardOneBackward,
                                              m, library == QLatin1String("mpi"));
    } else if (pipeline)
        ddpRanks = makePipelineRanks(rankCount, perRank);
    else if (mpi)
        ddpRanks = makeMpiRanks(rankCount, perRank);
    for (int r = 0; r < rankCount; ++r) {
        if (!written(r))
            continue;
        const std::uint64_t rankSeed = parser.value(seed).toULongLong() * 1000003 + std::uint64_t(r);
        std::vector<Event> evs = ddp || pipeline || mpi ? std::move(ddpRanks[std::size_t(r)])
                                 : pytorch              ? makePytorchRank(perRank, rankSeed)
                                 : launchBound          ? makeLaunchBoundRank(perRank)
                                 : syncHost             ? makeSyncHostRank(perRank, std::int64_t(parser.value(warmup).toDouble() * 1e6))
                                                        : makeRank(perRank, rankSeed);
        // ddp ranks share one time axis, their recorded starts off by the
        // planted clock offsets; the other profiles' nsys files start 1 ms
        // apart per rank.
        const std::int64_t clockOffset = std::size_t(r) < plan.clockOffsetNs.size() ? plan.clockOffsetNs[std::size_t(r)] : 0;
        std::int64_t startOffset = ddp || pipeline ? clockOffset : kineto ? 0 : std::int64_t(r) * 1'000'000;
        if (mpi) {
            // Each rank's session starts as mpirun starts its process, 137
            // µs after the one before: its times count from there, its UTC
            // start says when that was (off by the planted clock offset).
            const std::int64_t sessionStart = 137'000 * std::int64_t(r);
            for (Event &e : evs) {
                e.start -= sessionStart;
                e.end -= sessionStart;
            }
            startOffset = sessionStart + clockOffset;
        }
        if (parser.isSet(shuffle)) {
            std::mt19937_64 rng(rankSeed ^ 0x5eed);
            std::shuffle(evs.begin(), evs.end(), rng);
        }
        const QString path =
            out.filePath(kineto ? QStringLiteral("%1_rank%2.pt.trace.json").arg(stem).arg(r) : QStringLiteral("%1_rank%2.sqlite").arg(stem).arg(r));
        if (!(kineto ? writeKineto(path, evs, r, rankCount, names, startOffset)
                     : writeNsys(path, evs, r, names, domains, metricsHz, startOffset, parser.value(cpuSamplesHz).toInt()))) {
            QTextStream(stderr) << "rankscope-tracegen: cannot write " << path << "\n";
            return 2;
        }
        QTextStream(stdout) << path << ": " << evs.size() << " events\n";
    }
    return 0;
}
