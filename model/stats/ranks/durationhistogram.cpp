#include "stats/ranks/durationhistogram.h"

#include "core/cancellation.h"
#include "stats/reportcatalog.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <optional>

namespace rankscope::stats {

QString histogramEventsName(HistogramEvents events)
{
    switch (events) {
    case HistogramEvents::Kernels:
        return QStringLiteral("kernels");
    case HistogramEvents::CommunicationKernels:
        return QStringLiteral("communication kernels");
    case HistogramEvents::HostRanges:
        return QStringLiteral("NVTX ranges and CPU scopes");
    case HistogramEvents::CudaApiCalls:
        return QStringLiteral("CUDA API calls");
    case HistogramEvents::MpiCalls:
        return QStringLiteral("MPI calls");
    }
    return {};
}

int DurationHistogram::binOf(TimeNs duration)
{
    if (duration <= 0)
        return 0;
    return std::bit_width(std::uint64_t(duration)); // 2^(k-1) <= d < 2^k
}

HistogramLane HistogramLane::ofTrack(int rankIndex, const Track &track)
{
    const bool gpu = isGpuTrack(track.kind);
    return {rankIndex, false, track.pid, gpu ? track.deviceId : -1, gpu ? track.streamId : track.tid};
}

bool HistogramLane::holds(const Track &track) const
{
    if (wholeRank)
        return true;
    const HistogramLane own = ofTrack(rankIndex, track);
    return own.pid == pid && own.device == device && own.id == id;
}

QString histogramThreadName(const Session &session, const HistogramLane &lane)
{
    if (lane.wholeRank)
        return {};
    if (lane.device >= 0)
        return QStringLiteral("GPU %1 stream %2").arg(lane.device).arg(lane.id);
    const ThreadInfo *thread = session.ranks()[std::size_t(lane.rankIndex)].report->thread(lane.pid, lane.id);
    if (!thread || thread->name.isEmpty())
        return QStringLiteral("tid %1").arg(lane.id);
    return QStringLiteral("%1 (tid %2)").arg(thread->name).arg(lane.id);
}

QString histogramLaneName(const Session &session, const HistogramLane &lane)
{
    const QString rank = session.ranks()[std::size_t(lane.rankIndex)].displayName();
    return lane.wholeRank ? rank : QStringLiteral("%1 · %2").arg(rank, histogramThreadName(session, lane));
}

std::uint64_t DurationHistogram::maxCount() const
{
    return counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
}

namespace {

bool isChosenTrack(HistogramEvents events, TrackKind kind)
{
    switch (events) {
    case HistogramEvents::Kernels:
    case HistogramEvents::CommunicationKernels:
        return kind == TrackKind::Kernel;
    case HistogramEvents::HostRanges:
        return isHostRange(kind);
    case HistogramEvents::CudaApiCalls:
        return kind == TrackKind::CudaApi;
    case HistogramEvents::MpiCalls:
        return kind == TrackKind::Mpi;
    }
    return false;
}

// Whether each name of one report matches, asked once per distinct name.
class NameFilter {
public:
    NameFilter(const StringTable &strings, const QString &pattern) : m_strings(strings), m_re(pattern)
    {
        m_on = !pattern.isEmpty() && m_re.isValid();
        if (m_on)
            m_known.assign(strings.size(), kUnknown);
    }
    bool passes(StringId name)
    {
        if (!m_on)
            return true;
        if (name >= m_known.size())
            return matchesName(m_re, m_strings.view(name));
        if (m_known[name] == kUnknown)
            m_known[name] = matchesName(m_re, m_strings.view(name)) ? 1 : 0;
        return m_known[name] == 1;
    }

private:
    static constexpr std::uint8_t kUnknown = 0xFF;
    const StringTable &m_strings;
    QRegularExpression m_re;
    bool m_on = false;
    std::vector<std::uint8_t> m_known;
};

} // namespace

void forEachChosenEvent(const Session &session, const HistogramLane &lane, const HistogramChoice &choice, const KernelClassifier &classes,
                        const StatsScope &scope, const std::function<void(std::uint32_t, std::uint32_t, TimeNs)> &visit)
{
    const RankEntry &entry = session.ranks()[std::size_t(lane.rankIndex)];
    const Report &r = *entry.report;
    NameFilter filter(r.strings, choice.pattern);
    KernelClassCache classOf(r.strings, classes);
    const bool communicationOnly = choice.events == HistogramEvents::CommunicationKernels;
    // The scope's range in the report's time.
    const TimeNs from = scope.range ? scope.range->start - entry.sessionOffset : kTimeMin;
    const TimeNs to = scope.range ? scope.range->end - entry.sessionOffset : kTimeMax;
    for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
        const Track &track = r.tracks[t];
        if (!isChosenTrack(choice.events, track.kind) || !Session::ownsTrack(entry, track) || !lane.holds(track))
            continue;
        throwIfCancelled();
        const SliceTrack &s = track.slices;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const StringId name = s.name(i);
            if (s.start(i) < from || s.start(i) >= to || !filter.passes(name)
                || (communicationOnly && classOf.of(name) != KernelClass::Communication))
                continue;
            visit(t, std::uint32_t(i), s.duration(i));
        }
    }
}

DurationHistogram durationHistogram(const Session &session, const HistogramChoice &choice, const KernelClassifier &classes, const StatsScope &scope)
{
    using Bins = std::pair<std::array<std::uint64_t, DurationHistogram::kBins>, std::array<TimeNs, DurationHistogram::kBins>>;
    DurationHistogram h;
    for (int i = 0; i < int(session.ranks().size()); ++i) {
        if (scope.rankIndex && *scope.rankIndex != i)
            continue;
        // The rank's lanes (one, or its threads and streams), in order.
        std::map<HistogramLane, Bins> lanes;
        const Report &r = *session.ranks()[std::size_t(i)].report;
        if (!choice.perThread)
            lanes[HistogramLane::ofRank(i)] = {};
        // Events come track by track: a track's lane is looked up once.
        std::optional<std::uint32_t> atTrack;
        Bins *bins = nullptr;
        forEachChosenEvent(session, HistogramLane::ofRank(i), choice, classes, scope, [&](std::uint32_t track, std::uint32_t, TimeNs duration) {
            if (atTrack != track) {
                atTrack = track;
                bins = &lanes[choice.perThread ? HistogramLane::ofTrack(i, r.tracks[track]) : HistogramLane::ofRank(i)];
            }
            const int bin = DurationHistogram::binOf(duration);
            ++bins->first[std::size_t(bin)];
            bins->second[std::size_t(bin)] += std::max<TimeNs>(duration, 0);
        });
        for (const auto &[lane, bins] : lanes) {
            h.rows.push_back(lane);
            h.counts.insert(h.counts.end(), bins.first.begin(), bins.first.end());
            h.totals.insert(h.totals.end(), bins.second.begin(), bins.second.end());
            for (int bin = 0; bin < DurationHistogram::kBins; ++bin)
                if (bins.first[std::size_t(bin)]) {
                    h.firstBin = std::min(h.firstBin, bin);
                    h.lastBin = std::max(h.lastBin, bin);
                }
        }
    }
    return h;
}

std::vector<EventLocation> eventsInBin(const Session &session, const HistogramLane &lane, int bin, const HistogramChoice &choice,
                                       const KernelClassifier &classes, const StatsScope &scope)
{
    std::vector<EventLocation> events;
    forEachChosenEvent(session, lane, choice, classes, scope, [&](std::uint32_t track, std::uint32_t event, TimeNs duration) {
        if (DurationHistogram::binOf(duration) == bin)
            events.push_back({lane.rankIndex, track, event});
    });
    return events;
}

ResultTable durationHistogramTable(const Session &session, const DurationHistogram &h, const HistogramChoice &choice)
{
    ResultTable t;
    if (choice.events == HistogramEvents::Kernels) {
        t = declaredTable(QStringLiteral("kernel_duration_histogram"));
    } else {
        t.name = QStringLiteral("duration_histogram");
        t.title = QStringLiteral("Durations of %1 per Rank (power-of-two bins)").arg(histogramEventsName(choice.events));
    }
    t.headers = QStringList{QStringLiteral("Rank")};
    if (choice.perThread)
        t.headers << QStringLiteral("Thread");
    t.headers << QStringList{QStringLiteral("Bin Low (ns)"), QStringLiteral("Bin High (ns)"), QStringLiteral("Count"), QStringLiteral("Total (ns)")};
    const bool comparison = session.isComparison(); // two runs side by side: which run each row is
    if (comparison)
        t.headers << QStringLiteral("Run");
    for (std::size_t row = 0; row < h.rowCount(); ++row) {
        const HistogramLane &lane = h.rows[row];
        const RankEntry &entry = session.ranks()[std::size_t(lane.rankIndex)];
        const QString thread = histogramThreadName(session, lane);
        for (int bin = h.firstBin; bin <= h.lastBin; ++bin) {
            std::vector<Cell> cells{Cell::ofInteger(entry.rank)};
            if (choice.perThread)
                cells.push_back(Cell::ofText(thread));
            cells.insert(cells.end(), {Cell::ofInteger(DurationHistogram::binLow(bin)), Cell::ofInteger(DurationHistogram::binHigh(bin)),
                                       Cell::ofInteger(std::int64_t(h.count(row, bin))), Cell::ofInteger(h.total(row, bin))});
            if (comparison)
                cells.push_back(Cell::ofText(runSideName(entry.side)));
            t.addRow(cells);
        }
    }
    if (h.lastBin < 0)
        t.notes << (choice.pattern.isEmpty()
                        ? QStringLiteral("no %1").arg(histogramEventsName(choice.events))
                        : QStringLiteral("none of the %1 has a name matching '%2'").arg(histogramEventsName(choice.events), choice.pattern));
    return t;
}

ResultTable kernelDurationHistogram(const Session &session, const QString &pattern, bool perThread, const KernelClassifier &classes)
{
    const HistogramChoice choice{HistogramEvents::Kernels, pattern, perThread};
    if (const QString error = KernelClassifier::patternError(pattern); !error.isEmpty()) {
        ResultTable t = durationHistogramTable(session, {}, choice);
        t.notes = QStringList{QStringLiteral("--pattern: %1").arg(error)};
        return t;
    }
    return durationHistogramTable(session, durationHistogram(session, choice, classes), choice);
}

} // namespace rankscope::stats
