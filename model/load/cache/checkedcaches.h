#pragma once
// Which index caches this user has already checked whole. Opening a cache
// checks it all (its checksum and every index column, cachechecks.h): 59
// MiB read for a 1M-event rank, seconds for hundreds of ranks. A cache that
// passed once and has not been written since need not be read again: this
// store remembers, per cache file, the identity it had when it passed (its
// device and inode, size, modification and change times, and the checksum
// its header claims). A write of any kind changes the change time, which
// no user can set back; a file renamed or copied over it has another
// inode. So a damaged, truncated, replaced or crafted cache never matches
// and is checked in full, as the first time.
//
// The store is the user's own (under ~/.cache, never the shared cache
// folder a team writes to), one small file per cache. A cache changed in
// the same clock tick as its check could keep its change time (git's
// "racily clean" entries): a cache changed less than kSettleNs before it
// was checked is not remembered, and is checked again next time.
//
// A cache this process has just written is remembered at once
// (rememberWritten): its content is what the process wrote, not what it
// read, and no other user can write it (see there).
#include <QString>

#include <cstdint>
#include <optional>
#include <type_traits>

namespace rankscope {

struct CacheFileIdentity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::int64_t bytes = 0;
    std::int64_t modifiedNs = 0;
    std::int64_t changedNs = 0;
    std::uint64_t bodyChecksum = 0; // as its header claims
    std::uint32_t formatVersion = 0;
    std::uint32_t reserved = 0; // no padding: a record is these bytes as they are
    bool operator==(const CacheFileIdentity &) const = default;
};

static_assert(sizeof(CacheFileIdentity) == 56 && std::has_unique_object_representations_v<CacheFileIdentity>);

// Of the open file `fd`, with what its header claims; nullopt if it cannot be stat'ed.
std::optional<CacheFileIdentity> identityOfCacheFile(int fd, std::uint64_t bodyChecksum, std::uint32_t formatVersion);

class CheckedCaches {
public:
    static constexpr std::int64_t kSettleNs = 2'000'000'000;

    // `settleNs`: kSettleNs, shorter only in tests.
    explicit CheckedCaches(QString directory, std::int64_t settleNs = kSettleNs) : m_directory(std::move(directory)), m_settleNs(settleNs) { }
    bool isEnabled() const { return !m_directory.isEmpty(); }

    // Whether the cache at `cachePath` passed every check with exactly this identity.
    bool passed(const QString &cachePath, const CacheFileIdentity &identity) const;
    // Remembers that it did, unless it changed too recently to be sure (kSettleNs).
    void remember(const QString &cachePath, const CacheFileIdentity &identity) const;
    // Remembers a cache this process has just renamed into place, with the
    // identity it has there: no settling, as nothing else can have changed
    // it in the same clock tick. The file was written under a temporary
    // name only this process had open, and the caller checks that only its
    // owner may write it (a group-writable cache is checked when opened).
    void rememberWritten(const QString &cachePath, const CacheFileIdentity &identity) const;

private:
    QString recordPathFor(const QString &cachePath) const;

    QString m_directory;
    std::int64_t m_settleNs;
};

} // namespace rankscope
