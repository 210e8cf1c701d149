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

std::vector<EventLocation> findEvents(const Session &session, const SearchQuery &query, std::size_t limit, const std::atomic<bool> *cancel,
                                      const std::function<void(std::vector<EventLocation> batch)> &onBatch, std::size_t batchSize)
{
    std::vector<EventLocation> hits;
    if (query.text.isEmpty() || limit == 0)
        return hits;
    // A cursor per track at its next matching event; the earliest cursor
    // (by session start, then rank, track, event) gives the next hit.
    struct Cursor {
        TimeNs start;
        EventLocation at;
        const std::vector<bool> *matches;
        const SliceTrack *slices;
        TimeNs offset;
    };
    const auto later = [](const Cursor &a, const Cursor &b) {
        return a.start != b.start ? a.start > b.start : std::tie(a.at.rank, a.at.track, a.at.event) > std::tie(b.at.rank, b.at.track, b.at.event);
    };
    // Moves a cursor to the next matching event at or after its own; false at the end.
    const auto advance = [](Cursor &c) {
        const auto names = c.slices->names();
        for (std::uint32_t i = c.at.event; i < names.size(); ++i)
            if ((*c.matches)[names[i]]) {
                c.at.event = i;
                c.start = c.slices->start(i) + c.offset;
                return true;
            }
        return false;
    };
    std::map<const Report *, std::vector<bool>> matchesOf;
    std::vector<Cursor> heap;
    for (std::size_t r = 0; r < session.ranks().size(); ++r) {
        const RankEntry &entry = session.ranks()[r];
        auto [it, added] = matchesOf.try_emplace(entry.report.get());
        if (added)
            it->second = matchingStrings(*entry.report, query);
        for (std::uint32_t t = 0; t < entry.report->tracks.size(); ++t) {
            const Track &track = entry.report->tracks[t];
            if (isDerivedTrack(track.kind) || !Session::ownsTrack(entry, track))
                continue;
            Cursor c{0, {int(r), t, 0}, &it->second, &track.slices, entry.sessionOffset};
            if (advance(c))
                heap.push_back(c);
        }
    }
    std::make_heap(heap.begin(), heap.end(), later);
    std::size_t delivered = 0;
    while (!heap.empty() && hits.size() < limit) {
        std::pop_heap(heap.begin(), heap.end(), later);
        Cursor &c = heap.back();
        hits.push_back(c.at);
        ++c.at.event;
        if (advance(c))
            std::push_heap(heap.begin(), heap.end(), later);
        else
            heap.pop_back();
        if (hits.size() % batchSize == 0) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                break;
            if (onBatch) {
                onBatch(std::vector<EventLocation>(hits.begin() + std::ptrdiff_t(delivered), hits.end()));
                delivered = hits.size();
            }
        }
    }
    if (onBatch && delivered < hits.size())
        onBatch(std::vector<EventLocation>(hits.begin() + std::ptrdiff_t(delivered), hits.end()));
    return hits;
}

} // namespace rankscope
