#include "events/eventstablemodel.h"
#include "common/plaintext.h"

#include "core/cudaenums.h"
#include "core/units.h"
#include "session/eventdetails.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rankscope {

namespace {

QString columnTitle(EventsTableModel::Column c)
{
    using C = EventsTableModel::Column;
    switch (c) {
    case C::Name:
        return QStringLiteral("Name");
    case C::Start:
        return QStringLiteral("Start");
    case C::Duration:
        return QStringLiteral("Duration");
    case C::Kind:
        return QStringLiteral("Kind");
    case C::Grid:
        return QStringLiteral("Grid");
    case C::Block:
        return QStringLiteral("Block");
    case C::Stream:
        return QStringLiteral("Stream");
    case C::Size:
        return QStringLiteral("Size");
    case C::Direction:
        return QStringLiteral("Direction");
    case C::Memory:
        return QStringLiteral("Memory");
    case C::Throughput:
        return QStringLiteral("Throughput");
    case C::Correlation:
        return QStringLiteral("Correlation id");
    case C::Depth:
        return QStringLiteral("Depth");
    }
    return {};
}

constexpr double kNotNumeric = std::numeric_limits<double>::quiet_NaN();

} // namespace

void EventsTableModel::setEvents(std::shared_ptr<const Session> session, int rank, std::vector<std::uint32_t> tracks, std::optional<TimeRange> range)
{
    beginResetModel();
    m_session = std::move(session);
    m_rank = rank;
    m_tracks = std::move(tracks);
    m_entries.clear();
    if (m_session && rank >= 0) {
        const RankEntry &entry = m_session->ranks()[std::size_t(rank)];
        for (std::uint32_t slot = 0; slot < m_tracks.size(); ++slot) {
            const SliceTrack &slices = entry.report->tracks[m_tracks[slot]].slices;
            if (range)
                slices.forEachOverlapping(range->start - entry.sessionOffset, range->end - entry.sessionOffset, [&](std::uint32_t e) {
                    m_entries.push_back({slot, e});
                });
            else
                for (std::uint32_t e = 0; e < slices.size(); ++e)
                    m_entries.push_back({slot, e});
        }
        std::stable_sort(m_entries.begin(), m_entries.end(), [&](const Entry &a, const Entry &b) {
            return entry.report->tracks[m_tracks[a.trackSlot]].slices.start(a.event)
                   < entry.report->tracks[m_tracks[b.trackSlot]].slices.start(b.event);
        });
    }
    chooseColumns();
    endResetModel();
}

void EventsTableModel::clear()
{
    setEvents(nullptr, -1, {}, std::nullopt);
}

void EventsTableModel::chooseColumns()
{
    using C = Column;
    m_columns = {C::Name, C::Start, C::Duration};
    if (!m_session || m_rank < 0)
        return;
    const Report &r = *m_session->ranks()[std::size_t(m_rank)].report;
    std::set<TrackKind> kinds;
    bool nested = false;
    for (std::uint32_t t : m_tracks) {
        kinds.insert(r.tracks[t].kind);
        nested |= r.tracks[t].slices.maxDepth() > 0;
    }
    if (kinds.size() > 1)
        m_columns.push_back(C::Kind);
    auto has = [&](TrackKind k) { return kinds.count(k) > 0; };
    if (has(TrackKind::Kernel) || has(TrackKind::NcclKernels))
        m_columns.insert(m_columns.end(), {C::Grid, C::Block});
    if (has(TrackKind::Memcpy) || has(TrackKind::Memset))
        m_columns.push_back(C::Size);
    if (has(TrackKind::Memcpy))
        m_columns.insert(m_columns.end(), {C::Direction, C::Memory, C::Throughput});
    if (has(TrackKind::Kernel) || has(TrackKind::Memcpy) || has(TrackKind::Memset))
        m_columns.push_back(C::Stream);
    if (has(TrackKind::CudaApi))
        m_columns.push_back(C::Correlation);
    if (nested)
        m_columns.push_back(C::Depth);
}

EventLocation EventsTableModel::eventAt(int row) const
{
    const Entry &e = m_entries[std::size_t(row)];
    return {m_rank, m_tracks[e.trackSlot], e.event};
}

int EventsTableModel::rowOf(const EventLocation &event) const
{
    if (event.rank != m_rank)
        return -1;
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].event == event.event && m_tracks[m_entries[i].trackSlot] == event.track)
            return int(i);
    return -1;
}

int EventsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int EventsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant EventsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 || section >= int(m_columns.size()))
        return {};
    return columnTitle(m_columns[std::size_t(section)]);
}

QVariant EventsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_entries.size()))
        return {};
    const Column c = m_columns[std::size_t(index.column())];
    if (role == Qt::DisplayRole)
        return text(eventAt(index.row()), c);
    if (role == Qt::TextAlignmentRole)
        return c == Column::Name || c == Column::Kind || c == Column::Direction || c == Column::Memory ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                                                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && c == Column::Name)
        return plainTooltip(text(eventAt(index.row()), c)); // a name is data, not markup
    return {};
}

QString EventsTableModel::text(const EventLocation &e, Column c) const
{
    const RankEntry &entry = m_session->ranks()[std::size_t(e.rank)];
    const Report &r = *entry.report;
    const Track &track = r.tracks[e.track];
    const bool kernel = track.kind == TrackKind::Kernel || track.kind == TrackKind::NcclKernels;
    switch (c) {
    case Column::Name:
        return eventName(*m_session, e);
    case Column::Start:
        return formatTimestamp(m_session->sessionTime(e).start - m_session->extent().start);
    case Column::Duration:
        return formatDuration(track.slices.duration(e.event));
    case Column::Kind:
        return trackName(r, track);
    case Column::Grid:
    case Column::Block: {
        if (!kernel)
            return {};
        const KernelConfig &k = r.kernelConfigs[r.kernels[track.slices.payload(e.event)].config];
        return c == Column::Grid ? QStringLiteral("%1×%2×%3").arg(k.gridX).arg(k.gridY).arg(k.gridZ)
                                 : QStringLiteral("%1×%2×%3").arg(k.blockX).arg(k.blockY).arg(k.blockZ);
    }
    case Column::Stream:
        return isGpuTrack(track.kind) ? QString::number(track.streamId) : QString();
    case Column::Size:
        if (track.kind == TrackKind::Memcpy)
            return formatBinarySize(r.memcpys[track.slices.payload(e.event)].bytes);
        if (track.kind == TrackKind::Memset)
            return formatBinarySize(r.memsets[track.slices.payload(e.event)].bytes);
        return {};
    case Column::Direction:
        return track.kind == TrackKind::Memcpy ? memcpyKindShortName(r.memcpys[track.slices.payload(e.event)].copyKind) : QString();
    case Column::Memory: {
        if (track.kind != TrackKind::Memcpy)
            return {};
        const MemcpyRecord &m = r.memcpys[track.slices.payload(e.event)];
        return r.memoryKindLabel(int(m.srcKind)) + QStringLiteral(" → ") + r.memoryKindLabel(int(m.dstKind));
    }
    case Column::Throughput:
        return track.kind == TrackKind::Memcpy ? formatThroughput(r.memcpys[track.slices.payload(e.event)].bytes, track.slices.duration(e.event))
                                               : QString();
    case Column::Correlation:
        return track.kind == TrackKind::CudaApi ? QString::number(r.apiCalls[track.slices.payload(e.event)].correlationId) : QString();
    case Column::Depth:
        return QString::number(track.slices.depth(e.event));
    }
    return {};
}

double EventsTableModel::number(const EventLocation &e, Column c) const
{
    const Report &r = *m_session->ranks()[std::size_t(e.rank)].report;
    const Track &track = r.tracks[e.track];
    switch (c) {
    case Column::Start:
        return double(m_session->sessionTime(e).start);
    case Column::Duration:
        return double(track.slices.duration(e.event));
    case Column::Stream:
        return double(track.streamId);
    case Column::Size:
        if (track.kind == TrackKind::Memcpy)
            return double(r.memcpys[track.slices.payload(e.event)].bytes);
        if (track.kind == TrackKind::Memset)
            return double(r.memsets[track.slices.payload(e.event)].bytes);
        return -1;
    case Column::Throughput:
        if (track.kind != TrackKind::Memcpy)
            return -1;
        return double(r.memcpys[track.slices.payload(e.event)].bytes) / double(std::max<TimeNs>(1, track.slices.duration(e.event)));
    case Column::Correlation:
        return track.kind == TrackKind::CudaApi ? double(r.apiCalls[track.slices.payload(e.event)].correlationId) : -1;
    case Column::Depth:
        return double(track.slices.depth(e.event));
    default:
        return kNotNumeric;
    }
}

void EventsTableModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= int(m_columns.size()) || m_entries.empty())
        return;
    const Column c = m_columns[std::size_t(column)];
    emit layoutAboutToBeChanged();
    // Keys first: one per row, then an index sort on them.
    std::vector<std::uint32_t> order_(m_entries.size());
    for (std::uint32_t i = 0; i < order_.size(); ++i)
        order_[i] = i;
    if (!std::isnan(number(eventAt(0), c))) {
        std::vector<double> keys(m_entries.size());
        for (std::size_t i = 0; i < keys.size(); ++i)
            keys[i] = number(eventAt(int(i)), c);
        std::stable_sort(order_.begin(), order_.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return order == Qt::AscendingOrder ? keys[a] < keys[b] : keys[a] > keys[b]; });
    } else {
        std::vector<QString> keys(m_entries.size());
        for (std::size_t i = 0; i < keys.size(); ++i)
            keys[i] = text(eventAt(int(i)), c);
        std::stable_sort(order_.begin(), order_.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return order == Qt::AscendingOrder ? keys[a] < keys[b] : keys[b] < keys[a]; });
    }
    std::vector<Entry> sorted(m_entries.size());
    for (std::size_t i = 0; i < sorted.size(); ++i)
        sorted[i] = m_entries[order_[i]];
    m_entries.swap(sorted);
    emit layoutChanged();
}

} // namespace rankscope
