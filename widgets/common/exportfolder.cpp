#include "common/exportfolder.h"

#include <QDir>
#include <QFileInfo>
#include <QMutex>
#include <QSettings>

namespace rankscope {

namespace {

const QString kKey = QStringLiteral("export/directory");

QMutex g_mutex;
QString g_traceFolder; // guarded by g_mutex

} // namespace

QString exportFolder()
{
    const QString last = QSettings().value(kKey).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    {
        const QMutexLocker lock(&g_mutex);
        if (!g_traceFolder.isEmpty() && QFileInfo(g_traceFolder).isDir() && QFileInfo(g_traceFolder).isWritable())
            return g_traceFolder;
    }
    return QDir::homePath();
}

QString exportPathFor(const QString &fileName)
{
    return QDir(exportFolder()).filePath(fileName);
}

void rememberExportFolder(const QString &path)
{
    const QFileInfo info(path);
    QSettings().setValue(kKey, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

void setTraceFolder(const QString &folder)
{
    const QMutexLocker lock(&g_mutex);
    g_traceFolder = folder;
}

} // namespace rankscope
