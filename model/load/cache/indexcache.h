#pragma once
// When and where index caches are used: loading a trace through its cache
// (cachefile.h) when one matches, and writing one after a load otherwise.
#include "load/loadcontrol.h"

#include <QString>
#include <functional>

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

// The cache file for a trace in `directory`: named by a hash of the trace's
// absolute path, so a shared folder serves everyone who opens that path.
QString indexCachePathFor(const QString &directory, const CacheKey &key);

// Opens `path` from its cache in control.indexCacheDirectory when the cache
// is sound and matches; otherwise runs `load` and writes the cache for next
// time (a damaged or stale cache is replaced, and the report notes why).
LoadResult loadThroughIndexCache(const QString &path, const LoadControl &control,
                                 const std::function<LoadResult()> &load);

} // namespace rankscope
