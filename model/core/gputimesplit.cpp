#include "core/gputimesplit.h"

#include "core/communicationkernels.h"
#include "core/intervals.h"
#include "core/report.h"

#include <QRegularExpression>

#include <algorithm>
#include <set>
#include <unordered_map>

namespace rankscope {

namespace {

bool matches(const QRegularExpression &re, std::string_view name)
{
    return re.match(QString::fromUtf8(name.data(), qsizetype(name.size()))).hasMatch();
}

} // namespace

bool isStepName(std::string_view name)
{
    // Every step name starts with s, i or p and ends with a digit: most
    // names of a million ranges are told apart without the expression.
    const auto startsRight = [](char c) { return c == 's' || c == 'S' || c == 'i' || c == 'I' || c == 'p' || c == 'P'; };
    if (name.empty() || !startsRight(name.front()) || name.back() < '0' || name.back() > '9')
        return false;
    // One compiled expression per thread: reports load on several at once.
    thread_local const QRegularExpression step(QStringLiteral("\\A(?:(?:step|iteration)\\s*#?\\s*\\d+|ProfilerStep#\\d+)\\z"),
                                               QRegularExpression::CaseInsensitiveOption);
    return matches(step, name);
}

const char *memoryKernelPattern()
{
    // HTA's (hta/common/trace.py, commit f4d0062c), applied with Python's
    // re.match: anchored at the start of the name.
    return "(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)";
}

bool isMemoryKernelName(std::string_view name)
{
    thread_local const QRegularExpression memory(QStringLiteral("\\A(?:%1)").arg(QLatin1String(memoryKernelPattern())));
    return matches(memory, name);
}

GpuTimeSplit gpuTimeSplitOf(const Report &report, const TimeSplitInputs &inputs)
{
    using stats::Interval;
    GpuTimeSplit split;
    std::vector<Interval> compute, communication, memory;
    // A run repeats a few step names and NVTX texts many times: each is
    // matched once.
    std::unordered_map<StringId, bool> isStep;
    for (const Track &t : report.tracks) {
        if (!inputs.acceptsTrack(t))
            continue;
        const auto [first, last] = inputs.eventsIn(t);
        for (std::size_t i = first; i < last; ++i) {
            const Interval span{t.slices.start(i), t.slices.end(i)};
            switch (t.kind) {
            case TrackKind::Kernel:
                switch (inputs.classOfKernel(t.slices.name(i))) {
                case GpuWorkClass::Communication:
                    communication.push_back(span);
                    break;
                case GpuWorkClass::Memory:
                    memory.push_back(span);
                    break;
                case GpuWorkClass::Compute:
                    compute.push_back(span);
                    break;
                }
                break;
            case TrackKind::Memcpy: {
                const MemcpyRecord &copy = report.memcpys[t.slices.payload(i)];
                split.bytesByCopyKind[int(copy.copyKind) < kMemcpyKindCount ? int(copy.copyKind) : 0] += copy.bytes;
                memory.push_back(span);
                break;
            }
            case TrackKind::Memset:
                memory.push_back(span);
                break;
            case TrackKind::Nvtx:
            case TrackKind::CpuOp: {
                auto [it, added] = isStep.try_emplace(t.slices.name(i), false);
                if (added)
                    it->second = isStepName(report.strings.view(t.slices.name(i)));
                if (it->second) {
                    ++split.steps;
                    split.stepTotal += span.second - span.first;
                    split.longestStep = std::max(split.longestStep, span.second - span.first);
                }
                break;
            }
            default:
                break;
            }
        }
    }
    split.gpuOperations = compute.size() + communication.size() + memory.size();
    // With C, N and M the unions of compute, communication and memory:
    // |C| + |N \ C| + |M \ (C u N)| = |C u N u M|, so the classes and idle
    // add up to the span by construction.
    std::vector<Interval> all = compute;
    all.insert(all.end(), communication.begin(), communication.end());
    all.insert(all.end(), memory.begin(), memory.end());
    const std::vector<Interval> busy = stats::unionOf(std::move(all));
    if (busy.empty())
        return split;
    split.span = busy.back().second - busy.front().first;
    split.busy = stats::lengthOf(busy);
    const std::vector<Interval> computeRuns = stats::unionOf(std::move(compute));
    const std::vector<Interval> communicationRuns = stats::unionOf(std::move(communication));
    split.compute = stats::lengthOf(computeRuns);
    split.communication = stats::lengthOf(communicationRuns);
    split.hiddenCommunication = stats::overlapOf(communicationRuns, computeRuns);
    return split;
}

std::vector<GpuTimeSplit> builtInTimeSplits(const Report &report)
{
    std::vector<std::int8_t> classOf(report.strings.size(), -1);
    const auto classOfKernel = [&](StringId name) {
        if (name >= classOf.size())
            return GpuWorkClass::Compute; // not in the table: a loader never writes one
        if (classOf[name] < 0) {
            const std::string_view text = report.strings.view(name);
            classOf[name] = std::int8_t(isBuiltInCommunicationKernel(text) ? GpuWorkClass::Communication
                                        : isMemoryKernelName(text)         ? GpuWorkClass::Memory
                                                                           : GpuWorkClass::Compute);
        }
        return GpuWorkClass(classOf[name]);
    };
    const auto allEvents = [](const Track &t) { return std::pair<std::size_t, std::size_t>(0, t.slices.size()); };
    std::vector<GpuTimeSplit> splits;
    splits.push_back(gpuTimeSplitOf(report, {[](const Track &) { return true; }, allEvents, classOfKernel}));
    std::set<std::uint32_t> pids;
    for (const Track &t : report.tracks)
        pids.insert(t.pid);
    if (pids.size() > 1)
        for (const std::uint32_t pid : pids) {
            GpuTimeSplit split = gpuTimeSplitOf(report, {[pid](const Track &t) { return t.pid == pid; }, allEvents, classOfKernel});
            split.pid = pid;
            splits.push_back(split);
        }
    return splits;
}

const GpuTimeSplit *keptTimeSplit(const Report &report, std::optional<std::uint32_t> pid)
{
    const std::vector<GpuTimeSplit> &splits = report.timeSplits;
    if (splits.empty())
        return nullptr;
    if (!pid)
        return &splits.front();
    if (splits.size() == 1) // one process: the whole report is its
        return std::any_of(report.tracks.begin(), report.tracks.end(), [&](const Track &t) { return t.pid == *pid; }) ? &splits.front() : nullptr;
    const auto it = std::lower_bound(splits.begin() + 1, splits.end(), *pid, [](const GpuTimeSplit &s, std::uint32_t p) { return s.pid < p; });
    return it != splits.end() && it->pid == *pid ? &*it : nullptr;
}

} // namespace rankscope
