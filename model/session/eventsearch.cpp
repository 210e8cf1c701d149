#include "session/eventsearch.h"

#include <QRegularExpression>

#include <algorithm>
#include <map>

namespace rankscope {

namespace {

// Which of a report's interned strings match, as a bitmap by string id.
std::vector<bool> matchingStrings(const Report &report, const SearchQuery &query)
{
    std::vector<bool> matches(report.strings.size(), false);
    QRegularExpression re;
    if (query.regularExpression) {
        re.setPattern(query.text);
        if (!query.caseSensitive)
            re.setPatternOptions(QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid())
            return matches;
    }
    const Qt::CaseSensitivity cs = query.caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    for (StringId id = 1; id < report.strings.size(); ++id) {
        const QString s = report.strings.string(id);
        matches[id] = query.regularExpression ? re.match(s).hasMatch() : s.contains(query.text, cs);
    }
    return matches;
}

} // namespace

std::vector<EventLocation> findEvents(const Session &session, const SearchQuery &query, std::size_t limit)
{
    std::vector<EventLocation> hits;
    if (query.text.isEmpty())
        return hits;
    std::map<const Report *, std::vector<bool>> matchesOf;
    for (std::size_t r = 0; r < session.ranks().size() && hits.size() < limit; ++r) {
        const RankEntry &entry = session.ranks()[r];
        auto [it, added] = matchesOf.try_emplace(entry.report.get());
        if (added)
            it->second = matchingStrings(*entry.report, query);
        const std::vector<bool> &matches = it->second;
        for (std::uint32_t t = 0; t < entry.report->tracks.size(); ++t) {
            const Track &track = entry.report->tracks[t];
            if (isDerivedTrack(track.kind) || !Session::ownsTrack(entry, track))
                continue;
            const auto names = track.slices.names();
            for (std::uint32_t i = 0; i < names.size() && hits.size() < limit; ++i)
                if (matches[names[i]])
                    hits.push_back({int(r), t, i});
        }
    }
    std::sort(hits.begin(), hits.end(), [&](const EventLocation &a, const EventLocation &b) {
        const TimeNs sa = session.sessionTime(a).start, sb = session.sessionTime(b).start;
        return sa != sb ? sa < sb : std::tie(a.rank, a.track, a.event) < std::tie(b.rank, b.track, b.event);
    });
    return hits;
}

} // namespace rankscope
