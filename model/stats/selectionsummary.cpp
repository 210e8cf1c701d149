#include "stats/selectionsummary.h"

#include "core/qthash.h"

#include <algorithm>
#include <unordered_map>

namespace rankscope::stats {

namespace {

struct Totals {
    std::int64_t count = 0;
    TimeNs total = 0, longest = 0, inRange = 0;
    std::uint64_t kinds = 0; // bits: indices into the kind names

    void add(const Totals &other)
    {
        count += other.count;
        total += other.total;
        longest = std::max(longest, other.longest);
        inRange += other.inRange;
        kinds |= other.kinds;
    }
};

} // namespace

ResultTable selectionSummary(const Session &session, std::vector<TrackRef> tracks, TimeRange range)
{
    std::sort(tracks.begin(), tracks.end());
    tracks.erase(std::unique(tracks.begin(), tracks.end()), tracks.end());
    // The kinds of rows named ("CUDA API", "cpu_op"): a handful in all.
    QStringList kindNames;
    auto kindBit = [&](const QString &kind) {
        qsizetype i = kindNames.indexOf(kind);
        if (i < 0) {
            i = kindNames.size();
            kindNames << kind;
        }
        return i < 64 ? std::uint64_t(1) << i : 0;
    };
    // Per report by string id (no text made per slice), then by name
    // across reports: the same name in two reports is one row.
    std::unordered_map<QString, Totals, QtHash> byName;
    for (auto first = tracks.begin(); first != tracks.end();) {
        const auto last = std::find_if(first, tracks.end(), [&](const TrackRef &t) { return t.rank != first->rank; });
        if (first->rank >= 0 && std::size_t(first->rank) < session.ranks().size()) {
            const RankEntry &entry = session.ranks()[std::size_t(first->rank)];
            const Report &report = *entry.report;
            const TimeNs lo = range.start - entry.sessionOffset, hi = range.end - entry.sessionOffset;
            std::unordered_map<StringId, Totals> byId;
            for (auto ref = first; ref != last; ++ref) {
                if (ref->track >= report.tracks.size())
                    continue;
                const Track &track = report.tracks[ref->track];
                const SliceTrack &slices = track.slices;
                const std::uint64_t kind = kindBit(trackName(report, track));
                slices.forEachOverlapping(lo, hi, [&](std::uint32_t e) {
                    const TimeNs start = slices.start(e), end = slices.end(e);
                    if (end <= lo || start >= hi) // touching the range's edge is not inside it
                        return;
                    Totals &t = byId[slices.name(e)];
                    ++t.count;
                    t.total += end - start;
                    t.longest = std::max(t.longest, end - start);
                    t.inRange += std::min(end, hi) - std::max(start, lo);
                    t.kinds |= kind;
                });
            }
            byName.reserve(byName.size() + byId.size());
            for (const auto &[id, t] : byId) {
                const std::string_view name = report.strings.view(id);
                byName[QString::fromUtf8(name.data(), qsizetype(name.size()))].add(t);
            }
        }
        first = last;
    }
    std::vector<std::pair<QString, Totals>> rows(byName.begin(), byName.end());
    // The largest total first; names break ties, so the order is the same every time.
    std::sort(rows.begin(), rows.end(),
              [](const auto &a, const auto &b) { return a.second.total != b.second.total ? a.second.total > b.second.total : a.first < b.first; });
    ResultTable t;
    t.name = QStringLiteral("selection_summary");
    t.title = QStringLiteral("Selection Summary");
    t.headers = QStringList{QStringLiteral("Name"),     QStringLiteral("Count"),         QStringLiteral("Total (ns)"), QStringLiteral("Mean (ns)"),
                            QStringLiteral("Max (ns)"), QStringLiteral("In Range (ns)"), QStringLiteral("Rows")};
    std::unordered_map<std::uint64_t, QString> kindsText; // a few combinations, shared
    for (auto &[name, s] : rows) {
        QString &kinds = kindsText[s.kinds];
        if (kinds.isEmpty()) {
            QStringList names;
            for (qsizetype i = 0; i < kindNames.size() && i < 64; ++i)
                if (s.kinds & (std::uint64_t(1) << i))
                    names << kindNames[i];
            names.sort();
            kinds = names.join(QStringLiteral(", "));
        }
        t.addRow({Cell::ofText(std::move(name)), Cell::ofInteger(s.count), Cell::ofInteger(s.total),
                  Cell::ofInteger(s.total / std::max<std::int64_t>(s.count, 1)), Cell::ofInteger(s.longest), Cell::ofInteger(s.inRange),
                  Cell::ofText(kinds)});
    }
    return t;
}

} // namespace rankscope::stats
