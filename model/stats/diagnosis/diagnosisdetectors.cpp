#include "stats/diagnosis/diagnosisdetectors.h"

#include "core/asciitext.h"
#include "core/cancellation.h"
#include "core/units.h"
#include "session/eventlinks.h"
#include "session/mpimessages.h"
#include "session/residentbudget.h"
#include "stats/diagnosis/gapanalysis.h"
#include "stats/mpi/mpiwaitstates.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/cpucommunication.h"
#include "stats/ranks/pipelinebubbles.h"
#include "stats/sampling/samplingprofile.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace rankscope::stats {

namespace {

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
    {FindingKind::MpiWaits, "mpi_waits", "Ranks wait for each other in MPI",
     "A rank blocks in MPI until its partner gets there: a receive posted before its send (Late Sender), a send that MPI "
     "cannot buffer posted before its receive (Late Receiver), a collective entered before the last rank. Balance the work "
     "before the exchange, post receives early and send without blocking (MPI_Isend/MPI_Irecv) with computation between "
     "the call and its wait."},
    {FindingKind::PipelineBubble, "pipeline_bubble", "Pipeline bubble: stages idle while the pipeline fills and drains",
     "With p stages and m micro-batches per step, a stage idles about (p - 1)/(m + p - 1) of the step. Run more micro-batches "
     "per step (a smaller micro-batch, gradient accumulation), an interleaved schedule (virtual pipeline stages), fewer stages, "
     "or balance the layers so that no stage makes the others wait; overlap the sends and receives with compute."},
    {FindingKind::LowUtilisation, "low_utilisation", "Low GPU utilisation",
     "The GPU is idle most of the time for no single reason found here. A larger batch (or gradient accumulation), "
     "fewer host-side operations per step, torch.compile or CUDA graphs give it more work per launch."},
};

// The process that launched the most GPU work: a rank's own when the
// report holds one process per rank.
std::uint32_t launchingProcess(const Report &report)
{
    std::map<std::uint32_t, std::size_t> calls;
    for (const Track &t : report.tracks)
        if (t.kind == TrackKind::CudaApi)
            calls[t.pid] += t.slices.size();
    const auto most = std::max_element(calls.begin(), calls.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    return most == calls.end() ? 0 : most->first;
}

} // namespace

QString percentText(double share)
{
    return QString::number(100.0 * share, 'f', 1) + QLatin1Char('%');
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

DetectedFinding::DetectedFinding(FindingKind kind)
{
    const FindingText &text = *std::find_if(std::begin(kFindingTexts), std::end(kFindingTexts), [&](const FindingText &t) { return t.kind == kind; });
    finding.kind = kind;
    finding.id = QString::fromLatin1(text.id);
    finding.title = QString::fromLatin1(text.title);
    finding.advice = QString::fromUtf8(text.advice);
}

void DetectedFinding::add(FindingInstance instance)
{
    costPerRank[instance.rankIndex] += instance.cost;
    finding.cost += instance.cost;
    finding.instances.push_back(std::move(instance));
}

TimeNs DetectedFinding::costOf(int rankIndex) const
{
    const auto it = costPerRank.find(rankIndex);
    return it == costPerRank.end() ? 0 : it->second;
}

InputStarvationResult detectInputStarvation(const Session &session, const std::vector<RankLoop> &loops, const DiagnosisThresholds &th)
{
    InputStarvationResult result;
    DetectedFinding &input = result.starvation;
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
                const RankLoop::LoadingRange *loading = mainLoadingRange(l, g.first, g.second);
                QString text = QStringLiteral("GPU idle %1 while %2 runs (%3 of the gap)")
                                   .arg(formatDuration(length), loading ? r.strings.string(loading->name) : QString(), percentText(covered));
                // Where the CPU was, when it was sampled: "...in decode_jpeg (libjpeg.so) 41 %".
                const RankEntry &entry = session.ranks()[ri];
                const std::vector<SampledShare> sampled =
                    topSampledFunctions(r, entry.pid, {g.first - entry.sessionOffset, g.second - entry.sessionOffset});
                if (!sampled.empty())
                    text += QStringLiteral("; CPU sampled in ") + sampledSharesText(sampled);
                FindingInstance instance{int(ri), {g.first, g.second}, std::nullopt, std::move(text), length};
                if (loading)
                    instance.evidence = EventLocation{int(ri), loading->event.track, loading->event.event};
                input.add(std::move(instance));
            } else {
                result.otherGaps[int(ri)].push_back(g);
            }
        }
    }
    input.finding.evidence = QStringLiteral("%1 in-loop GPU gaps, %2 in all, while the CPU loads data")
                                 .arg(input.finding.instances.size())
                                 .arg(formatDuration(input.finding.cost));
    // Where the CPU samples of all those gaps were, when the trace has them.
    std::vector<SampledSpans> spans(loops.size());
    for (const FindingInstance &i : input.finding.instances) {
        const RankEntry &entry = session.ranks()[std::size_t(i.rankIndex)];
        SampledSpans &s = spans[std::size_t(i.rankIndex)];
        s.report = entry.report.get();
        s.pid = entry.pid;
        s.ranges.push_back({i.time.start - entry.sessionOffset, i.time.end - entry.sessionOffset});
    }
    std::erase_if(spans, [](const SampledSpans &s) { return s.report == nullptr; });
    for (SampledSpans &s : spans)
        std::sort(s.ranges.begin(), s.ranges.end(), [](const TimeRange &a, const TimeRange &b) { return a.start < b.start; });
    if (const std::vector<SampledShare> sampled = topSampledFunctions(spans); !sampled.empty())
        input.finding.evidence += QStringLiteral(", sampled mostly in ") + sampledSharesText(sampled);
    return result;
}

DetectedFinding detectBlockingCopies(const Session &session, const std::vector<RankLoop> &loops)
{
    DetectedFinding copies(FindingKind::BlockingCopies);
    std::uint64_t copiedBytes = 0;
    RankPass rankPass(session.ranks().size());
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const RankEntry &entry = session.ranks()[ri];
        const Report &r = *entry.report;
        const RankLoop &l = loops[ri];
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
            const Track &track = r.tracks[t];
            if (!Session::ownsTrack(entry, track) || track.kind != TrackKind::Memcpy)
                continue;
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
                copiedBytes += m.bytes;
                copies.add(
                    {int(ri), when, at,
                     QStringLiteral("%1 %2 %3 → %4 by %5, host held %6")
                         .arg(formatBytes(m.bytes), memcpyKindShortName(m.copyKind), r.memoryKindLabel(int(m.srcKind)),
                              r.memoryKindLabel(int(m.dstKind)), api.isEmpty() ? QStringLiteral("(no call recorded)") : api, formatDuration(blocked)),
                     blocked});
            }
        }
        ResidentBudget::process().doneReading(r);
    }
    copies.finding.evidence = QStringLiteral("%1 copies, %2, hold the host %3")
                                  .arg(copies.finding.instances.size())
                                  .arg(formatBytes(copiedBytes), formatDuration(copies.finding.cost));
    return copies;
}

DetectedFinding detectSynchronisation(const Session &session, const std::vector<RankLoop> &loops)
{
    DetectedFinding syncs(FindingKind::Synchronisation);
    std::size_t calls = 0;
    RankPass rankPass(session.ranks().size());
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const RankEntry &entry = session.ranks()[ri];
        const Report &r = *entry.report;
        const RankLoop &l = loops[ri];
        // A run names a few synchronising calls a million times: each name is matched once.
        std::vector<std::int8_t> blockingSync(r.strings.size(), -1);
        const auto isBlockingSyncName = [&](StringId name) {
            if (name >= blockingSync.size())
                return false;
            if (blockingSync[name] < 0)
                blockingSync[name] = std::int8_t(isBlockingSync(r.strings.view(name)));
            return blockingSync[name] != 0;
        };
        // Gloo's threads synchronise to copy gradients to the CPU: they hold
        // up no launches (the CPU communication is the gaps' cause there).
        std::set<std::pair<std::uint32_t, std::uint32_t>> glooThreads;
        for (const ThreadInfo &thread : r.threads)
            if (isGlooThreadName(thread.name))
                glooThreads.insert({thread.pid, thread.tid});
        // A gap after several syncs drained the GPU once: from the first return.
        std::map<TimeNs, FindingInstance> byGap;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
            const Track &track = r.tracks[t];
            if (!Session::ownsTrack(entry, track) || track.kind != TrackKind::CudaApi || glooThreads.count({track.pid, track.tid}))
                continue;
            for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
                if (!isBlockingSyncName(track.slices.name(i)))
                    continue;
                const TimeRange when{track.slices.start(i) + entry.sessionOffset, track.slices.end(i) + entry.sessionOffset};
                if (!l.inLoop(when))
                    continue;
                ++calls;
                // The GPU ran dry while the CPU waited: it stays idle from
                // the call's return until the CPU queues work again (the
                // part spent loading data is the input finding's). A gap
                // shorter than an in-loop gap is launch latency, the
                // launch-bound finding's.
                const Interval *gap = l.gapAt(when.end);
                if (!gap || gap->second - gap->first < l.gapThreshold)
                    continue;
                const TimeNs drained = (gap->second - when.end) - coveredIn(l.loading, when.end, gap->second);
                if (drained <= 0)
                    continue;
                const auto [it, added] = byGap.try_emplace(gap->first);
                if (!added && it->second.cost >= drained)
                    continue;
                it->second = {int(ri), when, EventLocation{int(ri), t, i},
                              QStringLiteral("%1 blocks the CPU %2; the GPU then idles %3 until new work")
                                  .arg(r.strings.string(track.slices.name(i)), formatDuration(when.duration()), formatDuration(drained)),
                              drained};
            }
        }
        for (auto &[gapStart, instance] : byGap)
            syncs.add(std::move(instance));
        ResidentBudget::process().doneReading(r);
    }
    syncs.finding.evidence =
        QStringLiteral("%1 synchronising calls in the loop; after %2 of them the GPU ran dry, idle %3 until the CPU queued work again")
            .arg(calls)
            .arg(syncs.finding.instances.size())
            .arg(formatDuration(syncs.finding.cost));
    return syncs;
}

DetectedFinding detectLaunchBound(const Session &session, const std::vector<RankLoop> &loops, const DiagnosisThresholds &th)
{
    DetectedFinding launch(FindingKind::LaunchBound);
    RankPass rankPass(session.ranks().size());
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const RankEntry &entry = session.ranks()[ri];
        const Report &r = *entry.report;
        const RankLoop &l = loops[ri];
        // Launch-bound needs the GPU idle in short gaps for a share of the
        // loop: without that, the rank's kernels need not be looked at.
        const TimeNs shortIdle = l.shortIdleTime();
        if (l.span() <= 0 || double(shortIdle) < th.launchBoundIdle * double(l.span()))
            continue;
        std::vector<FindingInstance> shortOnes;
        std::size_t shortCount = 0, all = 0;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
            const Track &track = r.tracks[t];
            if (!Session::ownsTrack(entry, track) || track.kind != TrackKind::Kernel)
                continue;
            for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
                const EventLocation at{int(ri), t, i};
                if (!l.inLoop(session.sessionTime(at)))
                    continue;
                const auto call = launchingApiCall(session, at);
                if (!call)
                    continue;
                ++all;
                const TimeNs kernel = track.slices.duration(i), launchCall = session.sessionTime(*call).duration();
                if (kernel >= launchCall)
                    continue;
                ++shortCount;
                if (shortOnes.size() < 200)
                    shortOnes.push_back(
                        {int(ri), session.sessionTime(at), at,
                         QStringLiteral("%1 runs %2, its launch call %3")
                             .arg(r.strings.string(r.kernels[track.slices.payload(i)].shortName), formatDuration(kernel), formatDuration(launchCall)),
                         launchCall - kernel});
            }
        }
        ResidentBudget::process().doneReading(r);
        // Launch-bound when most kernels are shorter than their launch and
        // the GPU idles in short gaps between them: the cost is that idle
        // time, not the instances' (the first 200 short kernels, as examples).
        if (all == 0 || double(shortCount) < th.launchBoundShortKernels * double(all))
            continue;
        std::sort(shortOnes.begin(), shortOnes.end(), [](const FindingInstance &a, const FindingInstance &b) { return a.cost > b.cost; });
        launch.costPerRank[int(ri)] += shortIdle;
        launch.finding.cost += shortIdle;
        launch.finding.evidence += QStringLiteral("%1rank %2: %3 of %4 kernels shorter than their launch call, GPU idle %5 in gaps under %6")
                                       .arg(launch.finding.evidence.isEmpty() ? QString() : QStringLiteral("; "))
                                       .arg(entry.rank)
                                       .arg(shortCount)
                                       .arg(all)
                                       .arg(formatDuration(shortIdle), formatDuration(l.gapThreshold));
        for (FindingInstance &i : shortOnes)
            launch.finding.instances.push_back(std::move(i));
    }
    return launch;
}

namespace {

// The sends and receives between stages of one pipeline: its bubble.
std::set<std::pair<int, int>> pipelineLinks(const Session &session, const CollectiveMatch &match)
{
    std::set<std::pair<int, int>> links;
    for (const std::vector<int> &stages : pipelineBubbles(session, match, KernelClassifier::rankscope(), {}).pipelines)
        for (std::size_t s = 0; s + 1 < stages.size(); ++s)
            links.insert(std::minmax(stages[s], stages[s + 1]));
    return links;
}

bool isPipelineTransfer(const CollectiveInstance &c, const std::set<std::pair<int, int>> &links)
{
    return isPointToPoint(c.kind) && c.arrivals.size() == 2 && links.count(std::minmax(c.arrivals[0].rankIndex, c.arrivals[1].rankIndex));
}

} // namespace

DetectedFinding detectStraggler(const Session &session, const DiagnosisInputs &inputs)
{
    DetectedFinding straggler(FindingKind::Straggler);
    if (session.ranks().size() < 2 || !inputs.alignedMatch || !inputs.alignedWaits)
        return straggler;
    // Aligned on collectives where the clocks disagree (across hosts), as
    // recorded where they agree: a clock offset is no straggler.
    const CollectiveMatch &match = *inputs.alignedMatch;
    const std::vector<RankWait> &waits = *inputs.alignedWaits;
    // A pipeline's later stages wait for the earlier ones by design: those
    // waits are its bubble (detectPipelineBubble), not a straggler's.
    const std::set<std::pair<int, int>> links = pipelineLinks(session, match);
    std::map<int, TimeNs> delayOf;
    std::map<int, std::size_t> lastAt, collectives;
    for (const CollectiveInstance &c : match.instances) {
        if (isPipelineTransfer(c, links))
            continue;
        for (const CollectiveArrival &a : c.arrivals) {
            ++collectives[a.rankIndex];
            delayOf[c.lastRankIndex] += c.waitOf(a);
        }
        ++lastAt[c.lastRankIndex];
    }
    const auto worstDelay = std::max_element(delayOf.begin(), delayOf.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    if (worstDelay == delayOf.end() || worstDelay->second <= 0)
        return straggler;
    const int worstRank = worstDelay->first;
    for (const CollectiveInstance &c : match.instances) {
        if (c.lastRankIndex != worstRank || isPipelineTransfer(c, links))
            continue;
        TimeNs delay = 0;
        for (const CollectiveArrival &a : c.arrivals)
            delay += c.waitOf(a);
        const auto own =
            std::find_if(c.arrivals.begin(), c.arrivals.end(), [&](const CollectiveArrival &a) { return a.rankIndex == c.lastRankIndex; });
        straggler.finding.instances.push_back({worstRank,
                                               {c.firstArrival, c.lastArrival},
                                               own->kernel,
                                               // The waits of every other rank, added up: said so.
                                               QStringLiteral("%1 #%2 on %3: last by %4; the other %5 rank(s) waited %6 in all")
                                                   .arg(c.name)
                                                   .arg(c.sequence)
                                                   .arg(c.communicator, formatDuration(c.skew()))
                                                   .arg(c.arrivals.size() - 1)
                                                   .arg(formatDuration(delay)),
                                               delay});
    }
    // The finding costs what the rank made the others wait, once (its
    // instances' delays are that, per collective).
    straggler.costPerRank[worstRank] = worstDelay->second;
    straggler.finding.cost = worstDelay->second;
    const int rank = session.ranks()[std::size_t(worstRank)].rank;
    straggler.finding.evidence = QStringLiteral("rank %1 arrived last at %2 of %3 collectives; the other ranks waited %4 for it in all")
                                     .arg(rank)
                                     .arg(lastAt[worstRank])
                                     .arg(collectives[worstRank])
                                     .arg(formatDuration(worstDelay->second));
    // Why it was late, where every collective counted (no pipeline's left out).
    const auto wait = std::find_if(waits.begin(), waits.end(), [&](const RankWait &w) { return w.rankIndex == worstRank; });
    if (links.empty() && wait != waits.end()) {
        const double late = double(std::max<TimeNs>(wait->late, 1));
        straggler.finding.evidence +=
            QStringLiteral(". While late, its GPU was computing %1, idle with the host elsewhere %2, waiting for the launch %3")
                .arg(percentText(double(wait->lateCompute) / late), percentText(double(wait->lateIdle) / late),
                     percentText(double(wait->lateHost) / late));
    }
    return straggler;
}

DetectedFinding detectPipelineBubble(const Session &session, const DiagnosisInputs &inputs)
{
    DetectedFinding bubble(FindingKind::PipelineBubble);
    if (session.ranks().size() < 2 || !inputs.alignedMatch)
        return bubble;
    const PipelineBubbles found = pipelineBubbles(session, *inputs.alignedMatch, KernelClassifier::rankscope(), {});
    if (found.rows.empty())
        return bubble;
    TimeNs stepTime = 0;
    for (const PipelineStageStep &row : found.rows) {
        stepTime += row.window.duration();
        bubble.add({row.rankIndex, row.window, std::nullopt,
                    QStringLiteral("step %1, stage %2: computed %3 of a %4 step; bubble %5")
                        .arg(row.step)
                        .arg(row.stage)
                        .arg(formatDuration(row.busy), formatDuration(row.window.duration()), formatDuration(row.bubble())),
                    row.bubble()});
    }
    QStringList pipelines;
    for (const std::vector<int> &stages : found.pipelines) {
        QStringList ranks;
        for (const int i : stages)
            ranks << QString::number(session.ranks()[std::size_t(i)].rank);
        pipelines << ranks.join(QStringLiteral(" → "));
    }
    bubble.finding.evidence = QStringLiteral("%1 pipeline(s) found from the sends and receives (ranks by stage: %2); the stages idled %3 of "
                                             "their step time, %4 in all")
                                  .arg(found.pipelines.size())
                                  .arg(pipelines.join(QStringLiteral("; ")))
                                  .arg(percentText(double(bubble.finding.cost) / double(std::max<TimeNs>(stepTime, 1))))
                                  .arg(formatDuration(bubble.finding.cost));
    return bubble;
}

DetectedFinding detectMpiWaits(const Session &session, const DiagnosisInputs &inputs)
{
    DetectedFinding found(FindingKind::MpiWaits);
    const std::shared_ptr<const MpiMatch> shared = sharedMpiMatch(session);
    const MpiMatch &match = *shared;
    std::vector<MpiWait> waits = mpiWaits(session, match);
    // A pipeline's stages wait for each other's messages by design: those
    // waits are its bubble (detectPipelineBubble), as NCCL's are.
    if (inputs.alignedMatch) {
        const std::set<std::pair<int, int>> links = pipelineLinks(session, *inputs.alignedMatch);
        std::erase_if(waits, [&](const MpiWait &w) {
            return w.pattern != MpiWaitPattern::WaitAtCollective && links.count(std::minmax(w.waiting.rank, w.cause.rank));
        });
    }
    if (waits.empty())
        return found;
    std::map<MpiWaitPattern, TimeNs> byPattern;
    for (const MpiWait &w : waits) {
        const Report &r = *session.ranks()[std::size_t(w.waiting.rank)].report;
        const Report &peer = *session.ranks()[std::size_t(w.cause.rank)].report;
        const QString waiting = r.strings.string(session.track(w.waiting).slices.name(w.waiting.event));
        const QString late = peer.strings.string(session.track(w.cause).slices.name(w.cause.event));
        found.add({w.waiting.rank,
                   {w.start, w.start + w.wait},
                   w.waiting,
                   QStringLiteral("%1: rank %2's %3 waited %4 for rank %5's %6")
                       .arg(mpiWaitPatternName(w.pattern))
                       .arg(w.rank)
                       .arg(waiting, formatDuration(w.wait))
                       .arg(w.peer)
                       .arg(late),
                   w.wait});
        byPattern[w.pattern] += w.wait;
    }
    QStringList parts;
    for (const auto &[pattern, wait] : byPattern)
        parts << QStringLiteral("%1 %2").arg(mpiWaitPatternName(pattern), formatDuration(wait));
    found.finding.evidence = QStringLiteral("%1 waits in MPI calls: %2").arg(waits.size()).arg(parts.join(QStringLiteral(", ")));
    return found;
}

DetectedFinding detectLowUtilisation(const Session &session, const std::vector<RankLoop> &loops,
                                     const std::map<int, std::vector<Interval>> &unexplainedGaps,
                                     const std::vector<const DetectedFinding *> &explaining, const DiagnosisThresholds &th)
{
    DetectedFinding low(FindingKind::LowUtilisation);
    constexpr std::size_t kAttributedGaps = 100; // per rank: what the CPU ran, for the longest
    std::map<QString, TimeNs> attributed;        // idle time by the CPU activity in it
    for (std::size_t ri = 0; ri < loops.size(); ++ri) {
        const RankLoop &l = loops[ri];
        const TimeNs idle = l.idleTime(), busy = l.span() - idle;
        if (l.span() <= 0 || double(busy) >= th.lowUtilisationBusy * double(l.span()))
            continue;
        TimeNs explained = 0;
        for (const DetectedFinding *other : explaining)
            explained += other->costOf(int(ri));
        const TimeNs unexplained = idle - explained;
        if (double(unexplained) < th.lowUtilisationUnexplained * double(l.span()))
            continue;
        low.costPerRank[int(ri)] = unexplained;
        low.finding.cost += unexplained;
        low.finding.evidence += QStringLiteral("%1rank %2: GPU busy %3 of its span, %4 idle not explained by another finding")
                                    .arg(low.finding.evidence.isEmpty() ? QString() : QStringLiteral("; "))
                                    .arg(session.ranks()[ri].rank)
                                    .arg(percentText(double(busy) / double(l.span())), formatDuration(unexplained));
        const auto gaps = unexplainedGaps.find(int(ri));
        if (gaps == unexplainedGaps.end())
            continue;
        // What the CPU ran in each gap, as the GPU gaps panel says it (the
        // innermost NVTX range covering half of it, else the OS call
        // covering most; the training thread first), for the longest gaps.
        std::vector<Interval> longest = gaps->second;
        std::sort(longest.begin(), longest.end(), [](const Interval &a, const Interval &b) { return a.second - a.first > b.second - b.first; });
        const RankEntry &entry = session.ranks()[ri];
        const std::uint32_t pid = entry.pid ? *entry.pid : launchingProcess(*entry.report);
        for (std::size_t k = 0; k < longest.size(); ++k) {
            const Interval &g = longest[k];
            const TimeNs length = g.second - g.first;
            QString what = QStringLiteral("GPU idle %1, not while loading data").arg(formatDuration(length));
            if (k < kAttributedGaps) {
                const std::vector<CpuActivity> activity =
                    cpuActivityDuring(*entry.report, pid, g.first - entry.sessionOffset, g.second - entry.sessionOffset);
                if (const CpuActivity *main = mainActivityOf(activity)) {
                    const QString label = QStringLiteral("%1 (%2)").arg(main->name, main->source);
                    what = QStringLiteral("GPU idle %1 while the CPU runs %2, %3 of the gap")
                               .arg(formatDuration(length), label, percentText(main->share));
                    attributed[label] += length;
                }
            }
            low.finding.instances.push_back({int(ri), {g.first, g.second}, std::nullopt, std::move(what), length});
        }
    }
    // Name the cause the gaps show: what the CPU ran in most of their time.
    if (!attributed.empty() && low.finding.cost > 0) {
        std::vector<std::pair<QString, TimeNs>> byTime(attributed.begin(), attributed.end());
        std::sort(byTime.begin(), byTime.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
        QStringList parts;
        for (std::size_t i = 0; i < std::min<std::size_t>(byTime.size(), 3); ++i)
            parts << QStringLiteral("%1 %2").arg(byTime[i].first, percentText(double(byTime[i].second) / double(low.finding.cost)));
        low.finding.evidence += QStringLiteral(". The CPU meanwhile ran ") + parts.join(QStringLiteral(", ")) + QStringLiteral(" of that idle time");
        if (2 * byTime.front().second >= low.finding.cost) {
            low.finding.title = QStringLiteral("Low GPU utilisation: idle while the CPU runs %1").arg(byTime.front().first);
            low.finding.advice = QStringLiteral("The GPU waits while the CPU runs %1: see what it does there (its calls on the timeline, the "
                                                "CPU samples) and move that work off the loop, overlap it with the GPU's (a background thread, "
                                                "non_blocking copies), or give the GPU more work per launch (a larger batch, torch.compile, "
                                                "CUDA graphs).")
                                     .arg(byTime.front().first);
        }
    }
    return low;
}

} // namespace rankscope::stats
