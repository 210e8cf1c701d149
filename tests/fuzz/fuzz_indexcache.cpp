// libFuzzer target: index caches (load/cache/). Each input is a cache file
// for one fixed trace. Before opening it, the harness makes the header's
// trace size, modification time and both checksums agree with the input
// (resealIndexCache), so mutations reach the body's reader and the checks a
// crafted cache meets
// (an input the checksums would reject teaches the fuzzer nothing). A cache
// that opens, whole or with its summaries only, is inspected like a loaded
// trace.
#include "fuzzload.h"

#include "load/cache/cachefile.h"

#include <QDir>
#include <QFile>

#include <cstring>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const rankscope::CacheKey key = rankscope::CacheKey::of(QString::fromLocal8Bit(RANKSCOPE_FUZZ_CACHE_SOURCE));
    static const QString cachePath = QStringLiteral("%1/rankscope-fuzz-%2.rsindex")
                                         .arg(QDir(QStringLiteral("/dev/shm")).exists() ? QStringLiteral("/dev/shm") : QDir::tempPath())
                                         .arg(::getpid());
    std::string bytes(reinterpret_cast<const char *>(data), size);
    rankscope::resealIndexCache({bytes.data(), bytes.size()}, &key);
    {
        QFile file(cachePath);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        file.write(bytes.data(), qint64(bytes.size()));
    }
    // Whole, and with the summaries only (a first frame: what it keeps must
    // be as sound as a whole report, from the chunks it checked).
    for (const auto depth : {rankscope::CacheOpenDepth::Whole, rankscope::CacheOpenDepth::Summaries}) {
        const rankscope::CacheOpenResult opened = rankscope::openIndexCache(cachePath, key, nullptr, depth);
        if (opened.report)
            rankscope::fuzz::inspectReport(*opened.report, true);
        else if (opened.whyNot.isEmpty() || opened.whyNot.contains(QLatin1Char('\n')))
            std::abort();
    }
    return 0;
}
