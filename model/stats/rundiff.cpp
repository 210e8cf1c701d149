#include "stats/rundiff.h"

#include "core/cudaenums.h"
#include "stats/rankcomparison.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace rankscope::stats {

std::optional<DiffReport> diffReportNamed(const QString &name)
{
    for (DiffReport r : {DiffReport::Kernels, DiffReport::Nvtx, DiffReport::Api, DiffReport::Memcpy})
        if (name == diffReportName(r))
            return r;
    return std::nullopt;
}

QString diffReportName(DiffReport report)
{
    switch (report) {
    case DiffReport::Kernels: return QStringLiteral("kernels");
    case DiffReport::Nvtx: return QStringLiteral("nvtx");
    case DiffReport::Api: return QStringLiteral("api");
    case DiffReport::Memcpy: return QStringLiteral("memcpy");
    }
    return {};
}

QString nvtxPathPart(std::string_view name)
{
    if (isStepName(name))
        return QStringLiteral("step");
    // PyTorch's per-call markers ("aten::to, op_id = 998949", "seq = 12")
    // differ between runs; the op is the same.
    static const QRegularExpression markers(QStringLiteral(",\\s*(?:op_id|seq|stashed seq)\\s*=\\s*\\d+"));
    return QString::fromUtf8(name.data(), qsizetype(name.size())).remove(markers);
}

QString normalizedKernelName(std::string_view name)
{
    // Template arguments, outermost level only (they nest), then hashes.
    QString out;
    int depth = 0;
    for (const QChar c : QString::fromUtf8(name.data(), qsizetype(name.size()))) {
        if (c == QLatin1Char('<')) {
            if (depth++ == 0)
                out += QStringLiteral("<…>");
            continue;
        }
        if (c == QLatin1Char('>') && depth > 0) {
            --depth;
            continue;
        }
        if (depth == 0)
            out += c;
    }
    static const QRegularExpression hashes(QStringLiteral("0x[0-9a-fA-F]+|\\b[0-9a-f]{12,}\\b"));
    return out.replace(hashes, QStringLiteral("…"));
}

namespace {

struct Totals {
    std::int64_t count = 0;
    TimeNs total = 0;
};
using Grouped = std::map<QString, Totals>;

// The names of one side, grouped, summed over its ranks (or one rank).
Grouped groupSide(const Session &s, DiffReport report, const DiffOptions &options, std::optional<int> onlyRank)
{
    Grouped grouped;
    for (int ri = 0; ri < int(s.ranks().size()); ++ri) {
        if (onlyRank && *onlyRank != ri)
            continue;
        const RankEntry &entry = s.ranks()[std::size_t(ri)];
        const Report &r = *entry.report;
        // Names are interned per report: group each string once.
        std::unordered_map<StringId, QString> keyOf;
        auto keyFor = [&](StringId id, auto make) -> const QString & {
            auto it = keyOf.find(id);
            if (it == keyOf.end())
                it = keyOf.emplace(id, make(r.strings.view(id))).first;
            return it->second;
        };
        for (const Track &t : r.tracks) {
            if (!Session::ownsTrack(entry, t))
                continue;
            const SliceTrack &sl = t.slices;
            switch (report) {
            case DiffReport::Kernels:
                if (t.kind != TrackKind::Kernel)
                    break;
                for (std::size_t i = 0; i < sl.size(); ++i) {
                    Totals &g = grouped[keyFor(sl.name(i), [&](std::string_view n) {
                        return options.normalizeKernelNames ? normalizedKernelName(n) : QString::fromUtf8(n.data(), qsizetype(n.size()));
                    })];
                    ++g.count;
                    g.total += sl.duration(i);
                }
                break;
            case DiffReport::Api:
                if (t.kind != TrackKind::CudaApi)
                    break;
                for (std::size_t i = 0; i < sl.size(); ++i) {
                    Totals &g = grouped[keyFor(sl.name(i), [](std::string_view n) { return QString::fromUtf8(n.data(), qsizetype(n.size())); })];
                    ++g.count;
                    g.total += sl.duration(i);
                }
                break;
            case DiffReport::Memcpy:
                if (t.kind != TrackKind::Memcpy)
                    break;
                for (std::size_t i = 0; i < sl.size(); ++i) {
                    const MemcpyRecord &m = r.memcpys[sl.payload(i)];
                    Totals &g = grouped[memcpyKindShortName(m.copyKind) + (m.isPageable() ? QStringLiteral(" (pageable)") : QString())];
                    ++g.count;
                    g.total += sl.duration(i);
                }
                break;
            case DiffReport::Nvtx: {
                if (t.kind != TrackKind::Nvtx)
                    break;
                // Events come parents first: the open ranges above each one.
                std::vector<std::pair<std::uint16_t, QString>> open; // (depth, path)
                for (std::size_t i = 0; i < sl.size(); ++i) {
                    const std::uint16_t depth = sl.depth(i);
                    while (!open.empty() && open.back().first >= depth)
                        open.pop_back();
                    const QString &part = keyFor(sl.name(i), [](std::string_view n) { return nvtxPathPart(n); });
                    QString path = open.empty() ? part : open.back().second + QStringLiteral(" > ") + part;
                    Totals &g = grouped[path];
                    ++g.count;
                    g.total += sl.duration(i);
                    open.emplace_back(depth, std::move(path));
                }
                break;
            }
            }
        }
    }
    return grouped;
}

} // namespace

std::vector<DiffRow> diffRuns(const Session &a, const Session &b, DiffReport report, const DiffOptions &options)
{
    const Grouped ga = groupSide(a, report, options, options.rankA);
    const Grouped gb = groupSide(b, report, options, options.rankB);
    std::map<QString, DiffRow> rows;
    for (const auto &[name, t] : ga) {
        DiffRow &row = rows[name];
        row.name = name;
        row.countA = t.count;
        row.totalA = t.total;
    }
    for (const auto &[name, t] : gb) {
        DiffRow &row = rows[name];
        row.name = name;
        row.countB = t.count;
        row.totalB = t.total;
    }
    std::vector<DiffRow> out;
    out.reserve(rows.size());
    for (auto &[name, row] : rows)
        out.push_back(std::move(row));
    std::stable_sort(out.begin(), out.end(), [](const DiffRow &x, const DiffRow &y) {
        const TimeNs dx = x.delta() < 0 ? -x.delta() : x.delta(), dy = y.delta() < 0 ? -y.delta() : y.delta();
        return dx != dy ? dx > dy : x.name < y.name;
    });
    return out;
}

ResultTable diffTable(const std::vector<DiffRow> &rows, DiffReport report)
{
    ResultTable t;
    t.name = QStringLiteral("diff_") + diffReportName(report);
    t.title = QStringLiteral("Run comparison: ") + diffReportName(report);
    t.headers = QStringList{QStringLiteral("Name"),        QStringLiteral("Count A"), QStringLiteral("Total A (ns)"),
                            QStringLiteral("Mean A (ns)"), QStringLiteral("Count B"), QStringLiteral("Total B (ns)"),
                            QStringLiteral("Mean B (ns)"), QStringLiteral("Delta (ns)"), QStringLiteral("Ratio B/A")};
    auto mean = [](TimeNs total, std::int64_t count) { return count > 0 ? Cell::ofDecimal(double(total) / double(count), 1) : Cell::ofText(QString()); };
    for (const DiffRow &r : rows)
        t.rows.push_back({Cell::ofText(r.name), Cell::ofInteger(r.countA), Cell::ofInteger(r.totalA), mean(r.totalA, r.countA),
                          Cell::ofInteger(r.countB), Cell::ofInteger(r.totalB), mean(r.totalB, r.countB), Cell::ofInteger(r.delta()),
                          r.totalA > 0 ? Cell::ofDecimal(double(r.totalB) / double(r.totalA), 3) : Cell::ofText(QString())});
    return t;
}

} // namespace rankscope::stats
