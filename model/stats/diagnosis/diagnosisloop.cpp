#include "stats/diagnosis/diagnosisloop.h"
#include "stats/ranks/stepmatrix.h"

#include "core/cancellation.h"
#include "session/residentbudget.h"

#include <QRegularExpression>

#include <unordered_map>

namespace rankscope::stats {

bool isDataLoadingName(std::string_view name)
{
    // Each alternative of the expression holds one of these words: a name
    // without any is no data loader (nearly every name of a PyTorch trace,
    // whose NVTX ranges carry a sequence number each), told in one pass
    // without converting it and running the expression.
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    const auto wordAt = [&](std::size_t at, std::string_view word) {
        if (name.size() - at < word.size())
            return false;
        for (std::size_t k = 1; k < word.size(); ++k)
            if (lower(name[at + k]) != word[k])
                return false;
        return true;
    };
    bool mayMatch = false;
    for (std::size_t i = 0; i < name.size() && !mayMatch; ++i) {
        switch (lower(name[i])) {
        case 'l':
            mayMatch = wordAt(i, "load");
            break;
        case 'n':
            mayMatch = wordAt(i, "next_data");
            break;
        case 'f':
            mayMatch = wordAt(i, "fetch");
            break;
        case 'c':
            mayMatch = wordAt(i, "collate");
            break;
        case 'i':
            mayMatch = wordAt(i, "input");
            break;
        case 'b':
            mayMatch = wordAt(i, "batch");
            break;
        default:
            break;
        }
    }
    if (!mayMatch)
        return false;
    static const QRegularExpression pattern(
        QStringLiteral("data[ _.-]?load|dataloader|_next_data|fetch|collate|prefetch|input[ _]?pipeline|get[ _]?batch|load[ _]?batch|batch[ _]?load"),
        QRegularExpression::CaseInsensitiveOption);
    return pattern.match(QString::fromUtf8(name.data(), qsizetype(name.size()))).hasMatch();
}

namespace {

bool isOsRead(const QString &name)
{
    static const QRegularExpression reads(QStringLiteral("\\A(?:read|readv|pread|pread64|preadv|fread|recv|recvfrom|recvmsg)\\z"));
    return reads.match(name).hasMatch();
}

} // namespace

namespace {

// `gaps` with the parts inside `warmup` cut out (both sorted, disjoint).
std::vector<Interval> withoutWarmup(const std::vector<Interval> &gaps, const std::vector<Interval> &warmup)
{
    std::vector<Interval> kept;
    auto w = warmup.begin();
    for (Interval g : gaps) {
        while (w != warmup.end() && w->second <= g.first)
            ++w;
        for (auto v = w; v != warmup.end() && v->first < g.second; ++v) {
            if (v->first > g.first)
                kept.push_back({g.first, v->first});
            g.first = std::max(g.first, v->second);
        }
        if (g.first < g.second)
            kept.push_back(g);
    }
    return kept;
}

} // namespace

TimeNs RankLoop::shortIdleTime() const
{
    TimeNs shortIdle = 0;
    for (const Interval &g : idle)
        if (g.second - g.first < gapThreshold)
            shortIdle += g.second - g.first;
    return shortIdle;
}

RankLoop loopOf(const RankEntry &entry, const DiagnosisThresholds &th)
{
    const Report &r = *entry.report;
    RankLoop l;
    std::vector<Interval> busy, loading;
    std::vector<TimeRange> steps;                   // session time
    std::vector<std::size_t> busyPieces;            // where each GPU track's operations begin in `busy`
    std::unordered_map<StringId, bool> loadingName; // by NVTX or OS call name
    std::unordered_map<StringId, bool> stepName;    // by NVTX name: matched once each
    // When the GPU was busy: the union of its operations, which the GPU
    // busy summaries hold per device as runs (core/busyruns.h, the same
    // union), a few pages instead of every operation.
    const bool fromSummaries = !r.gpuBusy.empty();
    if (fromSummaries) {
        for (const BusySummary &g : r.gpuBusy)
            if (Session::ownsProcess(entry, g.pid)) {
                busyPieces.push_back(busy.size());
                for (std::size_t i = 0; i < g.runs.size(); ++i)
                    busy.push_back({g.runs.start(i) + entry.sessionOffset, g.runs.end(i) + entry.sessionOffset});
            }
    } else {
        std::size_t gpuOps = 0; // sized first: a rank's GPU operations run to millions
        for (const Track &t : r.tracks)
            if (Session::ownsTrack(entry, t) && isGpuOperation(t.kind))
                gpuOps += t.slices.size();
        busy.reserve(gpuOps);
    }
    for (const Track &t : r.tracks) {
        if (!Session::ownsTrack(entry, t))
            continue;
        const bool gpu = !fromSummaries && isGpuOperation(t.kind);
        const bool host = isHostRange(t.kind) || t.kind == TrackKind::OsRuntime;
        if (!gpu && !host)
            continue;
        if (gpu)
            busyPieces.push_back(busy.size());
        for (std::size_t i = 0; i < t.slices.size(); ++i) {
            const Interval when{t.slices.start(i) + entry.sessionOffset, t.slices.end(i) + entry.sessionOffset};
            if (gpu) {
                busy.push_back(when);
                continue;
            }
            const StringId name = t.slices.name(i);
            if (isHostRange(t.kind)) {
                auto [step, seen] = stepName.try_emplace(name, false);
                if (seen)
                    step->second = isStepName(r.strings.view(name));
                if (step->second)
                    steps.push_back({when.first, when.second});
            }
            auto [it, added] = loadingName.try_emplace(name, false);
            if (added)
                it->second = isHostRange(t.kind) ? isDataLoadingName(r.strings.view(name)) : isOsRead(r.strings.string(name));
            if (it->second && when.second > when.first) {
                loading.push_back(when);
                l.loadingNamed.push_back({when, name, {std::uint32_t(&t - r.tracks.data()), std::uint32_t(i)}});
            }
        }
    }
    sortPieces(busy, busyPieces); // each track's (or summary's) in order by start already
    busy = unionOfSorted(busy);
    l.loading = unionOf(std::move(loading));
    std::sort(steps.begin(), steps.end(), [](const TimeRange &a, const TimeRange &b) { return a.start < b.start; });
    l.hasSteps = !steps.empty();
    if (busy.empty())
        return l;
    l.range = {busy.front().first, busy.back().second};
    if (!steps.empty()) {
        std::vector<TimeNs> lengths;
        for (const TimeRange &st : steps)
            lengths.push_back(st.duration());
        std::nth_element(lengths.begin(), lengths.begin() + std::ptrdiff_t(lengths.size() / 2), lengths.end());
        l.medianStep = lengths[lengths.size() / 2];
        l.gapThreshold = std::max<TimeNs>(TimeNs(double(l.medianStep) * th.inLoopGapShareOfStep), 1);
        l.range = {std::max(l.range.start, steps.front().start), std::min(l.range.end, steps.back().end)};
        if (l.range.end < l.range.start)
            l.range.end = l.range.start;
        std::vector<Interval> warmup;
        for (const TimeRange &st : steps)
            if (isWarmupStep(st.duration(), l.medianStep, steps.size())) {
                const TimeNs from = std::max(st.start, l.range.start), to = std::min(st.end, l.range.end);
                if (from < to)
                    warmup.push_back({from, to});
            }
        l.warmup = unionOf(std::move(warmup));
    } else {
        l.gapThreshold = th.inLoopGapWithoutSteps;
    }
    // The idle gaps inside the loop (a gap cut by the loop's ends counts from them).
    TimeNs from = l.range.start;
    for (const Interval &b : busy) {
        if (b.first >= l.range.end)
            break;
        if (b.first > from)
            l.idle.push_back({from, b.first});
        from = std::max(from, b.second);
    }
    if (from < l.range.end)
        l.idle.push_back({from, l.range.end});
    if (!l.warmup.empty())
        l.idle = withoutWarmup(l.idle, l.warmup);
    return l;
}

const RankLoop::LoadingRange *mainLoadingRange(const RankLoop &l, TimeNs from, TimeNs to)
{
    std::unordered_map<StringId, TimeNs> covered;
    for (const RankLoop::LoadingRange &range : l.loadingNamed) {
        const TimeNs lo = std::max(from, range.when.first), hi = std::min(to, range.when.second);
        if (hi > lo)
            covered[range.name] += hi - lo;
    }
    const auto best = std::max_element(covered.begin(), covered.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    if (best == covered.end())
        return nullptr;
    const RankLoop::LoadingRange *longest = nullptr;
    TimeNs most = 0;
    for (const RankLoop::LoadingRange &range : l.loadingNamed) {
        const TimeNs inside = std::min(to, range.when.second) - std::max(from, range.when.first);
        if (range.name == best->first && inside > most) {
            most = inside;
            longest = &range;
        }
    }
    return longest;
}

std::vector<RankLoop> loopsOf(const Session &session, const DiagnosisThresholds &thresholds)
{
    std::vector<RankLoop> loops;
    loops.reserve(session.ranks().size());
    RankPass rankPass(session.ranks().size());
    for (const RankEntry &entry : session.ranks()) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        loops.push_back(loopOf(entry, thresholds));
        ResidentBudget::process().doneReading(*entry.report);
    }
    return loops;
}

} // namespace rankscope::stats
