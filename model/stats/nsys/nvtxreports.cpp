#include "stats/nsys/nvtxreports.h"
#include "stats/reportcatalog.h"

#include "stats/nsys/kernelnames.h"
#include "stats/nsys/nvtxranges.h"
#include "stats/summary.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <span>
#include <tuple>

namespace rankscope::stats {

namespace {

QString styleName(bool pushPop)
{
    return pushPop ? QStringLiteral("PushPop") : QStringLiteral("StartEnd");
}

// Each node's RangeStack, ":1:4:9" (its ancestors' RangeIds, then its own):
// parents come before their children in the forest.
std::vector<QString> rangeStacks(const NvtxRangeForest &forest)
{
    std::vector<QString> stacks(forest.nodes.size());
    for (std::size_t i = 0; i < forest.nodes.size(); ++i) {
        const std::uint32_t parent = forest.nodes[i].parent;
        stacks[i] = (parent == NvtxRangeNode::kNoParent ? QString() : stacks[parent]) + QLatin1Char(':') + QString::number(i + 1);
    }
    return stacks;
}

Cell parentCell(const NvtxRangeNode &node)
{
    return node.parent == NvtxRangeNode::kNoParent ? Cell{} : Cell::ofInteger(std::int64_t(node.parent) + 1);
}

// What a range launched on the GPU: nvtx_gpu_proj_trace's projection.
struct Projection {
    TimeNs start = kTimeMax, end = kTimeMin;
    std::uint32_t operations = 0; // distinct correlation ids (a graph launch counts once)
    bool present() const { return operations > 0; }
};

std::vector<Projection> projectionsOf(const Report &report, const NvtxRangeForest &forest)
{
    const std::vector<std::uint32_t> apiTrackOf = apiTrackOfEachTrack(report);
    std::vector<Projection> out(forest.nodes.size());
    std::vector<std::uint32_t> ids; // reused: most ranges launch nothing or a few ops
    for (std::size_t i = 0; i < forest.nodes.size(); ++i) {
        Projection &p = out[i];
        ids.clear();
        forEachLaunchInside(report, apiTrackOf, forest.nodes[i], [&](const TrackEvent &op, std::uint32_t id) {
            const SliceTrack &slices = report.tracks[op.track].slices;
            p.start = std::min(p.start, slices.start(op.event));
            p.end = std::max(p.end, slices.end(op.event));
            ids.push_back(id);
        });
        std::sort(ids.begin(), ids.end());
        p.operations = std::uint32_t(std::unique(ids.begin(), ids.end()) - ids.begin());
    }
    return out;
}

// Per range, how many of its children launched GPU work themselves
// (nvtx_gpu_proj_trace's NumChild).
std::vector<std::uint32_t> projectedChildren(const NvtxRangeForest &forest, const std::vector<Projection> &projections)
{
    std::vector<std::uint32_t> children(forest.nodes.size(), 0);
    for (std::uint32_t i = 0; i < forest.nodes.size(); ++i)
        if (projections[i].present() && forest.nodes[i].parent != NvtxRangeNode::kNoParent)
            ++children[forest.nodes[i].parent];
    return children;
}

} // namespace

ResultTable nvtxPushPopTrace(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("nvtx_pushpop_trace"));
    t.headers = QStringList{QStringLiteral("Start (ns)"),
                            QStringLiteral("End (ns)"),
                            QStringLiteral("Duration (ns)"),
                            QStringLiteral("DurChild (ns)"),
                            QStringLiteral("DurNonChild (ns)"),
                            QStringLiteral("Name"),
                            QStringLiteral("PID"),
                            QStringLiteral("TID"),
                            QStringLiteral("Lvl"),
                            QStringLiteral("NumChild"),
                            QStringLiteral("RangeId"),
                            QStringLiteral("ParentId"),
                            QStringLiteral("RangeStack"),
                            QStringLiteral("NameTree")};
    const NvtxRangeForest forest = nvtxRangeForest(report, /*pushPopOnly=*/true);
    const std::vector<QString> stacks = rangeStacks(forest);
    std::vector<std::uint32_t> order(forest.nodes.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const NvtxRangeNode &x = forest.nodes[a], &y = forest.nodes[b];
        return std::tuple(x.start, x.end - x.start, a) < std::tuple(y.start, y.end - y.start, b);
    });
    t.reserveRows(order.size());
    for (const std::uint32_t i : order) {
        const NvtxRangeNode &n = forest.nodes[i];
        const Track &track = report.tracks[n.at.track];
        const QString name = QString::fromStdString(forest.nameOf(report, n));
        t.addRow({Cell::ofInteger(n.start), Cell::ofInteger(n.end), Cell::ofInteger(n.end - n.start), Cell::ofInteger(n.childDuration),
                  Cell::ofInteger(n.end - n.start - n.childDuration), Cell::ofText(name), Cell::ofInteger(track.pid), Cell::ofInteger(track.tid),
                  Cell::ofInteger(n.level), Cell::ofInteger(n.children), Cell::ofInteger(std::int64_t(i) + 1), parentCell(n), Cell::ofText(stacks[i]),
                  Cell::ofText(QString(int(n.level) * 2, QLatin1Char('-')) + name)});
    }
    return t;
}

ResultTable nvtxGpuProjTrace(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("nvtx_gpu_proj_trace"));
    t.headers = QStringList{QStringLiteral("Name"),
                            QStringLiteral("Projected Start (ns)"),
                            QStringLiteral("Projected Duration (ns)"),
                            QStringLiteral("Orig Start (ns)"),
                            QStringLiteral("Orig Duration (ns)"),
                            QStringLiteral("Style"),
                            QStringLiteral("PID"),
                            QStringLiteral("TID"),
                            QStringLiteral("NumGPUOps"),
                            QStringLiteral("Lvl"),
                            QStringLiteral("NumChild"),
                            QStringLiteral("RangeId"),
                            QStringLiteral("ParentId"),
                            QStringLiteral("RangeStack")};
    const NvtxRangeForest forest = nvtxRangeForest(report, /*pushPopOnly=*/false);
    const std::vector<Projection> projections = projectionsOf(report, forest);
    const std::vector<std::uint32_t> children = projectedChildren(forest, projections);
    std::vector<std::uint32_t> order;
    for (std::uint32_t i = 0; i < forest.nodes.size(); ++i)
        if (projections[i].present())
            order.push_back(i);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Projection &x = projections[a], &y = projections[b];
        return std::tuple(x.start, y.end - y.start, a) < std::tuple(y.start, x.end - x.start, b);
    });
    const std::vector<QString> stacks = rangeStacks(forest);
    t.reserveRows(order.size());
    for (const std::uint32_t i : order) {
        const NvtxRangeNode &n = forest.nodes[i];
        const Projection &p = projections[i];
        const Track &track = report.tracks[n.at.track];
        t.addRow({Cell::ofText(QString::fromStdString(forest.nameOf(report, n))), Cell::ofInteger(p.start), Cell::ofInteger(p.end - p.start),
                  Cell::ofInteger(n.start), Cell::ofInteger(n.end - n.start), Cell::ofText(styleName(n.pushPop)), Cell::ofInteger(track.pid),
                  Cell::ofInteger(track.tid), Cell::ofInteger(p.operations), Cell::ofInteger(n.level), Cell::ofInteger(children[i]),
                  Cell::ofInteger(std::int64_t(i) + 1), parentCell(n), Cell::ofText(stacks[i])});
    }
    return t;
}

ResultTable nvtxGpuProjSum(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("nvtx_gpu_proj_sum"));
    t.headers = QStringList{QStringLiteral("Range"),
                            QStringLiteral("Style"),
                            QStringLiteral("Total Proj Time (ns)"),
                            QStringLiteral("Total Range Time (ns)"),
                            QStringLiteral("Range Instances"),
                            QStringLiteral("Proj Avg (ns)"),
                            QStringLiteral("Proj Med (ns)"),
                            QStringLiteral("Proj Min (ns)"),
                            QStringLiteral("Proj Max (ns)"),
                            QStringLiteral("Proj StdDev (ns)"),
                            QStringLiteral("Total GPU Ops"),
                            QStringLiteral("Avg GPU Ops"),
                            QStringLiteral("Avg Range Lvl"),
                            QStringLiteral("Avg Num Child")};
    const NvtxRangeForest forest = nvtxRangeForest(report, /*pushPopOnly=*/false);
    const std::vector<Projection> projections = projectionsOf(report, forest);
    const std::vector<std::uint32_t> children = projectedChildren(forest, projections);
    // The projected ranges by name and style: the trace's rows summed.
    struct Group {
        std::vector<std::int64_t> projected;
        std::int64_t rangeTime = 0, operations = 0, levels = 0, children = 0;
    };
    std::map<std::pair<std::string, bool>, Group> groups;
    for (std::uint32_t i = 0; i < forest.nodes.size(); ++i) {
        const Projection &p = projections[i];
        if (!p.present())
            continue;
        const NvtxRangeNode &n = forest.nodes[i];
        Group &g = groups[{forest.nameOf(report, n), n.pushPop}];
        g.projected.push_back(p.end - p.start);
        g.rangeTime += n.end - n.start;
        g.operations += p.operations;
        g.levels += n.level;
        g.children += children[i];
    }
    // Most projected time first; the map gave name, then style, for ties.
    std::vector<std::pair<const std::pair<std::string, bool> *, Group *>> rows;
    for (auto &[key, g] : groups)
        rows.emplace_back(&key, &g);
    std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
        return std::accumulate(a.second->projected.begin(), a.second->projected.end(), std::int64_t(0))
               > std::accumulate(b.second->projected.begin(), b.second->projected.end(), std::int64_t(0));
    });
    for (const auto &[key, g] : rows) {
        const auto count = double(g->projected.size());
        const Summary s = summarize(std::span(g->projected));
        t.addRow({Cell::ofText(QString::fromStdString(key->first)), Cell::ofText(styleName(key->second)), Cell::ofInteger(s.total),
                  Cell::ofInteger(g->rangeTime), Cell::ofInteger(s.count), Cell::ofDecimal(s.average, 1), Cell::ofDecimal(s.median, 1),
                  Cell::ofInteger(s.minimum), Cell::ofInteger(s.maximum), Cell::ofDecimal(s.stdDev, 1), Cell::ofInteger(g->operations),
                  Cell::ofDecimal(double(g->operations) / count, 1), Cell::ofDecimal(double(g->levels) / count, 1),
                  Cell::ofDecimal(double(g->children) / count, 1)});
    }
    return t;
}

ResultTable nvtxKernSum(const Report &report, KernelNaming naming)
{
    ResultTable t = declaredTable(QStringLiteral("nvtx_kern_sum"));
    t.headers = QStringList{QStringLiteral("NVTX Range"),
                            QStringLiteral("Style"),
                            QStringLiteral("PID"),
                            QStringLiteral("TID"),
                            QStringLiteral("NVTX Inst"),
                            QStringLiteral("Kern Inst"),
                            QStringLiteral("Total Time (ns)"),
                            QStringLiteral("Avg (ns)"),
                            QStringLiteral("Med (ns)"),
                            QStringLiteral("Min (ns)"),
                            QStringLiteral("Max (ns)"),
                            QStringLiteral("StdDev (ns)"),
                            QStringLiteral("Kernel Name")};
    // A kernel counts once for every range on its launching thread that
    // holds the launch: all of a push/pop stack, not only the innermost.
    // A kernel no range holds is summed under no range, by the thread that
    // launched it (none: no launch recorded).
    // Groups keyed by string ids (a report interns each text once), named
    // as text only to print and order them.
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    struct Key {
        StringId domain = kNone, range = kNone; // kNone: launched outside every range
        bool pushPop = false;
        std::uint32_t pid = kNone, tid = kNone; // kNone: no launch recorded
        StringId kernel = 0;
        auto tied() const { return std::tie(domain, range, pushPop, pid, tid, kernel); }
        bool operator<(const Key &o) const { return tied() < o.tied(); }
    };
    // One entry per (range, kernel) pair, then sorted by key: a group is a
    // run of entries (an emit_nvtx trace has a group per range, so a map
    // of vectors would allocate three per range).
    static constexpr std::uint32_t kNoRange = kNone;
    struct Pair {
        Key key;
        std::int64_t duration = 0;
        std::uint32_t range = kNoRange; // forest node
        TrackEvent kernel;
    };
    std::vector<Pair> pairs;
    const NvtxRangeForest forest = nvtxRangeForest(report, /*pushPopOnly=*/false);
    const std::vector<std::uint32_t> apiTrackOf = apiTrackOfEachTrack(report);
    std::vector<std::vector<bool>> inRange(report.tracks.size());
    for (std::uint32_t tr = 0; tr < report.tracks.size(); ++tr)
        if (report.tracks[tr].kind == TrackKind::Kernel)
            inRange[tr].assign(report.tracks[tr].slices.size(), false);
    for (std::uint32_t i = 0; i < forest.nodes.size(); ++i) {
        const NvtxRangeNode &n = forest.nodes[i];
        const Track &nvtx = report.tracks[n.at.track];
        forEachLaunchInside(report, apiTrackOf, n, [&](const TrackEvent &k, std::uint32_t) {
            const Track &track = report.tracks[k.track];
            if (track.kind != TrackKind::Kernel)
                return;
            pairs.push_back(
                {Key{nvtx.domainName, nvtx.slices.name(n.at.event), n.pushPop, nvtx.pid, nvtx.tid, kernelName(report, track, k.event, naming)},
                 track.slices.duration(k.event), i, k});
            inRange[k.track][k.event] = true;
        });
    }
    for (std::uint32_t tr = 0; tr < report.tracks.size(); ++tr) {
        const Track &track = report.tracks[tr];
        if (track.kind != TrackKind::Kernel)
            continue;
        for (std::uint32_t e = 0; e < track.slices.size(); ++e) {
            if (inRange[tr][e])
                continue;
            Key key;
            key.kernel = kernelName(report, track, e, naming);
            if (const std::optional<TrackEvent> call = report.apiCallFor(report.correlationKeyOf({tr, e}))) {
                key.pid = report.tracks[call->track].pid;
                key.tid = report.tracks[call->track].tid;
            }
            pairs.push_back({key, track.slices.duration(e), kNoRange, {tr, e}});
        }
    }
    std::sort(pairs.begin(), pairs.end(), [](const Pair &a, const Pair &b) { return a.key < b.key; });
    // A group per run of one key: its total and where its pairs are.
    struct Group {
        std::size_t first = 0, last = 0;  // pairs[first, last)
        std::optional<std::string> range; // "domain:text"
        std::int64_t total = 0;
    };
    std::vector<Group> groups;
    for (std::size_t first = 0, last = 0; first < pairs.size(); first = last) {
        Group g;
        g.first = first;
        for (last = first; last < pairs.size() && !(pairs[first].key < pairs[last].key); ++last)
            g.total += pairs[last].duration;
        g.last = last;
        const Key &key = pairs[first].key;
        if (key.range != kNone)
            g.range = std::string(report.strings.view(key.domain)) + ':' + std::string(report.strings.view(key.range));
        groups.push_back(std::move(g));
    }
    // nsys' order: range (none first), process, thread (none first), then
    // most time first; the key's order (style, kernel) for ties.
    const auto thread = [](const Key &k) { return k.pid == kNone ? std::nullopt : std::optional(std::pair(k.pid, k.tid)); };
    std::stable_sort(groups.begin(), groups.end(), [&](const Group &a, const Group &b) {
        const auto ta = thread(pairs[a.first].key), tb = thread(pairs[b.first].key);
        return std::tie(a.range, ta, b.total) < std::tie(b.range, tb, a.total);
    });
    t.reserveRows(groups.size());
    std::vector<std::int64_t> durations;
    std::vector<std::uint32_t> ranges;
    std::vector<TrackEvent> kernels;
    for (const Group &g : groups) {
        durations.clear();
        ranges.clear();
        kernels.clear();
        for (std::size_t p = g.first; p < g.last; ++p) {
            durations.push_back(pairs[p].duration);
            if (pairs[p].range != kNoRange)
                ranges.push_back(pairs[p].range);
            kernels.push_back(pairs[p].kernel);
        }
        std::sort(ranges.begin(), ranges.end());
        std::sort(kernels.begin(), kernels.end(),
                  [](const TrackEvent &a, const TrackEvent &b) { return std::tie(a.track, a.event) < std::tie(b.track, b.event); });
        const auto distinctRanges = std::unique(ranges.begin(), ranges.end()) - ranges.begin();
        const auto distinctKernels = std::unique(kernels.begin(), kernels.end()) - kernels.begin();
        const Key &key = pairs[g.first].key;
        const Summary s = summarize(std::span(durations));
        const bool launchedFrom = key.pid != kNone;
        t.addRow({g.range ? Cell::ofText(QString::fromStdString(*g.range)) : Cell{}, g.range ? Cell::ofText(styleName(key.pushPop)) : Cell{},
                  launchedFrom ? Cell::ofInteger(key.pid) : Cell{}, launchedFrom ? Cell::ofInteger(key.tid) : Cell{}, Cell::ofInteger(distinctRanges),
                  Cell::ofInteger(distinctKernels), Cell::ofInteger(s.total), Cell::ofDecimal(s.average, 1), Cell::ofDecimal(s.median, 1),
                  Cell::ofInteger(s.minimum), Cell::ofInteger(s.maximum), Cell::ofDecimal(s.stdDev, 1),
                  Cell::ofText(report.strings.string(key.kernel))});
    }
    return t;
}

} // namespace rankscope::stats
