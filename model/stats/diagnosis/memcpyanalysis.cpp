#include "stats/diagnosis/memcpyanalysis.h"

#include "core/cancellation.h"
#include "core/units.h"

#include <algorithm>
#include <bit>
#include <map>

namespace rankscope::stats {

Direction directionOf(MemcpyKind kind)
{
    switch (kind) {
    case MemcpyKind::HtoD:
    case MemcpyKind::UvmHtoD:
        return Direction::HtoD;
    case MemcpyKind::DtoH:
    case MemcpyKind::UvmDtoH:
        return Direction::DtoH;
    case MemcpyKind::DtoD:
    case MemcpyKind::UvmDtoD:
        return Direction::DtoD;
    case MemcpyKind::PtoP:
        return Direction::PtoP;
    default:
        return Direction::Other;
    }
}

QString directionName(Direction d)
{
    switch (d) {
    case Direction::HtoD:
        return QStringLiteral("HtoD");
    case Direction::DtoH:
        return QStringLiteral("DtoH");
    case Direction::DtoD:
        return QStringLiteral("DtoD");
    case Direction::PtoP:
        return QStringLiteral("PtoP");
    case Direction::Other:
        return QStringLiteral("Other");
    }
    return {};
}

int log2Bin(std::uint64_t bytes)
{
    return bytes == 0 ? -1 : int(std::bit_width(bytes)) - 1;
}

namespace {

template <class Visit>
void forEachCopy(const Session &session, const StatsScope &scope, Visit &&visit)
{
    const std::vector<ReportSlice> rankSlices = slicesOf(session, scope);
    RankPass rankPass(rankSlices.size());
    for (const ReportSlice &slice : rankSlices) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        for (std::uint32_t t = 0; t < slice.report->tracks.size(); ++t) {
            const Track &track = slice.report->tracks[t];
            if (track.kind != TrackKind::Memcpy || !slice.acceptsTrack(track))
                continue;
            const auto [first, last] = slice.eventsIn(track);
            for (std::size_t i = first; i < last; ++i)
                visit(*slice.report, track, EventLocation{slice.rankIndex, t, std::uint32_t(i)});
        }
    }
}

} // namespace

MemcpyAnalysis analyzeMemcpy(const Session &session, const StatsScope &scope)
{
    MemcpyAnalysis a;
    std::map<std::pair<int, int>, TransferBin> bins;
    forEachCopy(session, scope, [&](const Report &r, const Track &track, const EventLocation &at) {
        const MemcpyRecord &m = r.memcpys[track.slices.payload(at.event)];
        const Direction d = directionOf(m.copyKind);
        const bool pageable = m.isPageable();
        const TimeNs duration = track.slices.duration(at.event);
        TransferBin &bin = bins[{int(d), log2Bin(m.bytes)}];
        bin.direction = d;
        bin.log2Bytes = log2Bin(m.bytes);
        ++bin.count;
        bin.bytes += m.bytes;
        a.points.push_back({d, m.bytes, duration > 0 ? double(m.bytes) / double(duration) : 0.0, pageable, at});
        HostMemoryShare *share = d == Direction::HtoD ? &a.hostToDevice : d == Direction::DtoH ? &a.deviceToHost : nullptr;
        if (share) {
            (pageable ? share->pageableBytes : share->pinnedBytes) += m.bytes;
            (pageable ? share->pageableTime : share->pinnedTime) += duration;
        }
    });
    for (const auto &[key, bin] : bins)
        a.bins.push_back(bin);
    const HostMemoryShare &h = a.hostToDevice;
    if (pageableAdviceWarranted(h))
        a.advice = QStringLiteral("%1% of host-to-device bytes (%2% of the copy time; %3 in %4) come from pageable memory. "
                                  "Pageable copies are staged through a bounce buffer and block the CPU thread; "
                                  "with PyTorch, set pin_memory=True on the DataLoader and copy with non_blocking=True.")
                       .arg(qRound(h.pageableByteShare() * 100))
                       .arg(qRound(h.pageableTimeShare() * 100))
                       .arg(formatBinarySize(h.pageableBytes), formatDuration(h.pageableTime));
    return a;
}

bool pageableAdviceWarranted(const HostMemoryShare &h)
{
    const bool dominant = h.pageableByteShare() > 0.5 || h.pageableTimeShare() > 0.5;
    const bool matters = h.pageableTime >= kPageableAdviceMinTime || h.pageableBytes >= kPageableAdviceMinBytes;
    return dominant && matters;
}

std::vector<EventLocation> transfersInBin(const Session &session, const StatsScope &scope, Direction direction, int log2Bytes)
{
    std::vector<EventLocation> hits;
    forEachCopy(session, scope, [&](const Report &r, const Track &track, const EventLocation &at) {
        const MemcpyRecord &m = r.memcpys[track.slices.payload(at.event)];
        if (directionOf(m.copyKind) == direction && log2Bin(m.bytes) == log2Bytes)
            hits.push_back(at);
    });
    std::sort(hits.begin(), hits.end(),
              [&](const EventLocation &a, const EventLocation &b) { return session.sessionTime(a).start < session.sessionTime(b).start; });
    return hits;
}

} // namespace rankscope::stats
