#include "traceloader.h"

#include "kinetoloader.h"
#include "nsysloader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace rankscope {

LoadResult loadTraceFile(const QString &path, const LoadControl &control)
{
    const QFileInfo info(path);
    if (!info.exists())
        return LoadResult::failure(QStringLiteral("no such file"));
    if (info.isDir())
        return LoadResult::failure(QStringLiteral("is a directory"));
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
    if (head.startsWith("NSYS") || info.suffix() == QLatin1String("nsys-rep") || info.suffix() == QLatin1String("qdrep"))
        return LoadResult::failure(QStringLiteral("an Nsight Systems report; export it first with: nsys export --type sqlite %1")
                                       .arg(info.fileName()));
    return LoadResult::failure(QStringLiteral("not a trace Rankscope reads (expected an Nsight Systems SQLite export or a PyTorch profiler JSON trace)"));
}

QStringList traceFilesIn(const QString &directory)
{
    QDir dir(directory);
    QStringList files;
    for (const QFileInfo &entry : dir.entryInfoList({QStringLiteral("*.sqlite"), QStringLiteral("*.json"), QStringLiteral("*.json.gz")}, QDir::Files, QDir::Name))
        files << entry.filePath();
    return files;
}

} // namespace rankscope
