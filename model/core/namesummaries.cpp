#include "core/namesummaries.h"

#include "core/narrowing.h"
#include "core/report.h"

#include <QHash>

#include <algorithm>
#include <vector>

namespace rankscope {

namespace {

// A group's identity packed into two words (pid, kind, value, NVTX type;
// domain, name) for the hash map that finds it.
struct GroupKey {
    std::uint64_t what = 0;
    std::uint64_t name = 0;
    bool operator==(const GroupKey &) const = default;
};
std::size_t qHash(const GroupKey &k, std::size_t seed)
{
    return qHashMulti(seed, k.what, k.name);
}

class Grouping {
public:
    void add(const NameGroup &identity, std::int64_t value)
    {
        const GroupKey key{std::uint64_t(identity.pid) << 32 | std::uint64_t(identity.kind) << 16 | std::uint64_t(identity.value) << 8
                               | identity.nvtxEventType,
                           std::uint64_t(identity.domain) << 32 | identity.name};
        const qsizetype known = m_index.size();
        std::uint32_t &group = m_index[key]; // one lookup: inserted as 0 when new
        if (m_index.size() != known) {
            group = std::uint32_t(m_groups.size());
            m_groups.push_back(identity);
        }
        m_groupOf.push_back(group);
        m_values.push_back(value);
    }

    NameSummaries finish()
    {
        // Groups by kind and value, keeping first-seen order within.
        std::vector<std::uint32_t> order(m_groups.size());
        for (std::uint32_t g = 0; g < order.size(); ++g)
            order[g] = g;
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return NameSummaries::inOrder(m_groups[a], m_groups[b]); });
        std::vector<std::uint32_t> placeOf(order.size());
        std::vector<NameGroup> ordered(order.size());
        for (std::uint32_t place = 0; place < order.size(); ++place) {
            placeOf[order[place]] = place;
            ordered[place] = m_groups[order[place]];
        }
        m_groups = std::move(ordered);
        for (std::uint32_t &g : m_groupOf)
            g = placeOf[g];
        // Values by group, contiguous (a counting sort), then each sorted.
        std::vector<std::uint64_t> next(m_groups.size() + 1, 0);
        for (const std::uint32_t g : m_groupOf)
            ++m_groups[g].count;
        std::uint64_t first = 0;
        for (NameGroup &group : m_groups) {
            group.first = first;
            first += group.count;
        }
        std::vector<std::int64_t> values(m_values.size());
        for (std::size_t g = 0; g < m_groups.size(); ++g)
            next[g] = m_groups[g].first;
        for (std::size_t e = 0; e < m_values.size(); ++e)
            values[next[m_groupOf[e]]++] = m_values[e];
        m_groupOf = {};
        m_values = {};
        for (NameGroup &group : m_groups) {
            const auto begin = values.begin() + std::ptrdiff_t(group.first);
            const auto end = begin + std::ptrdiff_t(group.count);
            std::sort(begin, end);
            // Two passes in long double, as summarize() does for one table.
            long double sum = 0;
            for (auto v = begin; v != end; ++v) {
                group.total = addSaturating(group.total, *v);
                sum += *v;
            }
            const long double mean = sum / (long double)group.count;
            long double squares = 0;
            for (auto v = begin; v != end; ++v) {
                const long double d = (long double)*v - mean;
                squares += d * d;
            }
            group.squaredDeviations = double(squares);
        }
        NameSummaries summaries;
        summaries.present = true;
        summaries.groups = Column<NameGroup>(std::move(m_groups));
        summaries.values = Column<std::int64_t>(std::move(values));
        return summaries;
    }

    void reserve(std::size_t events)
    {
        m_groupOf.reserve(events);
        m_values.reserve(events);
    }

private:
    // Open addressing, no allocation per group: an emit_nvtx trace has a
    // group per range (each text carries its sequence number), tens of
    // millions of them.
    QHash<GroupKey, std::uint32_t> m_index;
    std::vector<NameGroup> m_groups;
    std::vector<std::uint32_t> m_groupOf; // per event
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
    Grouping grouping;
    std::size_t events = 0;
    for (const Track &track : report.tracks)
        if (NameSummaries::summarizes(track.kind))
            events += track.slices.size() * (NameSummaries::hasSizes(track.kind) ? 2 : 1);
    grouping.reserve(events);
    for (const Track &track : report.tracks) {
        if (!NameSummaries::summarizes(track.kind))
            continue;
        NameGroup identity;
        identity.pid = track.pid;
        identity.kind = track.kind;
        if (isHostRange(track.kind) || track.kind == TrackKind::OpenMp) // OpenMP: the event kind's table
            identity.domain = track.domainName;
        const SliceTrack &s = track.slices;
        for (std::size_t i = 0; i < s.size(); ++i) {
            identity.name = s.name(i);
            identity.value = GroupedValue::Duration;
            if (isHostRange(track.kind))
                identity.nvtxEventType = hostRangeEventType(report, track, i);
            grouping.add(identity, s.duration(i));
            if (NameSummaries::hasSizes(track.kind)) {
                const std::uint32_t row = s.payload(i);
                identity.value = GroupedValue::Bytes;
                grouping.add(identity, std::int64_t(track.kind == TrackKind::Memcpy ? report.memcpys[row].bytes : report.memsets[row].bytes));
            }
        }
    }
    return grouping.finish();
}

} // namespace rankscope
