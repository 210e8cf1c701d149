#include "stats/statsscope.h"

#include <algorithm>

namespace rankscope::stats {

std::pair<std::size_t, std::size_t> ReportSlice::eventsIn(const Track &track) const
{
    const auto starts = track.slices.starts();
    const auto first = std::lower_bound(starts.begin(), starts.end(), range.start);
    const auto last = std::upper_bound(first, starts.end(), range.end);
    return {std::size_t(first - starts.begin()), std::size_t(last - starts.begin())};
}

ReportSlice wholeReport(const Report &report)
{
    return {&report, -1, TimeRange::everything(), std::nullopt};
}

std::vector<ReportSlice> slicesOf(const Session &session, const StatsScope &scope)
{
    std::vector<ReportSlice> slices;
    for (std::size_t i = 0; i < session.ranks().size(); ++i) {
        if (scope.rankIndex && *scope.rankIndex != int(i))
            continue;
        const RankEntry &entry = session.ranks()[i];
        ReportSlice s{entry.report.get(), int(i), TimeRange::everything(), entry.pid};
        if (scope.range)
            s.range = {scope.range->start - entry.sessionOffset, scope.range->end - entry.sessionOffset};
        slices.push_back(s);
    }
    return slices;
}

} // namespace rankscope::stats
