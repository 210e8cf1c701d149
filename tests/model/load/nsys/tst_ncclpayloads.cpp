// NCCL's NVTX extended payloads under nsys: the real schema tables of
// nsys-ai's 2-rank export (NCCL 2.2x, nsys 2025), whose windowed rows carry
// no binaryData, given payloads here as NCCL packs them. Decoded fields,
// kernels' collective records, and the matching they key.
#include "load/nsys/nvtxpayloadschemas.h"
#include "load/nsys/sqlitedatabase.h"
#include "nsysfixture.h"
#include "session/eventdetails.h"
#include "session/session.h"
#include "stats/ranks/collectives.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

// Little-endian fields as NCCL's payload structs hold them (LP64).
QByteArray u64(std::uint64_t v)
{
    QByteArray b(8, '\0');
    for (int i = 0; i < 8; ++i)
        b[i] = char((v >> (8 * i)) & 0xFF);
    return b;
}
QByteArray i32(std::int32_t v)
{
    return u64(std::uint32_t(v)).left(4);
}

constexpr std::uint64_t kComm = 0x1122334455667788ull;
constexpr std::uint64_t kCommInitRankSchema = 16777218; // the fixture's schema with ranks, rank, device
constexpr std::int64_t kMessage = 1 << 20;

// ncclSend/ncclRecv: {comm, size, peer, padding}; 24 bytes.
QByteArray peerPayload(std::int32_t peer)
{
    return u64(kComm) + u64(kMessage) + i32(peer) + i32(0);
}
// ncclCommInitRank as NVTX's payload data record: schema id, size, {comm, nranks, rank, device, padding}.
QByteArray initRecord(std::int32_t rank)
{
    const QByteArray body = u64(kComm) + i32(2) + i32(rank) + i32(rank) + i32(0);
    return u64(kCommInitRankSchema) + u64(std::uint64_t(body.size())) + body;
}

QString sqlBlob(const QByteArray &bytes)
{
    return QStringLiteral("X'%1'").arg(QString::fromLatin1(bytes.toHex()));
}

} // namespace

class TestNcclPayloads : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_path;

private slots:
    void initTestCase()
    {
        // The real export, its NCCL calls given payloads: in each
        // ncclGroupStart..End of a rank, the k-th send and the k-th receive
        // go to peer k (an exchange with both ranks), 1 MiB each; each rank
        // (pid 144: rank 0, pid 145: rank 1) inits the communicator first.
        m_path = m_dir.filePath(QStringLiteral("mfu_2gpu_payloads.sqlite"));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite")), m_path));
        QFile(m_path).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        NsysFixture db(m_path);
        db.exec(QStringLiteral(
            "CREATE TEMP TABLE calls AS SELECT rowid AS id, globalTid, textId, start FROM NVTX_EVENTS WHERE domainId = 1; "
            "CREATE TEMP TABLE grouped AS SELECT c.id, c.globalTid, c.textId, c.start, (SELECT max(g.start) FROM calls g WHERE "
            "g.globalTid = c.globalTid AND g.textId = (SELECT id FROM StringIds WHERE value = 'ncclGroupStart') AND g.start < c.start) AS groupStart "
            "FROM calls c WHERE c.textId IN (SELECT id FROM StringIds WHERE value IN ('ncclSend', 'ncclRecv')); "
            "CREATE TEMP TABLE p2p AS SELECT a.id, (SELECT count(*) FROM grouped b WHERE b.globalTid = a.globalTid AND b.textId = a.textId "
            "AND b.groupStart = a.groupStart AND b.start < a.start) AS peer FROM grouped a"));
        db.exec(QStringLiteral("UPDATE NVTX_EVENTS SET binaryData = CASE (SELECT peer FROM p2p WHERE id = NVTX_EVENTS.rowid) "
                               "WHEN 0 THEN %1 ELSE %2 END WHERE rowid IN (SELECT id FROM p2p)")
                    .arg(sqlBlob(peerPayload(0)), sqlBlob(peerPayload(1))));
        db.exec(QStringLiteral("INSERT INTO StringIds (id, value) VALUES ((SELECT max(id) + 1 FROM StringIds), 'ncclCommInitRank')"));
        db.exec(
            QStringLiteral(
                "INSERT INTO NVTX_EVENTS (start, end, eventType, globalTid, textId, domainId, binaryData) "
                "SELECT min(start) - 2000000, min(start) - 1000000, 59, globalTid, (SELECT id FROM StringIds WHERE value = 'ncclCommInitRank'), 1, "
                "CASE (globalTid >> 24) & 16777215 WHEN 144 THEN %1 ELSE %2 END FROM NVTX_EVENTS WHERE domainId = 1 GROUP BY globalTid")
                .arg(sqlBlob(initRecord(0)), sqlBlob(initRecord(1))));
        db.close();
    }

    void schemasDecodeNcclsPayloads()
    {
        SqliteDatabase db;
        QString error;
        QVERIFY2(db.open(m_path, &error), qPrintable(error));
        NvtxPayloadSchemas schemas;
        schemas.read(db);
        QVERIFY(!schemas.isEmpty());
        // Send, receive and broadcast share a layout; the range's name picks the peer.
        const QByteArray send = peerPayload(1);
        const std::vector<PayloadField> fields = schemas.decode(1, std::string_view(send.constData(), std::size_t(send.size())), "ncclSend");
        QCOMPARE(QString::fromStdString(formatPayloadFields(fields)),
                 QStringLiteral("NCCL communicator ID: 0x1122334455667788\nMessage size [bytes]: 1048576\nPeer rank: 1"));
        const std::vector<PayloadField> root = schemas.decode(1, std::string_view(send.constData(), std::size_t(send.size())), "ncclBroadcast");
        QCOMPARE(root.back().name, std::string("Root"));
        // All-reduce: the reduction as NCCL's enum names it.
        const QByteArray allReduce = u64(kComm) + u64(4096) + i32(4) + i32(0);
        const auto reduce = schemas.decode(1, std::string_view(allReduce.constData(), std::size_t(allReduce.size())), "ncclAllReduce");
        QCOMPARE(QString::fromStdString(reduce.back().text()), QStringLiteral("Avg"));
        // The record form names its schema itself.
        const QByteArray init = initRecord(1);
        const auto initFields = schemas.decode(1, std::string_view(init.constData(), std::size_t(init.size())), "ncclCommInitRank");
        QCOMPARE(payloadValue(initFields, "No. of ranks"), std::optional<std::int64_t>(2));
        QCOMPARE(payloadValue(initFields, "Rank"), std::optional<std::int64_t>(1));
        // No schema of that size, another domain, a truncated record: nothing, not a guess.
        QVERIFY(schemas.decode(1, std::string_view(send.constData(), 20), "ncclSend").empty());
        QVERIFY(schemas.decode(7, std::string_view(send.constData(), std::size_t(send.size())), "ncclSend").empty());
        QVERIFY(schemas.decode(1, std::string_view(init.constData(), std::size_t(init.size() - 3)), "ncclCommInitRank").empty());
    }

    void detailsShowTheFields()
    {
        const Session session = Session::load({m_path});
        QCOMPARE(session.ranks().size(), std::size_t(2));
        bool seen = false;
        for (int rank = 0; rank < 2 && !seen; ++rank) {
            const Report &r = *session.ranks()[std::size_t(rank)].report;
            for (std::uint32_t t = 0; t < r.tracks.size() && !seen; ++t) {
                const Track &track = r.tracks[t];
                if (track.kind != TrackKind::Nvtx)
                    continue;
                for (std::uint32_t i = 0; i < track.slices.size() && !seen; ++i) {
                    if (r.strings.view(track.slices.name(i)) != "ncclSend")
                        continue;
                    const EventDetails d = describeEvent(session, {rank, t, i});
                    QStringList rows;
                    for (const auto &f : d.fields)
                        rows << f.label + QStringLiteral(" = ") + f.value;
                    QVERIFY2(rows.contains(QStringLiteral("Message size [bytes] = 1048576")), qPrintable(rows.join(QLatin1Char('\n'))));
                    QVERIFY(rows.contains(QStringLiteral("NCCL communicator ID = 0x1122334455667788")));
                    seen = true;
                }
            }
        }
        QVERIFY(seen);
    }

    void kernelsCarryTheCallsAndMatchByCommunicator()
    {
        const Session session = Session::load({m_path});
        for (const RankEntry &entry : session.ranks()) {
            const Report &r = *entry.report;
            std::size_t withRecord = 0, nccl = 0;
            for (const Track &track : r.tracks) {
                if (track.kind != TrackKind::Kernel || !Session::ownsTrack(entry, track))
                    continue;
                for (std::size_t i = 0; i < track.slices.size(); ++i) {
                    if (!r.strings.view(track.slices.name(i)).starts_with("ncclDevKernel"))
                        continue;
                    ++nccl;
                    const KernelRecord &k = r.kernels[track.slices.payload(i)];
                    if (k.collective == KernelRecord::kNoCollective)
                        continue;
                    ++withRecord;
                    const CollectiveRecord &c = r.collectives[k.collective];
                    QCOMPARE(r.strings.string(c.name), QStringLiteral("ncclSend + ncclRecv"));
                    QCOMPARE(r.strings.string(c.processGroupName), QStringLiteral("NCCL comm 0x1122334455667788"));
                    QCOMPARE(c.inBytes, 2 * kMessage); // two sends of 1 MiB
                    QCOMPARE(c.outBytes, 2 * kMessage);
                    QCOMPARE(c.groupSize, 2);
                    QCOMPARE(c.commRank, entry.pid == 144u ? 0 : 1);
                    QCOMPARE(r.strings.string(c.peers), QStringLiteral("0,1"));
                }
            }
            // The capture window cut the first kernel's launching call:
            // without it, no calls are known for that kernel.
            QCOMPARE(nccl, std::size_t(33));
            QCOMPARE(withRecord, std::size_t(32));
        }
        const CollectiveMatch match = matchCollectives(session, KernelClassifier::rankscope());
        QCOMPARE(match.instances.size(), std::size_t(33));
        for (const CollectiveInstance &c : match.instances) {
            if (c.communicator == QLatin1String("stream #0")) { // the two kernels without calls
                QCOMPARE(c.bytes, std::int64_t(-1));
                continue;
            }
            QCOMPARE(c.communicator, QStringLiteral("NCCL comm 0x1122334455667788 ranks 0↔1"));
            QCOMPARE(c.kind, CollectiveKind::SendRecv);
            QCOMPARE(c.bytes, 2 * kMessage);
            QCOMPARE(c.groupSize, 2);
            QVERIFY(c.busBandwidth().has_value());
            QCOMPARE(*c.busBandwidth(), *c.algorithmBandwidth()); // send/recv: factor 1
        }
        QVERIFY(match.desyncs.empty());
    }

    void untouchedExportStillMatchesByStream()
    {
        // Without payloads (the export as recorded) nothing is invented.
        const Session session = Session::load({dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"))});
        for (const RankEntry &entry : session.ranks())
            QVERIFY(entry.report->collectives.empty());
    }
};

QTEST_GUILESS_MAIN(TestNcclPayloads)
#include "tst_ncclpayloads.moc"
