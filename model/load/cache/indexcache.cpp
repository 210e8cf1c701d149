#include "load/cache/indexcache.h"

#include "core/safefiles.h"
#include "load/cache/cachefile.h"
#include "load/cache/checkedcaches.h"

#include <QCryptographicHash>
#include <QDir>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

namespace rankscope {

namespace {

// The folder an environment variable names ("off": none), else `folder`
// under the user's cache folder (~/.cache).
QString configuredOrUserCache(const char *variable, const QString &folder)
{
    const QString configured = qEnvironmentVariable(variable);
    if (configured == QLatin1String("off"))
        return {};
    if (!configured.isEmpty())
        return configured;
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    return base.isEmpty() ? QString() : base + QLatin1Char('/') + folder;
}

} // namespace

QString defaultIndexCacheDirectory()
{
    return configuredOrUserCache("RANKSCOPE_INDEX_CACHE", QStringLiteral("rankscope/index"));
}

QString defaultCheckedCachesDirectory()
{
    return configuredOrUserCache("RANKSCOPE_CHECKED_CACHES", QStringLiteral("rankscope/checked"));
}

QString indexCachePathFor(const QString &directory, const CacheKey &key)
{
    const QByteArray digest = QCryptographicHash::hash(key.sourcePath.toUtf8(), QCryptographicHash::Sha1).toHex();
    return QDir(directory).filePath(QString::fromLatin1(digest.left(24)) + QStringLiteral(".rsindex"));
}

QString defaultPrivateIndexCacheDirectory()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    return base.isEmpty() ? QString() : base + QStringLiteral("/rankscope/index");
}

std::vector<std::uint32_t> cacheWritersNamed(const QString &names, QStringList *unknown)
{
    std::vector<std::uint32_t> ids;
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    for (const QString &name : names.split(separators, Qt::SkipEmptyParts)) {
        if (const std::optional<std::uint32_t> id = userIdOf(name))
            ids.push_back(*id);
        else if (unknown)
            unknown->append(name);
    }
    return ids;
}

std::vector<std::uint32_t> defaultTrustedCacheWriters(QStringList *unknown)
{
    if (qEnvironmentVariableIsSet("RANKSCOPE_TRUSTED_CACHE_WRITERS"))
        return cacheWritersNamed(qEnvironmentVariable("RANKSCOPE_TRUSTED_CACHE_WRITERS"), unknown);
    // The viewer's settings file, whichever executable asks.
    const QSettings settings(QSettings::NativeFormat, QSettings::UserScope, QStringLiteral("Rankscope"), QStringLiteral("Rankscope"));
    const QVariant value = settings.value(QStringLiteral("cache/trustedWriters"));
    return cacheWritersNamed(value.typeId() == QMetaType::QStringList ? value.toStringList().join(QLatin1Char(',')) : value.toString(), unknown);
}

namespace {

struct CacheAttempt {
    QString path;
    CacheOpenResult opened;
};

LoadResult openedFromCache(const QString &path, CacheAttempt &&attempt, const LoadControl &control, const QString &shared = {})
{
    CacheOpenResult &cached = attempt.opened;
    cached.report->filePath = path;
    cached.report->indexCacheWrittenBy = cached.writtenBy;
    QString from = QStringLiteral("opened from the index cache %1").arg(attempt.path);
    if (!cached.writtenBy.isEmpty())
        from += QStringLiteral(", written by %1, a trusted cache writer (read from a private copy and checked whole; bound to the trace's "
                               "content hash, but what it says of the events was not compared with the trace)")
                    .arg(cached.writtenBy);
    if (!shared.isEmpty())
        from += QStringLiteral("; not from %1").arg(shared);
    cached.report->diagnostics.insert(cached.report->diagnostics.begin(), {Diagnostic::Severity::Info, std::nullopt, from});
    control.report(1.0);
    LoadResult opened{std::move(cached.report), {}, false};
    opened.indexCache = LoadResult::IndexCache::Opened;
    opened.indexCachePath = attempt.path;
    return opened;
}

} // namespace

LoadResult loadThroughIndexCache(const QString &path, const LoadControl &control, const std::function<LoadResult()> &load)
{
    const CacheKey key = CacheKey::of(path);
    const CheckedCaches checked(control.checkedCachesDirectory);
    const CacheOpenDepth depth = control.summariesOfUncheckedCaches ? CacheOpenDepth::Summaries : CacheOpenDepth::Whole;
    auto attempt = [&](const QString &folder) {
        const QString cachePath = indexCachePathFor(folder, key);
        return CacheAttempt{cachePath, openIndexCache(cachePath, key, &checked, depth, control.trustedCacheWriters)};
    };
    CacheAttempt shared = attempt(control.indexCacheDirectory);
    if (shared.opened.report)
        return openedFromCache(path, std::move(shared), control);
    // A cache of a writer the user does not trust is left where it is: the
    // user's own cache of the trace is read, or built, in their private folder.
    QString folder = control.indexCacheDirectory;
    CacheAttempt *target = &shared;
    CacheAttempt own;
    QString untrustedNote;
    if (shared.opened.untrustedWriter && !control.privateIndexCacheDirectory.isEmpty()
        && indexCachePathFor(control.privateIndexCacheDirectory, key) != shared.path) {
        untrustedNote = QStringLiteral("%1 (%2)").arg(shared.path, shared.opened.whyNot);
        folder = control.privateIndexCacheDirectory;
        own = attempt(folder);
        if (own.opened.report)
            return openedFromCache(path, std::move(own), control, untrustedNote);
        target = &own;
    }
    LoadResult result = load();
    if (!result.ok() || result.cancelled)
        return result;
    QString note;
    result.indexCachePath = target->path;
    result.indexCache = LoadResult::IndexCache::NotWritten;
    if (!makeFolderPath(folder)) {
        note = QStringLiteral("could not create the index cache folder %1").arg(folder);
    } else if (!untrustedNote.isEmpty() && !isPrivateFolder(folder)) {
        note = QStringLiteral("did not write its index cache: %1 is not a folder of yours alone").arg(folder);
    } else if (const QString error = writeIndexCache(*result.report, key, target->path, &checked); !error.isEmpty()) {
        note = QStringLiteral("could not write its index cache: %1").arg(error);
    } else if (target->opened.whyNot != QLatin1String("none yet")) {
        result.indexCache = LoadResult::IndexCache::Rebuilt;
        note = QStringLiteral("rebuilt the index cache %1: the old one was %2").arg(target->path, target->opened.whyNot);
    } else {
        result.indexCache = LoadResult::IndexCache::Written;
    }
    if (!untrustedNote.isEmpty())
        note += QStringLiteral("%1did not use the index cache %2").arg(note.isEmpty() ? QString() : QStringLiteral("; "), untrustedNote);
    if (!note.isEmpty())
        result.report->diagnostics.push_back({Diagnostic::Severity::Info, std::nullopt, note});
    return result;
}

} // namespace rankscope
