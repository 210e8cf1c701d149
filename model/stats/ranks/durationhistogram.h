#pragma once
// Paraver's 2D histogram of durations: ranks (or their threads, a
// kernel's thread being its GPU stream, as Paraver's are) x power-of-two
// duration bins, each cell the count and total time of the chosen events
// (kernels, communication kernels, host ranges, CUDA API or MPI calls,
// optionally only those whose name matches a pattern). Bin k > 0 holds durations in
// [2^(k-1), 2^k) ns; bin 0 holds the 0 ns events, [0, 1).
#include "session/session.h"
#include "stats/kernelclasses.h"
#include "stats/resulttable.h"
#include "stats/statsscope.h"

#include <QRegularExpression>

#include <functional>
#include <vector>

namespace rankscope::stats {

enum class HistogramEvents { Kernels, CommunicationKernels, HostRanges, CudaApiCalls, MpiCalls };
QString histogramEventsName(HistogramEvents events); // "kernels", "NVTX ranges and CPU scopes", ...

// What a histogram's row holds: a rank's events, or those of one of its
// threads (host events) or of one of its GPU streams (kernels).
struct HistogramLane {
    int rankIndex = -1; // into Session::ranks()
    bool wholeRank = true;
    std::uint32_t pid = 0;
    int device = -1;      // a stream's GPU; -1: a thread
    std::uint32_t id = 0; // the thread's tid, or the stream's id

    static HistogramLane ofRank(int rankIndex) { return {rankIndex}; }
    static HistogramLane ofTrack(int rankIndex, const Track &track); // its thread, or its stream for a GPU track
    bool holds(const Track &track) const;
    auto operator<=>(const HistogramLane &) const = default;
};
// "pt_autograd_0 (tid 4242)", "tid 4242", "GPU 0 stream 7"; empty for a whole rank.
QString histogramThreadName(const Session &session, const HistogramLane &lane);
// "rank 3", or "rank 3 · " and its thread's name.
QString histogramLaneName(const Session &session, const HistogramLane &lane);

struct DurationHistogram {
    static constexpr int kBins = 64; // [0, 1), then [2^k, 2^(k+1)) for k = 0..62
    static TimeNs binLow(int bin) { return bin == 0 ? 0 : TimeNs(1) << (bin - 1); }
    // The bin's upper bound, exclusive (the last one's, 2^63, is past
    // TimeNs: kTimeMax, which no duration reaches).
    static TimeNs binHigh(int bin) { return bin >= kBins - 1 ? kTimeMax : TimeNs(1) << bin; }
    static int binOf(TimeNs duration); // a negative one (a corrupt record) in bin 0

    std::vector<HistogramLane> rows;   // by rank, then thread or stream
    std::vector<std::uint64_t> counts; // rows x kBins
    std::vector<TimeNs> totals;        // rows x kBins
    // The bins any row fills: [firstBin, lastBin]; firstBin > lastBin when none.
    int firstBin = kBins, lastBin = -1;

    std::size_t rowCount() const { return rows.size(); }
    std::uint64_t count(std::size_t row, int bin) const { return counts[row * kBins + std::size_t(bin)]; }
    TimeNs total(std::size_t row, int bin) const { return totals[row * kBins + std::size_t(bin)]; }
    std::uint64_t maxCount() const;
};

// What a histogram counts: the kind of events and, when valid and not
// empty, the pattern their names match (unanchored); and whether its rows
// are ranks or their threads and streams.
struct HistogramChoice {
    HistogramEvents events = HistogramEvents::Kernels;
    QString pattern;
    bool perThread = false;
};

// Visits each chosen event of one lane that starts in the scope's range:
// its track and event in the rank's report, and its duration.
void forEachChosenEvent(const Session &session, const HistogramLane &lane, const HistogramChoice &choice, const KernelClassifier &classes,
                        const StatsScope &scope, const std::function<void(std::uint32_t track, std::uint32_t event, TimeNs duration)> &visit);

// A row per rank of the scope, or per thread and stream of those ranks
// that holds a chosen event.
DurationHistogram durationHistogram(const Session &session, const HistogramChoice &choice, const KernelClassifier &classes,
                                    const StatsScope &scope = {});

// The events of one cell (a row's lane and a bin), as session events.
std::vector<EventLocation> eventsInBin(const Session &session, const HistogramLane &lane, int bin, const HistogramChoice &choice,
                                       const KernelClassifier &classes, const StatsScope &scope = {});

// Rank,Bin Low (ns),Bin High (ns),Count,Total (ns) (Rank,Thread,... per
// thread): every row over the same bins, from the shortest filled to the
// longest. Named kernel_duration_histogram for kernels,
// duration_histogram otherwise.
ResultTable durationHistogramTable(const Session &session, const DurationHistogram &histogram, const HistogramChoice &choice);

// kernel_duration_histogram (`pattern`: only kernels whose name matches;
// `perThread`: a row per GPU stream).
ResultTable kernelDurationHistogram(const Session &session, const QString &pattern, bool perThread, const KernelClassifier &classes);

} // namespace rankscope::stats
