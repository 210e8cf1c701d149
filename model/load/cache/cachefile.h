#pragma once
// One report's index cache: everything loading built (track columns,
// interval indexes, LOD summaries, strings, side tables, collective
// records) in one file that is memory-mapped back, so opening costs the
// checks and the small tables (only the tables, for a cache the user has
// opened before unchanged: checkedcaches.h), and a column costs memory only
// when read.
//
// Layout: a fixed header (magic, format version, byte order, the source's
// size and modification time, the body's length and checksum), then the
// body: the columns' values, every one 64-byte aligned so it is read in
// place, then the outline, the report's members in one fixed order
// (reportfields.h) with each column's length and place (cachestreams.h);
// last the hashes of the body's 1 MiB chunks (chunkhash.h), whose
// combination is the header's checksum, so an open can check only the
// chunks it reads.
// Nothing in it is trusted: a wrong magic, version, length or checksum, a
// count or place past the end of the file or an index out of range makes
// the open fail with a reason, and the caller
// rebuilds the cache from the trace.
#include "core/report.h"

#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace rankscope {

// Which trace file a cache was built from. A cache this user made and only
// this user can write serves a trace while the trace's path, size and
// modification time are the ones recorded (so caches copied with their
// traces still serve them); one anyone else could have written (a shared
// folder) also only while the trace's content hashes as recorded, since
// its writer may have indexed another file of that size and time under
// that path (a bind mount in a namespace of theirs).
struct CacheKey {
    QString sourcePath; // absolute
    std::int64_t sourceBytes = 0;
    std::int64_t sourceModifiedNs = 0;
    // The trace's permission bits: its cache is readable by no one who
    // cannot read the trace.
    std::uint32_t sourceMode = 0600;
    // The trace's content hash (contentHashOfFile), once hashContent() ran.
    std::optional<std::uint64_t> sourceContentHash;

    static CacheKey of(const QString &tracePath);
    // Hashes the trace; false when it cannot be read or no longer has the
    // recorded size and modification time.
    bool hashContent();
    bool operator==(const CacheKey &) const = default;
};

// The mode of a trace's cache: read and write for this user, read for
// group and others only where the trace gives it; never writable by others.
std::uint32_t cacheModeFor(const CacheKey &key);

// 2: Report::gpuBusy. 3: an XXH3 checksum per 8 MiB chunk instead of one
// CRC-32. 4: a GPU busy summary keeps its runs. 5: Report::byName, the
// events grouped by name with their values sorted. 6: Report::communication.
// 7: Report::timeSplits. 8: a communication kernel keeps its name and
// times. 9: the columns' lengths and places in an outline after them. 10:
// 1 MiB chunks, their hashes after the body. 11: the trace's content hash
// in the header. 12: an NVTX projection keeps its CPU range's length, not
// its times. 15: Kineto's CPU scopes a kind of their own (TrackKind::CpuOp,
// their payload the External id), the side tables in forEachSideTable's
// order. 16: MPI calls (TrackKind::Mpi, Report::mpiCalls). 17: an older
// export's MPI calls read from its NVTX ranges of the MPI domain. 18: a
// thread's priority. 19: cuDNN, cuBLAS, OpenACC and OpenMP calls
// (TrackKind::CudaLibrary, OpenAcc, OpenMp; the kinds after them
// renumbered). 20: unified-memory page faults, CUDA graph launches
// (TrackKind::UmCpuPageFault, UmGpuPageFault, CudaGraph) and a migration's
// virtual address. 21: a summary bucket keeps its longest event's times.
// 22: Report::hostBusy.
// A cache of another version is rebuilt.
constexpr std::uint32_t kIndexCacheFormatVersion = 23;

// How much of a cache an open reads.
enum class CacheOpenDepth : std::uint8_t {
    // Everything: the report with all its events.
    Whole,
    // For a cache not checked before (checkedcaches.h), only its outline,
    // string table and GPU busy summaries, each checked by its chunks: the
    // report's tracks, processes, GPUs, time splits and GPU busy, without
    // events (Report::summariesOnly), what a first frame of many ranks
    // draws. A cache that passed before is opened whole: that costs no more.
    Summaries,
};

struct CacheOpenResult {
    std::shared_ptr<Report> report; // set when the cache was sound and matched
    QString whyNot;                 // otherwise: "none yet", "written for another version of the file", ...
    // Whether this open read the cache whole (its checksum and every index
    // column); false when it had passed as it is before (checkedcaches.h).
    bool checkedInFull = false;
    // Who wrote the cache, when it is not this user's alone (another user
    // owns it, or group or others may write it, or it has another name).
    // Empty for this user's own caches.
    QString writtenBy;
    // Refused because its writer is not one this user trusts (see
    // openIndexCache): the caller builds a private cache instead.
    bool untrustedWriter = false;
};

// The most a cache of a trace of `sourceBytes` bytes may claim before
// anything is copied: far more than any cache of such a trace holds (a
// gzip-compressed Kineto trace's cache is a few times the file), far less
// than a sparse file's claim can cost the disk.
std::uint64_t largestCacheFor(std::int64_t sourceBytes);

class CheckedCaches;

// Writes `report` to `cachePath` atomically (AtomicFileWriter: a new file
// renamed over the name, so a reader never sees half a cache and a link or
// file planted under the name is replaced, never written through), with
// the mode cacheModeFor(key) and the trace's content hash (computed here
// unless `key` has it). With `checked`, the new cache is remembered there
// as checked (its next open only maps it) when only its owner, this user,
// may write it. Returns an error, empty on success.
QString writeIndexCache(const Report &report, const CacheKey &key, const QString &cachePath, const CheckedCaches *checked = nullptr);

// For tests and the fuzzer: makes a cache file's header agree with its body
// (the checksums) and, when given, with `key`'s size, modification time and
// content hash (if it has one): a cache that passes its checksums but may
// lie in its body.
void resealIndexCache(std::span<char> bytes, const CacheKey *key);

// Maps `cachePath` and checks it against `key`. The name is opened without
// following a link or waiting on a FIFO, and only a regular file is read.
// With `checked`, a cache of this user's that passed every check before
// and has not changed since is only mapped and its tables read; one
// checked in full now is remembered there.
//
// A cache that is not this user's alone is read only when its owner is in
// `trustedWriters` (user ids) and no one else may write it: its checks
// prove it sound and bound to the trace's content hash, but not that what
// it says of the trace's events is true (its writer could have resealed a
// rewritten body), so using it is the user's decision. Such a cache is
// refused before anything is copied when it claims more than
// largestCacheFor() the trace, then copied into a private file, and only
// the copy is checked and read; it is never recorded as checked. Any other
// cache not this user's alone is refused with untrustedWriter set.
CacheOpenResult openIndexCache(const QString &cachePath, const CacheKey &key, const CheckedCaches *checked = nullptr,
                               CacheOpenDepth depth = CacheOpenDepth::Whole, std::span<const std::uint32_t> trustedWriters = {});

} // namespace rankscope
