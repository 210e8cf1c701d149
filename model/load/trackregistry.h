#pragma once
// Finds or creates the track for an event's owner while a loader fills a
// Report: host tracks by (kind, pid, tid, domain), GPU tracks by (kind, pid,
// device, stream). Used once per row, so lookups build nothing on a hit.
#include "core/report.h"

#include <map>
#include <tuple>

namespace rankscope {

class TrackRegistry {
public:
    explicit TrackRegistry(Report &report) : m_report(report) { }

    Track &host(TrackKind kind, std::uint32_t pid, std::uint32_t tid, std::uint32_t domainId = 0);
    Track &gpu(TrackKind kind, std::uint32_t pid, int deviceId, std::uint32_t streamId, std::uint32_t contextId);

private:
    using Key = std::tuple<int, std::uint32_t, std::uint32_t, int, std::uint32_t, std::uint32_t>;
    template <class Make>
    Track &find(const Key &key, Make &&make)
    {
        auto it = m_index.find(key);
        if (it == m_index.end()) {
            m_report.tracks.push_back(make());
            it = m_index.emplace(key, m_report.tracks.size() - 1).first;
        }
        return m_report.tracks[it->second];
    }

    Report &m_report;
    std::map<Key, std::size_t> m_index;
};

} // namespace rankscope
