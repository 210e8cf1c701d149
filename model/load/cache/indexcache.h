#pragma once
// When and where index caches are used: loading a trace through its cache
// (cachefile.h) when one matches, and writing one after a load otherwise.
#include "load/loadcontrol.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <vector>

namespace rankscope {

struct CacheKey;

// The cache folder the executables use unless told otherwise:
// $RANKSCOPE_INDEX_CACHE if set ("off": none), else rankscope/index under
// the user's cache folder (~/.cache).
QString defaultIndexCacheDirectory();
// Where the executables keep the user's record of caches already checked
// whole (checkedcaches.h): $RANKSCOPE_CHECKED_CACHES if set ("off": none,
// every open checks in full), else rankscope/checked under the user's
// cache folder, never the shared cache folder.
QString defaultCheckedCachesDirectory();

// This user's own cache folder (rankscope/index under ~/.cache): where a
// trace whose cache in the configured folder was written by someone the
// user does not trust gets a cache of its own.
QString defaultPrivateIndexCacheDirectory();
// The users (ids) named in `names`, login names or numbers separated by
// commas or spaces; names no user has go to `unknown`.
std::vector<std::uint32_t> cacheWritersNamed(const QString &names, QStringList *unknown = nullptr);
// Whose index caches this user reads from a shared folder
// (openIndexCache): $RANKSCOPE_TRUSTED_CACHE_WRITERS if set, else the
// setting cache/trustedWriters of ~/.config/Rankscope/Rankscope.conf;
// nobody by default. Names no user has go to `unknown`.
std::vector<std::uint32_t> defaultTrustedCacheWriters(QStringList *unknown = nullptr);

// The cache file for a trace in `directory`: named by a hash of the trace's
// absolute path, so a shared folder serves everyone who opens that path.
QString indexCachePathFor(const QString &directory, const CacheKey &key);

// Opens `path` from its cache in control.indexCacheDirectory when the cache
// is sound, matches and is this user's or a trusted writer's; otherwise runs
// `load` and writes the cache for next time (a damaged or stale cache is
// replaced, and the report notes why). A cache there of a writer the user
// does not trust is left alone: the trace's cache in
// control.privateIndexCacheDirectory is read, or written, instead.
LoadResult loadThroughIndexCache(const QString &path, const LoadControl &control, const std::function<LoadResult()> &load);

} // namespace rankscope
