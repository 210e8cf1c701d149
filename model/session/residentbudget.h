#pragma once
// How much of the ranks' index caches the process keeps resident. Reports
// opened from caches are views of mapped files (core/mappedpages.h): the
// kernel reads a rank's pages in when its events are read, and they stay
// counted in this process's resident memory until given back. The budget
// keeps the ranks whose detail was used most recently: when the ranks used
// since their last release add up to more than the budget (each counted at
// its whole cache's size, an upper bound of what of it is resident), the
// least recently used give their pages back. Nothing is invalidated: a
// released rank reads its pages in again when next used.
#include "core/report.h"

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <span>

namespace rankscope {

class Session;

class ResidentBudget {
public:
    explicit ResidentBudget(std::uint64_t bytes = defaultBytes());

    // Half the machine's memory.
    static std::uint64_t defaultBytes();
    // The viewer's one budget (set from its settings).
    static ResidentBudget &process();

    void setBytes(std::uint64_t bytes);
    std::uint64_t bytes() const;

    // `report`'s events are being read: it becomes the most recently used,
    // and the least recently used others are released until the used fit
    // the budget (the one in use is never released). A report parsed from
    // its trace (no cache) costs what it costs and is not tracked.
    void use(const Report &report);
    // After a pass that read every rank (statistics): gives back the pages
    // of the session's ranks that are not among the recently used.
    void releaseUnused(const Session &session);
    // A pass that reads rank after rank (statistics) is done with `report`:
    // its pages are given back now, unless the timeline used it lately, so
    // the pass holds one rank's pages at a time instead of every rank's.
    void doneReading(const Report &report);
    // Gives `report`'s pages back now, even if the timeline used it lately
    // (it reads back what it draws): a pass that reads a little of every
    // rank at scattered places (a step's critical path: its interval and
    // correlation lookups page in megabytes of each rank) holds one rank's
    // pages at a time.
    void release(const Report &report);
    // A pass that reads the mapped pages of `reports` at scattered places
    // (a summary table of 10^8 groups in its sorted order reads gigabytes
    // of them, each page for a moment): once the process's resident file
    // pages pass the budget, each report's pages are given back and from
    // then on read a page at a time, so a cache bigger than memory does not
    // stay resident whole. Cheap enough to call every thousand reads.
    void releaseScatteredPastBudget(std::span<const Report *const> reports);

    // What the used ranks count against the budget, and how many times a
    // rank was released (for tests and benchmarks).
    std::uint64_t usedBytes() const;
    std::size_t releases() const;

private:
    void fitLocked(const MappedPages *keep);
    bool isUsedLocked(const MappedPages *pages) const;

    mutable std::mutex m_mutex;
    std::uint64_t m_bytes;
    std::list<std::weak_ptr<const MappedPages>> m_used; // most recent first
    std::uint64_t m_usedBytes = 0;
    std::size_t m_releases = 0;
};

} // namespace rankscope
