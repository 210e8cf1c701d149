#pragma once
// What the diagnosis knows of each rank's loop: its range, the GPU's idle
// gaps in it and what the CPU did to load data. Every detector
// (stats/diagnosis/diagnosisdetectors.h) reads it; it is computed once per rank.
#include "core/intervals.h"
#include "session/session.h"
#include "stats/diagnosis/diagnosis.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace rankscope::stats {

// Whether a range's name says it loads input (PyTorch's DataLoader ops, a
// "data_loading" range, fetch, collate, prefetch, ...): the diagnosis'
// input-starvation finding and the critical path's idle time read the same.
// `name` is UTF-8, as the string table holds it.
bool isDataLoadingName(std::string_view name);

// Whether the loop has annotated steps, the loop's range (first step start
// to last step end, else the GPU's whole span), the idle gaps between the
// GPU's busy runs inside it, and the data-loading ranges and OS reads. Only
// what the findings read: it is kept for every rank at once.
struct RankLoop {
    bool hasSteps = false;
    TimeNs medianStep = 0;
    TimeNs gapThreshold = 0; // an in-loop gap is at least this long
    TimeRange range;         // the loop, clipped to the GPU's span
    // Warm-up steps (stats/ranks/stepmatrix.h, isWarmupStep) inside the
    // loop, session time, by start: left out of its span, gaps and findings.
    std::vector<Interval> warmup;
    std::vector<Interval> idle;    // gaps between busy runs inside the loop and out of warm-up, session time
    std::vector<Interval> loading; // data-loading ranges and OS reads, union
    struct LoadingRange {
        Interval when; // session time
        StringId name;
        TrackEvent event; // in the rank's report
    };
    std::vector<LoadingRange> loadingNamed; // the same, each with its name and event
    TimeNs span() const { return range.duration() - lengthOf(warmup); }
    TimeNs idleTime() const { return lengthOf(idle); }
    // Whether `t` overlaps the loop outside its warm-up steps.
    bool inLoop(const TimeRange &t) const
    {
        if (t.end <= range.start || t.start >= range.end)
            return false;
        return std::none_of(warmup.begin(), warmup.end(), [&](const Interval &w) { return w.first <= t.start && t.end <= w.second; });
    }
    // The gap of `idle` that holds `t`, if any.
    const Interval *gapAt(TimeNs t) const
    {
        auto it = std::upper_bound(idle.begin(), idle.end(), Interval{t, kTimeMax});
        if (it == idle.begin())
            return nullptr;
        --it;
        return t >= it->first && t < it->second ? &*it : nullptr;
    }
    // The idle time in gaps shorter than an in-loop gap (what launch-bound
    // kernels leave).
    TimeNs shortIdleTime() const;
};

RankLoop loopOf(const RankEntry &entry, const DiagnosisThresholds &thresholds);
// Every rank's loop, rank after rank, each rank's mapped pages given back
// once read (session/residentbudget.h).
std::vector<RankLoop> loopsOf(const Session &session, const DiagnosisThresholds &thresholds);

// The data-loading range whose name covers most of [from, to): the
// longest such range of that name inside it, or null.
const RankLoop::LoadingRange *mainLoadingRange(const RankLoop &loop, TimeNs from, TimeNs to);

} // namespace rankscope::stats
