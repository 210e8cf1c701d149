// rankscope-cli index: builds each report's index cache ahead of time (on a
// cluster node, say), so the viewer and the other commands open the reports
// from their caches.
#include "clicommands.h"

#include "core/units.h"
#include "load/cache/indexcache.h"
#include "load/traceloader.h"
#include "processworld.h"
#include "session/session.h"

#include <QDataStream>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTextStream>

#include <algorithm>
#include <vector>

namespace rankscope::cli {

namespace {

struct IndexOutcome {
    qsizetype file = 0; // in the serial order of the inputs
    bool failed = false;
    QString text; // the stdout line's tail, or the failure's reason
};

QString describe(const LoadResult &result, double seconds)
{
    const QString size = formatBinarySize(std::uint64_t(std::max<qint64>(QFileInfo(result.indexCachePath).size(), 0)));
    const QString time = QString::number(seconds, 'f', 2);
    switch (result.indexCache) {
    case LoadResult::IndexCache::Opened:
        return QStringLiteral("up to date (%1, %2, checked in %3 s)").arg(result.indexCachePath, size, time);
    case LoadResult::IndexCache::Written:
        return QStringLiteral("indexed in %1 s -> %2 (%3)").arg(time, result.indexCachePath, size);
    case LoadResult::IndexCache::Rebuilt:
        return QStringLiteral("re-indexed in %1 s -> %2 (%3); %4").arg(time, result.indexCachePath, size, result.report->diagnostics.back().text);
    case LoadResult::IndexCache::NotWritten:
    case LoadResult::IndexCache::Unused:
        break;
    }
    return result.report && !result.report->diagnostics.empty() ? result.report->diagnostics.back().text : QStringLiteral("no index cache written");
}

std::vector<IndexOutcome> indexOverProcesses(const QStringList &files, const QString &directory)
{
    const LoadControl control = cachedLoadControl(directory);
    // One report at a time: each is dropped once its cache is written, so
    // memory stays that of the largest report.
    QByteArray mine;
    QDataStream stream(&mine, QIODevice::WriteOnly);
    for (const qsizetype i : myShareOf(files)) {
        QElapsedTimer timer;
        timer.start();
        const LoadResult result = loadTraceFile(files[i], control);
        const bool failed = !result.ok() || result.indexCache == LoadResult::IndexCache::NotWritten;
        stream << qint64(i) << failed << (result.ok() ? describe(result, double(timer.nsecsElapsed()) / 1e9) : result.error);
    }
    std::vector<IndexOutcome> outcomes;
    for (const QByteArray &part : gatherToFirst(mine)) {
        QDataStream in(part);
        while (!in.atEnd()) {
            IndexOutcome outcome;
            qint64 file = 0;
            in >> file >> outcome.failed >> outcome.text;
            outcome.file = qsizetype(file);
            outcomes.push_back(outcome);
        }
    }
    std::sort(outcomes.begin(), outcomes.end(), [](const IndexOutcome &a, const IndexOutcome &b) { return a.file < b.file; });
    return outcomes;
}

} // namespace

int runIndex(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Build the index cache of each report: what loading builds, in one file that opens by mapping it. A cache is\n"
                       "used while its report keeps its path, size and modification time; a stale or damaged one is rebuilt.\n"
                       "Under mpirun or srun (built with -DRANKSCOPE_MPI=ON) the files are split over the processes by size and\n"
                       "process 0 prints what a single process prints."));
    parser.addHelpOption();
    addInputArgument(parser);
    parser.process(arguments);
    const QString directory = indexCacheDirectoryFrom(parser);
    if (directory.isEmpty()) {
        QTextStream(&standardError()) << "rankscope-cli index: no cache folder (--no-cache, or RANKSCOPE_INDEX_CACHE=off): give --cache DIR\n";
        return 1;
    }
    const QStringList files = expandTracePaths(parser.positionalArguments());
    if (files.isEmpty()) {
        QTextStream(&standardError()) << "rankscope-cli index: no input files\n";
        return 1;
    }
    std::vector<IndexOutcome> outcomes;
    try {
        outcomes = indexOverProcesses(files, directory);
    } catch (const GatherTooLarge &e) { // only process 0 throws it
        QTextStream(&standardError()) << "rankscope-cli index: " << e.what() << "\n";
        return 2;
    }
    if (!processWorld().isFirst())
        return 0;
    QTextStream out(&standardOutput());
    bool failed = false;
    for (const IndexOutcome &outcome : outcomes) {
        if (outcome.failed)
            printFailure(files[outcome.file], outcome.text);
        else
            out << files[outcome.file] << ": " << outcome.text << "\n";
        failed = failed || outcome.failed;
    }
    return failed ? 2 : 0;
}

} // namespace rankscope::cli
