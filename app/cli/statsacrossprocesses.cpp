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
constexpr quint8 kTable = 1, kCollectiveOps = 2, kBreakdown = 3, kComparisonRow = 4;

// Each rank of one loaded file, its collective records in its report's time.
void writeCollectiveOps(QDataStream &out, const QString &file, const ReportPtr &report, const stats::KernelClassifier &classes, bool withOtherGpuWork)
{
    for (const stats::ReportRankOps &rank : stats::collectiveOpsOfReport(report, classes, withOtherGpuWork)) {
        QByteArray bytes;
        QDataStream opsOut(&bytes, QIODevice::WriteOnly);
        opsOut << rank.ops;
        out << kCollectiveOps << file << (rank.pid ? qint64(*rank.pid) : kWholeReport) << bytes;
    }
}

// Each rank of one loaded file, what `partOf(session, rank index)` makes
// of it, as a record of kind `what`.
template <class PartOf>
void writeRankParts(QDataStream &out, quint8 what, const QString &file, const ReportPtr &report, PartOf &&partOf)
{
    const Session alone = Session::fromReports({report});
    for (int ri = 0; ri < int(alone.ranks().size()); ++ri) {
        const std::optional<std::uint32_t> pid = alone.ranks()[std::size_t(ri)].pid;
        QByteArray bytes;
        QDataStream partOut(&bytes, QIODevice::WriteOnly);
        partOut << partOf(alone, ri);
        out << what << file << (pid ? qint64(*pid) : kWholeReport) << bytes;
    }
}

} // namespace

template <class Part>
std::vector<std::optional<Part>> GatheredResults::partsFor(const Session &session,
                                                           const std::map<std::pair<QString, qint64>, QByteArray> &bytes) const
{
    std::vector<std::optional<Part>> parts(session.ranks().size());
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        const RankEntry &entry = session.ranks()[ri];
        const auto it = bytes.find({entry.report->filePath, entry.pid ? qint64(*entry.pid) : kWholeReport});
        if (it == bytes.end())
            continue;
        QDataStream in(it->second);
        in >> parts[ri].emplace();
        if (in.status() != QDataStream::Ok)
            parts[ri].reset(); // computed here instead
    }
    return parts;
}

stats::GatheredBreakdowns GatheredResults::breakdownsFor(const Session &session) const
{
    return partsFor<stats::RankBreakdownParts>(session, m_breakdowns);
}

stats::GatheredComparisonRows GatheredResults::comparisonRowsFor(const Session &session) const
{
    return partsFor<stats::RankComparisonRow>(session, m_comparisonRows);
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
                                              const AnalysisSettings &options)
{
    GatheredResults gathered;
    if (processWorld().size <= 1 || cacheDirectory.isEmpty()) {
        waitForAllProcesses();
        return gathered;
    }
    const QStringList files = expandTracePaths(inputs);
    const LoadControl control = cachedLoadControl(cacheDirectory);
    // What the session reports asked for gather, by their declarations.
    unsigned asked = 0;
    for (const QString &name : reports)
        if (const stats::ReportDeclaration *d = stats::findReport(name))
            asked |= d->gathers;
    const auto gathers = [asked](stats::RankPart part) { return (asked & unsigned(part)) != 0; };
    const bool collectives = gathers(stats::RankPart::CollectiveOps);
    const bool otherGpuWork = gathers(stats::RankPart::OtherGpuWork);
    const bool breakdowns = gathers(stats::RankPart::Breakdown);
    const bool comparisonRows = gathers(stats::RankPart::ComparisonRow);
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
            writeRankParts(out, kBreakdown, files[i], loaded.report,
                           [&](const Session &alone, int ri) { return stats::rankBreakdownParts(alone, ri, stats::breakdownClassesFor(options)); });
        if (comparisonRows)
            writeRankParts(out, kComparisonRow, files[i], loaded.report,
                           [&](const Session &alone, int ri) { return stats::rankComparisonRowOf(alone, ri, stats::collectiveClassesFor(options)); });
    }
    QList<QByteArray> parts;
    try {
        parts = gatherToFirst(mine);
    } catch (const GatherTooLarge &e) { // process 0 reads every file itself, as a serial run does
        QTextStream(&standardError()) << "rankscope-cli: " << e.what() << "; process 0 reads their files itself\n";
    }
    for (const QByteArray &part : parts) {
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
            } else if (what == kCollectiveOps || what == kBreakdown || what == kComparisonRow) {
                qint64 pid = kWholeReport;
                QByteArray bytes;
                in >> pid >> bytes;
                auto &into = what == kCollectiveOps ? gathered.m_collectiveOps
                             : what == kBreakdown   ? gathered.m_breakdowns
                                                    : gathered.m_comparisonRows;
                if (in.status() == QDataStream::Ok)
                    into[{file, pid}] = std::move(bytes);
            } else {
                break; // not ours: process 0 reads these files itself
            }
        }
    }
    return gathered;
}

} // namespace rankscope::cli
