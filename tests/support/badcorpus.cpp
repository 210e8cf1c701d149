#include "badcorpus.h"
#include "testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <sqlite3.h>
#include <zlib.h>

#include <cstdio>
#include <vector>

namespace rankscope::test {

namespace {

using Outcome = BadInput::Outcome;

bool copyFresh(const QString &from, const QString &to)
{
    QFile::remove(to);
    return QFile::copy(from, to) && QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
}

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Runs SQL on a copy of a real export (never on the original).
bool mutateExport(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK;
    char *error = nullptr;
    if (ok && sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        std::fprintf(stderr, "bad corpus: %s: %s\n", qPrintable(path), error ? error : "?");
        ok = false;
    }
    sqlite3_free(error);
    sqlite3_close(db);
    return ok;
}

// A gzip bomb: `megabytes` MiB of zeros in a few hundred KiB.
bool writeGzipOfZeros(const QString &path, int megabytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    z_stream zs{};
    if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return false;
    std::vector<unsigned char> zeros(1 << 20, 0), out(1 << 16);
    bool ok = true;
    for (int i = 0; i <= megabytes && ok; ++i) {
        const bool last = i == megabytes;
        zs.next_in = zeros.data();
        zs.avail_in = last ? 0 : uInt(zeros.size());
        do {
            zs.next_out = out.data();
            zs.avail_out = uInt(out.size());
            deflate(&zs, last ? Z_FINISH : Z_NO_FLUSH);
            ok = file.write(reinterpret_cast<const char *>(out.data()), qint64(out.size() - zs.avail_out)) >= 0;
        } while (zs.avail_out == 0 && ok);
    }
    deflateEnd(&zs);
    return ok;
}

// The kernel table again without its NOT NULL constraints, so that rows
// can hold what a broken exporter writes.
constexpr const char *kLooseKernelTable = "CREATE TABLE loose AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;"
                                          "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
                                          "ALTER TABLE loose RENAME TO CUPTI_ACTIVITY_KIND_KERNEL;";

struct ExportMutation {
    const char *file;
    Outcome outcome;
    const char *mention;
    QByteArray sql;
};

std::vector<ExportMutation> exportMutations()
{
    const QByteArray hugeName(1 << 20, 'K');
    return {
        {"missing_stringids.sqlite", Outcome::Report, "StringIds", "DROP TABLE StringIds;"},
        {"missing_kernel_table.sqlite", Outcome::Report, "", "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"},
        {"missing_end_column.sqlite", Outcome::Report, "without an end", "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN \"end\";"},
        {"renamed_start_column.sqlite", Outcome::Report, "no start column", "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME COLUMN start TO startNs;"},
        {"null_end.sqlite", Outcome::Report, "without an end",
         QByteArray(kLooseKernelTable) + "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET \"end\" = NULL WHERE rowid % 10 = 0;"},
        {"end_before_start.sqlite", Outcome::Report, "end before they start",
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET \"end\" = start - 1000 WHERE rowid % 7 = 0;"},
        {"negative_times.sqlite", Outcome::Report, "negative",
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -start, \"end\" = -start + 500 WHERE rowid % 5 = 0;"
         "UPDATE OSRT_API SET start = -4611686018427387904, \"end\" = -4611686018427387000 WHERE rowid = 3;"},
        {"overflowing_times.sqlite", Outcome::Report, "out of range",
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET \"end\" = 9223372036854775807 WHERE rowid = 2;"
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -9223372036854775808 WHERE rowid = 4;"
         "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = 9223372036854775000, \"end\" = 9223372036854775807 WHERE rowid = 5;"
         "UPDATE NVTX_EVENTS SET \"end\" = 9223372036854775807 WHERE rowid = 1;"},
        {"dangling_string_ids.sqlite", Outcome::Report, "unknown string",
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = 90000000 + rowid, demangledName = 90000000 + rowid WHERE rowid % 3 = 0;"
         "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = -5 WHERE rowid % 4 = 0;"
         "UPDATE OSRT_API SET nameId = 2147483648 WHERE rowid % 4 = 0;"},
        {"kernel_on_missing_stream.sqlite", Outcome::Report, "not described",
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId = 4242, deviceId = 77 WHERE rowid % 3 = 0;"},
        {"unmatched_nvtx.sqlite", Outcome::Report, "still open",
         "UPDATE NVTX_EVENTS SET \"end\" = NULL WHERE rowid % 4 = 0;"
         "UPDATE NVTX_EVENTS SET endGlobalTid = 12345 WHERE rowid % 5 = 0;"},
        {"huge_kernel_name.sqlite", Outcome::Report, "",
         "UPDATE StringIds SET value = '" + hugeName
             + "' WHERE id IN (SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1)"
               " OR id IN (SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1);"},
        // A schema SQLite cannot parse; its message quotes the multi-line
        // CREATE TABLE (found by fuzz_nsys).
        {"broken_schema.sqlite", Outcome::Error, "malformed database schema",
         "PRAGMA writable_schema = ON;"
         "UPDATE sqlite_master SET sql = replace(sql, 'greenContextId', '`greenContextId') WHERE name = 'CUPTI_ACTIVITY_KIND_MEMCPY';"},
        // StringIds' text as a generated column whose every read builds
        // and scans 60 MB: reading the table would take a quarter of an
        // hour (the audit's hang). Its table is not read; the rest opens.
        {"generated_column.sqlite", Outcome::Report, "generated", generatedStringIdsSql()},
        // A hand-edited file whose kernel "table" is a view that never ends.
        {"view_that_never_ends.sqlite", Outcome::Report, "view",
         "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
         "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)"
         " SELECT x AS start, x + 1 AS \"end\", 0 AS deviceId, 1 AS contextId, 7 AS streamId, x AS correlationId,"
         " 0 AS globalPid, 1 AS demangledName, 1 AS shortName FROM n;"},
    };
}

} // namespace

QByteArray generatedStringIdsSql()
{
    return "CREATE TABLE computed(id INTEGER NOT NULL PRIMARY KEY, raw TEXT, value TEXT GENERATED ALWAYS AS (raw) VIRTUAL);"
           "INSERT INTO computed(id, raw) SELECT id, value FROM StringIds;"
           "DROP TABLE StringIds;"
           "ALTER TABLE computed RENAME TO StringIds;"
           // Made slow after the rows are in (an insert computes the column too).
           "PRAGMA writable_schema = ON;"
           "UPDATE sqlite_master SET sql = replace(sql, 'AS (raw)', 'AS (CASE WHEN instr(replace(hex(zeroblob(15000000 + length(raw))),"
           " ''0'', ''00''), ''x'') = 0 THEN raw END)') WHERE name = 'StringIds';";
}

QString deepCallchainSource()
{
    return dataPath(QStringLiteral("third-party/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"));
}

QByteArray deepCallchainSql(int depth, int nameLength)
{
    const QByteArray frames = "WITH RECURSIVE n(d) AS (SELECT 0 UNION ALL SELECT d + 1 FROM n WHERE d < " + QByteArray::number(depth - 1) + ")";
    const QByteArray sample = "(SELECT min(id) FROM COMPOSITE_EVENTS)";
    return "INSERT INTO StringIds(id, value) " + frames + " SELECT 900000000 + d, printf('%04d', d) || replace(hex(zeroblob("
           + QByteArray::number((nameLength - 4) / 2)
           + ")), '0', 'f') FROM n;"
             "DELETE FROM SAMPLING_CALLCHAINS WHERE id = "
           + sample
           + ";"
             "INSERT INTO SAMPLING_CALLCHAINS(id, symbol, module, originalIP, unwindMethod, stackDepth) "
           + frames + " SELECT " + sample + ", 900000000 + d, (SELECT module FROM SAMPLING_CALLCHAINS LIMIT 1), d, 0, d FROM n;";
}

QString BadInput::name() const
{
    return QFileInfo(path).fileName();
}

std::vector<BadInput> buildBadCorpus(const QString &outDir, const QString &committedDir, const QString &nsysExport, const QString &kinetoTrace)
{
    if (!QDir().mkpath(outDir))
        return {};
    const QDir out(outDir);
    std::vector<BadInput> corpus;
    auto add = [&](const QString &file, Outcome outcome, const char *mention) {
        corpus.push_back({out.filePath(file), outcome, QString::fromUtf8(mention)});
    };

    // Committed: small and hand-made (tests/data/bad/make_small_inputs.py).
    struct Committed {
        const char *file;
        Outcome outcome;
        const char *mention;
    };
    for (const Committed &c : std::initializer_list<Committed>{
             {"empty.sqlite", Outcome::Error, "empty"},
             {"empty.json", Outcome::Error, "empty"},
             {"random.sqlite", Outcome::Error, "not a trace"},
             {"random.json", Outcome::Error, "not a trace"},
             {"random.json.gz", Outcome::Error, "gzip"},
             {"invalid_utf8.json", Outcome::Error, "UTF-8"},
             {"no_trace_events.json", Outcome::Error, "traceEvents"},
             {"trace_events_not_array.json", Outcome::Error, "not an array"},
             {"wrong_types.json", Outcome::Report, "skipped"},
             {"claims_2gb.json.gz", Outcome::Error, "gzip"},
             {"truncated.json.gz", Outcome::Error, "gzip"},
             {"truncated.json", Outcome::Error, "at byte"},
         }) {
        if (copyFresh(committedDir + QLatin1Char('/') + QLatin1String(c.file), out.filePath(QLatin1String(c.file))))
            add(QLatin1String(c.file), c.outcome, c.mention);
    }

    // A real export cut at several offsets.
    QFile original(nsysExport);
    if (original.open(QIODevice::ReadOnly)) {
        const QByteArray bytes = original.readAll();
        for (qint64 keep : {100LL, 4096LL, 65536LL, 400000LL, 800000LL, 1500000LL}) {
            const QString file = QStringLiteral("truncated_%1.sqlite").arg(keep);
            if (keep < bytes.size() && writeBytes(out.filePath(file), bytes.left(keep)))
                add(file, Outcome::ErrorOrReport, "");
        }
    }

    // An SQLite database that is not an nsys export.
    {
        const QString file = QStringLiteral("not_nsys.sqlite");
        QFile::remove(out.filePath(file));
        if (mutateExport(out.filePath(file), "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT);"
                                             "INSERT INTO customers VALUES(1, 'Ada');"))
            add(file, Outcome::Error, "not an Nsight Systems export");
    }

    // Real exports, edited the ways broken exporters and hands edit them.
    for (const ExportMutation &m : exportMutations()) {
        const QString file = QLatin1String(m.file);
        if (copyFresh(nsysExport, out.filePath(file)) && mutateExport(out.filePath(file), m.sql.constData()))
            add(file, m.outcome, m.mention);
    }

    // pipit's saxpy export (CPU samples) with one sample's callchain made
    // 1,024 frames deep, each function a distinct 200-character name (the
    // file stays under the fuzzers' 2 MB inputs): a tree of paths, built
    // naively, is quadratic in that.
    {
        const QString file = QStringLiteral("deep_callchain.sqlite");
        if (copyFresh(deepCallchainSource(), out.filePath(file)) && mutateExport(out.filePath(file), deepCallchainSql(1024, 200).constData()))
            add(file, Outcome::Report, "");
    }

    // JSON too deep for a recursive parser, and a 1 MB event name.
    if (writeBytes(out.filePath(QStringLiteral("deep_nesting.json")), QByteArray(100000, '[') + QByteArray(100000, ']')))
        add(QStringLiteral("deep_nesting.json"), Outcome::ErrorOrReport, "");
    const QByteArray deepArgs = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 1,"
                                " \"ts\": 1, \"dur\": 5, \"args\": "
                                + QByteArray(100000, '[') + QByteArray(100000, ']') + "}]}";
    if (writeBytes(out.filePath(QStringLiteral("deep_nesting_in_args.json")), deepArgs))
        add(QStringLiteral("deep_nesting_in_args.json"), Outcome::ErrorOrReport, "");
    const QByteArray hugeName = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + QByteArray(1 << 20, 'k')
                                + "\", \"pid\": 0, \"tid\": 7, \"ts\": 1, \"dur\": 2, \"args\": {\"stream\": 7}}]}";
    if (writeBytes(out.filePath(QStringLiteral("huge_name.json")), hugeName))
        add(QStringLiteral("huge_name.json"), Outcome::Report, "");

    if (writeGzipOfZeros(out.filePath(QStringLiteral("gzip_bomb.json.gz")), 256))
        add(QStringLiteral("gzip_bomb.json.gz"), Outcome::Error, "not JSON");

    // A real Kineto trace, its gzip cut short.
    QFile kineto(kinetoTrace);
    if (kineto.open(QIODevice::ReadOnly)) {
        const QByteArray gz = kineto.readAll();
        const QString file = QStringLiteral("real_cut.json.gz");
        if (writeBytes(out.filePath(file), gz.left(gz.size() * 2 / 3)))
            add(file, Outcome::Error, "gzip");
    }
    return corpus;
}

} // namespace rankscope::test
