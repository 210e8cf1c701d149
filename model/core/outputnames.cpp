#include "core/outputnames.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QHash>

#include <algorithm>
#include <cstdint>

namespace rankscope {

namespace {

QString shortHash(const QString &text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex().left(8));
}

} // namespace

QStringList uniqueStemsFor(const QStringList &paths)
{
    QHash<QString, int> uses;
    QStringList stems;
    stems.reserve(paths.size());
    for (const QString &path : paths)
        stems << QFileInfo(path).completeBaseName();
    for (const QString &stem : stems)
        ++uses[stem];
    for (qsizetype i = 0; i < stems.size(); ++i)
        if (uses.value(stems[i]) > 1)
            stems[i] += QLatin1Char('-') + shortHash(QFileInfo(paths[i]).absoluteFilePath());
    return stems;
}

QString fileNameThatFits(const QString &fileName)
{
    if (fileName.toUtf8().size() <= kLongestFileName)
        return fileName;
    const qsizetype dot = fileName.lastIndexOf(QLatin1Char('.'));
    const QString extension = dot > 0 && fileName.size() - dot <= 16 ? fileName.mid(dot) : QString();
    const QString tag = QLatin1Char('~') + shortHash(fileName);
    const qsizetype room = kLongestFileName - extension.toUtf8().size() - tag.size();
    const QByteArray stem = fileName.left(fileName.size() - extension.size()).toUtf8();
    qsizetype cut = std::min(room, stem.size());
    while (cut > 0 && cut < stem.size() && (std::uint8_t(stem[cut]) & 0xC0) == 0x80) // not inside a character
        --cut;
    return QString::fromUtf8(stem.left(cut)) + tag + extension;
}

QString pathThatFits(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return path.left(slash + 1) + fileNameThatFits(path.mid(slash + 1));
}

} // namespace rankscope
