#include "demotraces.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace rankscope {

QString demoTraceDirectory()
{
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/rankscope/demo");
    if (QFileInfo(installed).isDir())
        return QDir::cleanPath(installed);
    return QStringLiteral(RANKSCOPE_SOURCE_DEMO);
}

} // namespace rankscope
