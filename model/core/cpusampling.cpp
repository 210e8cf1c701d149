#include "core/cpusampling.h"

#include "core/report.h"

#include <algorithm>
#include <array>
#include <tuple>

namespace rankscope {

std::span<const std::uint32_t> CpuSampling::callchain(std::uint32_t chain) const
{
    if (chain >= chainCount())
        return {};
    const std::uint32_t begin = chainStarts[chain], end = chainStarts[chain + 1];
    if (begin > end || end > chainFrames.size())
        return {};
    return {chainFrames.data() + begin, end - begin};
}

std::span<const CpuSample> CpuSampling::samplesOf(const SampledThread &thread) const
{
    if (std::size_t(thread.first) + thread.count > samples.size())
        return {};
    return {samples.data() + thread.first, thread.count};
}

const SampledThread *CpuSampling::thread(std::uint32_t pid, std::uint32_t tid) const
{
    const auto it = std::lower_bound(threads.begin(), threads.end(), std::make_pair(pid, tid),
                                     [](const SampledThread &t, const std::pair<std::uint32_t, std::uint32_t> &key) {
                                         return std::tie(t.pid, t.tid) < std::tie(key.first, key.second);
                                     });
    return it != threads.end() && it->pid == pid && it->tid == tid ? it : nullptr;
}

std::optional<std::uint32_t> CpuSampling::backtraceOf(const TrackEvent &event) const
{
    const auto it = std::lower_bound(backtraces.begin(), backtraces.end(), event, [](const EventBacktrace &b, const TrackEvent &key) {
        return std::tie(b.track, b.event) < std::tie(key.track, key.event);
    });
    if (it == backtraces.end() || it->track != event.track || it->event != event.event)
        return std::nullopt;
    return it->callchain;
}

std::size_t CpuSampling::memoryBytes() const
{
    return frames.size() * sizeof(CallFrame) + (chainFrames.size() + chainStarts.size()) * sizeof(std::uint32_t) + samples.size() * sizeof(CpuSample)
           + threads.size() * sizeof(SampledThread) + backtraces.size() * sizeof(EventBacktrace);
}

QString threadStateName(std::uint8_t state)
{
    static const std::array<const char *, 11> names = {"Unknown",     "Running", "Interruptible", "Uninterruptible", "Stopped",   "Terminated",
                                                       "Unscheduled", "Waiting", "OS runtime",    "Initialized",     "Transition"};
    if (state < names.size())
        return QString::fromLatin1(names[state]);
    return QStringLiteral("State %1").arg(state);
}

} // namespace rankscope
