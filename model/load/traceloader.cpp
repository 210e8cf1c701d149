#include "load/traceloader.h"

#include "core/memoryusage.h"
#include "core/units.h"
#include "load/cache/indexcache.h"
#include "load/kineto/kinetoloader.h"
#include "load/nsys/nsysloader.h"
#include "load/nsys/nsysreportexport.h"
#include "load/nsys/sqlitedatabase.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace rankscope {

namespace {

// Through nsys' SQLite export (cached): the export is the first half of the
// progress, loading the second. The report keeps the .nsys-rep's path.
LoadResult loadNsysReport(const QString &path, const LoadControl &control)
{
    LoadControl exportControl = control;
    exportControl.progress = [&](double f) { control.report(f * 0.5); };
    const NsysExport exported = exportNsysReport(path, exportControl);
    if (exported.cancelled)
        return {nullptr, QStringLiteral("cancelled"), true};
    if (!exported.error.isEmpty())
        return LoadResult::failure(exported.error);
    LoadControl loadControl = control;
    const double base = exported.reused ? 0.0 : 0.5;
    loadControl.progress = [&](double f) { control.report(base + f * (1.0 - base)); };
    LoadResult result = NsysSqliteLoader::load(exported.sqlitePath, loadControl);
    if (!result.ok())
        return result;
    result.report->filePath = path;
    result.report->diagnostics.insert(
        result.report->diagnostics.begin(),
        {Diagnostic::Severity::Info, std::nullopt,
         QStringLiteral("%1 the SQLite export %2")
             .arg(exported.reused ? QStringLiteral("read from") : QStringLiteral("exported with nsys to"), exported.sqlitePath)});
    return result;
}

} // namespace

namespace {

LoadResult loadByContent(const QString &path, const QFileInfo &info, const LoadControl &control);

} // namespace

std::int64_t configureProcessForUntrustedTraces()
{
    return SqliteDatabase::limitProcessHeap();
}

std::int64_t sqliteHeapLimit()
{
    return SqliteDatabase::processHeapLimit();
}

LoadResult loadTraceFile(const QString &path, const LoadControl &control)
{
    // A file too big for the machine fails alone, with a message; the other
    // files of the session still open and the process lives on.
    const QFileInfo info(path);
    try {
        if (!control.indexCacheDirectory.isEmpty() && info.isFile())
            return loadThroughIndexCache(path, control, [&] { return loadByContent(path, info, control); });
        return loadByContent(path, info, control);
    } catch (const std::bad_alloc &) {
        return LoadResult::failure(
            QStringLiteral("ran out of memory while loading it (the file is %1; %2 of memory is available now)")
                .arg(formatBinarySize(std::uint64_t(std::max<qint64>(info.size(), 0))), formatBinarySize(availableMemoryBytes())));
    }
}

namespace {

LoadResult loadByContent(const QString &path, const QFileInfo &info, const LoadControl &control)
{
    if (!info.exists())
        return LoadResult::failure(QStringLiteral("no such file"));
    if (info.isDir())
        return LoadResult::failure(QStringLiteral("is a directory"));
    if (isNsysReport(path))
        return loadNsysReport(path, control);
    if (NsysSqliteLoader::canLoad(path))
        return NsysSqliteLoader::load(path, control);
    if (KinetoLoader::canLoad(path))
        return KinetoLoader::load(path, control);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return LoadResult::failure(QStringLiteral("cannot read: %1").arg(file.errorString()));
    const QByteArray head = file.read(64);
    if (head.isEmpty())
        return LoadResult::failure(QStringLiteral("the file is empty"));
    return LoadResult::failure(
        QStringLiteral("not a trace Rankscope reads (expected an Nsight Systems SQLite export or a PyTorch profiler JSON trace)"));
}

} // namespace

QStringList traceFilesIn(const QString &directory)
{
    QDir dir(directory);
    QStringList files;
    const QFileInfoList entries = dir.entryInfoList(
        {QStringLiteral("*.sqlite"), QStringLiteral("*.json"), QStringLiteral("*.json.gz"), QStringLiteral("*.nsys-rep"), QStringLiteral("*.qdrep")},
        QDir::Files, QDir::Name);
    for (const QFileInfo &entry : entries) {
        // A report next to its own export is one rank, not two: the export wins.
        if (isNsysReport(entry.filePath()) && QFileInfo::exists(dir.filePath(entry.completeBaseName() + QStringLiteral(".sqlite"))))
            continue;
        files << entry.filePath();
    }
    return files;
}

} // namespace rankscope
