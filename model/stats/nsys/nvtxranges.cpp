#include "stats/nsys/nvtxranges.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace rankscope::stats {

namespace {

bool isListed(const NvtxRecord &n, bool pushPopOnly)
{
    if (n.eventType == NvtxEventType::PushPopRange || n.eventType == NvtxEventType::NvtxtPushPop)
        return true;
    if (pushPopOnly)
        return false;
    // nsys' projection leaves out a range that ended on another thread.
    return (n.eventType == NvtxEventType::StartEndRange || n.eventType == NvtxEventType::NvtxtStartEnd) && n.endTid == 0;
}

// Minimum over a suffix of positions, for "the shortest range seen so far
// that ends at or after here": a Fenwick tree over end positions counted
// from the latest, so a suffix of ends is a prefix of the tree. Each query
// and insert costs log n, so a thread of a million overlapping ranges
// costs n log n, not n^2.
class ShortestEnclosing {
public:
    using Key = std::pair<TimeNs, std::uint32_t>; // length, then node (earlier wins a tie)
    explicit ShortestEnclosing(std::size_t size) : m_tree(size + 1, kNone) { }
    // `position`: the rank of the range's end from the latest (0 = latest).
    void insert(std::size_t position, Key key)
    {
        for (std::size_t i = position + 1; i < m_tree.size(); i += i & (~i + 1))
            m_tree[i] = std::min(m_tree[i], key);
    }
    // The shortest inserted range whose end rank is <= `position`.
    Key shortestUpTo(std::size_t position) const
    {
        Key best = kNone;
        for (std::size_t i = position + 1; i > 0; i -= i & (~i + 1))
            best = std::min(best, m_tree[i]);
        return best;
    }
    static constexpr Key kNone{kTimeMax, NvtxRangeNode::kNoParent};

private:
    std::vector<Key> m_tree;
};

// Links the nodes [first, last) of one thread, sorted by start then longer first.
void linkThread(std::vector<NvtxRangeNode> &nodes, std::size_t first, std::size_t last)
{
    std::vector<TimeNs> endsLatestFirst;
    endsLatestFirst.reserve(last - first);
    for (std::size_t i = first; i < last; ++i)
        endsLatestFirst.push_back(nodes[i].end);
    std::sort(endsLatestFirst.begin(), endsLatestFirst.end(), std::greater<>());
    endsLatestFirst.erase(std::unique(endsLatestFirst.begin(), endsLatestFirst.end()), endsLatestFirst.end());
    const auto rankOfEnd = [&](TimeNs end) {
        return std::size_t(std::lower_bound(endsLatestFirst.begin(), endsLatestFirst.end(), end, std::greater<>()) - endsLatestFirst.begin());
    };
    // Every range inserted so far starts at or before this one (and, at the
    // same start, ends at or after it): those ending at or after its end
    // contain it.
    ShortestEnclosing inserted(endsLatestFirst.size());
    for (std::size_t i = first; i < last; ++i) {
        NvtxRangeNode &node = nodes[i];
        const std::size_t rank = rankOfEnd(node.end);
        const ShortestEnclosing::Key parent = inserted.shortestUpTo(rank);
        if (parent.second != NvtxRangeNode::kNoParent) {
            NvtxRangeNode &p = nodes[parent.second];
            node.parent = parent.second;
            node.level = p.level + 1;
            ++p.children;
            p.childDuration += node.end - node.start;
        }
        inserted.insert(rank, {node.end - node.start, std::uint32_t(i)});
    }
}

} // namespace

std::string NvtxRangeForest::nameOf(const Report &report, const NvtxRangeNode &node) const
{
    const Track &track = report.tracks[node.at.track];
    std::string name(report.strings.view(track.domainName));
    name += ':';
    name += report.strings.view(track.slices.name(node.at.event));
    return name;
}

NvtxRangeForest nvtxRangeForest(const Report &report, bool pushPopOnly)
{
    NvtxRangeForest forest;
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
        const Track &track = report.tracks[t];
        if (track.kind != TrackKind::Nvtx)
            continue;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const NvtxRecord &n = report.nvtxRecord(track.slices.payload(i));
            if (!isListed(n, pushPopOnly))
                continue;
            NvtxRangeNode node;
            node.at = {t, i};
            node.start = track.slices.start(i);
            node.end = track.slices.end(i);
            node.pushPop = n.eventType == NvtxEventType::PushPopRange || n.eventType == NvtxEventType::NvtxtPushPop;
            forest.nodes.push_back(node);
        }
    }
    std::vector<NvtxRangeNode> &nodes = forest.nodes;
    const auto threadKey = [&](const NvtxRangeNode &n) {
        const Track &t = report.tracks[n.at.track];
        return std::pair(t.pid, t.tid);
    };
    std::stable_sort(nodes.begin(), nodes.end(), [&](const NvtxRangeNode &a, const NvtxRangeNode &b) {
        const auto ta = threadKey(a), tb = threadKey(b);
        return std::tie(ta, a.start, b.end, a.at.track, a.at.event) < std::tie(tb, b.start, a.end, b.at.track, b.at.event);
    });
    for (std::size_t first = 0, next = 0; first < nodes.size(); first = next) {
        const auto thread = threadKey(nodes[first]);
        for (next = first; next < nodes.size() && threadKey(nodes[next]) == thread; ++next) { }
        linkThread(nodes, first, next);
    }
    return forest;
}

std::vector<std::uint32_t> apiTrackOfEachTrack(const Report &report)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> apiTrackOf;
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t)
        if (report.tracks[t].kind == TrackKind::CudaApi)
            apiTrackOf.emplace(std::pair(report.tracks[t].pid, report.tracks[t].tid), t);
    std::vector<std::uint32_t> out(report.tracks.size(), NvtxRangeNode::kNoParent);
    for (std::uint32_t t = 0; t < report.tracks.size(); ++t)
        if (const auto it = apiTrackOf.find({report.tracks[t].pid, report.tracks[t].tid}); it != apiTrackOf.end())
            out[t] = it->second;
    return out;
}

} // namespace rankscope::stats
