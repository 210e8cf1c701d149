#include "load/nsys/nsysloadcontext.h"

#include <QFileInfo>

namespace rankscope {

void NsysLoadContext::readStringIds()
{
    if (!db.hasTable("StringIds")) {
        note(Diagnostic::Severity::Warning, QStringLiteral("the export has no StringIds table: kernel, call and thread names are missing"));
        return;
    }
    std::vector<std::pair<std::int64_t, StringId>> pairs;
    std::int64_t maxId = -1;
    forEachRow("StringIds", "SELECT id, value FROM StringIds", [&](const SqliteStatement &row) {
        const std::int64_t id = row.int64(0, -1);
        pairs.emplace_back(id, intern(row.text(1)));
        maxId = std::max(maxId, id);
    });
    // Ids are dense in every export seen; a sparse or hostile table falls
    // back to a hash map instead of a huge vector.
    if (maxId >= 0 && std::size_t(maxId) < 4 * pairs.size() + 1024) {
        m_denseStrings.assign(std::size_t(maxId) + 1, StringTable::kEmpty);
        for (const auto &[id, sid] : pairs)
            if (id >= 0)
                m_denseStrings[std::size_t(id)] = sid;
    } else {
        for (const auto &[id, sid] : pairs)
            m_sparseStrings.emplace(id, sid);
    }
}

void TableProgress::addRows(std::uint64_t rows)
{
    const std::uint64_t read = m_read.fetch_add(rows, std::memory_order_relaxed) + rows;
    const int permille = int(std::min<std::uint64_t>(1000, read * 1000 / m_expected));
    // Under the lock, so that the values reach the sink in order.
    const std::lock_guard<std::mutex> lock(m_reporting);
    if (permille <= m_reportedPermille)
        return;
    m_reportedPermille = permille;
    m_control.report(m_from + (m_to - m_from) * permille / 1000.0);
}

std::size_t NsysLoadContext::rowsAtMost(const std::string &table)
{
    if (!m_fileBytes)
        m_fileBytes = QFileInfo(filePath).size();
    return std::size_t(std::min(std::uint64_t(db.maxRowid(table)), rowsFileCanHold(*m_fileBytes)));
}

void NsysLoadContext::shareStringsFrom(const NsysLoadContext &other)
{
    m_denseStrings = other.m_denseStrings;
    m_sparseStrings = other.m_sparseStrings;
}

StringId NsysLoadContext::mapString(std::int64_t nsysId)
{
    if (nsysId >= 0 && std::size_t(nsysId) < m_denseStrings.size()) [[likely]]
        return m_denseStrings[std::size_t(nsysId)];
    const auto it = m_sparseStrings.find(nsysId);
    if (it != m_sparseStrings.end())
        return it->second;
    if (!m_denseStrings.empty() || !m_sparseStrings.empty()) // else said once: no StringIds
        ++m_unknownStrings;
    return StringTable::kEmpty;
}

bool NsysLoadContext::isReadableEventTable(const char *table)
{
    if (!db.hasTable(table))
        return false;
    if (db.hasColumn(table, "start"))
        return true; // a missing end is counted row by row
    note(Diagnostic::Severity::Warning, QStringLiteral("%1 has no start column; its rows are left out").arg(QString::fromLatin1(table)));
    return false;
}

Track &NsysLoadContext::hostTrack(TrackKind kind, std::int64_t globalTid, std::uint32_t domainId)
{
    return m_tracks.host(kind, pidOfGlobalId(globalTid), tidOfGlobalId(globalTid), domainId);
}

Track &NsysLoadContext::gpuTrack(TrackKind kind, std::uint32_t pid, int deviceId, std::uint32_t streamId, std::uint32_t contextId)
{
    return m_tracks.gpu(kind, pid, deviceId, streamId, contextId);
}

std::optional<TimeNs> NsysLoadContext::checkedEnd(const char *table, TimeNs start, const SqliteStatement &row, int endColumn)
{
    const TimeNs end = row.int64(endColumn); // NULL reads as 0
    if (end > kTraceTimeLimit) [[unlikely]] {
        ++m_badTimes[table].outOfRange;
        return std::nullopt;
    }
    if (!checkedStart(table, start)) [[unlikely]]
        return std::nullopt;
    if (end == 0 && (start != 0 || row.isNull(endColumn))) {
        ++m_badTimes[table].missingEnd;
        return start;
    }
    if (end < start) {
        ++m_badTimes[table].reversed;
        return start;
    }
    return end;
}

bool NsysLoadContext::checkedStart(const char *table, TimeNs start)
{
    if (start >= 0 && start <= kTraceTimeLimit) [[likely]]
        return true;
    if (!isTraceTime(start)) {
        ++m_badTimes[table].outOfRange;
        return false;
    }
    ++m_badTimes[table].negative;
    return true;
}

void NsysLoadContext::note(Diagnostic::Severity severity, QString text)
{
    report.diagnostics.push_back({severity, std::nullopt, std::move(text)});
}

void NsysLoadContext::flushOddities()
{
    for (const auto &[table, odd] : m_badTimes) {
        const QString name = QString::fromStdString(table);
        if (odd.missingEnd)
            note(Diagnostic::Severity::Warning, QStringLiteral("%1: %2 rows without an end; shown as instants").arg(name).arg(odd.missingEnd));
        if (odd.reversed)
            note(Diagnostic::Severity::Warning, QStringLiteral("%1: %2 rows end before they start; shown as instants").arg(name).arg(odd.reversed));
        if (odd.outOfRange)
            note(Diagnostic::Severity::Warning,
                 QStringLiteral("%1: %2 rows have times out of range (beyond ±73 years); left out").arg(name).arg(odd.outOfRange));
        if (odd.negative)
            note(Diagnostic::Severity::Warning,
                 QStringLiteral("%1: %2 rows have negative times (before the profiling session started)").arg(name).arg(odd.negative));
    }
    m_badTimes.clear();
    if (m_unknownStrings)
        note(Diagnostic::Severity::Warning,
             QStringLiteral("%1 references to unknown string ids (not in StringIds); those names are empty").arg(m_unknownStrings));
    m_unknownStrings = 0;
}

} // namespace rankscope
