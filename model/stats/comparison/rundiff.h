#pragma once
// Two runs compared (or two ranks): per kernel, NVTX path, CUDA API call or
// copy kind, the count, total and mean time on each side, the difference
// and the ratio, largest absolute change first. What `rankscope-cli diff`
// prints. Each side sums its ranks.
#include "session/session.h"
#include "stats/kernelclasses.h"
#include "stats/resulttable.h"

#include <optional>
#include <vector>

namespace rankscope::stats {

enum class DiffReport : std::uint8_t { Kernels, Nvtx, Api, Memcpy, Steps, Collectives, CpuSampling };
// "kernels", "nvtx", "api", "memcpy", "steps", "collectives", "cpu_sampling"
std::optional<DiffReport> diffReportNamed(const QString &name);
QString diffReportName(DiffReport report);

struct DiffOptions {
    // Kernels: drop template arguments and hexadecimal hashes from names,
    // so "gemm<float, 128>" and "gemm<half, 64>" compare as one "gemm<…>".
    bool normalizeKernelNames = false;
    // Compare one rank of each side (an index into Session::ranks()), not all.
    std::optional<int> rankA, rankB;
};

struct DiffRow {
    QString name;
    std::int64_t countA = 0, countB = 0;
    TimeNs totalA = 0, totalB = 0;
    TimeNs delta() const { return totalB - totalA; }
    // The delta in two parts that add up to it: what the change in the
    // number of instances made at A's mean, and what the change in the mean
    // made over B's instances. A kernel run fewer times at the same speed
    // has all of its delta from the count.
    TimeNs deltaFromCount() const;
    TimeNs deltaFromMean() const { return delta() - deltaFromCount(); }
    // "new in B", "gone in B", "more calls", "fewer calls", "slower per call",
    // "faster per call" (the larger part), "unchanged".
    QString change() const;
};

// An NVTX range's part of its path: "step 12" and "ProfilerStep#12" read
// "step" (each step of one run matches each of the other), and PyTorch's
// per-call markers (", op_id = N", ", seq = N") are dropped.
QString nvtxPathPart(std::string_view name);
// An NVTX path keeps at most this many levels, and grows no longer than
// this many characters from its outer levels: a range deeper is keyed as
// "outer > … > name" (so 20,000 nested ranges make 20,000 short keys, not
// keys whose lengths add up quadratically).
inline constexpr std::size_t kNvtxPathLevels = 32;
inline constexpr qsizetype kNvtxPathChars = 1024;
QString normalizedKernelName(std::string_view name);

std::vector<DiffRow> diffRuns(const Session &a, const Session &b, DiffReport report, const DiffOptions &options = {});
// Name, Count A, Total A (ns), Mean A (ns), Count B, Total B (ns), Mean B (ns),
// Delta (ns), Ratio B/A, From Count (ns), From Mean (ns), Change.
ResultTable diffTable(const std::vector<DiffRow> &rows, DiffReport report);
// The events of one side counted under a row's name (every rank of `s`).
std::vector<EventLocation> eventsOfDiffRow(const Session &s, DiffReport report, const DiffOptions &options, const QString &name);

// Step k of A against step k of B (annotated steps of one rank per side:
// rankA/rankB, else the first): duration and the GPU's busy time inside
// (the union of its kernels, copies and memsets), largest change of
// duration first. Steps only one side has are listed with the other empty.
struct StepDiff {
    int index = 0;
    std::optional<TimeNs> durationA, durationB, busyA, busyB;
    TimeNs delta() const { return durationB.value_or(0) - durationA.value_or(0); }
};
std::vector<StepDiff> diffSteps(const Session &a, const Session &b, const DiffOptions &options = {});
ResultTable stepDiffTable(const std::vector<StepDiff> &steps);

// Collectives matched among each run's ranks (each run's own match, as
// recorded), grouped by name: how many, their skew (last arrival - first)
// and the ranks' waits for the last one, in A and in B. Empty when neither
// run has collectives across ranks.
struct CollectiveMatch;
struct CollectiveDiff {
    QString name;
    std::int64_t countA = 0, countB = 0;
    TimeNs skewA = 0, skewB = 0; // summed over the instances
    TimeNs waitA = 0, waitB = 0; // summed over the instances' arrivals
};
std::vector<CollectiveDiff> diffCollectives(const CollectiveMatch &a, const CollectiveMatch &b);
ResultTable collectiveDiffTable(const std::vector<CollectiveDiff> &rows);

} // namespace rankscope::stats
