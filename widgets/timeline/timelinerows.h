#pragma once
// The rows of the timeline for a session, in the order Nsight Systems users
// know: per rank a group; in it, per process its threads' OS runtime, CUDA
// API and NVTX rows; per GPU an all-streams row, the NVTX ranges projected
// onto the GPU, a row per stream, the NCCL lane; then counter rows. Pure
// data: no painting. Groups collapse; rows can be hidden and reordered
// among their siblings.
#include "session/session.h"
#include "stats/ranks/gpustaterows.h"

#include <QFontMetrics>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

namespace rankscope {

struct TimelineRow {
    enum class Kind : std::uint8_t { Group, Slices, Counter, Samples };
    Kind kind = Kind::Slices;
    int rank = -1; // index into Session::ranks()
    int level = 0; // indentation: 0 rank, 1 process or GPU group, 2 row or streams group, 3 stream
    int parent = -1;
    QString label;
    // A rank's label in parts, in the order shown, each with how long it
    // stays when the column is narrow (higher: longer): the rank, then its
    // file and host, before its GPUs' model. Empty: the label is one part.
    struct LabelPart {
        QString text;
        int keep = 0;
    };
    std::vector<LabelPart> labelParts;
    QString tooltip;
    std::vector<std::uint32_t> tracks; // tracks of the rank's report drawn here
    // Kind::Group: the tracks whose busy time it draws when collapsed (its
    // GPU work when it has any, else all its rows' tracks), once each.
    std::vector<std::uint32_t> summaryTracks;
    std::vector<int> laneOffset; // first lane of each track in this row
    bool flatten = false;        // draw every event on its track's first lane
    int counter = -1;            // Kind::Counter: index into Report::counters...
    // ...or a counter derived from the rank's tracks (a GPU's state rows,
    // stats/ranks/gpustaterows.h), in its report's time.
    std::shared_ptr<const stats::GpuStateCounter> derivedCounter;
    int sampledThread = -1; // Kind::Samples: row in Report::sampling.threads
    int lanes = 1;
    bool collapsed = false;
    bool hidden = false;
    bool pinned = false; // drawn at the top, above the scrolled rows
    bool onGpu = false;  // draws GPU work (a CUDA HW row)
    bool nccl = false;   // draws NCCL kernels
};

// A label that fits `width` px: its parts joined by " · ", the parts that
// matter least shortened, then left out, first; a label of one part cut in
// the middle.
QString fittedLabel(const TimelineRow &row, const QFontMetrics &metrics, int width);
// A long label on two lines (a counter's row is two lines tall): as many
// words as fit on the first, the rest on the second, cut at its end.
QStringList twoLineLabel(const QString &label, const QFontMetrics &metrics, int width);

// Which rows "show only" keeps.
enum class RowFilter : std::uint8_t { GpuRows, NcclRows };

// A counter row's counter: the report's, or the one derived for the row.
const CounterTrack &counterOf(const RankEntry &entry, const TimelineRow &row);

class TimelineRows {
public:
    static constexpr int kGroupHeight = 22;
    static constexpr int kLaneHeight = 17;
    static constexpr int kCounterHeight = 36;
    static constexpr std::size_t kStreamsShownUnfolded = 6;
    // A session of more ranks opens with every rank collapsed: each drawn
    // from its GPU busy summary, so hundreds open without reading an event
    // (the user expands the ones that stand out).
    static constexpr std::size_t kRanksOpenedExpanded = 8;

    // A new session's rows (no derived rows).
    void build(const Session &session);
    // The ranks (indices into Session::ranks()) whose GPU groups show their
    // derived state rows (kernels in flight, compute during communication,
    // GPU useful, GPU gap) below All streams: the rows rebuilt, what the
    // user folded, hid and pinned kept by the rows' keys. Each GPU's rows
    // are computed once per report and kept.
    void setDerivedGpuRanks(const Session &session, std::set<int> ranks);
    const std::set<int> &derivedGpuRanks() const { return m_derivedRanks; }
    // The derived rows' counters take seconds on a big trace, so a caller
    // may compute them elsewhere first: the GPUs of `ranks` whose counters
    // are not yet known (each with its tracks), their counters computed on
    // any thread, then given back before setDerivedGpuRanks. What is not
    // given is computed there.
    struct DerivedGpu {
        const Report *report = nullptr;
        std::uint32_t pid = 0;
        int device = -1;
        std::vector<std::uint32_t> tracks;
    };
    using DerivedCounters = std::vector<std::shared_ptr<const stats::GpuStateCounter>>;
    std::vector<DerivedGpu> gpusWithoutDerivedCounters(const Session &session, const std::set<int> &ranks) const;
    static DerivedCounters derivedCountersOf(const DerivedGpu &gpu);
    void addDerivedCounters(const DerivedGpu &gpu, DerivedCounters counters);
    const std::vector<TimelineRow> &rows() const { return m_rows; }
    // Rows in display order that are neither hidden, pinned nor inside a
    // collapsed group: the rows that scroll.
    const std::vector<int> &shownRows() const { return m_shown; }
    // Pinned rows in the order they were pinned (Perfetto's pinned tracks):
    // they stay at the top while the others scroll under them.
    const std::vector<int> &pinnedRows() const { return m_pinnedShown; }
    int height(int row) const;
    int totalHeight() const; // of the scrolled rows
    int pinnedHeight() const;
    // The row that draws a track (the first, for tracks drawn twice).
    int rowOf(int rank, std::uint32_t track) const;

    void setCollapsed(int row, bool collapsed);
    void toggle(int row) { setCollapsed(row, !m_rows[std::size_t(row)].collapsed); }
    void hide(int row);
    void showAll();
    void setAllCollapsed(bool collapsed);
    // Hides every row the filter does not keep, and the groups left empty;
    // unfolds the groups above the rows kept. showAll() undoes it.
    void showOnly(RowFilter filter);
    void setPinned(int row, bool pinned);
    // A row's name that survives reloading: its labels from the rank group
    // down, " / " joined ("Rank 0 / GPU 0 / Stream 7").
    QString key(int row) const;
    QStringList hiddenKeys() const;
    // Hides the rows whose key is listed (remembered from an earlier session).
    void hideKeys(const QStringList &keys);
    // Moves a row one place among the rows of its parent (with its children).
    bool move(int row, int direction);
    // When these rows are `before`'s (the same ranks, their events now read:
    // Report::summariesOnly), takes over which rows the user folded, hid,
    // pinned and moved there. Otherwise changes nothing.
    void keepArrangementOf(const TimelineRows &before);

private:
    struct RankTracks;
    int add(TimelineRow row);
    // A rank's rows: its group, a CUDA HW group per GPU, a group per
    // process with a row per thread and kind, then its counters.
    void addRank(const Session &session, int rank);
    void buildRows(const Session &session);
    // The derived state rows of one GPU of a rank in m_derivedRanks.
    void addDerivedGpuRows(const RankTracks &tracks, int hwRow, std::uint32_t pid, int device, const std::vector<std::uint32_t> &gpuTracks);
    int addGroup(int rank, int parent, int level, QString label, bool collapsed);
    // The row's label from its parts (fittedLabel cuts them in their order of `keep`).
    void setLabelParts(int row, std::vector<TimelineRow::LabelPart> parts);
    int addRankGroup(const RankTracks &tracks);
    void addGpuGroup(const RankTracks &tracks, int rankRow, std::uint32_t pid, int device, const std::vector<std::uint32_t> &gpuTracks);
    void addProcessGroup(const RankTracks &tracks, int rankRow, std::uint32_t pid);
    void addCounterRows(const RankTracks &tracks, int rankRow);
    // A thread's CPU samples, below its other rows (nsys' sampling row).
    void addSamplesRow(const RankTracks &tracks, int processRow, std::uint32_t pid, std::uint32_t tid, const QString &threadName);
    // One row drawing `tracks`: flattened into one lane, or stacked by depth. Nothing when empty.
    void addSlicesRow(const Report &r, int rank, int parent, int level, const QString &label, const std::vector<std::uint32_t> &tracks, bool flatten);
    void collectSummaryTracks(const Session &session);
    void refresh();

    std::vector<TimelineRow> m_rows;
    std::vector<int> m_order; // display order of row indices
    std::vector<int> m_shown;
    std::vector<int> m_pinned;      // pin order
    std::vector<int> m_pinnedShown; // of those, the ones not hidden
    std::map<std::pair<int, std::uint32_t>, int> m_rowOfTrack;
    bool m_ranksStartCollapsed = false;
    std::set<int> m_derivedRanks;
    // Per report, process and device: its derived state counters.
    std::map<std::tuple<const Report *, std::uint32_t, int>, DerivedCounters> m_derivedCounters; // by report, pid and device
};

} // namespace rankscope
