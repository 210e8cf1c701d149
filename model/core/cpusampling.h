#pragma once
// What the CPU was doing, as Nsight Systems samples it (`--sample=cpu`),
// and which code made a CUDA API or OS runtime call (`--cudabacktrace`,
// `--osrt-backtrace`): samples per thread and backtraces, their callchains
// stored once.
//
// A training run samples the same few hundred stacks over and over, so a
// callchain is interned (frames stored once, chains stored once) and a
// sample is 16 bytes: its time, its CPU, its thread state and the row of
// its callchain.
#include "core/column.h"
#include "core/stringtable.h"
#include "core/timetypes.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <span>

namespace rankscope {

struct TrackEvent;

// One frame of a callchain: a function in a module, as the unwinder saw it.
struct CallFrame {
    enum Flag : std::uint8_t {
        KernelMode = 1,   // in the OS kernel
        Unresolved = 2,   // the symbol was not resolved: the function is an address
        SpecialEntry = 4, // an entry nsys added while processing the chain
        Python = 8,       // a Python frame (`--python-sampling`, `--python-backtrace`): its module is a .py file
    };
    StringId function = 0;
    StringId module = 0;
    std::uint8_t flags = 0;
    std::uint8_t reserved[3] = {};
    bool has(Flag flag) const { return (flags & flag) != 0; }
    bool operator==(const CallFrame &o) const { return function == o.function && module == o.module && flags == o.flags; }
};
static_assert(sizeof(CallFrame) == 12, "frames are interned, but keep them unpadded");

// One sample of a thread. Thread states as nsys numbers them
// (ENUM_SAMPLING_THREAD_STATE): threadStateName().
struct CpuSample {
    static constexpr std::uint32_t kNoCallchain = 0xFFFFFFFFu;
    static constexpr std::uint16_t kUnknownCpu = 0xFFFFu;
    TimeNs time = 0;                        // report time
    std::uint32_t callchain = kNoCallchain; // row in CpuSampling's chains
    std::uint16_t cpu = kUnknownCpu;
    std::uint8_t threadState = 0;
    std::uint8_t reserved = 0;
};
static_assert(sizeof(CpuSample) == 16, "a sampled run holds millions: 16 bytes each");

// The samples of one thread: a run of CpuSampling::samples.
struct SampledThread {
    std::uint32_t pid = 0, tid = 0;
    std::uint32_t first = 0, count = 0;
};

// A CUDA API or OS runtime call that carries a backtrace.
struct EventBacktrace {
    std::uint32_t track = 0, event = 0;
    std::uint32_t callchain = 0;
};

struct CpuSampling {
    Column<CallFrame> frames;          // interned
    Column<std::uint32_t> chainFrames; // frame rows, innermost first, one chain after the other
    Column<std::uint32_t> chainStarts; // chain i: chainFrames[chainStarts[i], chainStarts[i + 1]); one more than chains
    Column<CpuSample> samples;         // by thread (threads), then time
    Column<SampledThread> threads;     // by pid, then tid
    Column<EventBacktrace> backtraces; // by track, then event

    bool isEmpty() const { return samples.empty() && backtraces.empty(); }
    std::size_t chainCount() const { return chainStarts.empty() ? 0 : chainStarts.size() - 1; }
    // A chain's frame rows, innermost first; empty for kNoCallchain or a row out of range.
    std::span<const std::uint32_t> callchain(std::uint32_t chain) const;
    std::span<const CpuSample> samplesOf(const SampledThread &thread) const;
    const SampledThread *thread(std::uint32_t pid, std::uint32_t tid) const;
    // The callchain of a CUDA API or OS runtime call, if it has one.
    std::optional<std::uint32_t> backtraceOf(const TrackEvent &event) const;
    std::size_t memoryBytes() const;
};

// nsys' name of a sample's thread state ("Running", "Waiting", ...).
QString threadStateName(std::uint8_t state);

} // namespace rankscope
