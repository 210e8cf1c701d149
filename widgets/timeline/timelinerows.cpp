#include "timeline/timelinerows.h"

#include "timeline/rows/rowitem.h"

#include <QFileInfo>

#include <algorithm>
#include <numeric>
#include <set>

namespace rankscope {

int TimelineRows::add(TimelineRow row)
{
    m_rows.push_back(std::move(row));
    return int(m_rows.size()) - 1;
}

const CounterTrack &counterOf(const RankEntry &entry, const TimelineRow &row)
{
    return row.derivedCounter ? row.derivedCounter->counter : entry.report->counters[std::size_t(row.counter)];
}

void TimelineRows::build(const Session &session)
{
    m_derivedRanks.clear();
    m_derivedCounters.clear();
    buildRows(session);
}

void TimelineRows::setDerivedGpuRanks(const Session &session, std::set<int> ranks)
{
    if (ranks == m_derivedRanks)
        return;
    // Rebuilt; each row's folding, hiding and pin carried over by its key
    // (the pins in the order they were pinned).
    std::map<QString, std::pair<bool, bool>> state; // collapsed, hidden
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        state[key(int(i))] = {m_rows[i].collapsed, m_rows[i].hidden};
    std::vector<QString> pinnedKeys;
    for (const int row : m_pinned)
        pinnedKeys.push_back(key(row));
    m_derivedRanks = std::move(ranks);
    buildRows(session);
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (const auto it = state.find(key(int(i))); it != state.end())
            std::tie(m_rows[i].collapsed, m_rows[i].hidden) = it->second;
    for (const QString &k : pinnedKeys)
        for (std::size_t i = 0; i < m_rows.size(); ++i)
            if (key(int(i)) == k) {
                m_rows[i].pinned = true;
                m_pinned.push_back(int(i));
            }
    refresh();
}

void TimelineRows::buildRows(const Session &session)
{
    m_rows.clear();
    m_pinned.clear();
    m_rowOfTrack.clear();
    m_ranksStartCollapsed = session.ranks().size() > kRanksOpenedExpanded;
    for (int r = 0; r < int(session.ranks().size()); ++r)
        addRank(session, r);
    m_order.resize(m_rows.size());
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_order[i] = int(i);
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        for (std::size_t t = 0; t < m_rows[i].tracks.size(); ++t)
            m_rowOfTrack.try_emplace({m_rows[i].rank, m_rows[i].tracks[t]}, int(i));
    collectSummaryTracks(session);
    refresh();
}

void TimelineRows::collectSummaryTracks(const Session &session)
{
    std::vector<std::set<std::uint32_t>> all(m_rows.size()), gpu(m_rows.size());
    for (const TimelineRow &row : m_rows) {
        const Report &report = *session.ranks()[std::size_t(row.rank)].report;
        for (int p = row.parent; p >= 0; p = m_rows[std::size_t(p)].parent)
            for (std::uint32_t t : row.tracks) {
                all[std::size_t(p)].insert(t);
                if (isGpuOperation(report.tracks[t].kind))
                    gpu[std::size_t(p)].insert(t);
            }
    }
    for (std::size_t g = 0; g < m_rows.size(); ++g) {
        const std::set<std::uint32_t> &chosen = gpu[g].empty() ? all[g] : gpu[g];
        m_rows[g].summaryTracks.assign(chosen.begin(), chosen.end());
    }
}

namespace {

QString threadName(const Report &r, std::uint32_t pid, std::uint32_t tid)
{
    const ThreadInfo *t = r.thread(pid, tid);
    return t && !t->name.isEmpty() ? QStringLiteral("%1 [%2]").arg(t->name).arg(tid) : QStringLiteral("Thread %1").arg(tid);
}

} // namespace

// A rank's tracks by owner: host tracks by process and thread, GPU tracks by
// process and device; processes with CUDA work first.
struct TimelineRows::RankTracks {
    const RankEntry &entry;
    const Report &report;
    int rank;
    std::map<std::uint32_t, std::map<std::uint32_t, std::vector<std::uint32_t>>> host; // pid -> tid -> tracks
    std::map<std::pair<std::uint32_t, int>, std::vector<std::uint32_t>> gpu;           // (pid, device) -> tracks
    std::set<std::uint32_t> cudaPids;
    std::vector<std::uint32_t> pids;

    RankTracks(const Session &session, int rank) : entry(session.ranks()[std::size_t(rank)]), report(*entry.report), rank(rank)
    {
        for (std::uint32_t t = 0; t < report.tracks.size(); ++t) {
            const Track &track = report.tracks[t];
            if (!Session::ownsTrack(entry, track))
                continue;
            if (isHostTrack(track.kind))
                host[track.pid][track.tid].push_back(t);
            else
                gpu[{track.pid, track.deviceId}].push_back(t);
        }
        // A thread that was only sampled still gets its process and thread rows.
        for (const SampledThread &t : report.sampling.threads)
            if (Session::ownsProcess(entry, t.pid))
                host[t.pid][t.tid];
        const std::vector<std::uint32_t> cuda = report.cudaProcesses();
        cudaPids.insert(cuda.begin(), cuda.end());
        for (const auto &[pid, threads] : host)
            pids.push_back(pid);
        for (const auto &[key, tracks] : gpu)
            if (!host.count(key.first))
                pids.push_back(key.first);
        std::stable_sort(pids.begin(), pids.end(), [&](auto a, auto b) { return cudaPids.count(a) > cudaPids.count(b); });
        pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
    }
};

void TimelineRows::addRank(const Session &session, int rank)
{
    const RankTracks tracks(session, rank);
    const int rankRow = addRankGroup(tracks);
    // GPU work first: it is what a trace is opened for.
    for (std::uint32_t pid : tracks.pids)
        for (const auto &[key, gpuTracks] : tracks.gpu)
            if (key.first == pid)
                addGpuGroup(tracks, rankRow, pid, key.second, gpuTracks);
    for (std::uint32_t pid : tracks.pids)
        addProcessGroup(tracks, rankRow, pid);
    addCounterRows(tracks, rankRow);
}

QString fittedLabel(const TimelineRow &row, const QFontMetrics &metrics, int width)
{
    if (row.labelParts.empty())
        return metrics.elidedText(row.label, Qt::ElideMiddle, width);
    static const QString separator = QStringLiteral(" · ");
    std::vector<QString> texts;
    for (const TimelineRow::LabelPart &part : row.labelParts)
        texts.push_back(part.text);
    const auto joined = [&] {
        QStringList shown;
        for (const QString &t : texts)
            if (!t.isEmpty())
                shown << t;
        return shown.join(separator);
    };
    // The parts by how long they stay, the first to go first.
    std::vector<std::size_t> order(texts.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return row.labelParts[a].keep < row.labelParts[b].keep; });
    for (std::size_t k = 0; k + 1 < order.size(); ++k) { // the part kept longest is cut last, below
        const int over = metrics.horizontalAdvance(joined()) - width;
        if (over <= 0)
            return joined();
        QString &part = texts[order[k]];
        const int room = metrics.horizontalAdvance(part) - over;
        // Shortened where most of it stays readable, else left out: "H10…BM3"
        // names no GPU.
        const int readable = std::max(metrics.horizontalAdvance(QStringLiteral("xxxx…")), metrics.horizontalAdvance(part) * 2 / 3);
        part = room >= readable ? metrics.elidedText(part, Qt::ElideMiddle, room) : QString();
    }
    return metrics.elidedText(joined(), Qt::ElideRight, width);
}

QStringList twoLineLabel(const QString &label, const QFontMetrics &metrics, int width)
{
    if (metrics.horizontalAdvance(label) <= width)
        return {label};
    const QStringList words = label.split(QLatin1Char(' '));
    QString first;
    qsizetype used = 0;
    for (; used < words.size(); ++used) {
        const QString longer = first.isEmpty() ? words[used] : first + QLatin1Char(' ') + words[used];
        if (metrics.horizontalAdvance(longer) > width)
            break;
        first = longer;
    }
    if (first.isEmpty()) // one word wider than the column
        return {metrics.elidedText(label, Qt::ElideRight, width)};
    return {first, metrics.elidedText(words.mid(used).join(QLatin1Char(' ')), Qt::ElideRight, width)};
}

int TimelineRows::addGroup(int rank, int parent, int level, QString label, bool collapsed)
{
    TimelineRow group;
    group.kind = TimelineRow::Kind::Group;
    group.rank = rank;
    group.level = level;
    group.parent = parent;
    group.tooltip = label; // the full name, where the column cuts it short
    group.label = std::move(label);
    group.collapsed = collapsed;
    return add(std::move(group));
}

int TimelineRows::addRankGroup(const RankTracks &tracks)
{
    const Report &r = tracks.report;
    QStringList gpuNames;
    for (const GpuInfo &g : r.gpus)
        gpuNames << g.name;
    gpuNames.removeDuplicates();
    // Who the rank is stays longest; in a comparison the run says which
    // side it is on. Then its file and host; the GPUs' model goes first.
    std::vector<TimelineRow::LabelPart> parts;
    parts.push_back({tracks.entry.side == RunSide::None ? QStringLiteral("Rank %1").arg(tracks.entry.rank) : tracks.entry.displayName(), 3});
    if (!r.meta.hostName.isEmpty())
        parts.push_back({r.meta.hostName, 1});
    parts.push_back({QFileInfo(r.filePath).fileName(), 2});
    if (!gpuNames.isEmpty())
        parts.push_back({gpuNames.join(QStringLiteral(", ")), 0});
    const int row = addGroup(tracks.rank, -1, 0, QString(), m_ranksStartCollapsed);
    setLabelParts(row, std::move(parts));
    m_rows[std::size_t(row)].tooltip += QLatin1Char('\n') + r.filePath;
    return row;
}

void TimelineRows::setLabelParts(int row, std::vector<TimelineRow::LabelPart> parts)
{
    QStringList texts;
    for (const TimelineRow::LabelPart &part : parts)
        texts << part.text;
    TimelineRow &shown = m_rows[std::size_t(row)];
    shown.label = texts.join(QStringLiteral(" · "));
    shown.tooltip = shown.label;
    shown.labelParts = std::move(parts);
}

void TimelineRows::addSlicesRow(const Report &r, int rank, int parent, int level, const QString &label, const std::vector<std::uint32_t> &tracks,
                                bool flatten)
{
    if (tracks.empty())
        return;
    TimelineRow row;
    row.rank = rank;
    row.level = level;
    row.parent = parent;
    row.label = label;
    row.tooltip = label;
    row.flatten = flatten;
    int lane = 0;
    for (std::uint32_t t : tracks) {
        const TrackKind kind = r.tracks[t].kind;
        row.onGpu |= isGpuTrack(kind) || isDerivedTrack(kind);
        row.nccl |= kind == TrackKind::NcclKernels;
        row.tracks.push_back(t);
        row.laneOffset.push_back(flatten ? 0 : lane);
        if (!flatten)
            lane += r.tracks[t].slices.maxDepth() + 1;
    }
    row.lanes = std::max(1, flatten ? 1 : lane);
    add(std::move(row));
}

void TimelineRows::addGpuGroup(const RankTracks &tracks, int rankRow, std::uint32_t pid, int device, const std::vector<std::uint32_t> &gpuTracks)
{
    const Report &r = tracks.report;
    const GpuInfo *gpu = r.gpu(device);
    // The GPU's number stays longest, then its process; its model (without
    // the vendor, which every CUDA GPU shares) goes first. The tooltip has all.
    std::vector<TimelineRow::LabelPart> parts{{QStringLiteral("CUDA HW"), 1}, {QStringLiteral("GPU %1").arg(device), 3}};
    if (gpu && !gpu->name.isEmpty()) {
        QString model = gpu->name;
        if (model.startsWith(QLatin1String("NVIDIA ")))
            model.remove(0, 7);
        parts.push_back({model, 0});
    }
    parts.push_back({QStringLiteral("pid %1").arg(pid), 2});
    const int hwRow = addGroup(tracks.rank, rankRow, 1, QString(), false);
    setLabelParts(hwRow, std::move(parts));
    if (gpu)
        m_rows[std::size_t(hwRow)].tooltip += QStringLiteral("\n") + gpu->name;
    std::vector<std::uint32_t> all, projections, nccl, syncs, faults;
    std::map<std::uint32_t, std::vector<std::uint32_t>> byStream, graphsByStream;
    for (std::uint32_t t : gpuTracks) {
        const TrackKind kind = r.tracks[t].kind;
        if (isGpuOperation(kind)) {
            all.push_back(t);
            byStream[r.tracks[t].streamId].push_back(t);
        } else if (kind == TrackKind::CudaGraph) {
            // Drawn first, under the kernels a node-level trace has in them;
            // a graph traced whole is all its stream shows of it.
            all.insert(all.begin(), t);
            graphsByStream[r.tracks[t].streamId].push_back(t);
            byStream[r.tracks[t].streamId];
        } else if (kind == TrackKind::Sync) {
            syncs.push_back(t);
        } else if (kind == TrackKind::NvtxGpuProjection) {
            projections.push_back(t);
        } else if (kind == TrackKind::NcclKernels) {
            nccl.push_back(t);
        } else if (kind == TrackKind::UmGpuPageFault) {
            faults.push_back(t);
        }
    }
    // The all-streams row draws the tracks the stream rows own.
    addSlicesRow(r, tracks.rank, hwRow, 2, QStringLiteral("All streams"), all, true);
    if (m_derivedRanks.count(tracks.rank))
        addDerivedGpuRows(tracks, hwRow, pid, device, all);
    addSlicesRow(r, tracks.rank, hwRow, 2, QStringLiteral("NVTX (projected on GPU)"), projections, false);
    if (!nccl.empty()) {
        // The NCCL lane: NCCL kernels, then the NCCL NVTX domain.
        if (const auto host = tracks.host.find(pid); host != tracks.host.end())
            for (const auto &[tid, hostOfThread] : host->second)
                for (std::uint32_t t : hostOfThread)
                    if (r.tracks[t].kind == TrackKind::Nvtx && r.strings.view(r.tracks[t].domainName) == "NCCL")
                        nccl.push_back(t);
        addSlicesRow(r, tracks.rank, hwRow, 2, QStringLiteral("NCCL"), nccl, false);
    }
    // GPU-side waits of every stream in one row: they overlap the work they
    // wait for, and most streams only ever wait once.
    addSlicesRow(r, tracks.rank, hwRow, 2, QStringLiteral("Synchronization"), syncs, true);
    addSlicesRow(r, tracks.rank, hwRow, 2, trackKindName(TrackKind::UmGpuPageFault), faults, true);
    // Per-stream rows in their own group, folded when there are many
    // (data-loader workers each make streams that copy once or twice).
    if (byStream.empty())
        return;
    const int streamsRow =
        addGroup(tracks.rank, hwRow, 2, QStringLiteral("Streams (%1)").arg(byStream.size()), byStream.size() > kStreamsShownUnfolded);
    for (auto &[stream, streamTracks] : byStream) {
        // A stream's graph launches in a row above its operations.
        if (const auto graphs = graphsByStream.find(stream); graphs != graphsByStream.end())
            addSlicesRow(r, tracks.rank, streamsRow, 3, QStringLiteral("Stream %1 · CUDA graphs").arg(stream), graphs->second, true);
        std::stable_sort(streamTracks.begin(), streamTracks.end(), [&](auto a, auto b) { return r.tracks[a].kind < r.tracks[b].kind; });
        addSlicesRow(r, tracks.rank, streamsRow, 3, QStringLiteral("Stream %1").arg(stream), streamTracks, true);
    }
}

std::vector<TimelineRows::DerivedGpu> TimelineRows::gpusWithoutDerivedCounters(const Session &session, const std::set<int> &ranks) const
{
    std::vector<DerivedGpu> gpus;
    for (const int rank : ranks) {
        if (rank < 0 || std::size_t(rank) >= session.ranks().size())
            continue;
        const RankTracks tracks(session, rank);
        for (const auto &[key, gpuTracks] : tracks.gpu)
            if (!m_derivedCounters.count({&tracks.report, key.first, key.second}))
                gpus.push_back({&tracks.report, key.first, key.second, gpuTracks}); // the counters read the GPU operations among them
    }
    return gpus;
}

TimelineRows::DerivedCounters TimelineRows::derivedCountersOf(const DerivedGpu &gpu)
{
    DerivedCounters counters;
    for (stats::GpuStateCounter &c : stats::gpuStateCounters(*gpu.report, gpu.tracks, stats::KernelClassifier::rankscope()))
        counters.push_back(std::make_shared<const stats::GpuStateCounter>(std::move(c)));
    return counters;
}

void TimelineRows::addDerivedCounters(const DerivedGpu &gpu, DerivedCounters counters)
{
    m_derivedCounters[{gpu.report, gpu.pid, gpu.device}] = std::move(counters);
}

void TimelineRows::addDerivedGpuRows(const RankTracks &tracks, int hwRow, std::uint32_t pid, int device, const std::vector<std::uint32_t> &gpuTracks)
{
    const auto key = std::tuple(&tracks.report, pid, device);
    if (!m_derivedCounters.count(key))
        m_derivedCounters[key] = derivedCountersOf({&tracks.report, pid, device, gpuTracks});
    const DerivedCounters &counters = m_derivedCounters[key];
    for (std::size_t i = 0; i < counters.size(); ++i) {
        TimelineRow row;
        row.kind = TimelineRow::Kind::Counter;
        row.rank = tracks.rank;
        row.level = 2;
        row.parent = hwRow;
        row.derivedCounter = counters[i];
        row.label = counters[i]->counter.name;
        row.tooltip = QStringLiteral("%1\n%2").arg(row.label, QLatin1String(stats::gpuStateRowText(counters[i]->row).explained));
        row.onGpu = true;
        add(std::move(row));
    }
}

void TimelineRows::addProcessGroup(const RankTracks &tracks, int rankRow, std::uint32_t pid)
{
    const Report &r = tracks.report;
    const ProcessInfo *info = r.process(pid);
    const int processRow = addGroup(tracks.rank, rankRow, 1,
                                    QStringLiteral("%1 (%2)").arg(info && !info->name.isEmpty() ? info->name : QStringLiteral("Process")).arg(pid),
                                    // Helper processes start folded; in a comparison every
                                    // process does, so both runs' GPU rows are in view.
                                    !tracks.cudaPids.count(pid) || tracks.entry.side != RunSide::None);
    const auto host = tracks.host.find(pid);
    if (host == tracks.host.end())
        return;
    // The main thread (tid == pid) first, then by tid.
    std::vector<std::uint32_t> tids;
    for (const auto &[tid, threadTracks] : host->second)
        tids.push_back(tid);
    std::stable_sort(tids.begin(), tids.end(), [&](auto a, auto b) { return (a == pid) > (b == pid); });
    for (std::uint32_t tid : tids) {
        std::vector<std::uint32_t> threadTracks = host->second.at(tid);
        std::stable_sort(threadTracks.begin(), threadTracks.end(), [&](auto a, auto b) { return r.tracks[a].kind < r.tracks[b].kind; });
        const QString name = threadName(r, pid, tid);
        for (std::uint32_t t : threadTracks) {
            const Track &track = r.tracks[t];
            // The process's own row (its unified-memory faults) names no thread.
            const QString label = track.kind == TrackKind::UmCpuPageFault ? trackName(r, track) : name + QStringLiteral(" · ") + trackName(r, track);
            addSlicesRow(r, tracks.rank, processRow, 2, label, {t}, false);
        }
        addSamplesRow(tracks, processRow, pid, tid, name);
    }
}

void TimelineRows::addSamplesRow(const RankTracks &tracks, int processRow, std::uint32_t pid, std::uint32_t tid, const QString &threadName)
{
    const CpuSampling &sampling = tracks.report.sampling;
    const SampledThread *thread = sampling.thread(pid, tid);
    if (!thread)
        return;
    TimelineRow row;
    row.kind = TimelineRow::Kind::Samples;
    row.rank = tracks.rank;
    row.level = 2;
    row.parent = processRow;
    row.label = threadName + QStringLiteral(" · CPU samples");
    row.tooltip = QStringLiteral("%1\n%2 CPU samples; hover one for its backtrace, click it for Details").arg(row.label).arg(thread->count);
    row.sampledThread = int(thread - sampling.threads.begin());
    add(std::move(row));
}

void TimelineRows::addCounterRows(const RankTracks &tracks, int rankRow)
{
    const std::vector<CounterTrack> &counters = tracks.report.counters;
    std::vector<int> active, idle;
    for (int c = 0; c < int(counters.size()); ++c) {
        const CounterTrack &counter = counters[std::size_t(c)];
        if (tracks.entry.pid && counter.pid && counter.pid != *tracks.entry.pid)
            continue;
        const bool allZero = counter.largest() == 0 && counter.smallest() == 0;
        (allZero ? idle : active).push_back(c);
    }
    auto addCounter = [&](int c, int parent, int level) {
        TimelineRow row;
        row.kind = TimelineRow::Kind::Counter;
        row.rank = tracks.rank;
        row.level = level;
        row.parent = parent;
        row.counter = c;
        row.label = counters[std::size_t(c)].name;
        row.tooltip = row.label;
        add(std::move(row));
    };
    for (int c : active)
        addCounter(c, rankRow, 1);
    // Counters that never left 0 (metrics of an idle engine, memory never
    // used) would each take a row to say nothing: one folded note holds them.
    if (idle.empty())
        return;
    const int note = addGroup(tracks.rank, rankRow, 1,
                              QStringLiteral("No activity: %1 counter%2 always 0").arg(idle.size()).arg(idle.size() == 1 ? "" : "s"), true);
    for (int c : idle)
        addCounter(c, note, 2);
}

int TimelineRows::height(int row) const
{
    const TimelineRow &r = m_rows[std::size_t(row)];
    return rowItem(r.kind).height(r);
}

int TimelineRows::totalHeight() const
{
    int h = 0;
    for (int row : m_shown)
        h += height(row);
    return h;
}

int TimelineRows::pinnedHeight() const
{
    int h = 0;
    for (int row : m_pinnedShown)
        h += height(row);
    return h;
}

int TimelineRows::rowOf(int rank, std::uint32_t track) const
{
    const auto it = m_rowOfTrack.find({rank, track});
    return it == m_rowOfTrack.end() ? -1 : it->second;
}

void TimelineRows::keepArrangementOf(const TimelineRows &before)
{
    if (before.m_rows.size() != m_rows.size())
        return;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const TimelineRow &a = before.m_rows[i], &b = m_rows[i];
        if (a.rank != b.rank || a.parent != b.parent || a.kind != b.kind || a.label != b.label)
            return;
    }
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        m_rows[i].collapsed = before.m_rows[i].collapsed;
        m_rows[i].hidden = before.m_rows[i].hidden;
        m_rows[i].pinned = before.m_rows[i].pinned;
    }
    m_order = before.m_order;
    m_pinned = before.m_pinned;
    refresh();
}

void TimelineRows::refresh()
{
    m_shown.clear();
    m_pinnedShown.clear();
    for (int row : m_pinned)
        if (!m_rows[std::size_t(row)].hidden)
            m_pinnedShown.push_back(row);
    for (int row : m_order) {
        bool shown = !m_rows[std::size_t(row)].hidden && !m_rows[std::size_t(row)].pinned;
        for (int p = m_rows[std::size_t(row)].parent; shown && p >= 0; p = m_rows[std::size_t(p)].parent)
            shown = !m_rows[std::size_t(p)].collapsed && !m_rows[std::size_t(p)].hidden;
        if (shown)
            m_shown.push_back(row);
    }
}

void TimelineRows::setCollapsed(int row, bool collapsed)
{
    m_rows[std::size_t(row)].collapsed = collapsed;
    refresh();
}

void TimelineRows::hide(int row)
{
    m_rows[std::size_t(row)].hidden = true;
    refresh();
}

void TimelineRows::showAll()
{
    for (TimelineRow &r : m_rows)
        r.hidden = false;
    refresh();
}

void TimelineRows::setAllCollapsed(bool collapsed)
{
    for (TimelineRow &r : m_rows)
        if (rowItem(r.kind).folds())
            r.collapsed = collapsed;
    refresh();
}

void TimelineRows::showOnly(RowFilter filter)
{
    std::vector<bool> keep(m_rows.size(), false);
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const TimelineRow &r = m_rows[i];
        if (rowItem(r.kind).folds() || !(filter == RowFilter::GpuRows ? r.onGpu : r.nccl))
            continue;
        keep[i] = true;
        for (int p = r.parent; p >= 0; p = m_rows[std::size_t(p)].parent) {
            keep[std::size_t(p)] = true;
            m_rows[std::size_t(p)].collapsed = false;
        }
    }
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_rows[i].hidden = !keep[i];
    refresh();
}

void TimelineRows::setPinned(int row, bool pinned)
{
    TimelineRow &r = m_rows[std::size_t(row)];
    if (r.pinned == pinned)
        return;
    r.pinned = pinned;
    if (pinned)
        m_pinned.push_back(row);
    else
        m_pinned.erase(std::remove(m_pinned.begin(), m_pinned.end(), row), m_pinned.end());
    refresh();
}

QString TimelineRows::key(int row) const
{
    QStringList labels;
    for (int r = row; r >= 0; r = m_rows[std::size_t(r)].parent)
        labels.prepend(m_rows[std::size_t(r)].label);
    return labels.join(QStringLiteral(" / "));
}

QStringList TimelineRows::hiddenKeys() const
{
    QStringList keys;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].hidden)
            keys << key(int(i));
    return keys;
}

void TimelineRows::hideKeys(const QStringList &keys)
{
    if (keys.isEmpty())
        return;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (keys.contains(key(int(i))))
            m_rows[i].hidden = true;
    refresh();
}

bool TimelineRows::move(int row, int direction)
{
    // A row's block is the row and all rows below it with a deeper level;
    // it swaps with the neighbouring block of the same parent.
    auto blockEnd = [&](std::size_t start) {
        std::size_t end = start + 1;
        while (end < m_order.size() && m_rows[std::size_t(m_order[end])].level > m_rows[std::size_t(m_order[start])].level)
            ++end;
        return end;
    };
    const auto pos = std::size_t(std::find(m_order.begin(), m_order.end(), row) - m_order.begin());
    if (pos >= m_order.size())
        return false;
    const int parent = m_rows[std::size_t(row)].parent;
    std::size_t neighbour = m_order.size();
    if (direction < 0) {
        for (std::size_t i = pos; i-- > 0;) {
            if (m_rows[std::size_t(m_order[i])].parent == parent) {
                neighbour = i;
                break;
            }
            if (m_rows[std::size_t(m_order[i])].level < m_rows[std::size_t(row)].level)
                break;
        }
    } else {
        const std::size_t after = blockEnd(pos);
        if (after < m_order.size() && m_rows[std::size_t(m_order[after])].parent == parent)
            neighbour = after;
    }
    if (neighbour == m_order.size())
        return false;
    const std::size_t first = std::min(pos, neighbour), second = std::max(pos, neighbour);
    const std::size_t firstEnd = blockEnd(first), secondEnd = blockEnd(second);
    std::rotate(m_order.begin() + std::ptrdiff_t(first), m_order.begin() + std::ptrdiff_t(firstEnd), m_order.begin() + std::ptrdiff_t(secondEnd));
    refresh();
    return true;
}

} // namespace rankscope
