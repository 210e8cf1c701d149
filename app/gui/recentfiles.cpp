#include "recentfiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace rankscope {

namespace {

const QString kKey = QStringLiteral("recentFiles");

QStringList absolutePaths(const QStringList &paths)
{
    QStringList absolute;
    for (const QString &p : paths)
        absolute << QDir::cleanPath(QFileInfo(p).absoluteFilePath()); // "traces/" names a folder "traces"
    return absolute;
}

QString filesLabel(const QStringList &paths)
{
    QString label = QFileInfo(paths.value(0)).fileName();
    if (paths.size() > 1)
        label += QCoreApplication::translate("RecentFiles", " and %n more", nullptr, int(paths.size() - 1));
    return label;
}

} // namespace

QList<RecentSet> RecentFiles::load()
{
    QList<RecentSet> sets;
    for (const QString &entry : QSettings().value(kKey).toStringList()) {
        // A path is never empty: an empty line can only be the separator.
        const QStringList lines = entry.split(QLatin1Char('\n'));
        RecentSet set;
        QStringList *side = &set.runA;
        for (const QString &line : lines) {
            if (line.isEmpty())
                side = &set.runB;
            else
                side->append(line);
        }
        if (!set.runA.isEmpty())
            sets << set;
    }
    return sets;
}

void RecentFiles::add(const QStringList &runA, const QStringList &runB)
{
    QString entry = absolutePaths(runA).join(QLatin1Char('\n'));
    if (!runB.isEmpty())
        entry += QStringLiteral("\n\n") + absolutePaths(runB).join(QLatin1Char('\n'));
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

QString RecentFiles::label(const RecentSet &set)
{
    if (set.runB.isEmpty())
        return filesLabel(set.runA);
    return QCoreApplication::translate("RecentFiles", "%1 vs %2").arg(filesLabel(set.runA), filesLabel(set.runB));
}

} // namespace rankscope
