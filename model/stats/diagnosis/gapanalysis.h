#pragma once
// What the GPU-gaps panel shows: idle ranges of each rank's GPUs and what
// the process's CPU threads were doing meanwhile, utilisation over time,
// and the spread of gap lengths.
#include "stats/sampling/samplingprofile.h"
#include "stats/statsscope.h"

#include <QString>

#include <limits>

namespace rankscope::stats {

struct CpuActivity {
    QString name;
    QString source;     // "NVTX" or "OS runtime"
    TimeNs covered = 0; // ns of the gap inside at least one such call/range
    double share = 0;   // covered / gap length
    int depth = 0;      // deepest nesting level seen (NVTX)
    // On the training thread (the one that made the most CUDA calls): what
    // the CPU "did" is its activity, not a helper thread's wait.
    bool mainThread = false;
};

struct GpuGapInfo {
    int rankIndex = 0; // into Session::ranks()
    int rank = 0;
    std::uint32_t pid = 0;
    int deviceId = 0;
    TimeRange time;                    // session time
    TimeNs medianStep = 0;             // the rank's median annotated step; 0 without steps
    std::vector<CpuActivity> activity; // most covering first
    // Where the CPU samples inside the gap were (stats/sampling/samplingprofile.h):
    // the top functions, when the trace has CPU samples.
    std::vector<SampledShare> sampled;
    // What the CPU did: the innermost NVTX range covering at least half
    // the gap ("data_loading covers 94%"), else the OS runtime call that
    // covers most of it; the training thread's before other threads'.
    const CpuActivity *mainActivity() const;
};

// What the threads of process `pid` did during [lo, hi] (report time): per
// NVTX range name and OS runtime call name, on the training thread or
// another, the time of [lo, hi] they cover, most covering first.
std::vector<CpuActivity> cpuActivityDuring(const Report &report, std::uint32_t pid, TimeNs lo, TimeNs hi);
// GpuGapInfo::mainActivity's rule over any such list.
const CpuActivity *mainActivityOf(const std::vector<CpuActivity> &activity);

// Which of the gaps found to return: the `longest` (a busy run has
// hundreds of thousands; only those get their CPU activity), and where to
// count them all.
struct GapSelection {
    std::size_t longest = std::numeric_limits<std::size_t>::max();
    std::size_t *found = nullptr;
};

// Gaps of at least `minimum` ns (starts and ends paired in sorted order,
// as gpu_gaps), longest first, among the GPU ops that start in the scope.
std::vector<GpuGapInfo> findGaps(const Session &session, const StatsScope &scope, TimeNs minimum, bool withActivity = true,
                                 std::size_t activityLimit = 8, GapSelection selection = {});
// The stalls of the training loop: gaps inside each rank's annotated loop
// (first step start to last step end; clipped to it) of at least
// `shareOfStep` of its median step, or `withoutSteps` ns on a rank without
// annotated steps (then anywhere). nsys' 500 ms rule hides these: a step
// is often shorter than that.
std::vector<GpuGapInfo> findInLoopGaps(const Session &session, const StatsScope &scope, double shareOfStep, TimeNs withoutSteps,
                                       std::size_t activityLimit = 8, GapSelection selection = {});

struct UtilizationSeries {
    int rankIndex = 0;
    int deviceId = 0;
    TimeNs chunk = 0;            // width of each point
    std::vector<TimeNs> start;   // session time
    std::vector<double> percent; // op time / chunk x 100 (concurrent ops add up)
};
// Fixed chunks across the scope's range (the whole session when none).
std::vector<UtilizationSeries> utilizationOverTime(const Session &session, const StatsScope &scope, int chunks = 100);

struct GapHistogramBin {
    TimeNs from = 0, to = 0; // [from, to): decades from 1 µs
    std::size_t count = 0;
    TimeNs total = 0;
};
std::vector<GapHistogramBin> gapHistogram(const Session &session, const StatsScope &scope);

// Which gaps the GPU-gaps panel lists: the loop's stalls (findInLoopGaps)
// or every gap of at least `minimum` (findGaps).
struct GapRule {
    bool inLoop = true;
    double shareOfStep = 0.1;
    TimeNs withoutSteps = 0;
    TimeNs minimum = 0;
};

// What the panel shows, the same as the calls above, each rank's GPU
// operations read once for all three (each read again would fault its
// given-back pages in again).
struct GapsOverview {
    std::vector<GpuGapInfo> gaps; // the `listed` longest, with their CPU activity
    std::size_t found = 0;        // how many the rule found
    std::vector<UtilizationSeries> utilization;
    std::vector<GapHistogramBin> histogram;
};
GapsOverview gapsOverview(const Session &session, const StatsScope &scope, const GapRule &rule, std::size_t activityLimit, std::size_t listed,
                          int chunks);

} // namespace rankscope::stats
