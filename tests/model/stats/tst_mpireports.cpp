// MPI calls as `nsys profile --trace=mpi` writes them, added to two real
// rank exports (the 4-rank DDP run's ranks 0 and 1, which were recorded
// without MPI): the loader reads every call with its arguments, and
// mpi_event_sum and mpi_event_trace print what nsys' queries give, here
// computed by SQL over the same tables (medians and deviations from the
// durations SQL returns), not by the report code.
#include "analysisinputs.h"
#include "load/traceloader.h"
#include "nsysfixture.h"
#include "session/eventdetails.h"
#include "session/eventlinks.h"
#include "session/mpimessages.h"
#include "session/session.h"
#include "sqlquery.h"
#include "stats/diagnosis/diagnosis.h"
#include "stats/ranks/collectives.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QProcess>
#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// The calls planted per rank, at the same session times on both: per step
// rank 0 sends to rank 1, whose receive was posted 1 ms before the send
// began (a Late Sender: 1 ms); each rank posts an MPI_Isend and an
// MPI_Irecv and completes both with MPI_Wait, rank 1 posting its receive
// 60 us late while rank 0 waits on its send from 20 us (a Late Receiver:
// 50 us); rank 1 enters the allreduce 2 ms after rank 0 (rank 0 waits 2 ms
// at the collective), both enter the broadcast at once; MPI_Init and
// MPI_Finalize around them.
constexpr int kSteps = 10;
constexpr int kGeneratedSteps = 12; // of rankscope-tracegen's mpi profile
constexpr std::int64_t kComm = 0x44000000;

QString sqlOf(std::int64_t v)
{
    return QString::number(v);
}

void addMpiTables(NsysFixture &db, int rank, std::int64_t thread, std::int64_t t0)
{
    db.exec(QStringLiteral(
        "CREATE TABLE MPI_RANKS (globalTid INTEGER NOT NULL, rank INTEGER NOT NULL);"
        "CREATE TABLE MPI_P2P_EVENTS (start INTEGER NOT NULL, end INTEGER, globalTid INTEGER, textId INTEGER, commHandle INTEGER,"
        " tag INTEGER, remoteRank INTEGER, size INTEGER, requestHandle INTEGER);"
        "CREATE TABLE MPI_COLLECTIVES_EVENTS (start INTEGER NOT NULL, end INTEGER, globalTid INTEGER, textId INTEGER, commHandle INTEGER,"
        " rootRank INTEGER, size INTEGER, recvSize INTEGER, requestHandle INTEGER);"
        "CREATE TABLE MPI_START_WAIT_EVENTS (start INTEGER NOT NULL, end INTEGER, globalTid INTEGER, textId INTEGER, requestHandle INTEGER);"
        "CREATE TABLE MPI_OTHER_EVENTS (start INTEGER NOT NULL, end INTEGER, globalTid INTEGER, textId INTEGER);"));
    // New strings above the export's own ids.
    const char *names[] = {"MPI_Init", "MPI_Finalize", "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Wait", "MPI_Allreduce", "MPI_Bcast"};
    for (int i = 0; i < 9; ++i)
        db.exec(QStringLiteral("INSERT INTO StringIds VALUES (%1, '%2')").arg(90000 + i).arg(QLatin1String(names[i])));
    const auto id = [&](const char *name) {
        return 90000
               + int(std::find_if(std::begin(names), std::end(names), [&](const char *n) { return qstrcmp(n, name) == 0; }) - std::begin(names));
    };
    const QString tid = sqlOf(thread);
    db.exec(QStringLiteral("INSERT INTO MPI_RANKS VALUES (%1, %2)").arg(tid).arg(rank));
    db.exec(QStringLiteral("INSERT INTO MPI_OTHER_EVENTS VALUES (%1, %2, %3, %4)")
                .arg(sqlOf(t0))
                .arg(sqlOf(t0 + 2'000'000 + 137 * rank))
                .arg(tid)
                .arg(id("MPI_Init")));
    const int peer = 1 - rank;
    for (int s = 0; s < kSteps; ++s) {
        const std::int64_t at = t0 + 10'000'000 + s * 50'000'000;
        // Rank 0 sends at +1 ms for 300 us + s; rank 1 receives from the
        // step's start until 50 us after the send ended.
        if (rank == 0)
            db.exec(QStringLiteral("INSERT INTO MPI_P2P_EVENTS VALUES (%1, %2, %3, %4, %5, 7, %6, 4194304, NULL)")
                        .arg(sqlOf(at + 1'000'000))
                        .arg(sqlOf(at + 1'300'000 + s))
                        .arg(tid)
                        .arg(id("MPI_Send"))
                        .arg(sqlOf(kComm))
                        .arg(peer));
        else
            db.exec(QStringLiteral("INSERT INTO MPI_P2P_EVENTS VALUES (%1, %2, %3, %4, %5, 7, %6, 4194304, NULL)")
                        .arg(sqlOf(at))
                        .arg(sqlOf(at + 1'350'000 + s))
                        .arg(tid)
                        .arg(id("MPI_Recv"))
                        .arg(sqlOf(kComm))
                        .arg(peer));
        // The non-blocking pair: each rank posts both, then waits on each.
        const std::int64_t nb = at + 5'000'000;
        db.exec(QStringLiteral("INSERT INTO MPI_P2P_EVENTS VALUES (%1, %2, %3, %4, %5, 9, %6, 65536, %7)")
                    .arg(sqlOf(nb))
                    .arg(sqlOf(nb + 4'000 + rank))
                    .arg(tid)
                    .arg(id("MPI_Isend"))
                    .arg(sqlOf(kComm))
                    .arg(peer)
                    .arg(sqlOf(0x1000 + s)));
        db.exec(QStringLiteral("INSERT INTO MPI_P2P_EVENTS VALUES (%1, %2, %3, %4, %5, 9, %6, 65536, %7)")
                    .arg(sqlOf(nb + 10'000 + 60'000 * rank))
                    .arg(sqlOf(nb + 13'000 + 60'000 * rank + s))
                    .arg(tid)
                    .arg(id("MPI_Irecv"))
                    .arg(sqlOf(kComm))
                    .arg(peer)
                    .arg(sqlOf(0x2000 + s)));
        db.exec(QStringLiteral("INSERT INTO MPI_START_WAIT_EVENTS VALUES (%1, %2, %3, %4, %5)")
                    .arg(sqlOf(nb + 20'000))
                    .arg(sqlOf(nb + 90'000 + 3 * s))
                    .arg(tid)
                    .arg(id("MPI_Wait"))
                    .arg(sqlOf(0x1000 + s)));
        db.exec(QStringLiteral("INSERT INTO MPI_START_WAIT_EVENTS VALUES (%1, %2, %3, %4, %5)")
                    .arg(sqlOf(nb + 100'000))
                    .arg(sqlOf(nb + 160'000 + 5 * s))
                    .arg(tid)
                    .arg(id("MPI_Wait"))
                    .arg(sqlOf(0x2000 + s)));
        // Collectives: rank 1 enters the allreduce 2 ms after rank 0.
        const std::int64_t ar = at + 20'000'000 + 2'000'000 * rank;
        db.exec(QStringLiteral("INSERT INTO MPI_COLLECTIVES_EVENTS VALUES (%1, %2, %3, %4, %5, NULL, 1024, 1024, NULL)")
                    .arg(sqlOf(ar))
                    .arg(sqlOf(at + 22'400'000 + 11 * s))
                    .arg(tid)
                    .arg(id("MPI_Allreduce"))
                    .arg(sqlOf(kComm)));
        db.exec(QStringLiteral("INSERT INTO MPI_COLLECTIVES_EVENTS VALUES (%1, %2, %3, %4, %5, 0, 64, 64, NULL)")
                    .arg(sqlOf(at + 30'000'000))
                    .arg(sqlOf(at + 30'020'000 + 7 * s + rank))
                    .arg(tid)
                    .arg(id("MPI_Bcast"))
                    .arg(sqlOf(kComm)));
    }
    const std::int64_t end = t0 + 10'000'000 + kSteps * 50'000'000;
    db.exec(QStringLiteral("INSERT INTO MPI_OTHER_EVENTS VALUES (%1, %2, %3, %4)")
                .arg(sqlOf(end))
                .arg(sqlOf(end + 800'000))
                .arg(tid)
                .arg(id("MPI_Finalize")));
}

// The calls of all four tables as nsys' reports union them.
const char *kAllCalls =
    "SELECT 'p2p' AS source, 0 AS o, start, end, globalTid, textId, tag, remoteRank, NULL AS rootRank, size, NULL AS cs, NULL AS cr"
    " FROM MPI_P2P_EVENTS UNION ALL"
    " SELECT 'start-wait', 1, start, end, globalTid, textId, NULL, NULL, NULL, NULL, NULL, NULL FROM MPI_START_WAIT_EVENTS UNION ALL"
    " SELECT 'other', 2, start, end, globalTid, textId, NULL, NULL, NULL, NULL, NULL, NULL FROM MPI_OTHER_EVENTS UNION ALL"
    " SELECT 'collectives', 3, start, end, globalTid, textId, NULL, NULL, rootRank, NULL, size, recvSize FROM MPI_COLLECTIVES_EVENTS";

// Half away from zero, as SQLite's round() and nsys print.
QString fixed(double v, int places)
{
    const double scale = std::pow(10.0, places);
    return QString::number(std::round(v * scale) / scale, 'f', places);
}

QString megabytes(const QString &bytes)
{
    return bytes.isEmpty() ? QString() : fixed(bytes.toDouble() / 1e6, 3);
}

// mpi_event_sum of one export as nsys' query gives it, computed by SQL
// over its tables (medians and deviations from the durations SQL returns).
QStringList expectedEventSum(const QString &path)
{
    const QList<QStringList> groups = queryRows(path, QStringLiteral("SELECT source, textId, sum(end - start), count(*), min(end - start), "
                                                                     "max(end - start), s.value FROM (%1) LEFT JOIN StringIds s ON s.id = textId"
                                                                     " GROUP BY 1, 2 ORDER BY 3 DESC")
                                                          .arg(QLatin1String(kAllCalls)));
    double grand = 0;
    for (const QStringList &g : groups)
        grand += g[2].toDouble();
    QStringList expected{QStringLiteral("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Source,Name")};
    for (const QStringList &g : groups) {
        std::vector<double> d;
        for (const QStringList &v : queryRows(path, QStringLiteral("SELECT end - start FROM (%1) WHERE source = '%2' AND textId = %3 ORDER BY 1")
                                                        .arg(QLatin1String(kAllCalls), g[0], g[1])))
            d.push_back(v[0].toDouble());
        const double n = double(d.size()), mean = g[2].toDouble() / n;
        const double median = d.size() % 2 ? d[d.size() / 2] : (d[d.size() / 2 - 1] + d[d.size() / 2]) / 2;
        double squares = 0;
        for (const double x : d)
            squares += (x - mean) * (x - mean);
        const double stddev = d.size() > 1 ? std::sqrt(squares / (n - 1)) : 0.0;
        expected << QStringList{fixed(100.0 * g[2].toDouble() / grand, 1),
                                g[2],
                                g[3],
                                fixed(mean, 1),
                                fixed(median, 1),
                                g[4],
                                g[5],
                                fixed(stddev, 1),
                                g[0],
                                g[6]}
                        .join(QLatin1Char(','));
    }
    return expected;
}

// mpi_event_trace of one export, by SQL over its tables.
QStringList expectedEventTrace(const QString &path)
{
    QStringList expected{
        QStringLiteral("Start (ns),End (ns),Duration (ns),Event,Pid,Tid,Tag,Rank,PeerRank,RootRank,Size (MB),CollSendSize (MB),CollRecvSize (MB)")};
    for (const QStringList &c :
         queryRows(path, QStringLiteral("SELECT e.start, e.end, e.end - e.start, s.value, (e.globalTid >> 24) & 0xFFFFFF, e.globalTid & 0xFFFFFF,"
                                        " e.tag, r.rank, e.remoteRank, e.rootRank, e.size, e.cs, e.cr FROM (%1) e"
                                        " LEFT JOIN StringIds s ON s.id = e.textId LEFT JOIN MPI_RANKS r ON r.globalTid = e.globalTid"
                                        " ORDER BY e.start, e.o")
                             .arg(QLatin1String(kAllCalls))))
        expected << QStringList{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], megabytes(c[10]), megabytes(c[11]), megabytes(c[12])}
                        .join(QLatin1Char(','));
    return expected;
}

// The waits rankscope-tracegen's mpi profile plants (makeMpiRanks), per
// step: a late sender, a late receiver, the last rank late at the
// allreduce, as mpi_wait_states prints them for `ranks` ranks.
QStringList plantedWaits(int ranks, int steps)
{
    QStringList rows{QStringLiteral("Pattern,Rank,Peer,Call,Instances,Wait (ns)"),
                     QStringLiteral("Late Sender,1,0,MPI_Recv,%1,%2").arg(steps).arg(steps * 1'500'000LL),
                     QStringLiteral("Late Receiver,1,0,MPI_Ssend,%1,%2").arg(steps).arg(steps * 400'000LL)};
    for (int r = 0; r < ranks - 1; ++r)
        rows << QStringLiteral("Wait at Collective,%1,%2,MPI_Allreduce,%3,%4").arg(r).arg(ranks - 1).arg(steps).arg(steps * 2'000'000LL);
    return rows;
}

} // namespace

class TestMpiReports : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QStringList m_paths;
    std::vector<ReportPtr> m_reports;
    QStringList m_generatedDirs; // rankscope-tracegen --profile mpi: two ranks; three with clock offsets
    QStringList m_generated;     // the two ranks' files

private slots:
    void initTestCase()
    {
        // Copies first, to learn how the session lines the two up (by their
        // UTC starts): the calls are planted at the same session times.
        std::vector<std::int64_t> threads, firstCalls;
        for (int rank = 0; rank < 2; ++rank) {
            const QString path = m_dir.filePath(QStringLiteral("mpi_rank%1.sqlite").arg(rank));
            QVERIFY(QFile::copy(ddpFixture(rank), path));
            QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
            // The thread that made the most CUDA calls: the training loop's.
            const QList<QStringList> main = queryRows(
                path, QStringLiteral("SELECT globalTid, min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"));
            QCOMPARE(main.size(), 1);
            threads.push_back(main[0][0].toLongLong());
            firstCalls.push_back(main[0][1].toLongLong());
            m_paths << path;
        }
        const Session before = Session::load(m_paths);
        QCOMPARE(before.ranks().size(), std::size_t(2));
        std::int64_t sessionStart = 0;
        for (const RankEntry &entry : before.ranks()) {
            const int rank = m_paths.indexOf(entry.report->filePath);
            sessionStart = std::max(sessionStart, firstCalls[std::size_t(rank)] + entry.sessionOffset);
        }
        for (const RankEntry &entry : before.ranks()) {
            const int rank = m_paths.indexOf(entry.report->filePath);
            NsysFixture db(m_paths[rank]);
            addMpiTables(db, rank, threads[std::size_t(rank)], sessionStart - entry.sessionOffset);
            db.close();
        }
        for (int rank = 0; rank < 2; ++rank) {
            const LoadResult loaded = loadTraceFile(m_paths[rank]);
            QVERIFY2(loaded.ok(), qPrintable(loaded.error));
            m_reports.push_back(loaded.report);
        }
        for (const QStringList &extra : {QStringList{}, QStringList{QStringLiteral("--clock-offsets-us"), QStringLiteral("0,3000,-700")}}) {
            const QString dir = m_dir.filePath(QStringLiteral("generated%1").arg(m_generatedDirs.size()));
            QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN),
                                       QStringList{QStringLiteral("--profile"), QStringLiteral("mpi"), QStringLiteral("--ranks"),
                                                   QString::number(2 + m_generatedDirs.size()), QStringLiteral("--events"),
                                                   QString::number(24 * kGeneratedSteps)}
                                           + extra + QStringList{dir}),
                     0);
            m_generatedDirs << dir;
        }
        m_generated = QStringList{m_generatedDirs[0] + QStringLiteral("/mpi_rank0.sqlite"), m_generatedDirs[0] + QStringLiteral("/mpi_rank1.sqlite")};
    }

    void everyCallIsReadWithItsArguments()
    {
        for (int rank = 0; rank < 2; ++rank) {
            const Report &r = *m_reports[std::size_t(rank)];
            const QList<QStringList> count = queryRows(m_paths[rank], QStringLiteral("SELECT count(*) FROM (%1)").arg(QLatin1String(kAllCalls)));
            QCOMPARE(qsizetype(r.eventCount(TrackKind::Mpi)), count[0][0].toLongLong());
            QCOMPARE(r.eventCount(TrackKind::Mpi), std::size_t(2 + kSteps * 7));
            // One MPI row, on the thread that called: the training loop's.
            const auto mpi = std::find_if(r.tracks.begin(), r.tracks.end(), [](const Track &t) { return t.kind == TrackKind::Mpi; });
            QVERIFY(mpi != r.tracks.end());
            QCOMPARE(std::count_if(r.tracks.begin(), r.tracks.end(), [](const Track &t) { return t.kind == TrackKind::Mpi; }), 1);
            QCOMPARE(trackName(r, *mpi), QStringLiteral("MPI"));
        }
        // Details of rank 1's first receive: peer, tag, size, communicator, rank.
        const Session session = Session::load({m_paths[1]});
        const Report &r = *session.ranks()[0].report;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t)
            if (r.tracks[t].kind == TrackKind::Mpi)
                for (std::uint32_t e = 0; e < r.tracks[t].slices.size(); ++e)
                    if (r.strings.string(r.tracks[t].slices.name(e)) == QLatin1String("MPI_Recv")) {
                        const EventDetails d = describeEvent(session, {0, t, e});
                        QStringList fields;
                        for (const DetailField &f : d.fields)
                            fields << f.label + QLatin1String(": ") + f.value;
                        for (const char *expected : {"MPI call: point to point", "MPI rank: 1", "Source rank: 0", "Tag: 7",
                                                     "Size: 4,194,304 B (4.00 MiB)", "Communicator: 0x44000000"})
                            QVERIFY2(fields.contains(QString::fromLatin1(expected)),
                                     qPrintable(expected + QLatin1String(" in ") + fields.join(QLatin1String("; "))));
                        return;
                    }
        QFAIL("no MPI_Recv on rank 1");
    }

    void eventSumIsNsys()
    {
        for (const QString &path : m_paths + m_generated) {
            const LoadResult loaded = loadTraceFile(path);
            QVERIFY2(loaded.ok(), qPrintable(loaded.error));
            const auto table = stats::runReport(QStringLiteral("mpi_event_sum"), *loaded.report);
            QVERIFY(table);
            QCOMPARE(table->toCsv().trimmed().split(QLatin1Char('\n')), expectedEventSum(path));
        }
    }

    void eventTraceIsNsys()
    {
        for (const QString &path : m_paths + m_generated) {
            const LoadResult loaded = loadTraceFile(path);
            QVERIFY2(loaded.ok(), qPrintable(loaded.error));
            const auto table = stats::runReport(QStringLiteral("mpi_event_trace"), *loaded.report);
            QVERIFY(table);
            QCOMPARE(table->toCsv().trimmed().split(QLatin1Char('\n')), expectedEventTrace(path));
        }
    }

    // Two ranks as `mpirun -n 2 nsys profile --trace=mpi` writes them: each
    // its own session start, Open MPI's communicator handles (different in
    // each process). The planted waits, to the nanosecond; the collectives
    // matched on the communicator both use first.
    void generatedRanksGiveThePlantedWaits()
    {
        const Session session = Session::load({m_generatedDirs[0]});
        QCOMPARE(session.ranks().size(), std::size_t(2));
        QVERIFY(session.ranks()[0].sessionOffset != session.ranks()[1].sessionOffset);
        QVERIFY(queryRows(m_generated[0], QStringLiteral("SELECT DISTINCT commHandle FROM MPI_COLLECTIVES_EVENTS"))
                != queryRows(m_generated[1], QStringLiteral("SELECT DISTINCT commHandle FROM MPI_COLLECTIVES_EVENTS")));
        const auto waits = sessionReport(QStringLiteral("mpi_wait_states"), session);
        QVERIFY(waits);
        QCOMPARE(waits->toCsv().trimmed().split(QLatin1Char('\n')), plantedWaits(2, kGeneratedSteps));
        const MpiMatch match = matchMpi(session);
        QCOMPARE(match.unmatchedSends + match.unmatchedReceives, std::size_t(0));
        QCOMPARE(match.messages.size(), std::size_t(kGeneratedSteps * 4)); // the ring's two, the late sender's, the late receiver's
        const stats::CollectiveMatch collectives = stats::matchCollectives(session, stats::KernelClassifier::rankscope());
        QCOMPARE(collectives.instances.size(), std::size_t(kGeneratedSteps * 2)); // an allreduce and a barrier per step
        for (const stats::CollectiveInstance &c : collectives.instances)
            QCOMPARE(c.communicator, QStringLiteral("MPI comm #0"));
    }

    // Three ranks whose clocks are off (rank 1 by +3 ms, rank 2 by -0.7
    // ms): aligned on the MPI collectives that end together, the offsets
    // come back and so do the planted waits; as recorded, they do not.
    void mpiCollectivesAnchorTheClocks()
    {
        const Session session = Session::load({m_generatedDirs[1]});
        QCOMPARE(session.ranks().size(), std::size_t(3));
        AnalysisSettings aligned;
        aligned.alignOnCollectives = true;
        const auto waits = sessionReport(QStringLiteral("mpi_wait_states"), session, aligned);
        QVERIFY(waits);
        QCOMPARE(waits->toCsv().trimmed().split(QLatin1Char('\n')), plantedWaits(3, kGeneratedSteps));
        QVERIFY(sessionReport(QStringLiteral("mpi_wait_states"), session)->toCsv().trimmed().split(QLatin1Char('\n'))
                != plantedWaits(3, kGeneratedSteps));
        const stats::CollectiveMatch match = stats::matchCollectives(session, stats::KernelClassifier::rankscope());
        const std::vector<stats::ClockEstimate> clocks = stats::alignOnCollectives(session, match);
        for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
            const int rank = session.ranks()[ri].rank;
            QCOMPARE(*clocks[ri].offset, TimeNs(rank == 1 ? -3'000'000 : rank == 2 ? 700'000 : 0));
            QCOMPARE(*clocks[ri].residual, TimeNs(0));
            QCOMPARE(clocks[ri].collectives, std::size_t(kGeneratedSteps * 2)); // the allreduces and the barriers
        }
    }

    // Through the index cache the calls and both reports are the same.
    void theCacheKeepsTheCalls()
    {
        QTemporaryDir cacheDir;
        LoadControl control;
        control.indexCacheDirectory = cacheDir.path();
        QCOMPARE(loadTraceFile(m_paths[0], control).indexCache, LoadResult::IndexCache::Written);
        const LoadResult cached = loadTraceFile(m_paths[0], control);
        QCOMPARE(cached.indexCache, LoadResult::IndexCache::Opened);
        for (const char *name : {"mpi_event_sum", "mpi_event_trace"})
            QCOMPARE(stats::runReport(QString::fromLatin1(name), *cached.report)->toCsv(),
                     stats::runReport(QString::fromLatin1(name), *m_reports[0])->toCsv());
    }

    // The planted waits, each once per step, and nothing else.
    void waitStatesAreScalascas()
    {
        const Session session = Session::load(m_paths);
        const MpiMatch match = matchMpi(session);
        QCOMPARE(match.messages.size(), std::size_t(kSteps * 3)); // the send and both non-blocking messages of each step
        QCOMPARE(match.unmatchedSends + match.unmatchedReceives, std::size_t(0));
        QCOMPARE(match.collectives.size(), std::size_t(kSteps * 2));
        for (const MpiMessage &m : match.messages)
            if (m.tag == 9) // the non-blocking pairs: each completed by its MPI_Wait
                QVERIFY(m.send.completion && m.receive.completion);
        // A click on a send draws its arrow to the receive (and back);
        // Details links the two.
        const MpiMessage &first = match.messages.front();
        QCOMPARE(flowPartners(session, first.send.at), std::vector<EventLocation>{first.receive.at});
        QCOMPARE(flowPartners(session, first.receive.at), std::vector<EventLocation>{first.send.at});
        // The arrow points at the receive from either end, though the
        // receive began first.
        QVERIFY(first.receive.start < first.send.start);
        QVERIFY(flowPointsTo(session, first.send.at, first.receive.at));
        QVERIFY(!flowPointsTo(session, first.receive.at, first.send.at));
        bool linked = false;
        for (const DetailField &f : describeEvent(session, first.receive.at).fields)
            linked |= f.label == QLatin1String("Matched") && f.link == first.send.at;
        QVERIFY(linked);
        const auto table = sessionReport(QStringLiteral("mpi_wait_states"), session);
        QVERIFY(table);
        QCOMPARE(table->toCsv().trimmed().split(QLatin1Char('\n')),
                 (QStringList{QStringLiteral("Pattern,Rank,Peer,Call,Instances,Wait (ns)"), QStringLiteral("Late Sender,1,0,MPI_Recv,10,10000000"),
                              QStringLiteral("Late Receiver,0,1,MPI_Wait,10,500000"),
                              QStringLiteral("Wait at Collective,0,1,MPI_Allreduce,10,20000000")}));
    }

    // MPI's collectives sit beside NCCL's: each an instance on its
    // communicator, with its skew, last arrival and the others' waits.
    void collectivesPanelHasMpiCollectives()
    {
        const Session session = Session::load(m_paths);
        const stats::KernelClassifier classes = stats::KernelClassifier::rankscope();
        const stats::CollectiveMatch match = stats::matchCollectives(session, classes);
        std::size_t allreduces = 0, broadcasts = 0;
        int rank1Index = -1;
        for (int ri = 0; ri < int(session.ranks().size()); ++ri)
            if (session.ranks()[std::size_t(ri)].report->filePath == m_paths[1])
                rank1Index = ri;
        for (const stats::CollectiveInstance &c : match.instances) {
            QCOMPARE(c.communicator, QStringLiteral("MPI comm 0x44000000"));
            QCOMPARE(c.arrivals.size(), std::size_t(2));
            QCOMPARE(session.track(c.arrivals.front().kernel).kind, TrackKind::Mpi);
            if (c.name == QLatin1String("MPI_Allreduce")) {
                QCOMPARE(c.sequence, 2 * allreduces); // the allreduce and the broadcast of each step, in call order
                ++allreduces;
                QCOMPARE(c.kind, stats::CollectiveKind::AllReduce);
                QCOMPARE(c.skew(), TimeNs(2'000'000));
                QCOMPARE(c.lastRankIndex, rank1Index);
                QCOMPARE(c.bytes, std::int64_t(1024));
                QVERIFY(c.endsTogether);
            } else {
                QCOMPARE(c.name, QStringLiteral("MPI_Bcast"));
                ++broadcasts;
                QCOMPARE(c.skew(), TimeNs(0));
                QVERIFY(!c.endsTogether); // its root may return first: no anchor for the clocks
            }
            // Selecting either call finds its instance.
            for (const stats::CollectiveArrival &a : c.arrivals)
                QCOMPARE(stats::instanceOfKernel(session, match, a.kernel), &c);
        }
        QCOMPARE(allreduces, std::size_t(kSteps));
        QCOMPARE(broadcasts, std::size_t(kSteps));
        QVERIFY(match.notes.join(QLatin1Char(' ')).contains(QLatin1String("MPI collectives matched per communicator in call order")));
        // Rank 0 waited 2 ms at each allreduce: the rank_wait columns.
        for (const stats::RankWait &w : stats::rankWaits(session, match, {}, classes)) {
            QCOMPARE(w.collectives, std::size_t(2 * kSteps));
            QCOMPARE(w.waited, w.rankIndex == rank1Index ? TimeNs(0) : TimeNs(kSteps * 2'000'000));
        }
    }

    // One match per session: computed once, shared; a session whose
    // ranks moved gets its own.
    void theMatchIsShared()
    {
        const Session session = Session::load(m_paths);
        const std::shared_ptr<const MpiMatch> first = sharedMpiMatch(session);
        QCOMPARE(sharedMpiMatch(Session(session)).get(), first.get());
        const Session shifted = session.withShiftedRanks({0, 1'000});
        const std::shared_ptr<const MpiMatch> moved = sharedMpiMatch(shifted);
        QVERIFY(moved.get() != first.get());
        QCOMPARE(moved->messages.size(), first->messages.size());
        const MpiCall &call = moved->collectives.front().calls.front();
        QCOMPARE(call.start, shifted.sessionTime(call.at).start);
    }

    // The Diagnosis names the waits, each with the call that waited.
    void diagnosisNamesTheWaits()
    {
        const Session session = Session::load(m_paths);
        // Listed whatever their share of these runs' GPU time (31 ms of
        // seconds): the threshold is not what is tested here.
        stats::DiagnosisThresholds thresholds;
        thresholds.reportedShare = 0;
        const stats::Diagnosis d = diagnosed(session, thresholds);
        const auto mpi =
            std::find_if(d.findings.begin(), d.findings.end(), [](const stats::Finding &f) { return f.id == QLatin1String("mpi_waits"); });
        QVERIFY(mpi != d.findings.end());
        QCOMPARE(mpi->cost, TimeNs(10 * (1'000'000 + 50'000 + 2'000'000)));
        QCOMPARE(mpi->instances.size(), std::size_t(30));
        QVERIFY2(mpi->evidence.contains(QLatin1String("Late Sender 10.000 ms")), qPrintable(mpi->evidence));
        const stats::FindingInstance &worst = mpi->instances.front(); // costliest first: a wait at the allreduce
        QVERIFY(worst.event);
        QCOMPARE(session.track(*worst.event).kind, TrackKind::Mpi);
        QVERIFY2(worst.what.startsWith(QLatin1String("Wait at Collective: rank 0's MPI_Allreduce waited 2.000 ms for rank 1's MPI_Allreduce")),
                 qPrintable(worst.what));
    }

    // pipit's saxpy (a real Perlmutter export of an older nsys) traced MPI
    // as NVTX ranges of a domain named "MPI": each is an MPI call of its
    // thread, and mpi_event_sum counts them as SQL does over those ranges.
    void olderExportsCarryMpiAsNvtx()
    {
        const QString path = dataPath(QStringLiteral("third-party/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"));
        const LoadResult loaded = loadTraceFile(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const Report &r = *loaded.report;
        // The MPI domain's ranges, by name: count and total time.
        const QList<QStringList> byName =
            queryRows(path, QStringLiteral("SELECT coalesce(e.text, s.value) AS name, count(*), sum(e.end - e.start) FROM NVTX_EVENTS e"
                                           " LEFT JOIN StringIds s ON s.id = e.textId"
                                           " WHERE e.eventType IN (59, 60) AND e.domainId IN (SELECT domainId FROM NVTX_EVENTS"
                                           " WHERE eventType = 75 AND text = 'MPI') GROUP BY 1 ORDER BY 3 DESC"));
        QCOMPARE(byName.size(), 4); // MPI_Init, MPI_Send, MPI_Recv, MPI_Finalize
        std::size_t calls = 0;
        for (const QStringList &row : byName)
            calls += row[1].toULongLong();
        QCOMPARE(r.eventCount(TrackKind::Mpi), calls);
        QCOMPARE(r.eventCount(TrackKind::Nvtx), std::size_t(22)); // the NVTX row keeps them
        const auto table = stats::runReport(QStringLiteral("mpi_event_sum"), r);
        QVERIFY(table);
        const QStringList lines = table->toCsv().trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), byName.size() + 1);
        for (int i = 0; i < byName.size(); ++i) {
            const QStringList cells = lines[i + 1].split(QLatin1Char(','));
            QCOMPARE(cells[9], byName[i][0]);
            QCOMPARE(cells[2], byName[i][1]);
            QCOMPARE(cells[1], byName[i][2]);
            QCOMPARE(cells[8], byName[i][0] == QLatin1String("MPI_Send") || byName[i][0] == QLatin1String("MPI_Recv") ? QStringLiteral("p2p")
                                                                                                                      : QStringLiteral("other"));
        }
        const bool said = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                      [](const Diagnostic &d) { return d.text.contains(QLatin1String("NVTX ranges of the \"MPI\" domain")); });
        QVERIFY(said);
    }

    // Each MPI table may be missing, lack columns (an older nsys) or carry
    // more (a newer one): the file opens, reads what it can, says what it
    // could not.
    void tablesOfOtherVersionsStillOpen()
    {
        const QString path = m_dir.filePath(QStringLiteral("mpi_other_versions.sqlite"));
        QVERIFY(QFile::copy(m_generated[0], path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        const int p2p = queryRows(path, QStringLiteral("SELECT count(*) FROM MPI_P2P_EVENTS"))[0][0].toInt();
        const int collectives = queryRows(path, QStringLiteral("SELECT count(*) FROM MPI_COLLECTIVES_EVENTS"))[0][0].toInt();
        {
            NsysFixture db(path);
            db.exec(QStringLiteral("DROP TABLE MPI_OTHER_EVENTS; DROP TABLE MPI_RANKS;"
                                   // An older point-to-point table: no tag, peer, size or handles.
                                   "CREATE TABLE OLD_P2P AS SELECT start, end, globalTid, textId FROM MPI_P2P_EVENTS;"
                                   "DROP TABLE MPI_P2P_EVENTS; ALTER TABLE OLD_P2P RENAME TO MPI_P2P_EVENTS;"
                                   // Waits without their start: left out.
                                   "CREATE TABLE NO_START AS SELECT end, globalTid, textId, requestHandle FROM MPI_START_WAIT_EVENTS;"
                                   "DROP TABLE MPI_START_WAIT_EVENTS; ALTER TABLE NO_START RENAME TO MPI_START_WAIT_EVENTS;"
                                   // A newer collectives table: a column more.
                                   "ALTER TABLE MPI_COLLECTIVES_EVENTS ADD COLUMN algorithm INTEGER DEFAULT 3;"));
            db.close();
        }
        const LoadResult loaded = loadTraceFile(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const Report &r = *loaded.report;
        QCOMPARE(r.eventCount(TrackKind::Mpi), std::size_t(p2p + collectives));
        QVERIFY(std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                            [](const Diagnostic &d) { return d.text.contains(QLatin1String("MPI_START_WAIT_EVENTS has no start column")); }));
        for (const char *report : {"mpi_event_sum", "mpi_event_trace"})
            QVERIFY(stats::runReport(QString::fromLatin1(report), r));
        // Without peers nothing pairs; the waits' table says so.
        const Session session = Session::fromReports({loaded.report});
        const auto waits = sessionReport(QStringLiteral("mpi_wait_states"), session);
        QVERIFY(waits);
        QCOMPARE(waits->rowCount(), std::size_t(0));
    }

    // nsys runs them only when named; so does stats.
    void runOnlyWhenNamed()
    {
        QVERIFY(stats::reportNames().contains(QStringLiteral("mpi_event_sum")));
        QVERIFY(!stats::defaultReportNames().contains(QStringLiteral("mpi_event_sum")));
        QVERIFY(!stats::defaultReportNames().contains(QStringLiteral("mpi_event_trace")));
        QVERIFY(stats::defaultReportNames().contains(QStringLiteral("nvtx_sum")));
    }
};

QTEST_GUILESS_MAIN(TestMpiReports)
#include "tst_mpireports.moc"
