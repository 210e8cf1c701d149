#pragma once
// Rank x time maps: per rank, a row of equal time bins across a range of
// the session, each holding the share of the bin spent in some state: the
// GPU busy, or waiting in collectives. What nsys' *_time_util_map recipes
// compute offline, drawn to spot the rank that is out of step.
#include "core/intervals.h"
#include "core/lodsummary.h"
#include "session/session.h"
#include "stats/ranks/collectives.h"
#include "stats/resulttable.h"

#include <vector>

namespace rankscope::stats {

struct RankTimeMap {
    TimeRange range; // session time, [start, end)
    int bins = 0;
    std::vector<int> rankIndices; // the rows: indices into Session::ranks()
    std::vector<float> shares;    // row-major, rows x bins; NaN: the rank recorded nothing there

    // Bin k covers [binStart(k), binStart(k + 1)): equal widths to the ns.
    TimeNs binStart(int bin) const;
    TimeRange binRange(int bin) const { return {binStart(bin), binStart(bin + 1)}; }
    // The bin holding session time t; -1 outside the range.
    int binOf(TimeNs t) const;
    float share(std::size_t row, int bin) const { return shares[row * std::size_t(bins) + std::size_t(bin)]; }
};

// Session time from the first GPU operation of any rank to the end of the
// last one (what the maps cover unless a range is chosen); the session's
// extent when no rank has GPU work.
TimeRange gpuActiveRange(const Session &session);

// GPU busy: the share of each bin in which the rank's GPU runs a kernel, a
// copy or a memset (concurrent work counts once; a rank with several GPUs
// gets their mean). Read from the reports' GPU busy summaries
// (Report::gpuBusy) where a summary level is at least kSummaryBucketsPerBin
// times finer than a bin, so a share is off by at most 2 / that; else from
// the summary's runs themselves, exactly. No event is read either way.
inline constexpr int kSummaryBucketsPerBin = 64;
RankTimeMap gpuBusyMap(const Session &session, TimeRange range, int bins);

// Waiting in collectives: the share of each bin in which the rank's
// communication kernel had started and the last rank had not yet arrived
// (CollectiveInstance::waitOf), over every matched collective.
RankTimeMap collectiveWaitMap(const Session &session, const CollectiveMatch &match, TimeRange range, int bins);

// Per rank (by index into Session::ranks()), the time its communication
// kernels waited for the last rank to arrive at the matched collectives
// (CollectiveInstance::waitOf), in the match's session time, sorted and
// merged.
std::vector<std::vector<Interval>> collectiveWaitsByRank(const CollectiveMatch &match, std::size_t rankCount);

// GPU busy without communication wait: as gpuBusyMap, less the time a
// rank's communication kernels spent waiting for the last rank to arrive
// (the waits of collectiveWaitMap). A rank waiting for a straggler is busy
// by the first measure and idle by this one, so the straggler, busy for
// real, stands out. Read from the busy runs themselves (exact); `match`
// must be on the recorded clock, as the busy runs are.
RankTimeMap gpuBusyWithoutWaitMap(const Session &session, const CollectiveMatch &match, TimeRange range, int bins);

// `rankscope-cli stats --report rank_time_map`: both maps over
// gpuActiveRange in `bins` bins, one row per rank and bin: Rank, Start (ns)
// (session time), Duration (ns), GPU Busy (%), Collective Wait (%); a bin
// the rank recorded nothing in has empty cells.
ResultTable rankTimeMapTable(const Session &session, const CollectiveMatch &match, int bins);

} // namespace rankscope::stats
