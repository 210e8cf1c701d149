#include "load/cache/indexcache.h"

#include "load/cache/cachefile.h"
#include "load/cache/checkedcaches.h"
#include "core/safefiles.h"

#include <QCryptographicHash>
#include <QDir>
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

LoadResult loadThroughIndexCache(const QString &path, const LoadControl &control,
                                 const std::function<LoadResult()> &load)
{
    const CacheKey key = CacheKey::of(path);
    const QString cachePath = indexCachePathFor(control.indexCacheDirectory, key);
    const CheckedCaches checked(control.checkedCachesDirectory);
    CacheOpenResult cached = openIndexCache(cachePath, key, &checked,
                                            control.summariesOfUncheckedCaches ? CacheOpenDepth::Summaries : CacheOpenDepth::Whole);
    if (cached.report) {
        cached.report->filePath = path;
        cached.report->indexCacheWrittenBy = cached.writtenBy;
        const QString from = cached.writtenBy.isEmpty()
                                 ? QStringLiteral("opened from the index cache %1").arg(cachePath)
                                 : QStringLiteral("opened from the index cache %1, written by %2 (read from a private copy, checked "
                                                  "whole and against the trace's content)").arg(cachePath, cached.writtenBy);
        cached.report->diagnostics.insert(cached.report->diagnostics.begin(), {Diagnostic::Severity::Info, std::nullopt, from});
        control.report(1.0);
        LoadResult opened{std::move(cached.report), {}, false};
        opened.indexCache = LoadResult::IndexCache::Opened;
        opened.indexCachePath = cachePath;
        return opened;
    }
    LoadResult result = load();
    if (!result.ok() || result.cancelled)
        return result;
    QString note;
    result.indexCachePath = cachePath;
    result.indexCache = LoadResult::IndexCache::NotWritten;
    if (!makeFolderPath(control.indexCacheDirectory)) {
        note = QStringLiteral("could not create the index cache folder %1").arg(control.indexCacheDirectory);
    } else if (const QString error = writeIndexCache(*result.report, key, cachePath, &checked); !error.isEmpty()) {
        note = QStringLiteral("could not write its index cache: %1").arg(error);
    } else if (cached.whyNot != QLatin1String("none yet")) {
        result.indexCache = LoadResult::IndexCache::Rebuilt;
        note = QStringLiteral("rebuilt the index cache %1: the old one was %2").arg(cachePath, cached.whyNot);
    } else {
        result.indexCache = LoadResult::IndexCache::Written;
    }
    if (!note.isEmpty())
        result.report->diagnostics.push_back({Diagnostic::Severity::Info, std::nullopt, note});
    return result;
}

} // namespace rankscope
