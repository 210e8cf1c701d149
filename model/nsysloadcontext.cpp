#include "nsysloadcontext.h"

namespace rankscope {

void NsysLoadContext::readStringIds()
{
    if (!db.hasTable("StringIds"))
        return;
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

void NsysLoadContext::shareStringsFrom(const NsysLoadContext &other)
{
    m_denseStrings = other.m_denseStrings;
    m_sparseStrings = other.m_sparseStrings;
}

StringId NsysLoadContext::mapString(std::int64_t nsysId) const
{
    if (nsysId >= 0 && std::size_t(nsysId) < m_denseStrings.size())
        return m_denseStrings[std::size_t(nsysId)];
    const auto it = m_sparseStrings.find(nsysId);
    return it != m_sparseStrings.end() ? it->second : StringTable::kEmpty;
}

Track &NsysLoadContext::hostTrack(TrackKind kind, std::int64_t globalTid, std::uint32_t domainId)
{
    return m_tracks.host(kind, pidOfGlobalId(globalTid), tidOfGlobalId(globalTid), domainId);
}

Track &NsysLoadContext::gpuTrack(TrackKind kind, std::uint32_t pid, int deviceId,
                                 std::uint32_t streamId, std::uint32_t contextId)
{
    return m_tracks.gpu(kind, pid, deviceId, streamId, contextId);
}

TimeNs NsysLoadContext::checkedEnd(const char *table, TimeNs start, const SqliteStatement &row,
                                   int endColumn)
{
    const TimeNs end = row.int64(endColumn); // NULL reads as 0
    if (end == 0 && (start != 0 || row.isNull(endColumn))) {
        ++m_badEnds[table].first;
        return start;
    }
    if (end < start) {
        ++m_badEnds[table].second;
        return start;
    }
    return end;
}

void NsysLoadContext::note(Diagnostic::Severity severity, QString text)
{
    report.diagnostics.push_back({severity, std::nullopt, std::move(text)});
}

void NsysLoadContext::flushOddities()
{
    for (const auto &[table, counts] : m_badEnds) {
        if (counts.first)
            note(Diagnostic::Severity::Warning,
                 QStringLiteral("%1: %2 rows without an end; shown as instants")
                     .arg(QString::fromStdString(table)).arg(counts.first));
        if (counts.second)
            note(Diagnostic::Severity::Warning,
                 QStringLiteral("%1: %2 rows end before they start; shown as instants")
                     .arg(QString::fromStdString(table)).arg(counts.second));
    }
    m_badEnds.clear();
}

} // namespace rankscope
