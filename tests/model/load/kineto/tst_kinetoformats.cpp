// Kineto format variants and bad input, on small traces written here.
#include "load/gzipreader.h"
#include "load/kineto/kinetoloader.h"
#include "load/kineto/kinetoparser.h"
#include "load/traceloader.h"
#include "session/session.h"
#include "stats/ranks/rankbreakdown.h"
#include "testdata.h"

#include <QtTest>
#include <cstring>
#include <zlib.h>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// The 2020 form: a bare array, capitalised categories, integer µs since the
// epoch, string pids/tids, async_cpu_to_gpu flows, no metadata events.
QString oldTrace()
{
    return dataPath(QStringLiteral("kineto/variants/old_bare_array.json"));
}

// A rank of an NCCL job: collective arguments on the NCCL kernel, two
// profiler steps, fractional µs relative to baseTimeNanoseconds.
QByteArray ncclTrace()
{
    return readText(dataPath(QStringLiteral("kineto/variants/nccl_rank1.json"))).toUtf8();
}

} // namespace

class TestKinetoFormats : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes) { return writeFile(m_dir, name, bytes); }

    QString writeGzip(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        gzFile gz = gzopen(path.toUtf8().constData(), "wb");
        gzwrite(gz, bytes.constData(), unsigned(bytes.size()));
        gzclose(gz);
        return path;
    }

private slots:
    void cancelledParseIsNotASuccess_data()
    {
        QTest::addColumn<bool>("bareArray");
        QTest::newRow("traceEvents") << false;
        QTest::newRow("bare array") << true;
    }
    void cancelledParseIsNotASuccess()
    {
        QFETCH(bool, bareArray);
        QByteArray events;
        for (int i = 0; i < 10000; ++i)
            events += QByteArray(i ? "," : "") + "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": "
                      + QByteArray::number(i) + ", \"dur\": 1}";
        const QByteArray text = bareArray ? "[" + events + "]" : "{\"traceEvents\": [" + events + "]}";
        ByteBuffer json;
        std::memcpy(json.grow(std::size_t(text.size())), text.constData(), std::size_t(text.size()));
        json.commit(std::size_t(text.size()));
        kineto::TraceHeader header;
        std::size_t seen = 0;
        const auto error = kineto::parseTrace(
            json, header, [&](const kineto::KinetoEvent &) { ++seen; }, [] { return true; });
        QVERIFY(error);
        QVERIFY(error->cancelled);
        QVERIFY(seen < 10000);
    }

    void oldBareArrayForm()
    {
        const LoadResult r = loadTraceFile(oldTrace());
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Report &rep = *r.report;
        QCOMPARE(rep.eventCount(TrackKind::CpuOp), std::size_t(1));
        QCOMPARE(rep.eventCount(TrackKind::CudaApi), std::size_t(1));
        QCOMPARE(rep.eventCount(TrackKind::Kernel), std::size_t(1));
        QCOMPARE(rep.eventCount(TrackKind::Memcpy), std::size_t(1));
        QCOMPARE(rep.kernels[0].correlationId, 7u);
        QCOMPARE(rep.launch(rep.kernels[0]).gridX, 4u);
        QCOMPARE(rep.memcpys[0].srcKind, MemoryKind::Pinned);
        // Absolute µs: the report starts at its first event.
        QCOMPARE(rep.meta.utcStartNs, 1661203462598738000LL);
        QCOMPARE(rep.extent().start, 0);
        // The kernel's launch is found through the correlation id.
        QVERIFY(rep.apiCallFor(Report::correlationKey(1234, 7)).has_value());
        QCOMPARE(rep.gpuOpsFor(Report::correlationKey(1234, 7)).size(), std::size_t(1));
    }

    void ncclCollectivesAndOverlap()
    {
        const QString path = writeGzip(QStringLiteral("nccl_job.json.gz"), ncclTrace());
        const Session s = Session::load({path});
        QCOMPARE(s.failures().size(), std::size_t(0));
        QCOMPARE(s.ranks().size(), std::size_t(1));
        QCOMPARE(s.ranks()[0].rank, 1);
        const Report &rep = *s.ranks()[0].report;
        QCOMPARE(rep.process(77)->name, QStringLiteral("python"));
        QCOMPARE(rep.collectives.size(), std::size_t(1));
        const CollectiveRecord &c = rep.collectives[0];
        QCOMPARE(rep.strings.string(c.name), QStringLiteral("allreduce"));
        QCOMPARE(c.inBytes, 1048576LL * 4); // nelems x sizeof(Float)
        QCOMPARE(c.groupSize, 2);
        QCOMPARE(rep.strings.string(c.processGroupRanks), QStringLiteral("[0, 1]"));
        bool ncclLane = false;
        for (const Track &t : rep.tracks)
            ncclLane |= t.kind == TrackKind::NcclKernels && t.slices.size() == 1;
        QVERIFY(ncclLane);
        // Steps window: launches before the last step's start (500 µs): the
        // NCCL kernel [200, 300] and one gemm [250, 350]. Busy 150 µs, no
        // idle, compute 100, non-compute 50; comm overlaps compute 50 of 100.
        QCOMPARE(stats::rankSummary(s, stats::KernelClassifier::hta()).toCsv(),
                 QStringLiteral("Rank,Idle Time (ns),Compute Time (ns),Non-compute Time (ns),Kernel Time (ns),Idle (%),Compute (%),Non-compute "
                                "(%),Comm-Comp Overlap (%)\n"
                                "1,0,100000,50000,150000,0.00,66.67,33.33,50.00\n"));
    }

    void gzipBudgetCoversEveryFileLoadingAtOnce()
    {
        // 6 MiB of JSON text behind a small gzip file.
        QByteArray text = "{\"traceEvents\": [";
        while (text.size() < 6 * 1024 * 1024)
            text += "{\"ph\": \"i\", \"name\": \"padding padding padding\", \"pid\": 1, \"tid\": 1, \"ts\": 1},";
        text += "{}]}";
        const QString gz = writeGzip(QStringLiteral("six.json.gz"), text);
        const std::size_t budgetBefore = ByteBuffer::inflateBudget();
        ByteBuffer::setInflateBudget(10 * 1024 * 1024);
        QString error;
        {
            // Another file's 6 MiB of text is being parsed meanwhile.
            ByteBuffer other;
            other.grow(6 * 1024 * 1024);
            other.commit(6 * 1024 * 1024);
            ByteBuffer out;
            QVERIFY(!readMaybeGzip(gz, out, 64, &error));
            QVERIFY2(error.contains(QLatin1String("files loading now")), qPrintable(error));
        }
        // Alone, it fits.
        ByteBuffer out;
        const bool alone = readMaybeGzip(gz, out, 64, &error);
        ByteBuffer::setInflateBudget(budgetBefore);
        QVERIFY2(alone, qPrintable(error));
        QCOMPARE(out.size(), std::size_t(text.size()));
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        const QByteArray valid = ncclTrace();
        const QString full = writeGzip(QStringLiteral("full.json.gz"), valid);
        QFile f(full);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray gz = f.readAll();
        QTest::newRow("truncated gzip") << write(QStringLiteral("cut.json.gz"), gz.left(gz.size() / 2)) << "gzip";
        QTest::newRow("invalid JSON") << write(QStringLiteral("bad.json"), "{\"traceEvents\": [{\"ph\": \"X\", \"name\": }]}") << "at byte";
        QTest::newRow("missing traceEvents") << write(QStringLiteral("meta.json"), "{\"schemaVersion\": 1}") << "no \"traceEvents\"";
        QTest::newRow("traceEvents not an array") << write(QStringLiteral("five.json"), "{\"traceEvents\": 5}") << "not an array";
        QTest::newRow("truncated JSON") << write(QStringLiteral("half.json"), valid.left(valid.size() / 2)) << "invalid JSON";
        QTest::newRow("invalid UTF-8") << write(QStringLiteral("utf.json"),
                                                QByteArray("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"") + "\xff\xfe" + "\"}]}")
                                       << "invalid JSON";
    }

    void badInput()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        const LoadResult r = loadTraceFile(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(reason), qPrintable(r.error));
        QVERIFY(!r.error.contains(QLatin1Char('\n')));
    }

    void deeplyNestedArraysHoldNoEvents()
    {
        // 100,000 nested arrays: no stack overflow, no events, said so.
        const LoadResult r = loadTraceFile(write(QStringLiteral("deep.json"), QByteArray(100000, '[') + QByteArray(100000, ']')));
        if (r.ok()) {
            QCOMPARE(r.report->eventCount(), std::size_t(0));
            QVERIFY(!r.report->diagnostics.empty());
        } else {
            QVERIFY(!r.error.isEmpty());
        }
    }

    void wrongValueTypesSkipTheEvent()
    {
        const LoadResult r = loadTraceFile(write(
            QStringLiteral("types.json"),
            "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": {}, \"tid\": [], \"ts\": \"abc\", \"dur\": true},\n"
            "                                {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ok\", \"pid\": 0, \"tid\": 7, \"ts\": 1.5, \"dur\": 2, "
            "\"args\": {\"stream\": 7, \"correlation\": 3}}]}"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.report->eventCount(TrackKind::Kernel), std::size_t(1));
        QVERIFY(!r.report->diagnostics.empty());
    }

    void oneBadRankStillOpensTheOthers()
    {
        QStringList files;
        for (int rank = 0; rank < 3; ++rank)
            files << dataPath(QStringLiteral("kineto/ddp_gloo_rank%1.pt.trace.json.gz").arg(rank));
        files << write(QStringLiteral("ddp_gloo_rank3.json"), "{\"traceEvents\": [");
        const Session s = Session::load(files);
        QCOMPARE(s.ranks().size(), std::size_t(3));
        QCOMPARE(s.failures().size(), std::size_t(1));
        QVERIFY(s.failures()[0].error.contains(QLatin1String("at byte")));
    }
};

QTEST_GUILESS_MAIN(TestKinetoFormats)
#include "tst_kinetoformats.moc"
