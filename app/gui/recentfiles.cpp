#include "recentfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace rankscope {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

QList<QStringList> RecentFiles::load()
{
    QList<QStringList> sets;
    for (const QString &entry : QSettings().value(kKey).toStringList())
        sets << entry.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return sets;
}

void RecentFiles::add(const QStringList &paths)
{
    QStringList absolute;
    for (const QString &p : paths)
        absolute << QDir::cleanPath(QFileInfo(p).absoluteFilePath()); // "traces/" names a folder "traces"
    const QString entry = absolute.join(QLatin1Char('\n'));
    QStringList entries = QSettings().value(kKey).toStringList();
    entries.removeAll(entry);
    entries.prepend(entry);
    while (entries.size() > kMaximum)
        entries.removeLast();
    QSettings().setValue(kKey, entries);
}

void RecentFiles::clear()
{
    QSettings().remove(kKey);
}

} // namespace rankscope
