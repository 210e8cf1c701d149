#include "stats/diagnosis.h"

#include "core/cancellation.h"
#include "core/asciitext.h"
#include "core/untrustedtext.h"
#include "core/intervals.h"
#include "core/units.h"
#include "session/eventlinks.h"
#include "session/residentbudget.h"
#include "stats/collectives.h"
#include "stats/rankcomparison.h"

#include <QRegularExpression>

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

namespace rankscope::stats {

QString severityName(Severity s)
{
    switch (s) {
    case Severity::High: return QStringLiteral("high");
    case Severity::Medium: return QStringLiteral("medium");
    case Severity::Low: break;
    }
    return QStringLiteral("low");
}

namespace {

// What a rank's loop looks like: whether it has annotated steps, the
// loop's range (first step start to last step end, else the GPU's whole
// span), the idle gaps between the GPU's busy runs inside the loop, and
// what the CPU did to load data. Only what the findings read: it is kept
// for every rank at once.
struct RankLoop {
    bool hasSteps = false;
    TimeNs medianStep = 0;
    TimeNs gapThreshold = 0;       // an in-loop gap is at least this long
    TimeRange range;               // the loop, clipped to the GPU's span
    std::vector<Interval> idle;    // gaps between busy runs inside the loop, session time
    std::vector<Interval> loading; // data-loading ranges and OS reads, union
    std::vector<std::pair<Interval, StringId>> loadingNamed; // the same, by name
    TimeNs span() const { return range.duration(); }
    TimeNs idleTime() const { return lengthOf(idle); }
    bool inLoop(const TimeRange &t) const { return t.end > range.start && t.start < range.end; }
    // The gap of `idle` that holds `t`, if any.
    const Interval *gapAt(TimeNs t) const
    {
        auto it = std::upper_bound(idle.begin(), idle.end(), Interval{t, kTimeMax});
        if (it == idle.begin())
            return nullptr;
        --it;
        return t >= it->first && t < it->second ? &*it : nullptr;
    }
};

bool isDataLoading(const QString &name)
{
    static const QRegularExpression pattern(
        QStringLiteral("data[ _.-]?load|dataloader|_next_data|fetch|collate|prefetch|input[ _]?pipeline|get[ _]?batch|load[ _]?batch|batch[ _]?load"),
        QRegularExpression::CaseInsensitiveOption);
    return pattern.match(name).hasMatch();
}

bool isOsRead(const QString &name)
{
    static const QRegularExpression reads(QStringLiteral("\\A(?:read|readv|pread|pread64|preadv|fread|recv|recvfrom|recvmsg)\\z"));
    return reads.match(name).hasMatch();
}

RankLoop loopOf(const RankEntry &entry, const DiagnosisThresholds &th)
{
    const Report &r = *entry.report;
    RankLoop l;
    std::vector<Interval> busy, loading;
    std::vector<TimeRange> steps; // session time
    std::vector<std::size_t> busyPieces; // where each GPU track's operations begin in `busy`
    std::unordered_map<StringId, bool> loadingName; // by NVTX or OS call name
    std::unordered_map<StringId, bool> stepName;    // by NVTX name: matched once each
    // When the GPU was busy: the union of its operations, which the GPU
    // busy summaries hold per device as runs (core/busyruns.h, the same
    // union), a few pages instead of every operation.
    const bool fromSummaries = !r.gpuBusy.empty();
    if (fromSummaries) {
        for (const GpuBusySummary &g : r.gpuBusy)
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
        const bool host = t.kind == TrackKind::Nvtx || t.kind == TrackKind::OsRuntime;
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
            if (t.kind == TrackKind::Nvtx) {
                auto [step, seen] = stepName.try_emplace(name, false);
                if (seen)
                    step->second = isStepName(r.strings.view(name));
                if (step->second)
                    steps.push_back({when.first, when.second});
            }
            auto [it, added] = loadingName.try_emplace(name, false);
            if (added)
                it->second = t.kind == TrackKind::Nvtx ? isDataLoading(r.strings.string(name)) : isOsRead(r.strings.string(name));
            if (it->second && when.second > when.first) {
                loading.push_back(when);
                l.loadingNamed.push_back({when, name});
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
    return l;
}

// The data-loading name that covers most of [from, to).
QString mainLoadingName(const Report &r, const RankLoop &l, TimeNs from, TimeNs to)
{
    std::unordered_map<StringId, TimeNs> covered;
    for (const auto &[when, name] : l.loadingNamed) {
        const TimeNs lo = std::max(from, when.first), hi = std::min(to, when.second);
        if (hi > lo)
            covered[name] += hi - lo;
    }
    const auto best = std::max_element(covered.begin(), covered.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    return best == covered.end() ? QString() : r.strings.string(best->first);
}

bool isBlockingSync(std::string_view apiName)
{
    const std::string n = asciiLowered(apiName);
    return n.starts_with("cudastreamsynchronize") || n.starts_with("cudadevicesynchronize") || n.starts_with("cudaeventsynchronize")
           || n.starts_with("cuctxsynchronize") || n.starts_with("custreamsynchronize") || n.starts_with("cueventsynchronize");
}

bool isSynchronousCopyApi(std::string_view apiName)
{
    const std::string n = asciiLowered(apiName);
    return (n.starts_with("cudamemcpy") || n.starts_with("cumemcpy")) && n.find("async") == std::string::npos;
}

QString rankList(const Session &session, const std::vector<int> &rankIndices)
{
    std::vector<int> ranks;
    for (const int ri : rankIndices)
        ranks.push_back(session.ranks()[std::size_t(ri)].rank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    if (ranks.empty())
        return {};
    if (ranks.size() == 1)
        return session.ranks().size() > 1 ? QStringLiteral("rank %1 only").arg(ranks[0]) : QStringLiteral("rank %1").arg(ranks[0]);
    QStringList runs;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        runs << (j == i ? QString::number(ranks[i]) : QStringLiteral("%1-%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
    }
    return QStringLiteral("ranks ") + runs.join(QStringLiteral(", "));
}

QString percentText(double share)
{
    return QString::number(100.0 * share, 'f', 1) + QLatin1Char('%');
}

// Each finding's name and advice, in the user's terms.
struct FindingText {
    FindingKind kind;
    const char *id, *title, *advice;
};
constexpr FindingText kFindingTexts[] = {
    {FindingKind::InputStarvation, "input_starvation", "GPU starved by the input pipeline",
         "The GPU waits while the CPU loads data. Load batches in background workers (DataLoader num_workers > 0, "
         "persistent_workers=True, prefetch_factor 2-4), pin host memory (pin_memory=True) and copy with non_blocking=True; "
         "move heavy preprocessing off the training process or onto the GPU."},
    {FindingKind::BlockingCopies, "blocking_copies", "Pageable or synchronous host-device copies",
         "Copies from pageable memory are staged and block the CPU; synchronous copies wait for the GPU. Pin the host buffers "
         "(DataLoader pin_memory=True, tensor.pin_memory()) and copy with tensor.to(device, non_blocking=True) / cudaMemcpyAsync."},
    {FindingKind::Synchronisation, "synchronisation", "CPU blocks on the GPU in the loop",
         "Each synchronisation stops the CPU from queueing work ahead. Remove per-step .item(), .cpu(), print() of GPU tensors and "
         "explicit torch.cuda.synchronize(); accumulate metrics on the GPU and read them every N steps; wait on events "
         "(cudaStreamWaitEvent) instead of the host."},
    {FindingKind::LaunchBound, "launch_bound", "Launch-bound: kernels too short to keep the GPU busy",
         "The CPU takes longer to launch a kernel than the GPU to run it. Batch more work per kernel (a larger batch), fuse "
         "operations (torch.compile), capture the step in a CUDA graph (torch.cuda.graphs / mode=\"reduce-overhead\")."},
    {FindingKind::Straggler, "straggler", "A straggler makes the other ranks wait at collectives",
         "The other ranks idle in their collectives until the late rank arrives. See why it is late (the Collectives panel's "
         "shares): uneven compute or data (balance the shards, the sequence lengths), its own input pipeline or host work, or "
         "a slower GPU or link."},
    {FindingKind::LowUtilisation, "low_utilisation", "Low GPU utilisation",
         "The GPU is idle most of the time for no single reason found here. A larger batch (or gradient accumulation), "
         "fewer host-side operations per step, torch.compile or CUDA graphs give it more work per launch."},
};

// Per rank, the instances' costs and the finding's cost.
struct Accumulator {
    explicit Accumulator(FindingKind kind)
    {
        const FindingText &text = *std::find_if(std::begin(kFindingTexts), std::end(kFindingTexts),
                                                [&](const FindingText &t) { return t.kind == kind; });
        finding.kind = kind;
        finding.id = QString::fromLatin1(text.id);
        finding.title = QString::fromLatin1(text.title);
        finding.advice = QString::fromUtf8(text.advice);
    }
    Finding finding;
    std::map<int, TimeNs> perRank;
    void add(FindingInstance i)
    {
        perRank[i.rankIndex] += i.cost;
        finding.cost += i.cost;
        finding.instances.push_back(std::move(i));
    }
};

} // namespace

Diagnosis diagnose(const Session &session, const DiagnosisThresholds &th, const DiagnosisInputs &inputs)
{
    Diagnosis d;
    if (session.ranks().empty())
        return d;
    // Rank after rank, each rank's mapped pages given back once read
    // (session/residentbudget.h): a pass over hundreds of ranks holds one
    // rank's pages at a time, not every rank's.
    std::vector<RankLoop> loops;
    loops.reserve(session.ranks().size());
    for (const RankEntry &entry : session.ranks()) {
        throwIfCancelled(); // a newer request replaced this one (core/cancellation.h)
        loops.push_back(loopOf(entry, th));
        ResidentBudget::process().doneReading(*entry.report);
    }
    for (const RankLoop &l : loops)
        d.gpuSpan += l.span();
    if (d.gpuSpan <= 0) {
        d.notes << QStringLiteral("No GPU work in any rank's loop: nothing to diagnose.");
        return d;
    }
    bool anySteps = false;
    for (const RankLoop &l : loops)
        anySteps |= l.hasSteps;
    d.notes << (anySteps ? QStringLiteral("The loop: from the first annotated step (NVTX or record_function \"step N\", \"ProfilerStep#N\") to the "
                                          "last; an in-loop gap is at least %1% of the median step.").arg(100.0 * th.inLoopGapShareOfStep)
                         : QStringLiteral("No annotated steps: the loop is each rank's whole GPU span; an in-loop gap is at least %1.")
                               .arg(formatDuration(th.inLoopGapWithoutSteps)));

    // GPU gaps in the loop: the input pipeline's (data loading covers most
    // of them), or unexplained.
    Accumulator input(FindingKind::InputStarvation);
    // The others are instances of low utilisation, written out only for a
    // rank that has it (a busy rank has thousands of short gaps).
    std::map<int, std::vector<Interval>> unexplainedGaps;
    for (std::size_t ri = 0; ri < loops.size(); ++ri) {
        const RankLoop &l = loops[ri];
        const Report &r = *session.ranks()[ri].report;
        for (const Interval &g : l.idle) {
            const TimeNs length = g.second - g.first;
            if (length < l.gapThreshold)
                continue;
            const TimeNs loading = coveredIn(l.loading, g.first, g.second);
            const double covered = double(loading) / double(length);
            if (covered >= th.inputCoverage) {
                input.add({int(ri), {g.first, g.second}, std::nullopt,
                           QStringLiteral("GPU idle %1 while %2 runs (%3 of the gap)")
                               .arg(formatDuration(length), mainLoadingName(r, l, g.first, g.second), percentText(covered)),
                           length});
            } else {
                unexplainedGaps[int(ri)].push_back(g);
            }
        }
    }

    // Blocking copies: from or to pageable memory, or by a synchronous API.
    Accumulator copies(FindingKind::BlockingCopies);
    std::map<int, std::uint64_t> copiedBytes;
    // Synchronisation calls in the loop.
    Accumulator syncs(FindingKind::Synchronisation);
    std::map<int, std::size_t> syncCalls;
    // Launch-bound: kernels shorter than the call that launched them.
    std::map<int, std::pair<std::size_t, std::size_t>> shortKernels; // rank -> (short, all)
    Accumulator launch(FindingKind::LaunchBound);
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        throwIfCancelled(); // a newer request replaced this one (core/cancellation.h)
        const RankEntry &entry = session.ranks()[ri];
        const Report &r = *entry.report;
        const RankLoop &l = loops[ri];
        std::vector<FindingInstance> shortOnes;
        // Launch-bound needs the GPU idle in short gaps for a share of the
        // loop: without that, the rank's kernels need not be looked at.
        TimeNs shortIdle = 0;
        for (const Interval &g : l.idle)
            if (g.second - g.first < l.gapThreshold)
                shortIdle += g.second - g.first;
        const bool mayBeLaunchBound = l.span() > 0 && double(shortIdle) >= th.launchBoundIdle * double(l.span());
        // A run names a few synchronising calls a million times: each name is matched once.
        std::vector<std::int8_t> blockingSync(r.strings.size(), -1);
        const auto isBlockingSyncName = [&](StringId name) {
            if (name >= blockingSync.size())
                return false;
            if (blockingSync[name] < 0)
                blockingSync[name] = std::int8_t(isBlockingSync(r.strings.view(name)));
            return blockingSync[name] != 0;
        };
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
            const Track &track = r.tracks[t];
            if (!Session::ownsTrack(entry, track))
                continue;
            if (track.kind == TrackKind::CudaApi) {
                for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
                    if (!isBlockingSyncName(track.slices.name(i)))
                        continue;
                    const TimeRange when{track.slices.start(i) + entry.sessionOffset, track.slices.end(i) + entry.sessionOffset};
                    if (!l.inLoop(when))
                        continue;
                    ++syncCalls[int(ri)];
                    // The GPU ran dry while the CPU waited: it stays idle from
                    // the call's return until the CPU queues work again (the
                    // part spent loading data is the input finding's).
                    const Interval *gap = l.gapAt(when.end);
                    if (!gap)
                        continue;
                    const TimeNs drained = (gap->second - when.end) - coveredIn(l.loading, when.end, gap->second);
                    if (drained <= 0)
                        continue;
                    syncs.add({int(ri), when, EventLocation{int(ri), t, i},
                               QStringLiteral("%1 blocks the CPU %2; the GPU then idles %3 until new work")
                                   .arg(r.strings.string(track.slices.name(i)), formatDuration(when.duration()), formatDuration(drained)),
                               drained});
                }
            } else if (track.kind == TrackKind::Memcpy) {
                for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
                    const EventLocation at{int(ri), t, i};
                    const MemcpyRecord &m = r.memcpys[track.slices.payload(i)];
                    const auto call = launchingApiCall(session, at);
                    const QString api = call ? r.strings.string(session.track(*call).slices.name(call->event)) : QString();
                    const bool syncApi = call && isSynchronousCopyApi(r.strings.view(session.track(*call).slices.name(call->event)));
                    if (!m.isPageable() && !syncApi)
                        continue;
                    const TimeRange when = session.sessionTime(at);
                    if (!l.inLoop(when))
                        continue;
                    // The host is held for the call (staging a pageable copy, or waiting for a synchronous one).
                    const TimeNs blocked = call ? session.sessionTime(*call).duration() : when.duration();
                    copiedBytes[int(ri)] += m.bytes;
                    copies.add({int(ri), when, at,
                                QStringLiteral("%1 %2 %3 → %4 by %5, host held %6")
                                    .arg(formatBytes(m.bytes), memcpyKindShortName(m.copyKind), r.memoryKindLabel(int(m.srcKind)),
                                         r.memoryKindLabel(int(m.dstKind)), api.isEmpty() ? QStringLiteral("(no call recorded)") : api,
                                         formatDuration(blocked)),
                                blocked});
                }
            } else if (track.kind == TrackKind::Kernel && mayBeLaunchBound) {
                for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
                    const EventLocation at{int(ri), t, i};
                    const auto call = launchingApiCall(session, at);
                    if (!call)
                        continue;
                    auto &[shortCount, all] = shortKernels[int(ri)];
                    ++all;
                    const TimeNs kernel = track.slices.duration(i), launchCall = session.sessionTime(*call).duration();
                    if (kernel < launchCall) {
                        ++shortCount;
                        if (shortOnes.size() < 200)
                            shortOnes.push_back({int(ri), session.sessionTime(at), at,
                                                 QStringLiteral("%1 runs %2, its launch call %3")
                                                     .arg(r.strings.string(r.kernels[track.slices.payload(i)].shortName), formatDuration(kernel),
                                                          formatDuration(launchCall)),
                                                 launchCall - kernel});
                    }
                }
            }
        }
        ResidentBudget::process().doneReading(r);
        // Launch-bound when most kernels are shorter than their launch and
        // the GPU idles in short gaps between them.
        const auto [shortCount, all] = shortKernels[int(ri)];
        if (!mayBeLaunchBound || all == 0 || double(shortCount) < th.launchBoundShortKernels * double(all))
            continue;
        std::sort(shortOnes.begin(), shortOnes.end(), [](const FindingInstance &a, const FindingInstance &b) { return a.cost > b.cost; });
        launch.perRank[int(ri)] += shortIdle;
        launch.finding.cost += shortIdle;
        launch.finding.evidence += QStringLiteral("%1rank %2: %3 of %4 kernels shorter than their launch call, GPU idle %5 in gaps under %6")
                                       .arg(launch.finding.evidence.isEmpty() ? QString() : QStringLiteral("; "))
                                       .arg(entry.rank).arg(shortCount).arg(all).arg(formatDuration(shortIdle), formatDuration(l.gapThreshold));
        for (FindingInstance &i : shortOnes)
            launch.finding.instances.push_back(std::move(i));
    }

    // Stragglers, from the collectives matched across ranks.
    Accumulator straggler(FindingKind::Straggler);
    if (session.ranks().size() > 1) {
        // Aligned on collectives where the clocks disagree (across hosts),
        // as recorded where they agree: a clock offset is no straggler.
        std::optional<KernelClassifier> builtIn;
        const KernelClassifier &classes = inputs.classes ? *inputs.classes : builtIn.emplace(KernelClassifier::rankscope());
        std::optional<CollectiveMatch> ownMatch;
        const CollectiveMatch &match = inputs.alignedMatch ? *inputs.alignedMatch
                                                           : ownMatch.emplace(alignedOnCollectives(session, matchCollectives(session, classes)));
        std::optional<std::vector<RankWait>> ownWaits;
        const std::vector<RankWait> &waits = inputs.alignedMatch && inputs.alignedWaits ? *inputs.alignedWaits
                                                                                         : ownWaits.emplace(rankWaits(session, match, {}, classes));
        const auto worst = std::max_element(waits.begin(), waits.end(), [](const RankWait &a, const RankWait &b) { return a.delayCaused < b.delayCaused; });
        if (worst != waits.end() && worst->delayCaused > 0) {
            for (const CollectiveInstance &c : match.instances) {
                if (c.lastRankIndex != worst->rankIndex)
                    continue;
                TimeNs delay = 0;
                for (const CollectiveArrival &a : c.arrivals)
                    delay += c.waitOf(a);
                const auto own = std::find_if(c.arrivals.begin(), c.arrivals.end(), [&](const CollectiveArrival &a) { return a.rankIndex == c.lastRankIndex; });
                straggler.finding.instances.push_back({worst->rankIndex, {c.firstArrival, c.lastArrival}, own->kernel,
                                                       QStringLiteral("%1 #%2 on %3: last by %4, the others waited %5")
                                                           .arg(c.name).arg(c.sequence).arg(c.communicator, formatDuration(c.skew()), formatDuration(delay)),
                                                       delay});
            }
            straggler.perRank[worst->rankIndex] = worst->delayCaused;
            straggler.finding.cost = worst->delayCaused;
            const double late = double(std::max<TimeNs>(worst->late, 1));
            straggler.finding.evidence = QStringLiteral("rank %1 arrived last at %2 of %3 collectives; the others waited %4 for it. While late, its GPU was "
                                                        "computing %5, idle with the host elsewhere %6, waiting for the launch %7")
                                             .arg(worst->rank).arg(worst->timesLast).arg(worst->collectives)
                                             .arg(formatDuration(worst->delayCaused), percentText(double(worst->lateCompute) / late),
                                                  percentText(double(worst->lateIdle) / late), percentText(double(worst->lateHost) / late));
        }
    }

    // Low utilisation that no other finding explains.
    Accumulator low(FindingKind::LowUtilisation);
    for (std::size_t ri = 0; ri < loops.size(); ++ri) {
        const RankLoop &l = loops[ri];
        const TimeNs idle = l.idleTime(), busy = l.span() - idle;
        if (l.span() <= 0 || double(busy) >= th.lowUtilisationBusy * double(l.span()))
            continue;
        const TimeNs explained = input.perRank[int(ri)] + launch.perRank[int(ri)] + syncs.perRank[int(ri)] + straggler.perRank[int(ri)];
        const TimeNs unexplained = idle - explained;
        if (double(unexplained) < th.lowUtilisationUnexplained * double(l.span()))
            continue;
        low.perRank[int(ri)] = unexplained;
        low.finding.cost += unexplained;
        low.finding.evidence += QStringLiteral("%1rank %2: GPU busy %3 of its span, %4 idle not explained by another finding")
                                    .arg(low.finding.evidence.isEmpty() ? QString() : QStringLiteral("; "))
                                    .arg(session.ranks()[ri].rank).arg(percentText(double(busy) / double(l.span())), formatDuration(unexplained));
        for (const Interval &g : unexplainedGaps[int(ri)])
            low.finding.instances.push_back({int(ri), {g.first, g.second}, std::nullopt,
                                             QStringLiteral("GPU idle %1, not while loading data").arg(formatDuration(g.second - g.first)),
                                             g.second - g.first});
    }

    // Evidence lines for the per-instance findings, then rank, share, severity.
    auto summarise = [&](Accumulator &a, const QString &evidence) {
        if (a.finding.evidence.isEmpty())
            a.finding.evidence = evidence;
    };
    summarise(input, QStringLiteral("%1 in-loop GPU gaps, %2 in all, while the CPU loads data").arg(input.finding.instances.size()).arg(formatDuration(input.finding.cost)));
    std::uint64_t bytes = 0;
    for (const auto &[ri, b] : copiedBytes)
        bytes += b;
    summarise(copies, QStringLiteral("%1 copies, %2, hold the host %3").arg(copies.finding.instances.size()).arg(formatBytes(bytes), formatDuration(copies.finding.cost)));
    std::size_t calls = 0;
    for (const auto &[ri, n] : syncCalls)
        calls += n;
    summarise(syncs, QStringLiteral("%1 synchronising calls in the loop; after %2 of them the GPU ran dry, idle %3 until the CPU queued work again")
                         .arg(calls).arg(syncs.finding.instances.size()).arg(formatDuration(syncs.finding.cost)));
    for (Accumulator *a : {&input, &copies, &syncs, &launch, &straggler, &low}) {
        Finding &f = a->finding;
        f.share = double(f.cost) / double(d.gpuSpan);
        // Blocking copies are listed however little they cost, as nsys'
        // cuda_memcpy_async rule lists them: each is a one-line fix.
        if (f.cost <= 0 || (f.share < th.reportedShare && f.kind != FindingKind::BlockingCopies))
            continue;
        for (const auto &[ri, cost] : a->perRank)
            if (cost > 0)
                f.rankIndices.push_back(ri);
        f.ranks = rankList(session, f.rankIndices);
        f.severity = f.share >= th.highShare ? Severity::High : f.share >= th.mediumShare ? Severity::Medium : Severity::Low;
        std::stable_sort(f.instances.begin(), f.instances.end(), [](const FindingInstance &x, const FindingInstance &y) { return x.cost > y.cost; });
        d.findings.push_back(std::move(f));
    }
    std::stable_sort(d.findings.begin(), d.findings.end(), [](const Finding &a, const Finding &b) { return a.cost > b.cost; });
    return d;
}

ResultTable findingsTable(const Diagnosis &d)
{
    ResultTable t;
    t.name = QStringLiteral("diagnosis");
    t.title = QStringLiteral("Diagnosis");
    t.headers = QStringList{QStringLiteral("Severity"), QStringLiteral("Finding"), QStringLiteral("Ranks"), QStringLiteral("Cost (ns)"),
                            QStringLiteral("Share (%)"), QStringLiteral("Instances"), QStringLiteral("Evidence"), QStringLiteral("Advice")};
    for (const Finding &f : d.findings)
        t.addRow({Cell::ofText(severityName(f.severity)), Cell::ofText(f.title), Cell::ofText(f.ranks), Cell::ofInteger(f.cost),
                          Cell::ofDecimal(100.0 * f.share, 1), Cell::ofInteger(std::int64_t(f.instances.size())), Cell::ofText(f.evidence),
                          Cell::ofText(f.advice)});
    t.notes = d.notes;
    return t;
}

ResultTable findingInstancesTable(const Session &session, const Finding &f)
{
    ResultTable t;
    t.name = QStringLiteral("diagnosis_") + f.id;
    t.title = f.title;
    t.headers = QStringList{QStringLiteral("Rank"), QStringLiteral("Start (ns)"), QStringLiteral("Duration (ns)"), QStringLiteral("Cost (ns)"),
                            QStringLiteral("What")};
    const TimeNs zero = session.extent().start;
    for (const FindingInstance &i : f.instances)
        t.addRow({Cell::ofInteger(session.ranks()[std::size_t(i.rankIndex)].rank), Cell::ofInteger(i.time.start - zero),
                          Cell::ofInteger(i.time.duration()), Cell::ofInteger(i.cost), Cell::ofText(i.what)});
    return t;
}

QString findingsMarkdown(const Session &session, const Diagnosis &d)
{
    QString md = QStringLiteral("# Diagnosis\n\n");
    if (d.findings.empty())
        md += QStringLiteral("No findings: nothing costs 1% or more of the GPU time.\n");
    const TimeNs zero = session.extent().start;
    for (const Finding &f : d.findings) {
        // Names from the trace (kernels, NVTX ranges, threads) are in the
        // evidence, the instances and the notes: literal text, never
        // Markdown or HTML. Titles and advice are this program's own.
        md += QStringLiteral("## %1 (%2, %3 of the GPU time, %4)\n\n")
                  .arg(f.title, severityName(f.severity), percentText(f.share), markdownText(f.ranks));
        md += markdownText(f.evidence) + QStringLiteral(".\n\n**Advice.** ") + f.advice + QStringLiteral("\n\n");
        const std::size_t shown = std::min<std::size_t>(f.instances.size(), 5);
        for (std::size_t i = 0; i < shown; ++i) {
            const FindingInstance &in = f.instances[i];
            md += QStringLiteral("- rank %1 at %2: %3\n")
                      .arg(session.ranks()[std::size_t(in.rankIndex)].rank)
                      .arg(formatDuration(in.time.start - zero), markdownText(in.what));
        }
        if (f.instances.size() > shown)
            md += QStringLiteral("- … %1 more\n").arg(f.instances.size() - shown);
        md += QLatin1Char('\n');
    }
    for (const QString &note : d.notes)
        md += QStringLiteral("> %1\n").arg(markdownText(note));
    return md;
}

} // namespace rankscope::stats
