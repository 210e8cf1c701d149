#include "statsacrossprocesses.h"

#include "clicommands.h"
#include "load/traceloader.h"
#include "processworld.h"
#include "session/session.h"

#include <QDataStream>

#include <algorithm>

namespace rankscope::cli {

std::optional<ResultTable> GatheredResults::take(const QString &file, const QString &report)
{
    const auto it = m_bytes.find({file, report});
    if (it == m_bytes.end())
        return std::nullopt;
    ResultTable table;
    QDataStream in(it->second);
    in >> table;
    m_bytes.erase(it);
    if (in.status() != QDataStream::Ok)
        return std::nullopt; // the caller computes it
    return table;
}

namespace {

constexpr qint64 kWholeReport = -1;
// What each record a process sends is.
constexpr quint8 kTable = 1, kCollectiveOps = 2, kBreakdown = 3;

// Each rank of one loaded file, its collective records in its report's time.
void writeCollectiveOps(QDataStream &out, const QString &file, const ReportPtr &report, const stats::KernelClassifier &classes,
                        bool withOtherGpuWork)
{
    for (const stats::ReportRankOps &rank : stats::collectiveOpsOfReport(report, classes, withOtherGpuWork)) {
        QByteArray bytes;
        QDataStream opsOut(&bytes, QIODevice::WriteOnly);
        opsOut << rank.ops;
        out << kCollectiveOps << file << (rank.pid ? qint64(*rank.pid) : kWholeReport) << bytes;
    }
}

// Each rank of one loaded file, rank_summary's parts of it.
void writeBreakdowns(QDataStream &out, const QString &file, const ReportPtr &report, const stats::KernelClassifier &classes)
{
    const Session alone = Session::fromReports({report});
    for (int ri = 0; ri < int(alone.ranks().size()); ++ri) {
        const std::optional<std::uint32_t> pid = alone.ranks()[std::size_t(ri)].pid;
        QByteArray bytes;
        QDataStream partsOut(&bytes, QIODevice::WriteOnly);
        partsOut << stats::rankBreakdownParts(alone, ri, classes);
        out << kBreakdown << file << (pid ? qint64(*pid) : kWholeReport) << bytes;
    }
}

} // namespace

stats::GatheredBreakdowns GatheredResults::breakdownsFor(const Session &session) const
{
    stats::GatheredBreakdowns parts(session.ranks().size());
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        const RankEntry &entry = session.ranks()[ri];
        const auto it = m_breakdowns.find({entry.report->filePath, entry.pid ? qint64(*entry.pid) : kWholeReport});
        if (it == m_breakdowns.end())
            continue;
        QDataStream in(it->second);
        in >> parts[ri].emplace();
        if (in.status() != QDataStream::Ok)
            parts[ri].reset(); // computed here instead
    }
    return parts;
}

std::size_t GatheredResults::giveCollectiveOps(stats::CollectiveInputs &inputs)
{
    std::size_t given = 0;
    for (const auto &[key, bytes] : m_collectiveOps) {
        const auto &[file, pid] = key;
        stats::RankCollectiveOps ops;
        QDataStream in(bytes);
        in >> ops;
        if (in.status() != QDataStream::Ok)
            continue; // read here instead
        given += inputs.giveOfReport(file, pid == kWholeReport ? std::nullopt : std::optional<std::uint32_t>(std::uint32_t(pid)), std::move(ops));
    }
    return given;
}

GatheredResults perFileResultsAcrossProcesses(const QStringList &inputs, const QString &cacheDirectory, const QStringList &reports,
                                              const stats::ReportOptions &options)
{
    GatheredResults gathered;
    if (processWorld().size <= 1 || cacheDirectory.isEmpty()) {
        waitForAllProcesses();
        return gathered;
    }
    const QStringList files = expandTracePaths(inputs);
    const LoadControl control = cachedLoadControl(cacheDirectory);
    const bool collectives = std::any_of(reports.begin(), reports.end(), stats::readsCollectives);
    const bool otherGpuWork = std::any_of(reports.begin(), reports.end(), stats::readsOtherGpuWork);
    const bool breakdowns = reports.contains(QStringLiteral("rank_summary"));
    QByteArray mine;
    QDataStream out(&mine, QIODevice::WriteOnly);
    for (const qsizetype i : myShareOf(files)) {
        if (mine.size() > kMaxBytesPerProcess)
            break;
        // One report at a time: memory stays that of the largest. A file
        // that fails is left to process 0, which names it as a serial run does.
        const LoadResult loaded = loadTraceFile(files[i], control);
        if (!loaded.ok())
            continue;
        for (const QString &name : reports) {
            if (stats::isSessionReport(name))
                continue;
            QByteArray table;
            QDataStream tableOut(&table, QIODevice::WriteOnly);
            tableOut << *stats::runReport(name, *loaded.report, options);
            out << kTable << files[i] << name << table;
        }
        if (collectives)
            writeCollectiveOps(out, files[i], loaded.report, stats::collectiveClassesFor(options), otherGpuWork);
        if (breakdowns)
            writeBreakdowns(out, files[i], loaded.report, stats::breakdownClassesFor(options));
    }
    for (const QByteArray &part : gatherToFirst(mine)) {
        QDataStream in(part);
        while (!in.atEnd() && in.status() == QDataStream::Ok) {
            quint8 what = 0;
            QString file;
            in >> what >> file;
            if (what == kTable) {
                QString name;
                QByteArray table;
                in >> name >> table;
                if (in.status() == QDataStream::Ok)
                    gathered.m_bytes[{file, name}] = std::move(table);
            } else if (what == kCollectiveOps || what == kBreakdown) {
                qint64 pid = kWholeReport;
                QByteArray bytes;
                in >> pid >> bytes;
                if (in.status() == QDataStream::Ok)
                    (what == kCollectiveOps ? gathered.m_collectiveOps : gathered.m_breakdowns)[{file, pid}] = std::move(bytes);
            } else {
                break; // not ours: process 0 reads these files itself
            }
        }
    }
    return gathered;
}

} // namespace rankscope::cli
