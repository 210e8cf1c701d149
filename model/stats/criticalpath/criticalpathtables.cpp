#include "stats/criticalpath/criticalpathtables.h"
#include "stats/reportcatalog.h"

#include <algorithm>
#include <map>

namespace rankscope::stats {

QString segmentName(const Session &session, const PathSegment &segment)
{
    if (!segment.event.isValid())
        return {};
    const RankEntry &entry = session.ranks()[std::size_t(segment.event.rank)];
    const Track &track = entry.report->tracks[segment.event.track];
    return entry.report->strings.string(track.slices.name(segment.event.event));
}

namespace {

int rankNumber(const Session &session, int rankIndex)
{
    return rankIndex >= 0 ? session.ranks()[std::size_t(rankIndex)].rank : -1;
}

} // namespace

ResultTable criticalPathTable(const Session &session, const std::vector<StepCriticalPath> &paths)
{
    ResultTable t = declaredTable(QStringLiteral("critical_path"));
    t.headers = QStringList{QStringLiteral("Step"), QStringLiteral("Segment"),    QStringLiteral("Rank"),     QStringLiteral("Kind"),
                            QStringLiteral("Name"), QStringLiteral("Start (ns)"), QStringLiteral("End (ns)"), QStringLiteral("Duration (ns)")};
    const bool comparison = session.isComparison();
    if (comparison)
        t.headers << QStringLiteral("Run");
    const TimeNs zero = session.extent().start;
    for (const StepCriticalPath &path : paths)
        for (std::size_t i = 0; i < path.segments.size(); ++i) {
            const PathSegment &s = path.segments[i];
            std::vector<Cell> row{
                Cell::ofInteger(path.step),         Cell::ofInteger(std::int64_t(i)),      Cell::ofInteger(rankNumber(session, s.rankIndex)),
                Cell::ofText(pathKindName(s.kind)), Cell::ofText(segmentName(session, s)), Cell::ofInteger(s.start - zero),
                Cell::ofInteger(s.end - zero),      Cell::ofInteger(s.duration())};
            if (comparison)
                row.push_back(Cell::ofText(runSideName(path.side)));
            t.addRow(std::move(row));
        }
    return t;
}

std::vector<PathName> topPathNames(const Session &session, const StepCriticalPath &path, std::size_t limit)
{
    std::map<std::pair<QString, PathKind>, PathName> byName;
    for (const PathSegment &s : path.segments) {
        const QString name = segmentName(session, s);
        PathName &n = byName[{name, s.kind}];
        n.name = name;
        n.kind = s.kind;
        n.time += s.duration();
        ++n.segments;
        if (s.duration() > n.longestTime) {
            n.longestTime = s.duration();
            n.longest = s.event;
        }
    }
    std::vector<PathName> names;
    for (auto &[key, n] : byName)
        if (!n.name.isEmpty())
            names.push_back(std::move(n));
    std::stable_sort(names.begin(), names.end(), [](const PathName &a, const PathName &b) { return a.time > b.time; });
    if (names.size() > limit)
        names.resize(limit);
    return names;
}

StepPathSummary summarizePath(const Session &session, const StepCriticalPath &path)
{
    StepPathSummary s;
    s.solved = true;
    s.step = path.step;
    s.side = path.side;
    s.window = path.window;
    s.endRankIndex = path.endRankIndex;
    s.endShift = path.shiftOf(path.endRankIndex);
    s.segments = path.segments.size();
    s.whatIfLength = path.whatIfLength;
    s.byKind = path.timeByKind();
    s.byRank.assign(session.ranks().size(), 0);
    for (const PathSegment &segment : path.segments)
        s.byRank[std::size_t(segment.rankIndex)] += segment.duration();
    QStringList crossed;
    for (const PathSegment &segment : path.segments)
        if (segment.fromRankIndex >= 0)
            crossed << QStringLiteral("rank %1 waited %2 ns for rank %3")
                           .arg(rankNumber(session, segment.rankIndex))
                           .arg(segment.crossedWait)
                           .arg(rankNumber(session, segment.fromRankIndex));
    s.crossed = crossed.join(QStringLiteral("; "));
    QStringList top;
    for (const PathName &n : topPathNames(session, path, 3))
        top << n.name + QStringLiteral(" (") + pathKindName(n.kind) + QStringLiteral("): ") + QString::number(n.time)
                   + QStringLiteral(" ns"); // the name is data: no arg() over it
    s.topNames = top.join(QStringLiteral("; "));
    return s;
}

ResultTable criticalPathSummaryTable(const Session &session, const std::vector<StepCriticalPath> &paths)
{
    std::vector<StepPathSummary> steps;
    steps.reserve(paths.size());
    for (const StepCriticalPath &path : paths)
        steps.push_back(summarizePath(session, path));
    return criticalPathSummaryTable(session, steps);
}

ResultTable criticalPathSummaryTable(const Session &session, const std::vector<StepPathSummary> &steps)
{
    ResultTable t = declaredTable(QStringLiteral("critical_path_summary"));
    const bool whatIf = std::any_of(steps.begin(), steps.end(), [](const StepPathSummary &s) { return s.whatIfLength.has_value(); });
    t.headers = QStringList{QStringLiteral("Step"), QStringLiteral("Duration (ns)"), QStringLiteral("End Rank"), QStringLiteral("Segments")};
    if (whatIf)
        t.headers << QStringLiteral("What-if Duration (ns)") << QStringLiteral("What-if Saved (ns)");
    for (int k = 0; k < kPathKindCount; ++k)
        t.headers << QStringLiteral("%1 (ns)").arg(pathKindName(PathKind(k)));
    for (const RankEntry &entry : session.ranks())
        t.headers << QStringLiteral("Rank %1 (ns)").arg(entry.rank);
    t.headers << QStringLiteral("Waits Crossed") << QStringLiteral("Top Names");
    const bool comparison = session.isComparison();
    if (comparison)
        t.headers << QStringLiteral("Run");
    for (const StepPathSummary &s : steps) {
        std::vector<Cell> row{Cell::ofInteger(s.step)};
        if (s.solved) {
            row.insert(row.end(), {Cell::ofInteger(s.length()), Cell::ofInteger(rankNumber(session, s.endRankIndex)),
                                   Cell::ofInteger(std::int64_t(s.segments))});
            if (whatIf) {
                row.push_back(s.whatIfLength ? Cell::ofInteger(*s.whatIfLength) : Cell{});
                row.push_back(s.whatIfLength ? Cell::ofInteger(s.length() - *s.whatIfLength) : Cell{});
            }
            for (const TimeNs time : s.byKind)
                row.push_back(Cell::ofInteger(time));
            for (const TimeNs time : s.byRank)
                row.push_back(Cell::ofInteger(time));
            row.push_back(Cell::ofText(s.crossed));
            row.push_back(Cell::ofText(s.topNames));
        } else {
            row.resize(std::size_t(t.headers.size() - (comparison ? 1 : 0)));
        }
        if (comparison)
            row.push_back(Cell::ofText(runSideName(s.side)));
        t.addRow(std::move(row));
    }
    return t;
}

} // namespace rankscope::stats
