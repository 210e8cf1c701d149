#include "stats/selectionsummary.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <set>

namespace rankscope::stats {

ResultTable selectionSummary(const Session &session, std::vector<TrackRef> tracks, TimeRange range)
{
    std::sort(tracks.begin(), tracks.end());
    tracks.erase(std::unique(tracks.begin(), tracks.end()), tracks.end());
    struct Totals {
        std::int64_t count = 0;
        TimeNs total = 0, longest = 0, inRange = 0;
        std::set<QString> kinds;
    };
    // Names are keyed by their text: the same name in two reports is one row.
    std::map<QString, Totals> byName;
    for (const TrackRef &ref : tracks) {
        if (ref.rank < 0 || std::size_t(ref.rank) >= session.ranks().size())
            continue;
        const RankEntry &entry = session.ranks()[std::size_t(ref.rank)];
        const Report &report = *entry.report;
        if (ref.track >= report.tracks.size())
            continue;
        const Track &track = report.tracks[ref.track];
        const SliceTrack &slices = track.slices;
        const QString kind = trackName(report, track);
        const TimeNs lo = range.start - entry.sessionOffset, hi = range.end - entry.sessionOffset;
        // Per string id first: converting a name per slice would cost more than the rest.
        std::unordered_map<StringId, Totals> byId;
        slices.forEachOverlapping(lo, hi, [&](std::uint32_t e) {
            const TimeNs start = slices.start(e), end = slices.end(e);
            // Touching the range's edge is not inside it.
            if (end <= lo || start >= hi)
                return;
            Totals &t = byId[slices.name(e)];
            ++t.count;
            t.total += end - start;
            t.longest = std::max(t.longest, end - start);
            t.inRange += std::min(end, hi) - std::max(start, lo);
        });
        for (const auto &[id, t] : byId) {
            const std::string_view name = report.strings.view(id);
            Totals &into = byName[QString::fromUtf8(name.data(), qsizetype(name.size()))];
            into.count += t.count;
            into.total += t.total;
            into.longest = std::max(into.longest, t.longest);
            into.inRange += t.inRange;
            into.kinds.insert(kind);
        }
    }
    std::vector<std::pair<QString, Totals>> rows(byName.begin(), byName.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.second.total > b.second.total; });
    ResultTable t;
    t.name = QStringLiteral("selection_summary");
    t.title = QStringLiteral("Selection Summary");
    t.headers = QStringList{QStringLiteral("Name"), QStringLiteral("Count"), QStringLiteral("Total (ns)"), QStringLiteral("Mean (ns)"),
                            QStringLiteral("Max (ns)"), QStringLiteral("In Range (ns)"), QStringLiteral("Rows")};
    for (const auto &[name, s] : rows) {
        const QStringList kinds(s.kinds.begin(), s.kinds.end());
        t.addRow({Cell::ofText(name), Cell::ofInteger(s.count), Cell::ofInteger(s.total), Cell::ofInteger(s.total / std::max<std::int64_t>(s.count, 1)),
                  Cell::ofInteger(s.longest), Cell::ofInteger(s.inRange), Cell::ofText(kinds.join(QStringLiteral(", ")))});
    }
    return t;
}

} // namespace rankscope::stats
