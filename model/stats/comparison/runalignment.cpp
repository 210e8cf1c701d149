#include "stats/comparison/runalignment.h"

#include "stats/ranks/rankcomparison.h"

#include <algorithm>
#include <tuple>

namespace rankscope::stats {

namespace {

std::optional<TimeNs> firstStepStart(const Session &s, RunSide side)
{
    for (int i : s.rankIndicesOf(side)) {
        const RankEntry &entry = s.ranks()[std::size_t(i)];
        const std::vector<TimeRange> steps = annotatedSteps(entry);
        if (!steps.empty())
            return steps.front().start + entry.sessionOffset;
    }
    return std::nullopt;
}

std::optional<TimeNs> firstEventStart(const Session &s, RunSide side)
{
    const TimeRange extent = s.subset(s.rankIndicesOf(side)).extent();
    if (extent.duration() <= 0 && extent.start == 0)
        return std::nullopt;
    return extent.start;
}

// Every event of the rank on rows of `kind` named `name`, by start.
std::vector<std::tuple<TimeNs, std::uint32_t, std::uint32_t>> occurrences(const Session &s, int rankIndex, TrackKind kind, std::string_view name)
{
    std::vector<std::tuple<TimeNs, std::uint32_t, std::uint32_t>> found;
    const RankEntry &entry = s.ranks()[std::size_t(rankIndex)];
    const Report &r = *entry.report;
    const std::optional<StringId> id = r.strings.find(name); // names are interned per report
    if (!id)
        return found;
    for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
        const Track &track = r.tracks[t];
        if (track.kind != kind || !Session::ownsTrack(entry, track))
            continue;
        for (std::uint32_t e = 0; e < track.slices.size(); ++e)
            if (track.slices.name(e) == *id)
                found.emplace_back(track.slices.start(e), t, e);
    }
    std::sort(found.begin(), found.end());
    return found;
}

} // namespace

std::optional<TimeNs> runAnchorDelta(const Session &comparison, RunAnchor anchor)
{
    const auto startOf = anchor == RunAnchor::FirstStep ? firstStepStart : firstEventStart;
    const std::optional<TimeNs> a = startOf(comparison, RunSide::A), b = startOf(comparison, RunSide::B);
    if (!a || !b)
        return std::nullopt;
    return *a - *b;
}

std::optional<EventLocation> counterpartEvent(const Session &comparison, const EventLocation &event)
{
    const RankEntry &entry = comparison.ranks()[std::size_t(event.rank)];
    if (entry.side == RunSide::None)
        return std::nullopt;
    const std::vector<int> own = comparison.rankIndicesOf(entry.side);
    const std::vector<int> other = comparison.rankIndicesOf(entry.side == RunSide::A ? RunSide::B : RunSide::A);
    if (other.empty())
        return std::nullopt;
    const auto place = std::size_t(std::find(own.begin(), own.end(), event.rank) - own.begin());
    const int otherRank = other[std::min(place, other.size() - 1)];

    const Track &track = comparison.track(event);
    const std::string_view name = entry.report->strings.view(track.slices.name(event.event));
    const auto mine = occurrences(comparison, event.rank, track.kind, name);
    const auto at =
        std::find_if(mine.begin(), mine.end(), [&](const auto &o) { return std::get<1>(o) == event.track && std::get<2>(o) == event.event; });
    const auto theirs = occurrences(comparison, otherRank, track.kind, name);
    const auto nth = std::size_t(at - mine.begin());
    if (at == mine.end() || nth >= theirs.size())
        return std::nullopt;
    return EventLocation{otherRank, std::get<1>(theirs[nth]), std::get<2>(theirs[nth])};
}

Session movedRun(const Session &comparison, RunSide side, TimeNs delta)
{
    std::vector<TimeNs> shift(comparison.ranks().size(), 0);
    for (int i : comparison.rankIndicesOf(side))
        shift[std::size_t(i)] = delta;
    return comparison.withShiftedRanks(shift);
}

std::vector<std::vector<StretchPoint>> stepStretchPoints(const Session &comparison)
{
    std::vector<std::vector<StretchPoint>> points(comparison.ranks().size());
    const std::vector<int> ranksA = comparison.rankIndicesOf(RunSide::A), ranksB = comparison.rankIndicesOf(RunSide::B);
    if (ranksA.empty())
        return points;
    auto sessionSteps = [&](int rankIndex) {
        const RankEntry &entry = comparison.ranks()[std::size_t(rankIndex)];
        std::vector<TimeRange> steps = annotatedSteps(entry);
        for (TimeRange &step : steps)
            step = {step.start + entry.sessionOffset, step.end + entry.sessionOffset};
        return steps;
    };
    for (std::size_t place = 0; place < ranksB.size(); ++place) {
        const int b = ranksB[place];
        const std::vector<TimeRange> own = sessionSteps(b), shown = sessionSteps(ranksA[std::min(place, ranksA.size() - 1)]);
        std::vector<StretchPoint> &out = points[std::size_t(b)];
        for (std::size_t k = 0; k < std::min(own.size(), shown.size()); ++k)
            for (const auto &[o, s] : {std::pair{own[k].start, shown[k].start}, std::pair{own[k].end, shown[k].end}})
                // Both strictly increasing: overlapping or empty steps give no point.
                if (out.empty() || (o > out.back().own && s > out.back().shown))
                    out.push_back({o, s});
    }
    return points;
}

} // namespace rankscope::stats
