#include "stats/ranks/ranktimemap.h"
#include "stats/reportcatalog.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace rankscope::stats {

TimeNs RankTimeMap::binStart(int bin) const
{
    // floor(length * bin / bins) without overflow for any trace length.
    const std::uint64_t length = std::uint64_t(range.end) - std::uint64_t(range.start);
    const std::uint64_t n = std::uint64_t(std::max(bins, 1)), k = std::uint64_t(std::max(bin, 0));
    return TimeNs(std::uint64_t(range.start) + length / n * k + length % n * k / n);
}

int RankTimeMap::binOf(TimeNs t) const
{
    if (bins <= 0 || t < range.start || t >= range.end)
        return -1;
    const double length = double(std::uint64_t(range.end) - std::uint64_t(range.start));
    int bin = int(std::clamp(double(std::uint64_t(t) - std::uint64_t(range.start)) / length * bins, 0.0, double(bins - 1)));
    // The estimate can be off where the widths round.
    while (bin > 0 && binStart(bin) > t)
        --bin;
    while (bin + 1 < bins && binStart(bin + 1) <= t)
        ++bin;
    return bin;
}

namespace {

// Adds density x (the part of [from, to) inside each bin) to one row's
// accumulators, in ns.
void addToBins(const RankTimeMap &map, std::vector<double> &row, TimeNs from, TimeNs to, double density)
{
    from = std::max(from, map.range.start);
    to = std::min(to, map.range.end);
    if (to <= from)
        return;
    for (int bin = map.binOf(from); bin >= 0 && bin < map.bins; ++bin) {
        const TimeRange b = map.binRange(bin);
        if (b.start >= to)
            break;
        row[std::size_t(bin)] += density * double(std::min(to, b.end) - std::max(from, b.start));
    }
}

RankTimeMap emptyMap(const Session &session, TimeRange range, int bins)
{
    RankTimeMap map;
    map.range = range;
    map.bins = range.end > range.start ? std::max(bins, 1) : 0;
    for (int i = 0; i < int(session.ranks().size()); ++i)
        map.rankIndices.push_back(i);
    map.shares.assign(map.rankIndices.size() * std::size_t(map.bins), 0.0f);
    return map;
}

// Ns per bin into shares; bins the rank recorded nothing in become NaN.
void storeRow(RankTimeMap &map, std::size_t row, const std::vector<double> &ns, TimeRange recorded, double divisor)
{
    for (int bin = 0; bin < map.bins; ++bin) {
        const TimeRange b = map.binRange(bin);
        const bool outside = recorded.isEmpty() || b.end <= recorded.start || b.start > recorded.end;
        const double width = double(b.end - b.start);
        map.shares[row * std::size_t(map.bins) + std::size_t(bin)] =
            outside ? std::numeric_limits<float>::quiet_NaN() : float(width > 0 ? ns[std::size_t(bin)] / width / divisor : 0.0);
    }
}

// The coarsest level of `lod` at least kSummaryBucketsPerBin times finer
// than the narrowest bin; null when even level 0 is too coarse.
const LodSummary::Level *levelFineEnough(const LodSummary &lod, TimeNs narrowestBin)
{
    const LodSummary::Level *chosen = nullptr;
    for (const LodSummary::Level &level : lod.levels())
        if (level.width <= narrowestBin / kSummaryBucketsPerBin)
            chosen = &level;
    return chosen;
}

} // namespace

TimeRange gpuActiveRange(const Session &session)
{
    TimeRange all{kTimeMax, kTimeMin};
    for (const RankEntry &entry : session.ranks())
        for (const BusySummary &gpu : entry.report->gpuBusy)
            if (!entry.pid || gpu.pid == *entry.pid) {
                all.start = std::min(all.start, gpu.span.start + entry.sessionOffset);
                all.end = std::max(all.end, gpu.span.end + entry.sessionOffset);
            }
    return all.start < all.end ? all : session.extent();
}

RankTimeMap gpuBusyMap(const Session &session, TimeRange range, int bins)
{
    RankTimeMap map = emptyMap(session, range, bins);
    if (map.bins == 0)
        return map;
    TimeNs narrowest = kTimeMax;
    for (int bin = 0; bin < map.bins; ++bin)
        narrowest = std::min(narrowest, map.binRange(bin).duration());
    for (std::size_t row = 0; row < map.rankIndices.size(); ++row) {
        const RankEntry &entry = session.ranks()[std::size_t(map.rankIndices[row])];
        const Report &report = *entry.report;
        std::vector<double> ns(std::size_t(map.bins), 0.0);
        int devices = 0;
        for (const BusySummary &gpu : report.gpuBusy) {
            if (entry.pid && gpu.pid != *entry.pid)
                continue;
            ++devices;
            // Report time of the map's range: nothing outside it is read.
            const TimeNs lo = map.range.start - entry.sessionOffset, hi = map.range.end - entry.sessionOffset;
            auto add = [&](TimeNs from, TimeNs to, double density) {
                addToBins(map, ns, from + entry.sessionOffset, to + entry.sessionOffset, density);
            };
            if (const LodSummary::Level *level = levelFineEnough(gpu.runs.lod(), narrowest)) {
                // A bucket's busy time spread evenly over it: exact for
                // buckets inside a bin, pro-rated at a bin's two edges.
                const auto [first, last] = level->bucketsIn(lo, hi);
                for (std::size_t b = first; b < last; ++b) {
                    const TimeNs from = level->bucket[b] * level->width;
                    const double busy = std::clamp(double(level->busy[b]), 0.0, double(level->width));
                    add(from, from + level->width, busy / double(level->width));
                }
            } else {
                const SliceTrack &runs = gpu.runs;
                runs.forEachOverlapping(lo, hi, [&](std::uint32_t e) { add(runs.start(e), runs.end(e), 1.0); });
            }
        }
        storeRow(map, row, ns, Session::recordedExtent(entry), std::max(devices, 1));
    }
    return map;
}

RankTimeMap collectiveWaitMap(const Session &session, const CollectiveMatch &match, TimeRange range, int bins)
{
    RankTimeMap map = emptyMap(session, range, bins);
    if (map.bins == 0)
        return map;
    std::vector<std::vector<double>> ns(map.rankIndices.size(), std::vector<double>(std::size_t(map.bins), 0.0));
    for (const CollectiveInstance &c : match.instances)
        for (const CollectiveArrival &a : c.arrivals) {
            const TimeNs wait = c.waitOf(a);
            if (wait > 0 && a.rankIndex >= 0 && std::size_t(a.rankIndex) < ns.size())
                addToBins(map, ns[std::size_t(a.rankIndex)], a.start, a.start + wait, 1.0);
        }
    for (std::size_t row = 0; row < map.rankIndices.size(); ++row) {
        const RankEntry &entry = session.ranks()[std::size_t(map.rankIndices[row])];
        // The shift that aligned the rank's collectives moves what it recorded too.
        TimeRange recorded = Session::recordedExtent(entry);
        recorded.start += match.shiftOf(map.rankIndices[row]);
        recorded.end += match.shiftOf(map.rankIndices[row]);
        storeRow(map, row, ns[row], recorded, 1.0);
    }
    return map;
}

std::vector<std::vector<Interval>> collectiveWaitsByRank(const CollectiveMatch &match, std::size_t rankCount)
{
    std::vector<std::vector<Interval>> waits(rankCount);
    for (const CollectiveInstance &c : match.instances)
        for (const CollectiveArrival &a : c.arrivals) {
            const TimeNs wait = c.waitOf(a);
            if (wait > 0 && a.rankIndex >= 0 && std::size_t(a.rankIndex) < rankCount)
                waits[std::size_t(a.rankIndex)].emplace_back(a.start, a.start + wait);
        }
    for (std::vector<Interval> &w : waits)
        w = unionOf(std::move(w));
    return waits;
}

RankTimeMap gpuBusyWithoutWaitMap(const Session &session, const CollectiveMatch &match, TimeRange range, int bins)
{
    RankTimeMap map = emptyMap(session, range, bins);
    if (map.bins == 0)
        return map;
    const std::vector<std::vector<Interval>> waits = collectiveWaitsByRank(match, session.ranks().size());
    for (std::size_t row = 0; row < map.rankIndices.size(); ++row) {
        const RankEntry &entry = session.ranks()[std::size_t(map.rankIndices[row])];
        const std::vector<Interval> &rankWaits = waits[std::size_t(map.rankIndices[row])];
        std::vector<double> ns(std::size_t(map.bins), 0.0);
        int devices = 0;
        for (const BusySummary &gpu : entry.report->gpuBusy) {
            if (entry.pid && gpu.pid != *entry.pid)
                continue;
            ++devices;
            const TimeNs lo = map.range.start - entry.sessionOffset, hi = map.range.end - entry.sessionOffset;
            const SliceTrack &runs = gpu.runs;
            runs.forEachOverlapping(lo, hi, [&](std::uint32_t e) {
                // The run less the waits inside it: what is left is busy.
                TimeNs from = runs.start(e) + entry.sessionOffset;
                const TimeNs to = runs.end(e) + entry.sessionOffset;
                auto w = std::upper_bound(rankWaits.begin(), rankWaits.end(), from, [](TimeNs t, const Interval &r) { return t < r.second; });
                for (; w != rankWaits.end() && w->first < to && from < to; ++w) {
                    if (w->first > from)
                        addToBins(map, ns, from, w->first, 1.0);
                    from = std::max(from, w->second);
                }
                if (from < to)
                    addToBins(map, ns, from, to, 1.0);
            });
        }
        storeRow(map, row, ns, Session::recordedExtent(entry), std::max(devices, 1));
    }
    return map;
}

ResultTable rankTimeMapTable(const Session &session, const CollectiveMatch &match, int bins)
{
    ResultTable t = declaredTable(QStringLiteral("rank_time_map"));
    t.headers = QStringList{QStringLiteral("Rank"), QStringLiteral("Start (ns)"), QStringLiteral("Duration (ns)"), QStringLiteral("GPU Busy (%)"),
                            QStringLiteral("Collective Wait (%)")};
    const TimeRange range = gpuActiveRange(session);
    const RankTimeMap busy = gpuBusyMap(session, range, bins);
    const RankTimeMap waits = collectiveWaitMap(session, match, range, bins);
    auto percent = [](float share) { return std::isnan(share) ? Cell{} : Cell::ofDecimal(100.0 * double(share), 1); };
    for (std::size_t row = 0; row < busy.rankIndices.size(); ++row)
        for (int bin = 0; bin < busy.bins; ++bin) {
            const TimeRange b = busy.binRange(bin);
            t.addRow({Cell::ofInteger(session.ranks()[std::size_t(busy.rankIndices[row])].rank), Cell::ofInteger(b.start),
                      Cell::ofInteger(b.duration()), percent(busy.share(row, bin)), percent(waits.share(row, bin))});
        }
    return t;
}

} // namespace rankscope::stats
