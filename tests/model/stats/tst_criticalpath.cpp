// The critical path of a step across ranks. Planted truth first: small
// Kineto traces written here whose paths and attributions are worked out
// by hand below each trace (a launch-bound kernel, a synchronisation, a
// data-loader stall, a rank late on its GPU, a rank late on its host) and
// what-ifs solved by hand; the same shape against HTA's definition of the
// critical path; the generator's planted straggler on 4 and 64 ranks; then
// the invariants on the real traces (nsys-ai's 2-rank NCCL exports, HTA's
// 2-rank traces, the 4-rank DDP demo): segments contiguous, covering the
// step, inside their events, ranks crossed only at collectives, and every
// recorded time given back by solving the graph.
#include "analysis/analysisworkspace.h"
#include "analysisinputs.h"
#include "load/cache/indexcache.h"
#include "session/session.h"
#include "stats/criticalpath/criticalpath.h"
#include "stats/criticalpath/criticalpathgraph.h"
#include "stats/criticalpath/criticalpathtables.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/stepmatrix.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QProcess>
#include <QtTest>
#include <set>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

constexpr long long kBase = 1790857026000000000LL;
constexpr TimeNs us = 1000;

// A Kineto trace of one rank, built event by event; times in µs. Every
// rank has a 1 µs op at 0, so all ranks' session times start together.
class KinetoTrace {
public:
    explicit KinetoTrace(int rank, int ranks) : m_rank(rank), m_ranks(ranks) { cpu("cpu_op", "init", 0, 1); }

    void cpu(const char *category, const QString &name, double ts, double dur, int tid = 100)
    {
        add(QStringLiteral(R"({"ph": "X", "cat": "%1", "name": "%2", "pid": 100, "tid": %3, "ts": %4, "dur": %5, "args": {}})")
                .arg(QLatin1String(category), name)
                .arg(tid)
                .arg(ts, 0, 'f', 1)
                .arg(dur, 0, 'f', 1));
    }
    void step(int n, double ts, double dur) { cpu("user_annotation", QStringLiteral("ProfilerStep#%1").arg(n), ts, dur); }
    void runtime(const QString &name, double ts, double dur, int correlation = 0, int tid = 100)
    {
        add(QStringLiteral(
                R"({"ph": "X", "cat": "cuda_runtime", "name": "%1", "pid": 100, "tid": %2, "ts": %3, "dur": %4, "args": {"correlation": %5}})")
                .arg(name)
                .arg(tid)
                .arg(ts, 0, 'f', 1)
                .arg(dur, 0, 'f', 1)
                .arg(correlation));
    }
    void kernel(const QString &name, int stream, double ts, double dur, int correlation)
    {
        add(QStringLiteral(
                R"({"ph": "X", "cat": "kernel", "name": "%1", "pid": 0, "tid": %2, "ts": %3, "dur": %4, "args": {"correlation": %5, "device": 0, "stream": %2}})")
                .arg(name)
                .arg(stream)
                .arg(ts, 0, 'f', 1)
                .arg(dur, 0, 'f', 1)
                .arg(correlation));
    }
    // A cudaStreamWaitEvent's record on the GPU: `stream` waits for what
    // was queued on `waitOn` before the cudaEventRecord call `record`
    // (PyTorch >= 2.4 writes both; record 0: an older trace, which does not).
    void streamWait(int stream, double ts, int correlation, int waitOn, int record)
    {
        const QString waited =
            record ? QStringLiteral(R"(, "wait_on_stream": %1, "wait_on_cuda_event_record_corr_id": %2)").arg(waitOn).arg(record) : QString();
        add(QStringLiteral(R"({"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": %1, "ts": %2, "dur": 0,
  "args": {"cuda_sync_kind": "Stream Wait Event", "device": 0, "stream": %1, "correlation": %3%4}})")
                .arg(stream)
                .arg(ts, 0, 'f', 1)
                .arg(correlation)
                .arg(waited));
    }
    // An all-reduce on stream 20, the `sequence`-th of process group "0".
    void allReduce(double ts, double dur, int correlation, int sequence)
    {
        add(QStringLiteral(
                R"({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 20, "ts": %1, "dur": %2,
  "args": {"correlation": %3, "device": 0, "stream": 20, "Collective name": "allreduce", "dtype": "Float", "In msg nelems": 262144, "Out msg nelems": 262144,
           "Group size": %4, "Process Group Name": "0", "Process Group Ranks": "[0, 1]", "Seq": %5, "Rank": %6}})")
                .arg(ts, 0, 'f', 1)
                .arg(dur, 0, 'f', 1)
                .arg(correlation)
                .arg(m_ranks)
                .arg(sequence)
                .arg(m_rank));
    }
    QString write(const QString &dir) const
    {
        const QString path = QStringLiteral("%1/rank%2.json").arg(dir).arg(m_rank);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(
            QStringLiteral(R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": %1, "world_size": %2}, "baseTimeNanoseconds": %3,
 "traceEvents": [%4]})")
                .arg(m_rank)
                .arg(m_ranks)
                .arg(kBase)
                .arg(m_events.join(QStringLiteral(",\n")))
                .toUtf8());
        return path;
    }

private:
    void add(const QString &e) { m_events << e; }
    int m_rank, m_ranks;
    QStringList m_events;
};

// A segment as the tests write it: rank number, kind, name, start and end in µs from the session's start.
struct Expected {
    int rank;
    PathKind kind;
    QString name;
    TimeNs start, end;
};

void compareSegments(const Session &session, const StepCriticalPath &path, const std::vector<Expected> &expected)
{
    const TimeNs zero = session.extent().start;
    QStringList got, want;
    for (const PathSegment &s : path.segments)
        got << QStringLiteral("r%1 %2 %3 [%4, %5]")
                   .arg(session.ranks()[std::size_t(s.rankIndex)].rank)
                   .arg(pathKindName(s.kind), segmentName(session, s))
                   .arg(double(s.start - zero) / us)
                   .arg(double(s.end - zero) / us);
    for (const Expected &e : expected)
        want << QStringLiteral("r%1 %2 %3 [%4, %5]").arg(e.rank).arg(pathKindName(e.kind), e.name).arg(e.start).arg(e.end);
    QCOMPARE(got.join(QStringLiteral(" | ")), want.join(QStringLiteral(" | ")));
}

TimeNs kindTime(const StepCriticalPath &path, PathKind kind)
{
    return path.timeByKind()[std::size_t(kind)];
}

// What every path must be, whatever the trace: contiguous segments that
// cover its window, each inside the event it is named after (on the
// match's clock: the check the audit's 8-rank trace failed for 269 of
// 1,258 segments), changing rank only where a collective's kernel is
// reached from the rank that arrived last.
void checkPathShape(const Session &session, const StepCriticalPath &path)
{
    QVERIFY(!path.segments.empty());
    QCOMPARE(path.segments.front().start, path.window.start);
    QCOMPARE(path.segments.back().end, path.window.end);
    TimeNs total = 0;
    for (std::size_t i = 0; i < path.segments.size(); ++i) {
        const PathSegment &s = path.segments[i];
        QVERIFY2(s.start < s.end, qPrintable(QStringLiteral("segment %1 is empty").arg(i)));
        total += s.duration();
        if (i > 0) {
            const PathSegment &before = path.segments[i - 1];
            QCOMPARE(s.start, before.end);
            if (s.rankIndex != before.rankIndex) {
                QCOMPARE(s.kind, PathKind::Communication);
                QCOMPARE(s.fromRankIndex, before.rankIndex);
            }
        }
        if (!s.event.isValid())
            continue;
        QCOMPARE(s.event.rank, s.rankIndex);
        const TimeRange recorded = session.sessionTime(s.event);
        const TimeNs shift = path.shiftOf(s.rankIndex);
        const TimeRange event{recorded.start + shift, recorded.end + shift};
        // Inside the event it is named after, on its rank: the time a
        // launch, a stream's gap or a wake-up spends outside any event is
        // a segment of its own, unnamed.
        QVERIFY2(s.start >= event.start && s.end <= event.end, qPrintable(QStringLiteral("segment %1 (%2, %3) [%4, %5] outside its event [%6, %7]")
                                                                              .arg(i)
                                                                              .arg(pathKindName(s.kind), segmentName(session, s))
                                                                              .arg(s.start)
                                                                              .arg(s.end)
                                                                              .arg(event.start)
                                                                              .arg(event.end)));
    }
    QCOMPARE(total, path.length());
}

} // namespace

class TestCriticalPath : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString freshDir(const QString &name)
    {
        const QString dir = m_dir.filePath(name);
        QDir().mkpath(dir);
        return dir;
    }

    std::vector<StepCriticalPath> pathsOf(const Session &session, const CriticalPathOptions &options = {})
    {
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        return criticalPaths(session, match, KernelClassifier::rankscope(), options);
    }

    // One rank, two steps.
    // Step 1 [10, 200]: a launch at 20 (10 µs) whose kernel K1 runs 35-85
    // (launch-bound: 15 µs from the call's start); a launch at 40 whose K2
    // is queued behind K1 (85-135); cudaDeviceSynchronize 50-140 waits for
    // K2; "optimizer" 145-195 on the host. Path back from the step's end:
    // idle 195-200 (the step's own time), optimizer 145-195, idle 140-145,
    // sync 135-140 (the call returning after K2), K2 85-135, K1 35-85,
    // launch 20-35, idle 10-20.
    // Step 2 [300, 500]: the data loader's __next__ 300-400 (a pin_memory
    // op inside it is the loader's time too), a launch at
    // 400 (5 µs) of K3 (410-460), cudaStreamSynchronize 406-470. Path:
    // data loading (idle) 300-400, launch 400-410, K3, sync 460-470, idle
    // 470-500.
    Session oneRank()
    {
        KinetoTrace t(0, 1);
        t.step(1, 10, 190);
        t.runtime(QStringLiteral("cudaLaunchKernel"), 20, 10, 1);
        t.kernel(QStringLiteral("K1"), 7, 35, 50, 1);
        t.runtime(QStringLiteral("cudaLaunchKernel"), 40, 5, 2);
        t.kernel(QStringLiteral("K2"), 7, 85, 50, 2);
        t.runtime(QStringLiteral("cudaDeviceSynchronize"), 50, 90);
        t.cpu("cpu_op", QStringLiteral("optimizer"), 145, 50);
        t.step(2, 300, 200);
        t.cpu("cpu_op", QStringLiteral("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"), 300, 100);
        t.cpu("cpu_op", QStringLiteral("aten::pin_memory"), 320, 20); // inside the loader: input, not compute
        t.runtime(QStringLiteral("cudaLaunchKernel"), 400, 5, 3);
        t.kernel(QStringLiteral("K3"), 7, 410, 50, 3);
        t.runtime(QStringLiteral("cudaStreamSynchronize"), 406, 64);
        return Session::load({t.write(freshDir(QStringLiteral("one")))});
    }

    // Two ranks, one step [10, 300] each: a kernel launched at 20 (5 µs)
    // that starts at 30, an all-reduce launched at 30 that starts when the
    // kernel ends, a cudaStreamSynchronize 40-205 waiting for it. Rank 1's
    // kernel (compute-late) runs 30-180, rank 0's 30-80; the all-reduce
    // ends at 200 on both. So rank 1 arrives last at 180, and the path
    // back from rank 0's step end is: idle 205-300, sync 200-205, the
    // all-reduce on rank 0 from rank 1's arrival 180-200, then on rank 1:
    // its kernel 30-180, launch 20-30, idle 10-20.
    // Host-late: rank 1 instead runs "preprocess" 10-150 on its host, then
    // launches at 150 its kernel (160-210) and the all-reduce (210-240);
    // rank 0's all-reduce runs 80-240.
    Session twoRanks(bool hostLate)
    {
        QStringList files;
        const QString dir = freshDir(hostLate ? QStringLiteral("host-late") : QStringLiteral("compute-late"));
        for (int rank = 0; rank < 2; ++rank) {
            KinetoTrace t(rank, 2);
            t.step(1, 10, 290);
            const bool late = rank == 1;
            const double launch = late && hostLate ? 150 : 20;
            if (late && hostLate)
                t.cpu("cpu_op", QStringLiteral("preprocess"), 10, 140);
            t.runtime(QStringLiteral("cudaLaunchKernel"), launch, 5, 1);
            const double kernelStart = launch + 10, kernelEnd = late ? (hostLate ? 210 : 180) : 80;
            t.kernel(QStringLiteral("gemm"), 7, kernelStart, kernelEnd - kernelStart, 1);
            t.runtime(QStringLiteral("cudaLaunchKernel"), launch + 10, 5, 2);
            const double end = hostLate ? 240 : 200;
            t.allReduce(kernelEnd, end - kernelEnd, 2, 0);
            t.runtime(QStringLiteral("cudaStreamSynchronize"), launch + 20, end + 5 - (launch + 20));
            files << t.write(dir);
        }
        return Session::load(files);
    }

private slots:
    void launchSyncAndIdle()
    {
        const Session session = oneRank();
        QVERIFY(session.failures().empty());
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QCOMPARE(paths.size(), std::size_t(2));
        compareSegments(session, paths[0],
                        {{0, PathKind::Idle, QStringLiteral("ProfilerStep#1"), 10, 20},
                         {0, PathKind::Launch, QStringLiteral("cudaLaunchKernel"), 20, 30},
                         {0, PathKind::Launch, QString(), 30, 35}, // after the call returned: the launch's latency
                         {0, PathKind::Kernel, QStringLiteral("K1"), 35, 85},
                         {0, PathKind::Kernel, QStringLiteral("K2"), 85, 135},
                         {0, PathKind::Sync, QStringLiteral("cudaDeviceSynchronize"), 135, 140},
                         {0, PathKind::Idle, QStringLiteral("ProfilerStep#1"), 140, 145},
                         {0, PathKind::Cpu, QStringLiteral("optimizer"), 145, 195},
                         {0, PathKind::Idle, QStringLiteral("ProfilerStep#1"), 195, 200}});
        QCOMPARE(paths[0].length(), 190 * us);
        QCOMPARE(kindTime(paths[0], PathKind::Kernel), 100 * us);
        QCOMPARE(kindTime(paths[0], PathKind::Launch), 15 * us);
        QCOMPARE(kindTime(paths[0], PathKind::Idle), 20 * us);
        compareSegments(session, paths[1],
                        {{0, PathKind::Idle, QStringLiteral("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"), 300, 400},
                         {0, PathKind::Launch, QStringLiteral("cudaLaunchKernel"), 400, 405},
                         {0, PathKind::Launch, QString(), 405, 410},
                         {0, PathKind::Kernel, QStringLiteral("K3"), 410, 460},
                         {0, PathKind::Sync, QStringLiteral("cudaStreamSynchronize"), 460, 470},
                         {0, PathKind::Idle, QStringLiteral("ProfilerStep#2"), 470, 500}});
        for (const StepCriticalPath &p : paths)
            checkPathShape(session, p);
    }

    // A host running ahead of its GPU: step 1's host part is 10-20, its
    // kernel K1 runs 100-200; step 2's host part is 20-30 and its K2 is
    // queued behind K1, 200-300. Step 2 starts when step 1 ended (its GPU
    // work, at 200), not at its annotation: its path is K2 alone, 100 µs,
    // not the 280 µs since its annotation began.
    void hostRunsAhead()
    {
        KinetoTrace t(0, 1);
        t.step(1, 10, 10);
        t.runtime(QStringLiteral("cudaLaunchKernel"), 10, 2, 1);
        t.kernel(QStringLiteral("K1"), 7, 100, 100, 1);
        t.step(2, 20, 10);
        t.runtime(QStringLiteral("cudaLaunchKernel"), 20, 2, 2);
        t.kernel(QStringLiteral("K2"), 7, 200, 100, 2);
        const Session session = Session::load({t.write(freshDir(QStringLiteral("ahead")))});
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QCOMPARE(paths.size(), std::size_t(2));
        compareSegments(session, paths[0],
                        {{0, PathKind::Launch, QStringLiteral("cudaLaunchKernel"), 10, 12},
                         {0, PathKind::Launch, QString(), 12, 100},
                         {0, PathKind::Kernel, QStringLiteral("K1"), 100, 200}});
        compareSegments(session, paths[1], {{0, PathKind::Kernel, QStringLiteral("K2"), 200, 300}});
        for (const StepCriticalPath &p : paths)
            checkPathShape(session, p);
    }

    // Stream 20's kernel B waits for stream 7's A (cudaEventRecord on 7
    // after A was queued, cudaStreamWaitEvent on 20 before B): B starts
    // 50 µs after A ends, later than the 10 µs the path guesses a stream
    // wait from when the trace records none. Stream 9's C ends after A,
    // 15 µs before B, and is not what B waited for. With the wait and its
    // record in the trace, B's start is A's end: A is on the path, C not.
    // With a wait but no record of what it waited for, the latest other
    // stream's op (C). With no synchronisation recorded at all, the guess:
    // neither is within 10 µs, B's launch explains its start.
    void recordedStreamWaits_data()
    {
        QTest::addColumn<int>("recorded"); // 2: wait and record, 1: the wait alone, 0: nothing
        QTest::addColumn<QString>("awaited");
        QTest::newRow("wait and record") << 2 << QStringLiteral("A");
        QTest::newRow("wait alone") << 1 << QStringLiteral("C");
        QTest::newRow("nothing recorded") << 0 << QString();
    }
    void recordedStreamWaits()
    {
        QFETCH(int, recorded);
        QFETCH(QString, awaited);
        KinetoTrace t(0, 1);
        t.step(1, 10, 390);
        t.runtime(QStringLiteral("cudaLaunchKernel"), 20, 2, 1);
        t.kernel(QStringLiteral("A"), 7, 30, 200, 1);
        t.runtime(QStringLiteral("cudaLaunchKernel"), 23, 1, 2);
        t.kernel(QStringLiteral("C"), 9, 40, 225, 2);
        t.runtime(QStringLiteral("cudaEventRecord"), 25, 1, 3);
        t.runtime(QStringLiteral("cudaStreamWaitEvent"), 27, 1, 4);
        if (recorded)
            t.streamWait(20, 27, 4, 7, recorded == 2 ? 3 : 0);
        t.runtime(QStringLiteral("cudaLaunchKernel"), 30, 2, 5);
        t.kernel(QStringLiteral("B"), 20, 280, 50, 5);
        t.runtime(QStringLiteral("cudaDeviceSynchronize"), 35, 300, 6);
        const Session session = Session::load({t.write(freshDir(QStringLiteral("streamwait%1").arg(recorded)))});
        QVERIFY(session.failures().empty());
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QCOMPARE(paths.size(), std::size_t(1));
        checkPathShape(session, paths[0]);
        QStringList kernels;
        TimeNs bStart = 0;
        for (const PathSegment &segment : paths[0].segments)
            if (segment.kind == PathKind::Kernel) {
                kernels << segmentName(session, segment);
                if (kernels.last() == QLatin1String("B"))
                    bStart = segment.start;
            }
        QCOMPARE(kernels.join(QLatin1Char(',')), awaited.isEmpty() ? QStringLiteral("B") : awaited + QStringLiteral(",B"));
        // Between the awaited kernel's end and B's start: the wait, unnamed.
        const auto before = std::find_if(paths[0].segments.begin(), paths[0].segments.end(), [&](const PathSegment &s) { return s.end == bStart; });
        QVERIFY(before != paths[0].segments.end());
        QCOMPARE(pathKindName(before->kind), pathKindName(awaited.isEmpty() ? PathKind::Launch : PathKind::Sync));
        QCOMPARE(before->start - session.extent().start, (awaited == QLatin1String("A") ? 230 : awaited == QLatin1String("C") ? 265 : 32) * us);
    }

    // The audit's 8-rank DLRM step, in small: inside the DataLoader's
    // __next__ an op (aten::set_) ends before the range does, and ops of
    // 0 µs (PyTorch rounds short ops to 0) and 1 µs cudaEventQuery calls
    // stand between the host's ops. The host time after the loader is the
    // enclosing "## copy_batch_to_gpu ##" range's, the gaps between the
    // queries are "## forward ##"'s, and no 0 µs op stays open to take the
    // time after it (which named 72 % of the real path's CPU time after
    // calls that had ended, and put cudaEventQuery 92x too high in the
    // top events).
    void hostTimeBetweenCallsIsTheEnclosingRanges()
    {
        KinetoTrace t(0, 1);
        t.step(1, 10, 990);
        t.cpu("user_annotation", QStringLiteral("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"), 20, 200);
        t.cpu("cpu_op", QStringLiteral("aten::set_"), 30, 50); // ends at 80, the loader at 220
        t.cpu("cpu_op", QStringLiteral("aten::empty"), 100, 0);
        t.cpu("user_annotation", QStringLiteral("## copy_batch_to_gpu ##"), 220, 300);
        t.cpu("cpu_op", QStringLiteral("aten::to"), 300, 0); // 0 µs, then the range's own time to 520
        t.cpu("user_annotation", QStringLiteral("## forward ##"), 520, 470);
        for (int q = 0; q < 8; ++q) // 1 µs each, 50 µs apart; one of 0 µs
            t.runtime(QStringLiteral("cudaEventQuery"), 530 + 50 * q, q == 3 ? 0 : 1);
        const Session session = Session::load({t.write(freshDir(QStringLiteral("between")))});
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QCOMPARE(paths.size(), std::size_t(1));
        checkPathShape(session, paths[0]);
        const auto nameAt = [&](double us) {
            const TimeNs at = session.extent().start + TimeNs(us * 1000);
            for (const PathSegment &seg : paths[0].segments)
                if (seg.start <= at && at < seg.end)
                    return segmentName(session, seg);
            return QStringLiteral("(none)");
        };
        QCOMPARE(nameAt(100), QStringLiteral("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"));
        QCOMPARE(nameAt(230), QStringLiteral("## copy_batch_to_gpu ##"));
        QCOMPARE(nameAt(400), QStringLiteral("## copy_batch_to_gpu ##")); // after the 0 µs aten::to
        QCOMPARE(nameAt(560), QStringLiteral("## forward ##"));
        QCOMPARE(nameAt(700), QStringLiteral("## forward ##")); // after the 0 µs query
        QCOMPARE(nameAt(980), QStringLiteral("## forward ##"));
        // The top events add up the segments per name: the queries' 7 µs.
        const std::vector<PathName> top = topPathNames(session, paths[0], 20);
        TimeNs queries = 0, forward = 0;
        for (const PathName &n : top) {
            if (n.name == QLatin1String("cudaEventQuery"))
                queries = n.time;
            if (n.name == QLatin1String("## forward ##"))
                forward = n.time;
        }
        QCOMPARE(queries, 7 * us);
        QCOMPARE(forward, 470 * us - 7 * us);
        TimeNs named = 0;
        for (const PathName &n : top)
            named += n.time;
        TimeNs segmentsNamed = 0;
        for (const PathSegment &seg : paths[0].segments)
            segmentsNamed += seg.event.isValid() ? seg.duration() : 0;
        QCOMPARE(named, segmentsNamed);
    }

    // Steps solved one at a time, in any order (a viewer solving the step
    // it shows first), are the full solve's, byte for byte.
    void stepsSolvedOneAtATimeAreTheFullSolve()
    {
        for (const QString &file : {dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite")),
                                    dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"))}) {
            const Session s = Session::load({file});
            const CollectiveMatch match = matchCollectives(s, KernelClassifier::rankscope());
            const std::vector<StepCriticalPath> full = criticalPaths(s, match, KernelClassifier::rankscope());
            const CriticalPathSteps steps(s, match, {});
            QCOMPARE(steps.size(), full.size());
            QVERIFY(!full.empty());
            const PathNameClasses names(s, KernelClassifier::rankscope());
            std::vector<StepCriticalPath> oneAtATime(full.size());
            for (std::size_t k = full.size(); k-- > 0;) // the last step first
                oneAtATime[k] = solveCriticalPath(s, match, names, {}, steps.window(k));
            QCOMPARE(criticalPathTable(s, oneAtATime).toCsv(), criticalPathTable(s, full).toCsv());
            QCOMPARE(criticalPathSummaryTable(s, oneAtATime).toCsv(), criticalPathSummaryTable(s, full).toCsv());

            // Through the workspace, as the panel asks: the shown step's
            // path first, the others' summaries after, in any order; one
            // set of solutions per clock and options, kept.
            const AnalysisWorkspace workspace(std::make_shared<const Session>(Session::load({file})), {});
            const auto solutions = workspace.criticalPathSolutions(MatchClock::Recorded, {});
            QCOMPARE(workspace.criticalPathSolutions(MatchClock::Recorded, {}), solutions);
            QCOMPARE(solutions->size(), full.size());
            const std::size_t shown = full.size() / 2;
            QVERIFY(!solutions->solvedSummary(shown));
            const auto path = solutions->path(shown);
            QCOMPARE(solutions->path(shown), path); // kept, not solved again
            QVERIFY(solutions->solvedSummary(shown));
            QCOMPARE(criticalPathTable(*workspace.session(), {*path}).toCsv(), criticalPathTable(s, {full[shown]}).toCsv());
            std::vector<StepPathSummary> summaries(full.size());
            for (std::size_t k = full.size(); k-- > 0;)
                summaries[k] = solutions->summary(k, k % 2 ? RankPages::Keep : RankPages::ReleaseEachRank);
            QCOMPARE(criticalPathSummaryTable(*workspace.session(), summaries).toCsv(), criticalPathSummaryTable(s, full).toCsv());
            // Steps the panel has not solved yet: their numbers alone.
            std::vector<StepPathSummary> partly = summaries;
            partly.back() = StepPathSummary{};
            partly.back().step = summaries.back().step;
            const ResultTable table = criticalPathSummaryTable(*workspace.session(), partly);
            QCOMPARE(table.rowCount(), full.size());
            QCOMPARE(table.cell(table.rowCount() - 1, 0).integer, std::int64_t(summaries.back().step));
            QCOMPARE(table.cell(table.rowCount() - 1, 1).type, Cell::Type::Empty);
        }
    }

    // 200,000 ranges nested in one another inside a step: the graph keeps
    // what holds over the open ranges as it goes, so each boundary costs
    // O(1) (the audit's 80,000 nested ranges took 5 s, a million over
    // 300 s). The host time between the innermost range's end and its
    // parent's is the parent's own.
    void deeplyNestedRangesAreLinear()
    {
        KinetoTrace t(0, 1);
        constexpr int kDepth = 200'000;
        t.step(1, 10, 500'000);
        for (int d = 0; d < kDepth; ++d) // range d spans [20 + d, 20 + 2 * kDepth - d) µs
            t.cpu("user_annotation", QStringLiteral("level%1").arg(d), 20 + d, 2.0 * kDepth - 2.0 * d);
        const Session session = Session::load({t.write(freshDir(QStringLiteral("nested")))});
        QCOMPARE(session.ranks()[0].report->eventCount(TrackKind::CpuOp), std::size_t(kDepth + 2));
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QCOMPARE(paths.size(), std::size_t(1));
        checkPathShape(session, paths[0]);
        QVERIFY(paths[0].segments.size() >= std::size_t(2 * kDepth)); // each level's time before and after its child
        // The innermost range's own time, then each parent's after it.
        const auto at = [&](TimeNs us) {
            for (const PathSegment &seg : paths[0].segments)
                if (seg.start <= session.extent().start + us * 1000 && seg.end > session.extent().start + us * 1000)
                    return segmentName(session, seg);
            return QString();
        };
        QCOMPARE(at(20 + kDepth - 1), QStringLiteral("level%1").arg(kDepth - 1));
        QCOMPARE(at(20 + kDepth + 1), QStringLiteral("level%1").arg(kDepth - 2));
        QCOMPARE(at(20 + 2 * kDepth - 1), QStringLiteral("level0"));
    }

    // One thread waits for another: the main thread's "backward" scope
    // (10-290) holds nothing of its own; the autograd thread runs bw_op
    // 20-250. The scope ends 40 µs after bw_op (within 50 µs, after at
    // least 100 µs blocked): bw_op woke it. Path: idle 10-20 (nothing on
    // the autograd thread before bw_op), bw_op, the wake-up 250-290
    // (sync, on the blocked scope), the step's own 290-300.
    void threadWakeUp()
    {
        KinetoTrace t(0, 1);
        t.step(1, 10, 290);
        t.cpu("user_annotation", QStringLiteral("backward"), 10, 280);
        t.cpu("cpu_op", QStringLiteral("bw_op"), 20, 230, 200);
        const Session session = Session::load({t.write(freshDir(QStringLiteral("wake")))});
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QCOMPARE(paths.size(), std::size_t(1));
        compareSegments(session, paths[0],
                        {{0, PathKind::Idle, QString(), 10, 20},
                         {0, PathKind::Cpu, QStringLiteral("bw_op"), 20, 250},
                         {0, PathKind::Sync, QStringLiteral("backward"), 250, 290},
                         {0, PathKind::Idle, QStringLiteral("ProfilerStep#1"), 290, 300}});
        checkPathShape(session, paths[0]);
    }

    // HTA's critical path of the same shape (CriticalPathAnalysis: an edge
    // per op's span and between nested ops, a launch edge from the call's
    // start to the kernel's start, a kernel-kernel edge on a stream, a
    // zero-weight edge from a kernel's end to the synchronising call's end
    // and a zero weight into a blocking call's end; the path is the
    // longest): through the first launch, K1, K2, the device
    // synchronisation and the optimizer, 185 µs of edges against the 100
    // of the host-only route. Its events are this path's events.
    void matchesHtaDefinitionOnOneRank()
    {
        const Session session = oneRank();
        CriticalPathOptions options;
        options.step = 0;
        const std::vector<StepCriticalPath> paths = pathsOf(session, options);
        QCOMPARE(paths.size(), std::size_t(1));
        QStringList events;
        for (const PathSegment &s : paths[0].segments)
            if (s.kind != PathKind::Idle && s.event.isValid() && !events.contains(segmentName(session, s)))
                events << segmentName(session, s);
        QCOMPARE(events, (QStringList{QStringLiteral("cudaLaunchKernel"), QStringLiteral("K1"), QStringLiteral("K2"),
                                      QStringLiteral("cudaDeviceSynchronize"), QStringLiteral("optimizer")}));
        // Exactly one launch call is on it (the first; the second was queued).
        int launches = 0;
        for (const PathSegment &s : paths[0].segments)
            launches += s.kind == PathKind::Launch && s.event.isValid();
        QCOMPARE(launches, 1);
    }

    // Solved by hand over the step-1 graph:
    // K2 at half: K2 85-110, the sync returns at 115, the optimizer runs
    // 120-170, the step ends at 175: 165 µs.
    // The optimizer at half (an NVTX/CPU-op range): 190 - 25 = 165.
    // K1 at half: K1 35-60; K2 was queued (launched at 40), so it starts
    // at 60 and the rest moves by 25: 165.
    // K1 and K2 at a tenth: K1 35-40, K2 40-45 (after K1 and its launch at
    // 40); the call ends 5 µs after K2, at 50, when the thread has just
    // reached it; then 5 idle, the optimizer's 50, 5 idle: the step ends
    // at 110, 100 µs.
    // Rank 0 twice as slow (its kernels and CPU ops, not launches or idle
    // time): K1 35-135, K2 135-235, the call ends at 240, the optimizer
    // takes 100: the step ends at 350, 340 µs.
    void whatIfSolvedByHand_data()
    {
        QTest::addColumn<QStringList>("whatIfs");
        QTest::addColumn<qint64>("length");
        QTest::newRow("K2 at half") << QStringList{QStringLiteral("kernel:^K2$=0.5")} << qint64(165 * us);
        QTest::newRow("optimizer at half") << QStringList{QStringLiteral("nvtx:optimizer=0.5")} << qint64(165 * us);
        QTest::newRow("K1 at half") << QStringList{QStringLiteral("kernel:K1=0.5")} << qint64(165 * us);
        QTest::newRow("both kernels at a tenth") << QStringList{QStringLiteral("kernel:K[12]=0.1")} << qint64(100 * us);
        QTest::newRow("rank 0 twice as slow") << QStringList{QStringLiteral("rank:0=2")} << qint64(340 * us);
        QTest::newRow("nothing matches") << QStringList{QStringLiteral("kernel:nccl=0.5")} << qint64(190 * us);
    }
    void whatIfSolvedByHand()
    {
        QFETCH(QStringList, whatIfs);
        QFETCH(qint64, length);
        const Session session = oneRank();
        CriticalPathOptions options;
        options.step = 0;
        for (const QString &text : whatIfs) {
            QString error;
            const std::optional<WhatIf> w = parseWhatIf(text, &error);
            QVERIFY2(w, qPrintable(error));
            options.whatIfs.push_back(*w);
        }
        const std::vector<StepCriticalPath> paths = pathsOf(session, options);
        QCOMPARE(paths.size(), std::size_t(1));
        QVERIFY(paths[0].whatIfLength);
        QCOMPARE(*paths[0].whatIfLength, length);
        QCOMPARE(paths[0].length(), 190 * us); // the path itself is the recorded one
    }

    void whatIfParsing()
    {
        QString error;
        QVERIFY(!parseWhatIf(QStringLiteral("kernel:gemm"), &error));
        QVERIFY(error.contains(QStringLiteral("kernel:gemm")));
        QVERIFY(!parseWhatIf(QStringLiteral("kernel:(=0.5"), &error));
        QVERIFY(!parseWhatIf(QStringLiteral("stream:7=0.5"), &error));
        QVERIFY(!parseWhatIf(QStringLiteral("rank:x=0.5"), &error));
        QVERIFY(!parseWhatIf(QStringLiteral("kernel:gemm=-1"), &error));
        const std::optional<WhatIf> w = parseWhatIf(QStringLiteral("kernel:a=b=0.25"));
        QVERIFY(w);
        QCOMPARE(w->pattern.pattern(), QStringLiteral("a=b"));
        QCOMPARE(w->factor, 0.25);
        QCOMPARE(parseWhatIf(QStringLiteral("rank:3=0.9"))->rank, 3);
    }

    void computeLateRank()
    {
        const Session session = twoRanks(false);
        QCOMPARE(session.ranks().size(), std::size_t(2));
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QCOMPARE(paths.size(), std::size_t(1));
        const StepCriticalPath &p = paths[0];
        compareSegments(session, p,
                        {{1, PathKind::Idle, QStringLiteral("ProfilerStep#1"), 10, 20},
                         {1, PathKind::Launch, QStringLiteral("cudaLaunchKernel"), 20, 25},
                         {1, PathKind::Launch, QString(), 25, 30},
                         {1, PathKind::Kernel, QStringLiteral("gemm"), 30, 180},
                         {0, PathKind::Communication, QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), 180, 200},
                         {0, PathKind::Sync, QStringLiteral("cudaStreamSynchronize"), 200, 205},
                         {0, PathKind::Idle, QStringLiteral("ProfilerStep#1"), 205, 300}});
        QCOMPARE(p.segments[4].fromRankIndex, 1);
        QCOMPARE(p.segments[4].crossedWait, 100 * us); // rank 0 was there at 80, rank 1 at 180
        QCOMPARE(p.endRankIndex, 0);
        checkPathShape(session, p);

        // Rank 1 twice as fast: its kernel ends at 105, the all-reduce
        // (rank 0 there since 80) at 125, the syncs at 130, the steps 95
        // later: 225, so 215 µs from the start at 10.
        CriticalPathOptions options;
        options.whatIfs.push_back(*parseWhatIf(QStringLiteral("rank:1=0.5")));
        QCOMPARE(*pathsOf(session, options)[0].whatIfLength, 215 * us);
        // Rank 0 twice as fast changes nothing: it waited anyway.
        options.whatIfs = {*parseWhatIf(QStringLiteral("rank:0=0.5"))};
        QCOMPARE(*pathsOf(session, options)[0].whatIfLength, 290 * us);
        // The gemm a tenth of its time everywhere: rank 1's ends at 45,
        // rank 0's at 35; the all-reduce ends at 65, the syncs at 70, the
        // steps at 165: 155 µs.
        options.whatIfs = {*parseWhatIf(QStringLiteral("kernel:gemm=0.1"))};
        QCOMPARE(*pathsOf(session, options)[0].whatIfLength, 155 * us);
    }

    void hostLateRank()
    {
        const Session session = twoRanks(true);
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QCOMPARE(paths.size(), std::size_t(1));
        compareSegments(session, paths[0],
                        {{1, PathKind::Cpu, QStringLiteral("preprocess"), 10, 150},
                         {1, PathKind::Launch, QStringLiteral("cudaLaunchKernel"), 150, 155},
                         {1, PathKind::Launch, QString(), 155, 160},
                         {1, PathKind::Kernel, QStringLiteral("gemm"), 160, 210},
                         {0, PathKind::Communication, QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), 210, 240},
                         {0, PathKind::Sync, QStringLiteral("cudaStreamSynchronize"), 240, 245},
                         {0, PathKind::Idle, QStringLiteral("ProfilerStep#1"), 245, 300}});
        // The tables: one row per segment, times from the session's start.
        const ResultTable table = criticalPathTable(session, paths);
        QCOMPARE(table.headers,
                 (QStringList{QStringLiteral("Step"), QStringLiteral("Segment"), QStringLiteral("Rank"), QStringLiteral("Kind"),
                              QStringLiteral("Name"), QStringLiteral("Start (ns)"), QStringLiteral("End (ns)"), QStringLiteral("Duration (ns)")}));
        QCOMPARE(table.rowCount(), std::size_t(7));
        QCOMPARE(table.cell(0, 3).text, QStringLiteral("cpu"));
        QCOMPARE(table.cell(0, 5).integer, 10 * us);
        QCOMPARE(table.cell(6, 6).integer, 300 * us);
        const ResultTable summary = criticalPathSummaryTable(session, paths);
        QCOMPARE(summary.rowCount(), std::size_t(1));
        const auto column = [&](const QString &h) { return int(summary.headers.indexOf(h)); };
        QCOMPARE(summary.cell(0, column(QStringLiteral("Duration (ns)"))).integer, 290 * us);
        QCOMPARE(summary.cell(0, column(QStringLiteral("cpu (ns)"))).integer, 140 * us);
        QCOMPARE(summary.cell(0, column(QStringLiteral("Rank 1 (ns)"))).integer, 200 * us);
        QCOMPARE(summary.cell(0, column(QStringLiteral("Rank 0 (ns)"))).integer, 90 * us);
        QVERIFY(summary.cell(0, column(QStringLiteral("Top Names"))).text.startsWith(QStringLiteral("preprocess (cpu): 140000 ns")));
        QCOMPARE(summary.cell(0, column(QStringLiteral("Waits Crossed"))).text, QStringLiteral("rank 0 waited 130000 ns for rank 1"));
    }

    // Two runs compared side by side: each run's steps over its own ranks.
    void comparisonKeepsTheRunsApart()
    {
        const Session a = twoRanks(false), b = twoRanks(true);
        const Session both = Session::comparison(a, b);
        const std::vector<StepCriticalPath> paths = pathsOf(both);
        QCOMPARE(paths.size(), std::size_t(2));
        QCOMPARE(paths[0].side, RunSide::A);
        QCOMPARE(paths[1].side, RunSide::B);
        const StepCriticalPath alone[] = {pathsOf(a).at(0), pathsOf(b).at(0)};
        for (int run = 0; run < 2; ++run) {
            QCOMPARE(paths[std::size_t(run)].length(), alone[run].length());
            QCOMPARE(paths[std::size_t(run)].segments.size(), alone[run].segments.size());
            for (const PathSegment &s : paths[std::size_t(run)].segments)
                QCOMPARE(both.ranks()[std::size_t(s.rankIndex)].side, run == 0 ? RunSide::A : RunSide::B);
        }
        const ResultTable summary = criticalPathSummaryTable(both, paths);
        QCOMPARE(summary.headers.last(), QStringLiteral("Run"));
        QCOMPARE(summary.cell(1, std::size_t(summary.headers.size() - 1)).text, QStringLiteral("B"));
        QCOMPARE(criticalPathTable(both, paths).headers.last(), QStringLiteral("Run"));
    }

    // The session report runs the same, with --step and --what-if.
    void sessionReport()
    {
        const Session session = twoRanks(false);
        AnalysisSettings options;
        options.step = 0;
        options.whatIfs = {QStringLiteral("rank:1=0.5")};
        const std::optional<ResultTable> summary = rankscope::test::sessionReport(QStringLiteral("critical_path_summary"), session, options);
        QVERIFY(summary);
        QCOMPARE(summary->rowCount(), std::size_t(1));
        QCOMPARE(summary->cell(0, int(summary->headers.indexOf(QStringLiteral("What-if Duration (ns)")))).integer, 215 * us);
        options.step = 5;
        QCOMPARE(rankscope::test::sessionReport(QStringLiteral("critical_path"), session, options)->rowCount(), std::size_t(0));
    }

    // The generator's planted straggler: rank 2 runs an extra 3 ms kernel
    // before its all-reduce in every second step. Those steps' paths run
    // on rank 2 to its all-reduce's start, then the 200 µs transfer on the
    // rank that ended last; the 3 ms kernel is on them.
    void generatedStraggler_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::newRow("4 ranks") << 4;
        QTest::newRow("64 ranks") << 64;
    }
    void generatedStraggler()
    {
        QFETCH(int, ranks);
        const QString dir = freshDir(QStringLiteral("ddp%1").arg(ranks));
        QProcess gen;
        gen.start(QStringLiteral(RANKSCOPE_TRACEGEN),
                  {QStringLiteral("--format"), QStringLiteral("nsys"), QStringLiteral("--profile"), QStringLiteral("ddp"), QStringLiteral("--events"),
                   QStringLiteral("200"), QStringLiteral("--ranks"), QString::number(ranks), QStringLiteral("--straggler"),
                   QStringLiteral("2:3000:2"), dir});
        QVERIFY(gen.waitForFinished(120000));
        QCOMPARE(gen.exitCode(), 0);
        const Session session = Session::load({dir});
        QCOMPARE(session.ranks().size(), std::size_t(ranks));
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QVERIFY(paths.size() >= 4);
        for (const StepCriticalPath &p : paths) {
            checkPathShape(session, p);
            QCOMPARE(kindTime(p, PathKind::Communication), 200 * us);
            QCOMPARE(kindTime(p, PathKind::Launch), 6 * us); // the first kernel's launch
            QCOMPARE(kindTime(p, PathKind::Kernel) + 206 * us, p.length());
            const bool delayed = p.step % 2 == 0;
            const bool hasDelay = std::any_of(p.segments.begin(), p.segments.end(), [&](const PathSegment &s) {
                return s.kind == PathKind::Kernel && s.duration() == 3000 * us && session.ranks()[std::size_t(s.rankIndex)].rank == 2;
            });
            QCOMPARE(hasDelay, delayed);
            if (delayed) { // all of it on rank 2 but the transfer
                for (const PathSegment &s : p.segments)
                    if (s.kind != PathKind::Communication)
                        QCOMPARE(session.ranks()[std::size_t(s.rankIndex)].rank, 2);
                // Rank 2 at 0.9: its 3 ms kernel and the rest 10 % shorter.
                CriticalPathOptions options;
                options.step = p.step;
                options.whatIfs = {*parseWhatIf(QStringLiteral("rank:2=0.9"))};
                const StepCriticalPath faster = pathsOf(session, options).at(0);
                QVERIFY(*faster.whatIfLength < p.length());
                QVERIFY(*faster.whatIfLength >= p.length() - kindTime(p, PathKind::Kernel) / 10 - 100); // each edge rounds to the ns
            }
        }
    }

    // The generator's single-rank profiles, their paths worked out from how
    // it writes them (tests/bench/tracegen.cpp):
    // launchbound: 200 calls of 8 µs every 8.5 µs, each kernel (3 µs)
    // starting 1 µs after its call returns, the GPU idle between: the path
    // is the host's calls (200 x 8 µs + the last one's 1 µs), the step's own
    // 0.5 µs between calls (199 of them) and the last kernel.
    // synchost: 20 kernels of 0.5 ms queued behind the first (launched 6 µs
    // after its 5 µs call began), a cudaStreamSynchronize returning 10 µs
    // after the last, 2 ms of "optimizer" on the host.
    void generatedProfiles_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<int>("events");
        QTest::addColumn<qint64>("length");
        QTest::addColumn<QList<qint64>>("byKind"); // cpu, launch, kernel, sync, idle
        QTest::newRow("launchbound") << QStringLiteral("launchbound") << 2000 << qint64(1'703'500) << QList<qint64>{0, 1'601'000, 3'000, 0, 99'500};
        QTest::newRow("synchost") << QStringLiteral("synchost") << 200 << qint64(12'016'000)
                                  << QList<qint64>{2'000'000, 6'000, 10'000'000, 10'000, 0};
    }
    void generatedProfiles()
    {
        QFETCH(QString, profile);
        QFETCH(int, events);
        QFETCH(qint64, length);
        QFETCH(QList<qint64>, byKind);
        const QString dir = freshDir(profile);
        QCOMPARE(
            QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), {QStringLiteral("--format"), QStringLiteral("nsys"), QStringLiteral("--profile"),
                                                                   profile, QStringLiteral("--events"), QString::number(events), dir}),
            0);
        const Session session = Session::load({dir});
        const std::vector<StepCriticalPath> paths = pathsOf(session);
        QVERIFY(paths.size() >= 3);
        for (const StepCriticalPath &p : paths) {
            checkPathShape(session, p);
            QCOMPARE(p.length(), length);
            const PathKind kinds[] = {PathKind::Cpu, PathKind::Launch, PathKind::Kernel, PathKind::Sync, PathKind::Idle};
            for (int k = 0; k < 5; ++k)
                QCOMPARE(kindTime(p, kinds[k]), byKind[k]);
        }
    }

    // The real traces: nsys-ai's 2-rank NCCL exports (no step annotation:
    // the whole session), HTA's 2-rank PyTorch traces, the 4-rank DDP demo.
    void realTraces_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<bool>("crosses"); // its path runs on both ranks
        QTest::newRow("nsys-ai before") << QStringList{dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))} << true;
        QTest::newRow("nsys-ai after") << QStringList{dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_after.sqlite"))} << true;
        QTest::newRow("hta") << QStringList{dataPath(QStringLiteral("third-party/hta"))} << false;
        QTest::newRow("ddp4 demo") << QStringList{demoPath()} << false;
    }
    void realTraces()
    {
        QFETCH(QStringList, files);
        QFETCH(bool, crosses);
        const Session session = Session::load(files);
        QVERIFY(session.failures().empty());
        for (const bool aligned : {false, true}) {
            const CollectiveMatch recorded = matchCollectives(session, KernelClassifier::rankscope());
            const CollectiveMatch match = aligned ? alignedOnCollectives(session, recorded) : recorded;
            const std::vector<StepCriticalPath> paths = criticalPaths(session, match, KernelClassifier::rankscope());
            QVERIFY(!paths.empty());
            std::set<int> ranksOnPaths;
            for (const StepCriticalPath &p : paths) {
                checkPathShape(session, p);
                for (const PathSegment &s : p.segments)
                    ranksOnPaths.insert(s.rankIndex);
            }
            if (crosses)
                QVERIFY(ranksOnPaths.size() > 1);
        }
    }

    // The real H100 runs (PyTorch profiler): the slow run is bound by its
    // data loader, so each step's path holds the loader's __next__ op whole
    // (the backward pass runs on the autograd thread, which the main
    // thread sets going) and is mostly idle; the fast run is bound by its
    // kernel launches.
    void realRunsSayWhatBoundThem()
    {
        const Session slow = Session::load({dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"))});
        const std::vector<StepCriticalPath> slowPaths = pathsOf(slow);
        QVERIFY(slowPaths.size() >= 3);
        for (const StepCriticalPath &p : slowPaths) {
            checkPathShape(slow, p);
            std::optional<EventLocation> loader;
            TimeNs onPath = 0;
            for (const PathSegment &s : p.segments)
                if (segmentName(slow, s).startsWith(QLatin1String("enumerate(DataLoader)"))) {
                    loader = s.event;
                    onPath += s.duration();
                }
            QVERIFY(loader);
            QCOMPARE(onPath, slow.sessionTime(*loader).duration()); // the op's whole time, as the trace records it
            QVERIFY(kindTime(p, PathKind::Idle) > p.length() * 85 / 100);
        }
        const Session fast = Session::load({dataPath(QStringLiteral("kineto/fast_rank0.pt.trace.json.gz"))});
        for (const StepCriticalPath &p : pathsOf(fast)) {
            checkPathShape(fast, p);
            const auto byKind = p.timeByKind();
            QCOMPARE(std::max_element(byKind.begin(), byKind.end()) - byKind.begin(), std::ptrdiff_t(PathKind::Launch));
        }
    }

    // Solving the graph with nothing scaled gives back every recorded time:
    // each node's binding edge explains it and no other edge is later.
    void graphGivesBackRecordedTimes()
    {
        const Session session = Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))});
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        StepGraphInput input{session.extent(), std::vector<std::optional<TrackEvent>>(session.ranks().size()), nullptr, {}};
        const StepGraph g = buildStepGraph(session, match, PathNameClasses(session, KernelClassifier::rankscope()), input);
        QVERIFY(g.graph.nodeCount() > 10000);
        const std::vector<TimeNs> solved = g.graph.solve(false);
        std::size_t differ = 0;
        for (std::uint32_t n = 0; n < g.graph.nodeCount(); ++n)
            differ += solved[n] != g.graph.time(n);
        QCOMPARE(differ, std::size_t(0));
    }

    // From the index cache, the same paths as parsed.
    void sameFromIndexCache()
    {
        const QString cache = freshDir(QStringLiteral("cache"));
        LoadControl control;
        control.indexCacheDirectory = cache;
        const QStringList files{dataPath(QStringLiteral("third-party/hta"))};
        const Session parsed = Session::load(files);
        Session::load(files, control); // writes the caches
        const Session cached = Session::load(files, control);
        QVERIFY(cached.reports().front()->indexCache);
        const auto csv = [&](const Session &s) { return criticalPathTable(s, pathsOf(s)).toCsv(); };
        QCOMPARE(csv(cached), csv(parsed));
    }
};

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_criticalpath.moc"
