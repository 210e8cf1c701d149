// A big Kineto document is parsed in parts (load/kineto/eventarray.h): the
// scan finds its event arrays through strings that hold brackets, commas
// and escaped quotes, cuts only between events, and the events parsed part
// by part are the events parsed whole, field for field, with the same
// header; a cancelled or broken document in parts fails as it should.
#include "load/gzipreader.h"
#include "load/kineto/eventarray.h"
#include "load/kineto/kinetoparser.h"
#include "load/textsource.h"
#include "testdata.h"

#include <QtTest>
#include <cstring>

using namespace rankscope;
using namespace rankscope::kineto;
using namespace rankscope::test;

namespace {

constexpr std::size_t kWhole = std::size_t(1) << 60;

void fill(ByteBuffer &json, const QByteArray &text)
{
    json.reserve(std::size_t(text.size()) + 64);
    std::memcpy(json.grow(std::size_t(text.size())), text.constData(), std::size_t(text.size()));
    json.commit(std::size_t(text.size()));
}

// Every field of an event, as text.
QByteArray describe(const KinetoEvent &e)
{
    QByteArray d;
    auto text = [&](std::string_view v) { d.append(v.data(), qsizetype(v.size())).append('|'); };
    auto number = [&](std::int64_t v) { d.append(QByteArray::number(qlonglong(v))).append('|'); };
    d.append(e.ph).append('|');
    for (std::string_view v : {e.cat, e.name, e.pidText, e.tidText, e.argName, e.collectiveName, e.dtype, e.processGroupName, e.processGroupRanks})
        text(v);
    for (std::int64_t v : {e.pid,          e.tid,         e.tsNs,           e.durNs,         e.id,
                           e.externalId,   e.correlation, e.device,         e.stream,        e.registers,
                           e.sharedMemory, e.bytes,       e.totalAllocated, e.totalReserved, e.deviceType,
                           e.deviceId,     e.inNelems,    e.outNelems,      e.groupSize,     e.seq,
                           e.rank,         e.p2pSrc,      e.p2pDst})
        number(v);
    for (int i = 0; i < 3; ++i) {
        number(e.grid[i]);
        number(e.block[i]);
    }
    for (const auto &[name, value] : e.counterValues)
        text(name), d.append(QByteArray::number(value, 'g', 17)).append('|');
    return d;
}

struct Parsed {
    std::optional<ParseError> error;
    TraceHeader header;
    QByteArrayList events;
};

Parsed parse(
    const QByteArray &text, std::size_t partBytes, const std::function<bool()> &cancelled = [] { return false; })
{
    ByteBuffer json;
    fill(json, text);
    Parsed p;
    p.error = parseTrace(
        json, p.header, [&](const KinetoEvent &e) { p.events << describe(e); }, cancelled, partBytes);
    return p;
}

QByteArray headerOf(const TraceHeader &h)
{
    QByteArray d = QByteArray::number(h.baseTimeNanoseconds.value_or(-1)) + "|" + QByteArray::number(h.rank.value_or(-1)) + "|"
                   + QByteArray::number(h.worldSize.value_or(-1)) + "|" + QByteArray::fromStdString(h.backend) + "|" + QByteArray::number(h.bareArray)
                   + QByteArray::number(h.hasTraceEvents);
    for (const ProcessGroup &pg : h.processGroups)
        d += "|" + QByteArray::fromStdString(pg.name + pg.description + pg.ranks) + QByteArray::number(pg.size);
    for (const DeviceProperties &dev : h.devices)
        d += "|" + QByteArray::fromStdString(dev.name) + QByteArray::number(dev.id) + QByteArray::number(qlonglong(dev.totalGlobalMem));
    return d;
}

} // namespace

class TestEventArray : public QObject {
    Q_OBJECT

private slots:
    void scanFindsTheEventsAndCutsBetweenThem_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QByteArrayList>("events"); // the events it holds, as written
        const QByteArray a = "{\"name\": \"a, [b] {c}\", \"ph\": \"X\"}",
                         b = "{\"name\": \"q\\\"],[{\\\"\", \"args\": {\"l\": [[1, 2], {\"x\": [3]}]}}",
                         c = "{\"name\": \"ends in a backslash \\\\\", \"ph\": \"i\"}", d = "{\"cat\": \"}]\"}";
        QTest::newRow("object") << QByteArray("{\"schemaVersion\": 1, \"traceEvents\": [" + a + ",\n  " + b + "," + c + "," + d + "], \"x\": [1,2]}")
                                << QByteArrayList{a, b, c, d};
        QTest::newRow("bare array") << QByteArray(" [" + a + "," + b + "]") << QByteArrayList{a, b};
        QTest::newRow("keys before and after, strings named traceEvents")
            << QByteArray("{\"k\": \"traceEvents\", \"deviceProperties\": [{\"id\": 0}], \"traceEvents\": [" + c + "," + d
                          + "], \"distributedInfo\": {\"rank\": 1}}")
            << QByteArrayList{c, d};
        QTest::newRow("two arrays") << QByteArray("{\"traceEvents\": [" + a + "], \"traceEvents\": [" + b + "]}") << QByteArrayList{a, b};
        QTest::newRow("an empty array") << QByteArray("{\"traceEvents\": []}") << QByteArrayList{};
    }
    void scanFindsTheEventsAndCutsBetweenThem()
    {
        QFETCH(QByteArray, json);
        QFETCH(QByteArrayList, events);
        const std::string_view text(json.constData(), std::size_t(json.size()));
        for (const std::size_t partBytes : {std::size_t(0), std::size_t(1), std::size_t(40), kWhole}) {
            QByteArrayList seen;
            const EventArrayScan scan = scanEventArrays(text, partBytes, [&](EventPart part) {
                // A part is whole events: split at the commas between them.
                const QByteArray bytes = json.mid(qsizetype(part.begin), qsizetype(part.end - part.begin));
                if (!bytes.trimmed().isEmpty())
                    for (const QByteArray &event : QByteArrayList{bytes}) // one or more; checked below
                        seen << event.trimmed();
                return true;
            });
            QVERIFY(!scan.brokenAt);
            // Each part parses as an array of whole events.
            QByteArray joined;
            for (const QByteArray &part : seen)
                joined += (joined.isEmpty() ? "" : ",") + part;
            QByteArray expected;
            for (const QByteArray &event : events)
                expected += (expected.isEmpty() ? "" : ",") + event;
            QCOMPARE(QByteArray(joined).replace("\n  ", ""), expected);
            if (partBytes <= 1)
                QCOMPARE(seen.size(), events.size()); // a part per event
            const Parsed parts = parse(json, std::max<std::size_t>(partBytes, 1)), whole = parse(json, kWhole);
            QVERIFY2(!parts.error && !whole.error, qPrintable((parts.error ? parts.error->message : QString()) + QLatin1Char('/')
                                                              + (whole.error ? whole.error->message : QString())));
            QCOMPARE(parts.events, whole.events);
            QCOMPARE(headerOf(parts.header), headerOf(whole.header));
        }
    }

    // Fed as it is read, a byte or a few at a time (strings, escapes and
    // keys cut anywhere), the scan finds the parts it finds in one go.
    void scanFedInPiecesFindsTheSameParts_data()
    {
        scanFindsTheEventsAndCutsBetweenThem_data();
        const QByteArray runs = "{\"name\": \"\\\\\\\"]\\\\\", \"ph\": \"i\"}"; // "\\\"]\\": escaped quote, then backslashes
        QTest::newRow("runs of backslashes") << QByteArray("{\"traceEvents\": [" + runs + "," + runs + "]}") << QByteArrayList{runs, runs};
    }
    void scanFedInPiecesFindsTheSameParts()
    {
        QFETCH(QByteArray, json);
        const std::string_view text(json.constData(), std::size_t(json.size()));
        auto partsOf = [](const EventArrayScan &scan, const std::vector<EventPart> &parts) {
            QByteArray d = scan.brokenAt ? "broken" : "";
            for (const EventPart &p : parts)
                d += QByteArray::number(qulonglong(p.begin)) + "-" + QByteArray::number(qulonglong(p.end)) + (p.wholeArray ? "w " : " ");
            for (const EventPart &a : scan.arrays)
                d += "[" + QByteArray::number(qulonglong(a.begin)) + "-" + QByteArray::number(qulonglong(a.end)) + "]";
            return d;
        };
        for (const std::size_t partBytes : {std::size_t(1), std::size_t(40)}) {
            std::vector<EventPart> whole;
            const EventArrayScan wholeScan = scanEventArrays(text, partBytes, [&](EventPart p) {
                whole.push_back(p);
                return true;
            });
            for (const std::size_t piece : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(7)}) {
                std::vector<EventPart> fed;
                EventArrayScanner scanner(partBytes, [&](EventPart p) {
                    fed.push_back(p);
                    return true;
                });
                for (std::size_t at = 0; at < text.size(); at += piece)
                    QVERIFY(scanner.feed(text.substr(at, piece)));
                scanner.finish();
                QCOMPARE(partsOf(scanner.result(), fed), partsOf(wholeScan, whole));
            }
        }
    }

    // A gzip file parsed in parts is read as it is inflated: the text held
    // at any time is a few parts, never the whole; the events and header
    // are those of the whole parse.
    void aGzipIsParsedWithoutItsWholeText()
    {
        const QString file = dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz"));
        ByteBuffer whole;
        QString error;
        QVERIFY2(readMaybeGzip(file, whole, 64, &error), qPrintable(error));
        const std::size_t textBytes = whole.size();
        const Parsed parsedWhole = parse(QByteArray(whole.data(), qsizetype(whole.size())), kWhole);
        whole.release();
        QVERIFY(!parsedWhole.error);

        constexpr std::size_t kPartBytes = 16 << 10;
        const std::size_t before = ByteBuffer::liveBytes();
        std::size_t mostHeld = 0;
        TextSource source(file);
        QVERIFY(source.isGzip());
        Parsed streamed;
        streamed.error = parseTrace(
            source, streamed.header,
            [&](const KinetoEvent &e) {
                streamed.events << describe(e);
                mostHeld = std::max(mostHeld, ByteBuffer::liveBytes() - before);
            },
            [] { return false; }, kPartBytes);
        QVERIFY2(!streamed.error, qPrintable(streamed.error ? streamed.error->message : QString()));
        QCOMPARE(streamed.events, parsedWhole.events);
        QCOMPARE(headerOf(streamed.header), headerOf(parsedWhole.header));
        QVERIFY2(mostHeld < 8 * kPartBytes, qPrintable(QStringLiteral("%1 bytes held of %2").arg(mostHeld).arg(textBytes)));
        QVERIFY(textBytes > 100 * kPartBytes);
    }

    // Cut short, the gzip's own error is the load's: where its stream ends.
    void aTruncatedGzipSaysWhereItsStreamEnds()
    {
        QFile file(dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray gz = file.readAll();
        QTemporaryDir dir;
        const QString cut = dir.filePath(QStringLiteral("cut.json.gz"));
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(gz.left(gz.size() / 2));
        out.close();
        TextSource source(cut);
        Parsed p;
        p.error = parseTrace(
            source, p.header, [&](const KinetoEvent &e) { p.events << describe(e); }, [] { return false; }, 16 << 10);
        QVERIFY(p.error && p.error->readFailure);
        QVERIFY2(p.error->message.startsWith(QLatin1String("truncated gzip data: the stream ends at compressed byte ")),
                 qPrintable(p.error->message));
        QVERIFY(!p.events.isEmpty()); // the parts before the cut were read
    }

    void brokenDocumentsAreNoArrays_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("a string left open") << QByteArray("{\"traceEvents\": [{\"name\": \"x}]}");
        QTest::newRow("unbalanced") << QByteArray("{\"traceEvents\": [{\"name\": \"x\"}]]}");
        QTest::newRow("closed by a brace") << QByteArray("{\"traceEvents\": [{\"name\": \"x\"}}}");
    }
    void brokenDocumentsAreNoArrays()
    {
        QFETCH(QByteArray, json);
        const EventArrayScan scan = scanEventArrays(std::string_view(json.constData(), std::size_t(json.size())), 1, [](EventPart) { return true; });
        QVERIFY(scan.brokenAt);
        // In parts or whole, the parse fails (and says where).
        QVERIFY(parse(json, 1).error);
        QVERIFY(parse(json, kWhole).error);
        // A key written with escapes is not recognised by the scan: parsed whole.
        const QByteArray escaped = "{\"trace\\u0045vents\": [{\"ph\": \"X\", \"name\": \"a\"}]}";
        const Parsed p = parse(escaped, 1);
        QVERIFY(!p.error);
        QCOMPARE(p.events.size(), 1);
    }

    // A stray comma makes an empty part: refused in parts as it is whole.
    void strayCommasFailInPartsAsWhole_data()
    {
        QTest::addColumn<QByteArray>("json");
        const QByteArray e = "{\"ph\": \"X\", \"name\": \"a\"}";
        QTest::newRow("two commas") << QByteArray("{\"traceEvents\": [" + e + ",," + e + "]}");
        QTest::newRow("a trailing comma") << QByteArray("[" + e + ", ]");
        QTest::newRow("a leading comma") << QByteArray("[ ," + e + "]");
    }
    void strayCommasFailInPartsAsWhole()
    {
        QFETCH(QByteArray, json);
        QVERIFY(parse(json, kWhole).error);
        for (const std::size_t partBytes : {std::size_t(1), std::size_t(8), std::size_t(1000)})
            QVERIFY(parse(json, partBytes).error);
    }

    // The real traces in tests/data: parsed in parts of 300 bytes and of
    // 64 KiB, the same events and header as parsed whole.
    void partsParseAsTheWhole_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f : {"kineto/ddp_gloo_rank0.pt.trace.json.gz", "kineto/fast_rank0.pt.trace.json.gz", "kineto/slow_rank0.pt.trace.json.gz",
                              "kineto/variants/nccl_rank1.json", "kineto/variants/old_bare_array.json"})
            QTest::newRow(f) << dataPath(QString::fromLatin1(f));
    }
    void partsParseAsTheWhole()
    {
        QFETCH(QString, file);
        ByteBuffer text;
        QString error;
        QVERIFY2(readMaybeGzip(file, text, 64, &error), qPrintable(error));
        const QByteArray json(text.data(), qsizetype(text.size()));
        const Parsed whole = parse(json, kWhole);
        QVERIFY(!whole.error);
        QVERIFY(!whole.events.isEmpty());
        for (const std::size_t partBytes : {std::size_t(300), std::size_t(64) << 10}) {
            const Parsed parts = parse(json, partBytes);
            QVERIFY2(!parts.error, qPrintable(parts.error ? parts.error->message : QString()));
            QCOMPARE(parts.events.size(), whole.events.size());
            QCOMPARE(parts.events, whole.events);
            QCOMPARE(headerOf(parts.header), headerOf(whole.header));
        }
    }

    void partsStopWhenCancelledOrBroken()
    {
        QByteArray events;
        for (int i = 0; i < 20000; ++i)
            events += QByteArray(i ? "," : "") + "{\"ph\": \"X\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": " + QByteArray::number(i)
                      + ", \"dur\": 1}";
        const QByteArray json = "{\"traceEvents\": [" + events + "]}";
        const Parsed cancelled = parse(json, 4096, [] { return true; });
        QVERIFY(cancelled.error && cancelled.error->cancelled);
        QVERIFY(cancelled.events.size() < 20000);
        // Cut short: the parts before the break were read, then the error,
        // at a byte inside the document; no event twice.
        const QByteArray truncated = json.left(json.size() * 2 / 3);
        const Parsed broken = parse(truncated, 4096);
        QVERIFY(broken.error && !broken.error->cancelled);
        QVERIFY(broken.error->byteOffset <= std::size_t(truncated.size()));
        QVERIFY(broken.events.size() < 20000);
        // A damaged event in the middle: its part's error, at its offset.
        QByteArray damaged = json;
        const qsizetype at = damaged.indexOf("\"ts\": 10000,");
        damaged.replace(at, 5, "\"ts\" ");
        const Parsed bad = parse(damaged, 4096);
        QVERIFY(bad.error && !bad.error->cancelled);
        QVERIFY2(bad.error->byteOffset > std::size_t(at) - 100 && bad.error->byteOffset < std::size_t(at) + 100,
                 qPrintable(QStringLiteral("%1 against %2: %3").arg(bad.error->byteOffset).arg(at).arg(bad.error->message)));
    }
};

QTEST_GUILESS_MAIN(TestEventArray)
#include "tst_eventarray.moc"
