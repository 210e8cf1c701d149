#include "session/sampledetails.h"

#include "core/units.h"

#include <algorithm>

namespace rankscope {

QString frameText(const Report &report, const CallFrame &frame)
{
    QString function = report.strings.string(frame.function);
    if (function.isEmpty())
        function = QStringLiteral("[unknown]");
    QString text = function;
    const QString module = report.strings.string(frame.module);
    if (!module.isEmpty())
        text += QStringLiteral(" — ") + module;
    if (frame.has(CallFrame::KernelMode))
        text += QStringLiteral(" [kernel]");
    if (frame.has(CallFrame::Unresolved))
        text += QStringLiteral(" (unresolved)");
    return text;
}

std::vector<DetailField> backtraceFields(const Report &report, std::uint32_t callchain, std::size_t limit)
{
    std::vector<DetailField> fields;
    const auto frames = report.sampling.callchain(callchain);
    for (std::size_t i = 0; i < frames.size() && i < limit; ++i)
        fields.push_back({QStringLiteral("#%1").arg(i), frameText(report, report.sampling.frames[frames[i]]), {}});
    if (frames.size() > limit)
        fields.push_back({QStringLiteral("…"), QStringLiteral("%1 more frames").arg(frames.size() - limit), {}});
    return fields;
}

QStringList backtraceLines(const Report &report, std::uint32_t callchain, std::size_t limit)
{
    QStringList lines;
    for (const DetailField &f : backtraceFields(report, callchain, limit))
        lines << f.label + QLatin1Char(' ') + f.value;
    return lines;
}

std::optional<SampleLocation> sampleNear(const Session &session, int rank, std::uint32_t thread, TimeNs reportTime, TimeNs tolerance)
{
    if (rank < 0 || std::size_t(rank) >= session.ranks().size())
        return std::nullopt;
    const CpuSampling &s = session.ranks()[std::size_t(rank)].report->sampling;
    if (thread >= s.threads.size())
        return std::nullopt;
    const SampledThread &t = s.threads[thread];
    const std::span<const CpuSample> samples = s.samplesOf(t);
    if (samples.empty())
        return std::nullopt;
    const auto after = std::lower_bound(samples.begin(), samples.end(), reportTime, [](const CpuSample &x, TimeNs v) { return x.time < v; });
    auto best = samples.end();
    TimeNs bestDistance = kTimeMax;
    for (auto it : {after, after == samples.begin() ? samples.end() : after - 1}) {
        if (it == samples.end())
            continue;
        const TimeNs distance = it->time > reportTime ? it->time - reportTime : reportTime - it->time;
        if (distance < bestDistance) {
            bestDistance = distance;
            best = it;
        }
    }
    if (best == samples.end() || bestDistance > tolerance)
        return std::nullopt;
    return SampleLocation{rank, thread, t.first + std::uint32_t(best - samples.begin())};
}

EventDetails describeSample(const Session &session, const SampleLocation &at)
{
    EventDetails d;
    if (at.rank < 0 || std::size_t(at.rank) >= session.ranks().size())
        return d;
    const RankEntry &entry = session.ranks()[std::size_t(at.rank)];
    const Report &r = *entry.report;
    if (at.thread >= r.sampling.threads.size() || at.sample >= r.sampling.samples.size())
        return d;
    const SampledThread &thread = r.sampling.threads[at.thread];
    const CpuSample &sample = r.sampling.samples[at.sample];
    const auto frames = r.sampling.callchain(sample.callchain);
    d.title = frames.empty() ? QStringLiteral("CPU sample") : frameText(r, r.sampling.frames[frames.front()]);
    d.kind = QStringLiteral("CPU sample");
    d.fields.push_back({QStringLiteral("Time"), formatTimestamp(sample.time + entry.sessionOffset - session.extent().start), {}});
    d.fields.push_back({QStringLiteral("Rank"), QString::number(entry.rank), {}});
    d.fields.push_back({QStringLiteral("Thread"), threadLabel(r, thread.pid, thread.tid), {}});
    if (sample.cpu != CpuSample::kUnknownCpu)
        d.fields.push_back({QStringLiteral("CPU"), QString::number(sample.cpu), {}});
    d.fields.push_back({QStringLiteral("Thread state"), threadStateName(sample.threadState), {}});
    if (frames.empty())
        d.fields.push_back({QStringLiteral("Backtrace"), QStringLiteral("none recorded"), {}});
    const std::vector<DetailField> backtrace = backtraceFields(r, sample.callchain);
    d.fields.insert(d.fields.end(), backtrace.begin(), backtrace.end());
    return d;
}

std::vector<bool> callchainsWith(const Report &report, const QString &function, const QString &module, bool byModule)
{
    const CpuSampling &s = report.sampling;
    // By text, frame by frame: a report's frames are a few thousand, its
    // strings can be millions (and are no longer indexed once loaded).
    const QByteArray functionText = function.toUtf8(), moduleText = module.toUtf8();
    const std::string_view wantedFunction(functionText.constData(), std::size_t(functionText.size()));
    const std::string_view wantedModule(moduleText.constData(), std::size_t(moduleText.size()));
    std::vector<bool> frameMatches(s.frames.size(), false);
    for (std::size_t f = 0; f < s.frames.size(); ++f) {
        const CallFrame &frame = s.frames[f];
        // "[unresolved]" stands for the unresolved frames of its module
        // (the statistics' collapseUnresolved).
        const bool sameFunction = byModule || report.strings.view(frame.function) == wantedFunction
                                  || (frame.has(CallFrame::Unresolved) && wantedFunction == "[unresolved]");
        frameMatches[f] = report.strings.view(frame.module) == wantedModule && sameFunction;
    }
    std::vector<bool> chains(s.chainCount(), false);
    for (std::uint32_t c = 0; c < chains.size(); ++c) {
        const auto frames = s.callchain(c);
        chains[c] = std::any_of(frames.begin(), frames.end(), [&](std::uint32_t f) { return frameMatches[f]; });
    }
    return chains;
}

} // namespace rankscope
