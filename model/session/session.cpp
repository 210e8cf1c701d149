#include "session/session.h"

#include "core/memoryusage.h"
#include "load/traceloader.h"
#include "load/workerpool.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <mutex>
#include <set>

namespace rankscope {

std::optional<int> rankFromFileName(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    static const QRegularExpression named(QStringLiteral("rank[_-]?(\\d+)"), QRegularExpression::CaseInsensitiveOption);
    if (const auto m = named.match(name); m.hasMatch())
        return m.captured(1).toInt();
    static const QRegularExpression trailing(QStringLiteral("_(\\d+)(?:\\.[A-Za-z0-9-]+)+$"));
    if (const auto m = trailing.match(name); m.hasMatch())
        return m.captured(1).toInt();
    return std::nullopt;
}

QStringList expandTracePaths(const QStringList &pathsOrDirectories)
{
    QStringList files;
    for (const QString &path : pathsOrDirectories) {
        if (QFileInfo(path).isDir())
            files << traceFilesIn(path);
        else
            files << path;
    }
    return files;
}

Session Session::load(const QStringList &pathsOrDirectories, const LoadControl &control)
{
    const QStringList files = expandTracePaths(pathsOrDirectories);
    std::vector<LoadResult> results(std::size_t(files.size()));
    std::mutex progressMutex;
    std::vector<double> fractions(results.size(), 0.0);
    parallelFor(results.size(), [&](std::size_t i) {
        LoadControl perFile = control; // each file reports its own share of the progress
        if (control.progress)
            perFile.progress = [&, i](double f) {
                std::lock_guard lock(progressMutex);
                fractions[i] = f;
                double sum = 0;
                for (double x : fractions)
                    sum += x;
                control.progress(sum / double(fractions.size()));
            };
        results[i] = loadTraceFile(files[qsizetype(i)], perFile);
    });

    Session session;
    session.m_cancelled = control.isCancelled();
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (results[i].ok())
            session.m_reports.push_back(std::move(results[i].report));
        else if (!results[i].cancelled)
            session.m_failures.push_back({files[qsizetype(i)], results[i].error});
    }
    session.assignRanks();
    // Loading frees gigabytes of temporaries (SQLite pages, JSON text,
    // growing vectors); hand the freed heap back to the system.
    releaseFreedMemory();
    return session;
}

Session Session::withWholeReports(const LoadControl &control) const
{
    std::vector<std::size_t> pending;
    for (std::size_t i = 0; i < m_reports.size(); ++i)
        if (m_reports[i]->summariesOnly)
            pending.push_back(i);
    LoadControl whole = control;
    whole.summariesOfUncheckedCaches = false;
    std::vector<LoadResult> results(pending.size());
    std::mutex progressMutex;
    std::size_t done = 0;
    parallelFor(pending.size(), [&](std::size_t p) {
        if (control.isCancelled()) {
            results[p].cancelled = true;
            return;
        }
        LoadControl perFile = whole;
        perFile.progress = nullptr; // a whole open of a cache is quick: progress counts files
        results[p] = loadTraceFile(m_reports[pending[p]]->filePath, perFile);
        std::lock_guard lock(progressMutex);
        whole.report(double(++done) / double(pending.size()));
    });
    Session session;
    session.m_cancelled = control.isCancelled();
    session.m_failures = m_failures;
    std::size_t next = 0;
    for (std::size_t i = 0; i < m_reports.size(); ++i) {
        if (next < pending.size() && pending[next] == i) {
            LoadResult &result = results[next++];
            if (result.ok())
                session.m_reports.push_back(std::move(result.report));
            else if (!result.cancelled)
                session.m_failures.push_back({m_reports[i]->filePath, result.error});
        } else {
            session.m_reports.push_back(m_reports[i]);
        }
    }
    session.assignRanks();
    releaseFreedMemory();
    return session;
}

Session Session::fromReports(std::vector<ReportPtr> reports)
{
    Session session;
    session.m_reports = std::move(reports);
    session.assignRanks();
    return session;
}

bool Session::ownsTrack(const RankEntry &entry, const Track &track)
{
    return ownsProcess(entry, track.pid);
}

bool Session::ownsProcess(const RankEntry &entry, std::uint32_t pid)
{
    return !entry.pid || *entry.pid == pid;
}

const Track &Session::track(const EventLocation &at) const
{
    return m_ranks[std::size_t(at.rank)].report->tracks[at.track];
}

TimeRange Session::sessionTime(const EventLocation &at) const
{
    const Track &t = track(at);
    const TimeNs offset = m_ranks[std::size_t(at.rank)].sessionOffset;
    return {t.slices.start(at.event) + offset, t.slices.end(at.event) + offset};
}

Session Session::withShiftedRanks(const std::vector<TimeNs> &shift) const
{
    Session shifted = *this;
    for (std::size_t i = 0; i < shifted.m_ranks.size() && i < shift.size(); ++i)
        shifted.m_ranks[i].sessionOffset += shift[i];
    return shifted;
}

QString runSideName(RunSide side)
{
    switch (side) {
    case RunSide::A:
        return QStringLiteral("A");
    case RunSide::B:
        return QStringLiteral("B");
    case RunSide::None:
        break;
    }
    return {};
}

QString RankEntry::displayName() const
{
    const QString name = QStringLiteral("rank %1").arg(rank);
    return side == RunSide::None ? name : runSideName(side) + QStringLiteral(" · ") + name;
}

Session Session::comparison(const Session &a, const Session &b, TimeNs shiftB)
{
    Session both;
    both.m_cancelled = a.m_cancelled || b.m_cancelled;
    for (const auto &[side, run] : {std::pair{RunSide::A, &a}, std::pair{RunSide::B, &b}}) {
        for (RankEntry entry : run->m_ranks) {
            entry.side = side;
            if (side == RunSide::B)
                entry.sessionOffset += shiftB;
            both.m_ranks.push_back(std::move(entry));
        }
        for (const ReportPtr &r : run->m_reports)
            if (std::find(both.m_reports.begin(), both.m_reports.end(), r) == both.m_reports.end())
                both.m_reports.push_back(r); // rank vs rank of one session shares its reports
        both.m_failures.insert(both.m_failures.end(), run->m_failures.begin(), run->m_failures.end());
    }
    return both;
}

bool Session::isComparison() const
{
    return std::any_of(m_ranks.begin(), m_ranks.end(), [](const RankEntry &e) { return e.side != RunSide::None; });
}

std::vector<int> Session::rankIndicesOf(RunSide side) const
{
    std::vector<int> indices;
    for (int i = 0; i < int(m_ranks.size()); ++i)
        if (side == RunSide::None || m_ranks[std::size_t(i)].side == side)
            indices.push_back(i);
    return indices;
}

Session Session::subset(const std::vector<int> &rankIndices) const
{
    Session part;
    part.m_failures = m_failures;
    part.m_cancelled = m_cancelled;
    for (int i : rankIndices) {
        const RankEntry &entry = m_ranks.at(std::size_t(i));
        part.m_ranks.push_back(entry);
        if (std::find(part.m_reports.begin(), part.m_reports.end(), entry.report) == part.m_reports.end())
            part.m_reports.push_back(entry.report);
    }
    return part;
}

TimeRange Session::recordedExtent(const RankEntry &entry)
{
    TimeRange all{kTimeMax, kTimeMin};
    for (const Track &t : entry.report->tracks)
        if (!t.slices.extent().isEmpty() && ownsTrack(entry, t)) { // Report::summariesOnly keeps the ranges
            all.start = std::min(all.start, t.slices.extent().start);
            all.end = std::max(all.end, t.slices.extent().end);
        }
    if (all.end < all.start)
        return {0, -1};
    return {all.start + entry.sessionOffset, all.end + entry.sessionOffset};
}

bool Session::hasSummariesOnlyRanks() const
{
    return std::any_of(m_reports.begin(), m_reports.end(), [](const ReportPtr &r) { return r->summariesOnly; });
}

TimeRange Session::extent() const
{
    TimeRange all{kTimeMax, kTimeMin};
    for (const RankEntry &entry : m_ranks)
        if (const TimeRange rank = recordedExtent(entry); !rank.isEmpty()) {
            all.start = std::min(all.start, rank.start);
            all.end = std::max(all.end, rank.end);
        }
    return all.start <= all.end ? all : TimeRange{0, 0};
}

void Session::assignRanks()
{
    m_ranks.clear();
    std::int64_t earliest = 0;
    bool first = true;
    // Loaders only record starts that pass isUtcTime(), so the offsets
    // below (differences of two such starts) cannot overflow.
    for (const ReportPtr &r : m_reports)
        if (isUtcTime(r->meta.utcStartNs) && (first || r->meta.utcStartNs < earliest)) {
            earliest = r->meta.utcStartNs;
            first = false;
        }

    // Claimed ranks first: file name, then the launch environment or MPI
    // information; an export of several CUDA processes becomes one rank per
    // process. Everything else takes the lowest free numbers in order.
    std::set<int> taken;
    std::vector<std::optional<int>> claimed;
    for (const ReportPtr &r : m_reports) {
        const std::vector<std::uint32_t> pids = r->cudaProcesses();
        const TimeNs offset = isUtcTime(r->meta.utcStartNs) ? r->meta.utcStartNs - earliest : 0;
        if (pids.size() > 1) {
            for (std::uint32_t pid : pids) {
                const auto mpi = r->meta.mpiRankByPid.find(pid);
                std::optional<int> rank;
                if (mpi != r->meta.mpiRankByPid.end() && !taken.count(mpi->second))
                    rank = mpi->second;
                if (rank)
                    taken.insert(*rank);
                claimed.push_back(rank);
                m_ranks.push_back({0, r, pid, offset});
            }
            continue;
        }
        // The trace's own word (Kineto's distributedInfo) first, then the
        // file name, then the launch environment or MPI information.
        std::optional<int> rank = r->meta.declaredRank;
        if (!rank)
            rank = rankFromFileName(r->filePath);
        if (!rank)
            rank = r->meta.environmentRank;
        if (!rank && r->meta.mpiRankByPid.size() == 1)
            rank = r->meta.mpiRankByPid.begin()->second;
        if (rank && taken.count(*rank))
            rank.reset(); // two files claim one rank: the later one goes by order
        if (rank)
            taken.insert(*rank);
        claimed.push_back(rank);
        m_ranks.push_back({0, r, std::nullopt, offset});
    }
    int next = 0;
    for (std::size_t i = 0; i < m_ranks.size(); ++i) {
        if (claimed[i]) {
            m_ranks[i].rank = *claimed[i];
            continue;
        }
        while (taken.count(next))
            ++next;
        m_ranks[i].rank = next;
        taken.insert(next);
    }
    std::stable_sort(m_ranks.begin(), m_ranks.end(), [](const RankEntry &a, const RankEntry &b) { return a.rank < b.rank; });
}

} // namespace rankscope
