// rankscope-cli index: builds each report's index cache ahead of time (on a
// cluster node, say), so the viewer and the other commands open the reports
// from their caches.
#include "clicommands.h"

#include "core/units.h"
#include "load/cache/indexcache.h"
#include "load/traceloader.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTextStream>

namespace rankscope::cli {

namespace {

QString describe(const LoadResult &result, double seconds)
{
    const QString size = formatBinarySize(std::uint64_t(std::max<qint64>(QFileInfo(result.indexCachePath).size(), 0)));
    const QString time = QString::number(seconds, 'f', 2);
    switch (result.indexCache) {
    case LoadResult::IndexCache::Opened: return QStringLiteral("up to date (%1, %2, checked in %3 s)").arg(result.indexCachePath, size, time);
    case LoadResult::IndexCache::Written: return QStringLiteral("indexed in %1 s -> %2 (%3)").arg(time, result.indexCachePath, size);
    case LoadResult::IndexCache::Rebuilt: return QStringLiteral("re-indexed in %1 s -> %2 (%3); %4").arg(time, result.indexCachePath, size, result.report->diagnostics.back().text);
    case LoadResult::IndexCache::NotWritten:
    case LoadResult::IndexCache::Unused: break;
    }
    return result.report && !result.report->diagnostics.empty() ? result.report->diagnostics.back().text : QStringLiteral("no index cache written");
}

} // namespace

int runIndex(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Build the index cache of each report: what loading builds, in one file that opens by mapping it. A cache is\n"
        "used while its report keeps its path, size and modification time; a stale or damaged one is rebuilt."));
    parser.addHelpOption();
    addInputArgument(parser);
    parser.process(arguments);
    const QString directory = indexCacheDirectoryFrom(parser);
    if (directory.isEmpty()) {
        QTextStream(stderr) << "rankscope-cli index: no cache folder (--no-cache, or RANKSCOPE_INDEX_CACHE=off): give --cache DIR\n";
        return 1;
    }
    QStringList files;
    for (const QString &input : parser.positionalArguments())
        files += QFileInfo(input).isDir() ? traceFilesIn(input) : QStringList{input};
    if (files.isEmpty()) {
        QTextStream(stderr) << "rankscope-cli index: no input files\n";
        return 1;
    }
    LoadControl control;
    control.indexCacheDirectory = directory;
    QTextStream out(stdout);
    bool failed = false;
    // One report at a time: each is dropped once its cache is written, so
    // memory stays that of the largest report.
    for (const QString &file : files) {
        QElapsedTimer timer;
        timer.start();
        const LoadResult result = loadTraceFile(file, control);
        if (!result.ok()) {
            printFailure(file, result.error);
            failed = true;
            continue;
        }
        out << file << ": " << describe(result, double(timer.nsecsElapsed()) / 1e9) << "\n";
        out.flush();
        failed = failed || result.indexCache == LoadResult::IndexCache::NotWritten;
    }
    return failed ? 2 : 0;
}

} // namespace rankscope::cli
