#include "recentfiles.h"

#include "core/untrustedtext.h"

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

// Paths are stored one a line: a path's own backslashes and line breaks
// are written as \\ and \n, so a name with a line break stays one path.
QString encodedPath(const QString &path)
{
    QString out = path;
    return out.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('\n'), QLatin1String("\\n"));
}

QString decodedPath(const QString &line)
{
    QString out;
    out.reserve(line.size());
    for (qsizetype i = 0; i < line.size(); ++i) {
        if (line[i] == QLatin1Char('\\') && i + 1 < line.size()) {
            out += line[i + 1] == QLatin1Char('n') ? QLatin1Char('\n') : line[i + 1];
            ++i;
        } else {
            out += line[i];
        }
    }
    return out;
}

QString filesLabel(const QStringList &paths)
{
    QString label = terminalSafe(QFileInfo(paths.value(0)).fileName(), false); // a line break shows as \x0A
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
                side->append(decodedPath(line));
        }
        if (!set.runA.isEmpty())
            sets << set;
    }
    return sets;
}

void RecentFiles::add(const QStringList &runA, const QStringList &runB)
{
    auto lines = [](const QStringList &paths) {
        QStringList encoded;
        for (const QString &p : absolutePaths(paths))
            encoded << encodedPath(p);
        return encoded.join(QLatin1Char('\n'));
    };
    QString entry = lines(runA);
    if (!runB.isEmpty())
        entry += QStringLiteral("\n\n") + lines(runB);
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
