#pragma once
// Where the CPU spent its samples, as Nsight Systems' Top-Down, Bottom-Up
// and Flat views count them: over the samples of a scope (time range,
// ranks, threads), each sample with its callchain (core/cpusampling.h).
//
// Self: the samples whose innermost frame is that function in that module.
// Total: the samples with that function anywhere in their callchain,
// counted once per sample (recursion does not count twice). Percentages are
// of the samples in scope that have a callchain.
#include "stats/resulttable.h"
#include "stats/statsscope.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

namespace rankscope::stats {

// What the views leave out or fold, as Nsight Systems offers it.
struct SamplingFilter {
    bool hideKernelFrames = false;   // drop the OS kernel's frames (a sample only in the kernel is left out)
    bool collapseUnresolved = false; // a run of unresolved frames of one module becomes one "[unresolved]" frame
    bool groupByModule = false;      // a frame is its module: where time goes by library
    bool operator==(const SamplingFilter &) const = default;
};

// A function as the views name it, the same across ranks (by its text).
struct SampledFunction {
    QString function;
    QString module;
    bool kernelMode = false;
    bool unresolved = false;
    bool python = false;
};

struct FlatFunction {
    std::uint32_t function = 0; // row in SamplingProfile::functions
    std::uint64_t self = 0, total = 0;
};

// A call tree: node 0 is the root (every sample); a node's children are
// sorted by total samples, most first, then by name.
struct CallTree {
    static constexpr std::uint32_t kRoot = 0xFFFFFFFFu;
    struct Node {
        std::uint32_t function = kRoot; // row in SamplingProfile::functions; kRoot for the root
        std::uint32_t parent = 0;
        std::uint32_t depth = 0; // the root's children are at 0
        std::uint64_t self = 0;  // samples that end here
        std::uint64_t total = 0; // samples through here
        std::vector<std::uint32_t> children;
    };
    std::vector<Node> nodes;
    // Nodes depth first, each before its children in their order (the root left out).
    std::vector<std::uint32_t> preorder() const;
};

// Which samples a profile counts.
struct SamplingScope {
    std::vector<ReportSlice> slices;
    // Threads to count, by (rank index, pid, tid): a slice's rankIndex, or
    // its place in `slices` when it has none; none = every thread.
    using ThreadKey = std::tuple<int, std::uint32_t, std::uint32_t>;
    std::optional<std::set<ThreadKey>> threads;
};

struct SamplingProfile {
    std::vector<SampledFunction> functions;
    // Distinct stacks (function rows, innermost first) and their samples.
    std::vector<std::vector<std::uint32_t>> stacks;
    std::vector<std::uint64_t> stackSamples;
    std::uint64_t samples = 0;          // in scope, with a callchain (after the filter): the 100 %
    std::uint64_t withoutCallchain = 0; // in scope, but no callchain (or none left after the filter)

    // Self and total per function, by self then total samples, most first.
    std::vector<FlatFunction> flat() const;
    // From the outermost frame in: where the samples were called from.
    CallTree topDown() const;
    // From the innermost frame out: who called the functions the samples were in.
    CallTree bottomUp() const;
    // The function's row, by its name and module, if any sample has it.
    std::optional<std::uint32_t> find(const QString &function, const QString &module) const;
    double percentOf(std::uint64_t count) const { return samples ? 100.0 * double(count) / double(samples) : 0.0; }
};

SamplingProfile samplingProfile(const SamplingScope &scope, const SamplingFilter &filter = {});
SamplingProfile samplingProfile(const Session &session, const StatsScope &scope, const SamplingFilter &filter = {});
// The samples of one report in a report-time range.
SamplingProfile samplingProfile(const Report &report, TimeRange range = TimeRange::everything(), const SamplingFilter &filter = {});

// The tables `stats --report cpu_sampling_flat` and `cpu_sampling_top_down` print.
ResultTable samplingFlatTable(const SamplingProfile &profile);
ResultTable samplingTopDownTable(const SamplingProfile &profile);
// Bottom-Up the same way (the viewer's export).
ResultTable samplingBottomUpTable(const SamplingProfile &profile);

// Where the CPU was sampled in a span of one report (a GPU gap): the
// functions the most samples were in (self, innermost frame), each with
// its share of the samples with a callchain there. A process of the report
// only, when `pid` is set; every thread.
struct SampledShare {
    QString function, module;
    std::uint64_t samples = 0;
    double share = 0; // of the span's samples with a callchain
};
std::vector<SampledShare> topSampledFunctions(const Report &report, std::optional<std::uint32_t> pid, TimeRange reportRange, std::size_t count = 3);
// The same over several spans of several reports (a finding's gaps on every
// rank): samples added up by function text, shares of them all. Each
// report's spans sorted by start and disjoint.
struct SampledSpans {
    const Report *report = nullptr;
    std::optional<std::uint32_t> pid;
    std::vector<TimeRange> ranges; // report time
};
std::vector<SampledShare> topSampledFunctions(const std::vector<SampledSpans> &spans, std::size_t count = 3);
// "decode_jpeg (libjpeg.so.8) 41 %, ..." for a table cell or a finding;
// one function as "decode_jpeg (libjpeg.so.8)".
QString sampledSharesText(const std::vector<SampledShare> &shares);
QString sampledFunctionText(const SampledShare &share);

// A function's name as the views print it: "[unknown]" for a frame whose
// symbol the export does not name.
QString functionLabel(const SampledFunction &f);

} // namespace rankscope::stats
