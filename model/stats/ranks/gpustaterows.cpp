#include "stats/ranks/gpustaterows.h"

#include "core/cancellation.h"

#include <algorithm>

namespace rankscope::stats {

namespace {

// What starts or ends at one time: +1 or -1 to one of the three counts.
struct Change {
    TimeNs at;
    std::int8_t delta;
    std::uint8_t what; // 0 communication kernel, 1 other kernel, 2 copy or memset
};

CounterTrack named(GpuStateRow row, const Track &any)
{
    CounterTrack c;
    c.name = QLatin1String(gpuStateRowText(row).name);
    c.unit = QLatin1String(gpuStateRowText(row).unit);
    c.pid = any.pid;
    c.deviceId = any.deviceId;
    return c;
}

void sample(CounterTrack &c, TimeNs at, double value)
{
    // One value per time: the last change at a time is the one in force.
    if (!c.time.empty() && c.time.back() == at) {
        c.value.back() = value;
        return;
    }
    if (!c.value.empty() && c.value.back() == value)
        return;
    c.time.push_back(at);
    c.value.push_back(value);
}

} // namespace

const GpuStateRowText &gpuStateRowText(GpuStateRow row)
{
    static const GpuStateRowText kTexts[] = {
        {"Kernels in flight", "", "How many kernels run at once on this GPU (any stream)"},
        {"Compute during communication", "%",
         "100 % while a communication kernel and another kernel run together (the built-in communication patterns); over a "
         "selection, the mean is the share of the time communication was overlapped"},
        {"GPU useful", "%", "100 % while a kernel other than communication runs: useful work; over a selection, the mean is the useful share"},
        {"GPU gap", "ns", "In each idle gap (no kernel, copy or memset), the gap's length; 0 while the GPU is busy"},
    };
    static_assert(std::size(kTexts) == std::size(kGpuStateRows));
    return kTexts[std::size_t(row)];
}

std::optional<double> GpuStateCounter::meanIn(TimeNs from, TimeNs to) const
{
    const Column<TimeNs> &t = counter.time;
    if (t.empty() || to <= from || to <= t.front())
        return std::nullopt;
    from = std::max(from, t.front());
    // The integral up to x: the samples before it, and the one in force for the rest.
    const auto upTo = [&](TimeNs x) {
        const std::size_t i = std::size_t(std::upper_bound(t.begin(), t.end(), x) - t.begin()) - 1;
        return integral[i] + counter.value[i] * double(x - t[i]);
    };
    return (upTo(to) - upTo(from)) / double(to - from);
}

std::vector<GpuStateCounter> gpuStateCounters(const Report &report, const std::vector<std::uint32_t> &tracks, const KernelClassifier &classes)
{
    std::vector<Change> changes;
    KernelClassCache classOf(report.strings, classes);
    const Track *first = nullptr;
    for (const std::uint32_t t : tracks) {
        const Track &track = report.tracks[t];
        if (!isGpuOperation(track.kind))
            continue;
        first = first ? first : &track;
        throwIfCancelled();
        const SliceTrack &s = track.slices;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const std::uint8_t what = track.kind != TrackKind::Kernel ? 2 : classOf.of(s.name(i)) == KernelClass::Communication ? 0 : 1;
            changes.push_back({s.start(i), 1, what});
            changes.push_back({s.end(i), -1, what});
        }
    }
    std::vector<CounterTrack> out;
    if (!first)
        return {};
    for (const GpuStateRow row : kGpuStateRows)
        out.push_back(named(row, *first));
    // Ends before starts at one time: back-to-back work never counts twice.
    std::sort(changes.begin(), changes.end(), [](const Change &a, const Change &b) { return a.at != b.at ? a.at < b.at : a.delta < b.delta; });
    CounterTrack &inFlight = out[0], &overlap = out[1], &useful = out[2], &gap = out[3];
    std::int64_t running[3] = {0, 0, 0};
    TimeNs idleSince = kTimeMin; // the start of the gap in force
    for (std::size_t i = 0; i < changes.size();) {
        const TimeNs at = changes[i].at;
        const bool wasBusy = running[0] + running[1] + running[2] > 0;
        for (; i < changes.size() && changes[i].at == at; ++i)
            running[changes[i].what] += changes[i].delta;
        const bool busy = running[0] + running[1] + running[2] > 0;
        sample(inFlight, at, double(running[0] + running[1]));
        sample(overlap, at, running[0] > 0 && running[1] > 0 ? 100.0 : 0.0);
        sample(useful, at, running[1] > 0 ? 100.0 : 0.0);
        if (wasBusy && !busy)
            idleSince = at;
        if (!wasBusy && busy && idleSince != kTimeMin) {
            // The gap that just ended: its length, held from its start.
            gap.time.push_back(idleSince);
            gap.value.push_back(double(at - idleSince));
        }
        if (busy && (gap.time.empty() || gap.value.back() != 0.0)) {
            gap.time.push_back(at);
            gap.value.push_back(0.0);
        }
    }
    std::vector<GpuStateCounter> counters;
    for (std::size_t k = 0; k < out.size(); ++k) {
        CounterTrack &c = out[k];
        c.finalize();
        GpuStateCounter g{kGpuStateRows[k], std::move(c), {}};
        g.integral.resize(g.counter.time.size());
        for (std::size_t i = 1; i < g.integral.size(); ++i)
            g.integral[i] = g.integral[i - 1] + g.counter.value[i - 1] * double(g.counter.time[i] - g.counter.time[i - 1]);
        counters.push_back(std::move(g));
    }
    return counters;
}

} // namespace rankscope::stats
