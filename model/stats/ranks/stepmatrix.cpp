#include "stats/ranks/stepmatrix.h"

#include "core/gputimesplit.h"

#include <algorithm>

namespace rankscope::stats {

StepMatrix::Spread StepMatrix::spreadOf(std::size_t step) const
{
    Spread spread;
    std::vector<TimeNs> durations;
    const std::vector<std::optional<TimeRange>> &row = steps[step];
    for (std::size_t column = 0; column < row.size(); ++column) {
        if (!row[column])
            continue;
        const TimeNs d = row[column]->duration();
        if (spread.slowestColumn < 0 || d > spread.max) {
            spread.max = d;
            spread.slowestColumn = int(column);
        }
        durations.push_back(d);
    }
    spread.ranks = int(durations.size());
    if (durations.empty())
        return spread;
    std::sort(durations.begin(), durations.end());
    spread.min = durations.front();
    // The lower middle for an even count: a duration some rank took, to the ns.
    spread.median = durations[(durations.size() - 1) / 2];
    return spread;
}

QString stepPatternError(const QString &names)
{
    const QRegularExpression pattern(names);
    return pattern.isValid() ? QString() : pattern.errorString();
}

std::vector<TrackEvent> stepEventsOf(const RankEntry &entry, const QRegularExpression *pattern)
{
    std::vector<TrackEvent> steps;
    const Report &r = *entry.report;
    // Per name of the report's table: unknown, a step's, or not (a few
    // names, a million ranges).
    enum : std::uint8_t { kUnknown, kStep, kNotStep };
    std::vector<std::uint8_t> known(r.strings.size(), kUnknown);
    const auto isStep = [&](StringId id) {
        std::uint8_t unknown = kUnknown;
        std::uint8_t &k = id < known.size() ? known[id] : unknown;
        if (k == kUnknown) {
            const std::string_view name = r.strings.view(id);
            k = (pattern ? pattern->match(QString::fromUtf8(name.data(), qsizetype(name.size()))).hasMatch() : isStepName(name)) ? kStep : kNotStep;
        }
        return k == kStep;
    };
    for (std::uint32_t track = 0; track < r.tracks.size(); ++track) {
        const Track &t = r.tracks[track];
        if (!isHostRange(t.kind) || !Session::ownsTrack(entry, t))
            continue;
        for (std::size_t i = 0; i < t.slices.size(); ++i)
            if (isStep(t.slices.name(i)))
                steps.push_back({track, std::uint32_t(i)});
    }
    std::stable_sort(steps.begin(), steps.end(), [&](const TrackEvent &a, const TrackEvent &b) {
        return r.tracks[a.track].slices.start(a.event) < r.tracks[b.track].slices.start(b.event);
    });
    return steps;
}

std::vector<TimeRange> stepRangesOf(const RankEntry &entry, const QRegularExpression *pattern)
{
    std::vector<TimeRange> steps;
    const Report &r = *entry.report;
    for (const TrackEvent &e : stepEventsOf(entry, pattern)) {
        const SliceTrack &s = r.tracks[e.track].slices;
        steps.push_back({s.start(e.event), s.end(e.event)});
    }
    return steps;
}

namespace {

// One rank's steps in session time starting in `range`, by start.
std::vector<TimeRange> stepsOfRank(const RankEntry &entry, const QRegularExpression *pattern, const std::optional<TimeRange> &range)
{
    std::vector<TimeRange> steps;
    for (const TimeRange &reportTime : stepRangesOf(entry, pattern)) {
        const TimeRange step{reportTime.start + entry.sessionOffset, reportTime.end + entry.sessionOffset};
        if (!range || (step.start >= range->start && step.start < range->end))
            steps.push_back(step);
    }
    return steps;
}

} // namespace

StepMatrix stepMatrix(const Session &session, const StatsScope &scope, const QString &names)
{
    std::optional<QRegularExpression> pattern;
    if (!names.isEmpty()) {
        pattern.emplace(names);
        if (!pattern->isValid())
            return {};
    }
    StepMatrix matrix;
    std::vector<std::vector<TimeRange>> columns;
    for (int i = 0; i < int(session.ranks().size()); ++i) {
        if (scope.rankIndex && *scope.rankIndex != i)
            continue;
        matrix.rankIndices.push_back(i);
        columns.push_back(stepsOfRank(session.ranks()[std::size_t(i)], pattern ? &*pattern : nullptr, scope.range));
    }
    std::size_t most = 0;
    for (const auto &c : columns)
        most = std::max(most, c.size());
    matrix.steps.assign(most, std::vector<std::optional<TimeRange>>(columns.size()));
    for (std::size_t column = 0; column < columns.size(); ++column)
        for (std::size_t k = 0; k < columns[column].size(); ++k)
            matrix.steps[k][column] = columns[column][k];
    return matrix;
}

ResultTable stepMatrixTable(const Session &session, const StepMatrix &matrix)
{
    ResultTable t;
    t.name = QStringLiteral("step_matrix");
    t.title = QStringLiteral("Steps x Ranks");
    t.headers = QStringList{QStringLiteral("Step"),     QStringLiteral("Ranks"),       QStringLiteral("Min (ns)"),     QStringLiteral("Median (ns)"),
                            QStringLiteral("Max (ns)"), QStringLiteral("Spread (ns)"), QStringLiteral("Slowest Rank"), QStringLiteral("Start (ns)")};
    for (const int i : matrix.rankIndices)
        t.headers << QStringLiteral("Rank %1 (ns)").arg(session.ranks()[std::size_t(i)].rank);
    const TimeNs zero = session.extent().start;
    for (std::size_t k = 0; k < matrix.steps.size(); ++k) {
        const StepMatrix::Spread spread = matrix.spreadOf(k);
        TimeNs start = kTimeMax;
        for (const auto &step : matrix.steps[k])
            if (step)
                start = std::min(start, step->start);
        std::vector<Cell> row{Cell::ofInteger(std::int64_t(k)),
                              Cell::ofInteger(spread.ranks),
                              Cell::ofInteger(spread.min),
                              Cell::ofInteger(spread.median),
                              Cell::ofInteger(spread.max),
                              Cell::ofInteger(spread.max - spread.min),
                              Cell::ofInteger(session.ranks()[std::size_t(matrix.rankIndices[std::size_t(spread.slowestColumn)])].rank),
                              Cell::ofInteger(start - zero)};
        for (const auto &step : matrix.steps[k])
            row.push_back(step ? Cell::ofInteger(step->duration()) : Cell{});
        t.addRow(std::move(row));
    }
    return t;
}

} // namespace rankscope::stats
