#include "session/residentbudget.h"

#include "core/memoryusage.h"
#include "session/session.h"

#include <unistd.h>

namespace rankscope {

ResidentBudget::ResidentBudget(std::uint64_t bytes) : m_bytes(bytes) { }

std::uint64_t ResidentBudget::defaultBytes()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0)
        return std::uint64_t(4) << 30;
    return std::uint64_t(pages) * std::uint64_t(pageSize) / 2;
}

ResidentBudget &ResidentBudget::process()
{
    static ResidentBudget budget;
    return budget;
}

void ResidentBudget::setBytes(std::uint64_t bytes)
{
    const std::lock_guard lock(m_mutex);
    m_bytes = bytes;
    fitLocked(nullptr);
}

std::uint64_t ResidentBudget::bytes() const
{
    const std::lock_guard lock(m_mutex);
    return m_bytes;
}

void ResidentBudget::use(const Report &report)
{
    const std::shared_ptr<const MappedPages> &pages = report.indexCache;
    if (!pages)
        return;
    const std::lock_guard lock(m_mutex);
    if (!m_used.empty() && m_used.front().lock() == pages)
        return; // the common case: the same rank again, frame after frame
    for (auto it = m_used.begin(); it != m_used.end(); ++it)
        if (it->lock() == pages) {
            m_used.splice(m_used.begin(), m_used, it);
            return;
        }
    m_used.push_front(pages);
    m_usedBytes += pages->bytes();
    fitLocked(pages.get());
}

void ResidentBudget::fitLocked(const MappedPages *keep)
{
    while (m_usedBytes > m_bytes && !m_used.empty()) {
        const std::shared_ptr<const MappedPages> oldest = m_used.back().lock();
        if (oldest && oldest.get() == keep)
            break; // only the rank in use is left
        m_used.pop_back();
        if (!oldest) {
            // Its session closed: the mapping went with it. Its bytes are
            // lost to the count, so count again from what is left.
            m_usedBytes = 0;
            for (const auto &used : m_used)
                if (const auto alive = used.lock())
                    m_usedBytes += alive->bytes();
            continue;
        }
        m_usedBytes -= std::min(m_usedBytes, oldest->bytes());
        oldest->release();
        ++m_releases;
    }
}

bool ResidentBudget::isUsedLocked(const MappedPages *pages) const
{
    for (const auto &used : m_used)
        if (used.lock().get() == pages)
            return true;
    return false;
}

void ResidentBudget::releaseUnused(const Session &session)
{
    const std::lock_guard lock(m_mutex);
    for (const ReportPtr &report : session.reports())
        if (report->indexCache && !isUsedLocked(report->indexCache.get())) {
            report->indexCache->release();
            ++m_releases;
        }
}

void ResidentBudget::doneReading(const Report &report)
{
    if (!report.indexCache)
        return;
    const std::lock_guard lock(m_mutex);
    if (!isUsedLocked(report.indexCache.get())) {
        report.indexCache->release();
        ++m_releases;
    }
}

void ResidentBudget::release(const Report &report)
{
    if (!report.indexCache)
        return;
    report.indexCache->release();
    const std::lock_guard lock(m_mutex);
    ++m_releases;
}

void ResidentBudget::releaseScatteredPastBudget(std::span<const Report *const> reports)
{
    if (residentFileBytes() <= bytes())
        return;
    for (const Report *report : reports) {
        if (report->indexCache)
            report->indexCache->expectScatteredReads();
        doneReading(*report);
    }
}

std::uint64_t ResidentBudget::usedBytes() const
{
    const std::lock_guard lock(m_mutex);
    return m_usedBytes;
}

std::size_t ResidentBudget::releases() const
{
    const std::lock_guard lock(m_mutex);
    return m_releases;
}

} // namespace rankscope
