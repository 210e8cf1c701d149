#pragma once
// What a loader is given (a cancel flag, a progress sink) and what it returns.
#include "core/report.h"

#include <QString>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rankscope {

struct LoadControl {
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(double fraction)> progress; // 0..1, from the loading thread
    // Told each SQL statement a loader runs on `file`, from the loading
    // threads: for tools that replay what was read (the benchmark's floor).
    std::function<void(const QString &file, const std::string &sql)> statementRun;
    // Memory the machine can still give, in bytes (load/memorycheck.h);
    // unset: /proc's MemAvailable. Tests set it.
    std::function<std::uint64_t()> availableMemory;
    // Where index caches are read and written (load/cache/indexcache.h);
    // empty: every file is parsed and nothing is written.
    QString indexCacheDirectory;
    // This user's own cache folder, for traces whose cache in
    // indexCacheDirectory (a shared folder) was written by someone not in
    // trustedCacheWriters; empty: such a trace's cache is rebuilt where
    // it is, if it can be.
    QString privateIndexCacheDirectory;
    // The users (ids) whose caches are read from a shared folder
    // (load/cache/cachefile.h: openIndexCache).
    std::vector<std::uint32_t> trustedCacheWriters;
    // Where this user's record of caches already checked whole is kept
    // (load/cache/checkedcaches.h); empty: every cache opened is read and
    // checked in full.
    QString checkedCachesDirectory;
    // Open a cache not checked before with its summaries only
    // (CacheOpenDepth::Summaries): for a first frame, before the whole open.
    bool summariesOfUncheckedCaches = false;

    bool isCancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(double fraction) const
    {
        if (progress)
            progress(fraction);
    }
    void noteStatement(const QString &file, const std::string &sql) const
    {
        if (statementRun)
            statementRun(file, sql);
    }
};

struct LoadResult {
    std::shared_ptr<Report> report; // set on success
    QString error;                  // one line, without the file name
    bool cancelled = false;
    // What the index cache did (LoadControl::indexCacheDirectory set).
    enum class IndexCache : std::uint8_t { Unused, Opened, Written, Rebuilt, NotWritten };
    IndexCache indexCache = IndexCache::Unused;
    QString indexCachePath{};

    bool ok() const { return report != nullptr; }
    // `why` becomes one line of at most kMaxErrorLength characters: an
    // SQLite message can quote a broken schema, newlines and all.
    static LoadResult failure(const QString &why);
    static constexpr qsizetype kMaxErrorLength = 300;
};

} // namespace rankscope
