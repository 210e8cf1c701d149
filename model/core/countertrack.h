#pragma once
// A counter row: samples of one value over time (GPU metrics, memory in
// use), each in force until the next one, a step function.
#include "core/column.h"
#include "core/timetypes.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace rankscope {

struct ReportCacheAccess;

struct CounterTrack {
    QString name;
    QString unit;
    std::uint32_t pid = 0;
    int deviceId = -1;
    Column<TimeNs> time;
    Column<double> value;

    // Puts the samples in time order (loaders may read them out of order).
    void sortByTime();
    // Drops each sample that repeats the value in force (sampled metrics:
    // a GPU metric at 10 kHz is mostly the same value; the step function is
    // unchanged). Samples must be in time order.
    void dropRepeatedValues();
    // Once the samples are final: sorts them and builds the extremes and
    // the per-block maxima the queries below read.
    void finalize();

    double largest() const { return m_largest; }
    double smallest() const { return m_smallest; }
    // The largest value in force at some time in [from, to): the sample in
    // force at `from` and every sample taken before `to`. In time
    // proportional to the block size, however many samples the range holds,
    // so a zoomed-out frame does not read every sample.
    std::optional<double> largestIn(TimeNs from, TimeNs to) const;
    // largestIn() for ranges that move forward in time, as a frame's pixels
    // do left to right: each range's samples are found by stepping on from
    // where the last range began (doubling the step), not by a binary
    // search over every block start, so a frame reads the block starts it
    // sweeps across once instead of a search's scattered pages per pixel.
    // A range that starts earlier than the last one is searched afresh.
    class ForwardReader {
    public:
        explicit ForwardReader(const CounterTrack &track) : m_track(track) { }
        std::optional<double> largestIn(TimeNs from, TimeNs to);

    private:
        const CounterTrack &m_track;
        std::size_t m_block = 0; // the blocks before it start at or before the last range's start
    };
    // The value in force at `t` (the last sample at or before it); none
    // before the first sample.
    std::optional<double> valueAt(TimeNs t) const;
    // Over [from, to): the smallest and largest value in force and the
    // time-weighted mean (each sample holds until the next, the last until
    // `to`); the part before the first sample does not count. None when no
    // sample is in force anywhere in the range.
    struct RangeSummary {
        double smallest = 0, mean = 0, largest = 0;
    };
    std::optional<RangeSummary> summaryIn(TimeNs from, TimeNs to) const;
    std::size_t memoryBytes() const;

    // The index cache (load/cache/) writes and maps every member.
    friend struct ReportCacheAccess;

private:
    double largestOfSamples(std::size_t first, std::size_t last) const; // [first, last)
    bool isFinalized() const { return m_blockStart.size() == (time.size() + kBlock - 1) / kBlock && m_blockLargest.size() == m_blockStart.size(); }
    // The first sample taken after `t` (orAt: at or after it), found
    // in the block starts and then in one block: a mapped counter of 10^7
    // samples reads a few cache lines, not a page at every step of a
    // binary search over its times.
    std::size_t firstSampleAfter(TimeNs t, bool orAt) const;
    // Of a finalized track: the first block that starts after `t` (orAt: at
    // or after it), searched from block `from` on by doubling steps (the
    // blocks before `from` must not), and the first sample after `t` given
    // that block.
    std::size_t firstBlockAfter(TimeNs t, bool orAt, std::size_t from) const;
    std::size_t firstSampleAfter(TimeNs t, bool orAt, std::size_t block) const;
    // The largest value in force in [from, to), given the first sample
    // after `from` and the first at or after `to`.
    std::optional<double> largestBetween(std::size_t afterFrom, std::size_t atOrAfterTo) const;

    static constexpr std::size_t kBlock = 64;
    Column<TimeNs> m_blockStart;        // the time of each block's first sample
    Column<double> m_blockLargest;      // per kBlock samples
    Column<double> m_superBlockLargest; // per kBlock * kBlock samples
    double m_largest = 0.0;
    double m_smallest = 0.0;
};

} // namespace rankscope
