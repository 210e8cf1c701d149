#include "core/namesummaries.h"

#include "core/narrowing.h"
#include "core/report.h"

#include <algorithm>
#include <span>
#include <vector>

namespace rankscope {

namespace {

// The groups of one kind and value, built as their events are read and
// appended to `groups`: a group is found through a table of 4-byte slots
// holding its index, its key being its own fields (a QHash node per group
// costs five times that: an emit_nvtx trace has a group per range, each
// text carrying its sequence number, tens of millions of them). Built a
// kind and value at a time, the groups come out in their stored order and
// only one block's events are held twice.
class BlockGrouping {
public:
    explicit BlockGrouping(std::vector<NameGroup> &groups) : m_groups(groups), m_first(groups.size()) { }

    void reserve(std::size_t events)
    {
        m_groupOf.reserve(events);
        m_values.reserve(events);
    }
    // `identity`: pid, kind, value, NVTX type, domain and name; the rest 0.
    void add(const NameGroup &identity, std::int64_t value)
    {
        if ((m_groups.size() - m_first + 1) * 2 > m_slots.size())
            grow();
        const std::size_t mask = m_slots.size() - 1;
        std::size_t s = hashOf(identity) & mask;
        while (m_slots[s] != kEmpty && !sameGroup(m_groups[m_first + m_slots[s]], identity))
            s = (s + 1) & mask;
        if (m_slots[s] == kEmpty) {
            m_slots[s] = std::uint32_t(m_groups.size() - m_first);
            m_groups.push_back(identity);
        }
        m_groupOf.push_back(m_slots[s]);
        m_values.push_back(value);
    }
    // Appends the block's values to `values` (reserved), by group and each
    // group's ascending, and fills the groups' sums.
    void finish(std::vector<std::int64_t> &values)
    {
        m_slots = {};
        const std::span<NameGroup> block = std::span(m_groups).subspan(m_first);
        for (const std::uint32_t g : m_groupOf)
            ++block[g].count;
        // A counting sort: each group's `first` starts at its end and is
        // counted down as its values are placed.
        std::uint64_t end = values.size();
        for (NameGroup &group : block) {
            end += group.count;
            group.first = end;
        }
        values.resize(end);
        for (std::size_t e = 0; e < m_values.size(); ++e)
            values[--block[m_groupOf[e]].first] = m_values[e];
        m_groupOf = {};
        m_values = {};
        for (NameGroup &group : block) {
            const auto begin = values.begin() + std::ptrdiff_t(group.first);
            const auto last = begin + std::ptrdiff_t(group.count);
            std::sort(begin, last);
            // Two passes in long double, as summarize() does for one table.
            long double sum = 0;
            for (auto v = begin; v != last; ++v) {
                group.total = addSaturating(group.total, *v);
                sum += *v;
            }
            const long double mean = sum / (long double)group.count;
            long double squares = 0;
            for (auto v = begin; v != last; ++v) {
                const long double d = (long double)*v - mean;
                squares += d * d;
            }
            group.squaredDeviations = double(squares);
        }
    }

private:
    static constexpr std::uint32_t kEmpty = ~std::uint32_t(0);

    // Within a block kind and value are the same.
    static bool sameGroup(const NameGroup &a, const NameGroup &b)
    {
        return a.name == b.name && a.domain == b.domain && a.pid == b.pid && a.nvtxEventType == b.nvtxEventType;
    }
    static std::size_t hashOf(const NameGroup &g)
    {
        // Two 64-bit words mixed (murmur3's finalizer): string ids are
        // dense, so the low bits alone would cluster.
        std::uint64_t h = (std::uint64_t(g.pid) << 8 | g.nvtxEventType) * 0x9E3779B97F4A7C15ull ^ (std::uint64_t(g.domain) << 32 | g.name);
        h ^= h >> 33;
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 33;
        h *= 0xC4CEB9FE1A85EC53ull;
        h ^= h >> 33;
        return std::size_t(h);
    }
    // Twice the slots, every group of the block placed again.
    void grow()
    {
        m_slots.assign(std::max<std::size_t>(1024, m_slots.size() * 2), kEmpty);
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t g = m_first; g < m_groups.size(); ++g) {
            std::size_t s = hashOf(m_groups[g]) & mask;
            while (m_slots[s] != kEmpty)
                s = (s + 1) & mask;
            m_slots[s] = std::uint32_t(g - m_first);
        }
    }

    std::vector<NameGroup> &m_groups;
    const std::size_t m_first;            // the block's first group
    std::vector<std::uint32_t> m_slots;   // a group's index from m_first, or kEmpty
    std::vector<std::uint32_t> m_groupOf; // per event, from m_first
    std::vector<std::int64_t> m_values;   // per event
};

} // namespace

std::span<const NameGroup> NameSummaries::groupsOf(TrackKind kind, GroupedValue value) const
{
    NameGroup probe;
    probe.kind = kind;
    probe.value = value;
    const auto [first, last] = std::equal_range(groups.begin(), groups.end(), probe, inOrder);
    return {first, last};
}

// OS runtime, CUDA API, cuDNN/cuBLAS, OpenACC, OpenMP, NVTX and Kineto's CPU scopes, kernels (durations),
// copies and memsets (durations and sizes); derived tracks (NCCL lanes, NVTX projected onto the
// GPU) and GPU-side synchronisation are not.
bool NameSummaries::summarizes(TrackKind kind)
{
    switch (kind) {
    case TrackKind::OsRuntime:
    case TrackKind::CudaApi:
    case TrackKind::CudaLibrary:
    case TrackKind::OpenAcc:
    case TrackKind::OpenMp:
    case TrackKind::Nvtx:
    case TrackKind::CpuOp:
    case TrackKind::Kernel:
    case TrackKind::Memcpy:
    case TrackKind::Memset:
        return true;
    default:
        return false;
    }
}

bool NameSummaries::hasSizes(TrackKind kind)
{
    return kind == TrackKind::Memcpy || kind == TrackKind::Memset;
}

NameSummaries summarizeByName(const Report &report)
{
    const auto valuesOfTrack = [](const Track &track) {
        return NameSummaries::summarizes(track.kind) ? track.slices.size() * (NameSummaries::hasSizes(track.kind) ? 2 : 1) : 0;
    };
    std::size_t allValues = 0;
    for (const Track &track : report.tracks)
        allValues += valuesOfTrack(track);
    // Room for a group per value: of the space reserved only what groups
    // fill is ever touched (resident), where growing by doubling would
    // copy them and leave up to half of the array unused.
    std::vector<NameGroup> groups;
    groups.reserve(allValues);
    std::vector<std::int64_t> values;
    values.reserve(allValues);
    // In the order the groups are stored (NameSummaries::inOrder), each
    // block's in the order its events are first seen.
    for (std::size_t k = 0; k < kTrackKindCount; ++k) {
        const TrackKind kind = TrackKind(k);
        if (!NameSummaries::summarizes(kind))
            continue;
        for (const GroupedValue value : {GroupedValue::Duration, GroupedValue::Bytes}) {
            if (value == GroupedValue::Bytes && !NameSummaries::hasSizes(kind))
                continue;
            BlockGrouping block(groups);
            std::size_t events = 0;
            for (const Track &track : report.tracks)
                if (track.kind == kind)
                    events += track.slices.size();
            block.reserve(events);
            for (const Track &track : report.tracks) {
                if (track.kind != kind)
                    continue;
                NameGroup identity;
                identity.pid = track.pid;
                identity.kind = kind;
                identity.value = value;
                if (isHostRange(kind) || kind == TrackKind::OpenMp) // OpenMP: the event kind's table
                    identity.domain = track.domainName;
                const SliceTrack &s = track.slices;
                for (std::size_t i = 0; i < s.size(); ++i) {
                    identity.name = s.name(i);
                    if (isHostRange(kind))
                        identity.nvtxEventType = hostRangeEventType(report, track, i);
                    if (value == GroupedValue::Duration)
                        block.add(identity, s.duration(i));
                    else
                        block.add(identity,
                                  std::int64_t(kind == TrackKind::Memcpy ? report.memcpys[s.payload(i)].bytes : report.memsets[s.payload(i)].bytes));
                }
            }
            block.finish(values);
        }
    }
    NameSummaries summaries;
    summaries.present = true;
    summaries.groups = Column<NameGroup>(std::move(groups));
    summaries.values = Column<std::int64_t>(std::move(values));
    return summaries;
}

} // namespace rankscope
