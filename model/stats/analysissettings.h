#pragma once
// Every setting an analysis reads, in one vocabulary: the command line's
// flags and the viewer's controls both set an AnalysisSettings, the
// analysis workspace keeps one, and each report's declaration
// (stats/reportcatalog.h) names the ones it reads.
#include "core/timetypes.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>

namespace rankscope {

namespace stats {

// The diagnosis' rules (docs/statistics.md, "Diagnosis").
struct DiagnosisThresholds {
    double inLoopGapShareOfStep = 0.10;          // an in-loop gap: at least this share of the median step...
    TimeNs inLoopGapWithoutSteps = 1'000'000;    // ...or, without annotated steps, this long
    double inputCoverage = 0.5;                  // a gap is the input pipeline's when data loading covers this much of it
    double launchBoundShortKernels = 0.5;        // share of kernels shorter than their launch call
    double launchBoundIdle = 0.10;               // and short gaps idle this share of the GPU span
    double lowUtilisationBusy = 0.5;             // GPU busy share under this...
    double lowUtilisationUnexplained = 0.2;      // ...with this share of the span idle for no other finding's reason
    double reportedShare = 0.01;                 // findings costing less are not listed
    double mediumShare = 0.05, highShare = 0.20; // severity by share of the GPU span
    bool operator==(const DiagnosisThresholds &) const = default;
};

// The AnalysisSettings by what they set, as flags: a report's declaration
// (stats/reportcatalog.h) and a workspace result's kind
// (analysis/resultstore.h) name the ones they read, and the command
// line's help names the readers of each option from them.
enum class ReportSetting : unsigned {
    GapThreshold = 1u << 0,  // gapThresholdMs
    UtilThreshold = 1u << 1, // utilThresholdPercent, utilChunks
    RuleRows = 1u << 2,      // ruleRowLimit
    MapBins = 1u << 3,       // mapBins
    CommunicationPattern = 1u << 4,
    Alignment = 1u << 5, // alignOnCollectives
    Step = 1u << 6,
    StepNames = 1u << 7,
    WhatIf = 1u << 8,              // whatIfs
    DiagnosisThresholds = 1u << 9, // diagnosis
    KernelNames = 1u << 10,        // kernelNames
    Rows = 1u << 11,               // rows: the report argument `rows=N`
    KernelNvtxNames = 1u << 12,    // kernelNvtxPrefix: the report argument `nvtx-name`
    NamePattern = 1u << 13,        // namePattern
    PerThread = 1u << 14,          // perThread
};

// Which of a kernel's names nsys' kernel reports print (their `:base` and
// `:mangled` arguments): the demangled name with its templates (what the
// timeline shows), the base name, or the mangled symbol where the export
// has it (else the demangled name).
enum class KernelNaming : std::uint8_t { Demangled, Base, Mangled };

} // namespace stats

struct AnalysisSettings {
    // Which kernels are communication (a regular expression over kernel
    // names; empty: the built-in classes; see stats/kernelclasses.h).
    QString communicationPattern;
    // Times shifted so matched collectives end together on every rank (see
    // alignedOnCollectives), not as recorded.
    bool alignOnCollectives = false;
    double gapThresholdMs = 500.0;
    double utilThresholdPercent = 50.0;
    int utilChunks = 30;
    int mapBins = 30;      // bins across where the GPUs work
    int ruleRowLimit = 50; // nsys analyze's `rows`; -1: all
    // Only this step (its number), the step names (empty: the built-in
    // ones), what-ifs as `kernel:REGEX=0.8` (stats/criticalpath/criticalpath.h: parseWhatIf).
    std::optional<int> step;
    QString stepNames;
    QStringList whatIfs;
    stats::DiagnosisThresholds diagnosis;
    stats::KernelNaming kernelNames = stats::KernelNaming::Demangled;
    // nsys' `:nvtx-name`: each kernel named "<range>/<kernel>" after the
    // innermost NVTX range around its launch.
    bool kernelNvtxPrefix = false;
    // A report's `rows=N` argument (nsys' um_sum:rows=N); unset: the report's own default.
    std::optional<int> rows;
    // Only the events whose name matches this (an unanchored regular
    // expression; empty: all), for the reports that choose events by name.
    QString namePattern;
    // A row per thread (a GPU stream, for GPU work) rather than per rank,
    // for the reports that can split a rank.
    bool perThread = false;
    bool operator==(const AnalysisSettings &) const = default;
};

// The settings (stats::ReportSetting flags) in which `a` and `b` differ.
unsigned settingsThatDiffer(const AnalysisSettings &a, const AnalysisSettings &b);

} // namespace rankscope
