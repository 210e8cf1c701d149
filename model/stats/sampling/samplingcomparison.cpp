#include "stats/sampling/samplingcomparison.h"
#include "stats/reportcatalog.h"

#include <algorithm>
#include <map>

namespace rankscope::stats {

double SamplingShares::spread() const
{
    if (selfPercent.empty())
        return 0.0;
    const auto [lo, hi] = std::minmax_element(selfPercent.begin(), selfPercent.end());
    return *hi - *lo;
}

std::vector<SamplingShares> compareSamplingProfiles(const std::vector<const SamplingProfile *> &profiles)
{
    std::map<std::pair<QString, QString>, std::size_t> rowOf;
    std::vector<SamplingShares> rows;
    for (std::size_t p = 0; p < profiles.size(); ++p) {
        for (const FlatFunction &f : profiles[p]->flat()) {
            const SampledFunction &fn = profiles[p]->functions[f.function];
            const auto [it, added] = rowOf.try_emplace({fn.function, fn.module}, rows.size());
            if (added) {
                SamplingShares row;
                row.function = fn.function;
                row.module = fn.module;
                row.columns.assign(profiles.size(), FlatFunction{});
                row.selfPercent.assign(profiles.size(), 0.0);
                rows.push_back(std::move(row));
            }
            SamplingShares &row = rows[it->second];
            row.columns[p] = f;
            row.selfPercent[p] = profiles[p]->percentOf(f.self);
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const SamplingShares &a, const SamplingShares &b) {
        if (a.spread() != b.spread())
            return a.spread() > b.spread();
        if (a.function != b.function)
            return a.function < b.function;
        return a.module < b.module;
    });
    return rows;
}

SamplingProfile samplingProfileOfRank(const Session &session, int rankIndex, const SamplingFilter &filter, std::optional<TimeRange> range)
{
    StatsScope scope;
    scope.rankIndex = rankIndex;
    scope.range = range;
    return samplingProfile(session, scope, filter);
}

namespace {

void setFunction(ResultTable &t, std::size_t row, const SamplingShares &s)
{
    t.setText(row, 0, QStringView(s.function.isEmpty() ? QStringLiteral("[unknown]") : s.function));
    t.setText(row, 1, QStringView(s.module));
}

} // namespace

ResultTable samplingByRankTable(const Session &session, const SamplingFilter &filter, std::optional<TimeRange> range)
{
    ResultTable t = declaredTable(QStringLiteral("cpu_sampling_ranks"));
    t.headers = {QStringLiteral("Function"), QStringLiteral("Module")};
    std::vector<SamplingProfile> profiles;
    std::vector<const SamplingProfile *> sampled;
    for (int r = 0; r < int(session.ranks().size()); ++r) {
        SamplingProfile p = samplingProfileOfRank(session, r, filter, range);
        if (p.samples == 0)
            continue;
        t.headers << QStringLiteral("%1 Self (%)").arg(session.ranks()[std::size_t(r)].displayName());
        profiles.push_back(std::move(p));
    }
    for (const SamplingProfile &p : profiles)
        sampled.push_back(&p);
    t.headers << QStringLiteral("Spread (pp)");
    if (profiles.empty()) {
        t.notes << QStringLiteral("no rank has CPU samples with a callchain (nsys profile --sample=cpu)");
        return t;
    }
    const std::vector<SamplingShares> rows = compareSamplingProfiles(sampled);
    t.reserveRows(rows.size());
    for (const SamplingShares &s : rows) {
        const std::size_t row = t.appendRow();
        setFunction(t, row, s);
        for (std::size_t p = 0; p < profiles.size(); ++p)
            t.setDecimal(row, 2 + p, s.selfPercent[p], 2);
        t.setDecimal(row, 2 + profiles.size(), s.spread(), 2);
    }
    return t;
}

ResultTable samplingDiffTable(const SamplingProfile &a, const SamplingProfile &b)
{
    ResultTable t;
    t.name = QStringLiteral("diff_cpu_sampling");
    t.title = QStringLiteral("Run comparison: cpu_sampling");
    t.headers = {QStringLiteral("Function"),   QStringLiteral("Module"),      QStringLiteral("Self A"),
                 QStringLiteral("Self A (%)"), QStringLiteral("Total A (%)"), QStringLiteral("Self B"),
                 QStringLiteral("Self B (%)"), QStringLiteral("Total B (%)"), QStringLiteral("Delta Self (pp)")};
    const std::vector<SamplingShares> rows = compareSamplingProfiles({&a, &b});
    t.reserveRows(rows.size());
    for (const SamplingShares &s : rows) {
        const std::size_t row = t.appendRow();
        setFunction(t, row, s);
        t.setInteger(row, 2, std::int64_t(s.columns[0].self));
        t.setDecimal(row, 3, s.selfPercent[0], 2);
        t.setDecimal(row, 4, a.percentOf(s.columns[0].total), 2);
        t.setInteger(row, 5, std::int64_t(s.columns[1].self));
        t.setDecimal(row, 6, s.selfPercent[1], 2);
        t.setDecimal(row, 7, b.percentOf(s.columns[1].total), 2);
        t.setDecimal(row, 8, s.selfPercent[1] - s.selfPercent[0], 2);
    }
    t.notes << QStringLiteral("A: %1 samples with a callchain, B: %2; shares are of each run's own samples").arg(a.samples).arg(b.samples);
    return t;
}

} // namespace rankscope::stats
