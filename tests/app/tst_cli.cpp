// rankscope-cli as a user runs it: output, files written, exit status and
// error lines.
#include "badcorpus.h"
#include "load/traceloader.h"
#include "testdata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <map>

#include <QtTest>

#include <sys/resource.h>

#include "sanitizers.h"

using namespace rankscope::test;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

Run runCli(const QStringList &args, const QString &workingDir = {})
{
    QProcess p;
    if (!workingDir.isEmpty())
        p.setWorkingDirectory(workingDir);
    p.start(QStringLiteral(RANKSCOPE_CLI), args);
    if (!p.waitForFinished(120000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QString reference(const QString &fixture, const QString &report)
{
    QString text = readText(referenceCsv(fixture, report));
    text.remove(QLatin1Char('\r'));
    return text;
}

const QStringList kReports{"cuda_gpu_kern_sum", "cuda_gpu_mem_size_sum", "cuda_gpu_mem_time_sum", "cuda_api_sum", "nvtx_sum", "osrt_sum",
                           "gpu_gaps",          "gpu_time_util"};

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void indexBuildsCachesThatStatsOpen()
    {
        // `index` writes one cache per report of a folder; a second run finds
        // them up to date; `stats` opened from them prints what nsys printed.
        QTemporaryDir cache;
        const Run first = runCli({"index", "--cache", cache.path(), demoPath()});
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.out.count(QLatin1String(": indexed in ")), rankscope::traceFilesIn(demoPath()).size());
        QCOMPARE(QDir(cache.path()).entryList({QStringLiteral("*.rsindex")}).size(), rankscope::traceFilesIn(demoPath()).size());
        const Run second = runCli({"index", "--cache", cache.path(), ddpFixture(0)});
        QCOMPARE(second.exitCode, 0);
        QVERIFY2(second.out.contains(QLatin1String(": up to date (")), qPrintable(second.out));
        const Run stats = runCli({"stats", "--cache", cache.path(), "--report", "cuda_gpu_kern_sum", ddpFixture(0)});
        QCOMPARE(stats.exitCode, 0);
        QCOMPARE(stats.out, reference(QStringLiteral("ddp4"), QStringLiteral("cuda_gpu_kern_sum")));
        const Run noFolder = runCli({"index", "--no-cache", ddpFixture(0)});
        QCOMPARE(noFolder.exitCode, 1);
        const Run broken = runCli({"index", "--cache", cache.path(), dataPath(QStringLiteral("bad/empty.sqlite")), ddpFixture(0)});
        QCOMPARE(broken.exitCode, 2);
        QVERIFY(broken.err.contains(QLatin1String("empty.sqlite")));
        QVERIFY(broken.out.contains(QLatin1String("up to date")));
    }

    void statsUnderASmallMemoryBudgetReadTheSameGroups()
    {
        // nvtx_sum over a cache's stored groups, thousands of distinct NVTX
        // texts: with a budget of 1 MiB its mapped pages are given back as
        // it reads (every 1024 groups), and read in again as needed.
        QTemporaryDir dir, cache;
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), {"--profile", "pytorch", "--events", "20000", "--seed", "3", dir.path()}), 0);
        const QString trace = dir.filePath(QStringLiteral("pytorch_rank0.sqlite"));
        QCOMPARE(runCli({"index", "--cache", cache.path(), trace}).exitCode, 0);
        const QStringList report{"stats", "--cache", cache.path(), "--report", "nvtx_sum,cuda_gpu_kern_sum"};
        const Run unbounded = runCli(report + QStringList{trace});
        QCOMPARE(unbounded.exitCode, 0);
        QVERIFY2(unbounded.out.count(QLatin1Char('\n')) > 3000, qPrintable(unbounded.out.left(2000)));
        const Run bounded = runCli(report + QStringList{"--memory-budget", "1", trace});
        QCOMPARE(bounded.exitCode, 0);
        QCOMPARE(bounded.out, unbounded.out);
        QCOMPARE(runCli({"stats", "--no-cache", "--report", "nvtx_sum,cuda_gpu_kern_sum", trace}).out, unbounded.out); // as parsed
        for (const char *bad : {"0", "lots", "-5"}) {
            const Run refused = runCli(report + QStringList{"--memory-budget", bad, trace});
            QCOMPARE(refused.exitCode, 1);
            QVERIFY2(refused.err.contains(QLatin1String("--memory-budget takes a positive number of MiB")), qPrintable(refused.err));
        }
    }

    void statsCsvEqualsNsysOutput_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("report");
        for (const QString &report : kReports) {
            QTest::addRow("slow_1gpu/%s", qPrintable(report)) << "slow_1gpu" << slowFixture() << report;
            QTest::addRow("ddp4/%s", qPrintable(report)) << "ddp4" << ddpFixture(0) << report;
        }
    }

    void statsCsvEqualsNsysOutput()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, file);
        QFETCH(QString, report);
        const Run r = runCli({"stats", "--report", report, "--format", "csv", file});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        QCOMPARE(r.out, reference(fixture, report));
    }

    void outputPrefixWritesOneFilePerReport()
    {
        const QString prefix = m_dir.filePath(QStringLiteral("slow"));
        const Run r = runCli({"stats", "--report", "cuda_gpu_kern_sum,gpu_gaps", "--output", prefix, slowFixture()});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QString());
        QCOMPARE(readText(prefix + QStringLiteral("_cuda_gpu_kern_sum.csv")),
                 reference(QStringLiteral("slow_1gpu"), QStringLiteral("cuda_gpu_kern_sum")));
        QCOMPARE(readText(prefix + QStringLiteral("_gpu_gaps.csv")), reference(QStringLiteral("slow_1gpu"), QStringLiteral("gpu_gaps")));
    }

    void outputPrefixWithSeveralFilesAddsTheFileStem()
    {
        const QString prefix = m_dir.filePath(QStringLiteral("ddp"));
        const Run r = runCli({"stats", "--report", "nvtx_sum", "--output", prefix, ddpFixture(0), ddpFixture(1)});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(readText(prefix + QStringLiteral("_ddp4_rank0_nvtx_sum.csv")), reference(QStringLiteral("ddp4"), QStringLiteral("nvtx_sum")));
        QVERIFY(QFileInfo::exists(prefix + QStringLiteral("_ddp4_rank1_nvtx_sum.csv")));
    }

    void tableAndJsonFormats()
    {
        const Run table = runCli({"stats", "--report", "cuda_gpu_mem_size_sum", "--format", "table", slowFixture()});
        QCOMPARE(table.exitCode, 0);
        QVERIFY(table.out.contains(QLatin1String("[CUDA memcpy Host-to-Device]")));
        QVERIFY(table.out.contains(QLatin1String("35.063")));
        const Run json = runCli({"stats", "--report", "gpu_gaps", "--format", "json", slowFixture()});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(json.out.toUtf8()).array();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows[0].toObject().value(QStringLiteral("Duration (ns)")).toInteger(), 3651742307LL);
    }

    void badInputsGiveOneLineAndExitTwo_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        QFile text(m_dir.filePath(QStringLiteral("notes.sqlite")));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("just text\n");
        text.close();
        QFile original(slowFixture());
        QVERIFY(original.open(QIODevice::ReadOnly));
        QFile cut(m_dir.filePath(QStringLiteral("cut.sqlite")));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(original.read(300000));
        cut.close();
        QTest::newRow("missing") << m_dir.filePath(QStringLiteral("missing.sqlite")) << "no such file";
        QTest::newRow("not sqlite") << text.fileName() << "not a trace";
        QTest::newRow("truncated") << cut.fileName() << "corrupt";
    }

    void badInputsGiveOneLineAndExitTwo()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        // The good file is still processed.
        const Run r = runCli({"stats", "--report", "gpu_gaps", path, slowFixture()});
        QCOMPARE(r.exitCode, 2);
        const QStringList lines = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].startsWith(QStringLiteral("rankscope-cli: ") + path + QStringLiteral(": ")), qPrintable(lines[0]));
        QVERIFY2(lines[0].contains(reason, Qt::CaseInsensitive), qPrintable(lines[0]));
        QVERIFY(r.out.contains(QLatin1String("3651742307")));
    }

    // Every bad input, alone and with the statistics command: exit 0 with a
    // report or 2 with one line naming the file; never a crash (-1).
    void badCorpusGivesOneLineOrAReport_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("mention");
        for (const BadInput &input : buildBadCorpus(m_dir.filePath(QStringLiteral("bad")), badInputsDir(), slowFixture(),
                                                    dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz"))))
            QTest::newRow(qPrintable(input.name())) << input.path << int(input.outcome) << input.mention;
    }

    void badCorpusGivesOneLineOrAReport()
    {
        QFETCH(QString, path);
        QFETCH(int, outcome);
        QFETCH(QString, mention);
        for (const QStringList &args : {QStringList{"info", path}, QStringList{"stats", path}}) {
            const Run r = runCli(args);
            QVERIFY2(r.exitCode == 0 || r.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
            if (r.exitCode == 0) {
                QVERIFY(outcome != int(BadInput::Outcome::Error));
                continue;
            }
            QVERIFY2(outcome != int(BadInput::Outcome::Report), qPrintable(r.err));
            const QStringList lines = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QCOMPARE(lines.size(), 1);
            QVERIFY2(lines[0].startsWith(QStringLiteral("rankscope-cli: ") + path + QStringLiteral(": ")), qPrintable(lines[0]));
            QVERIFY2(lines[0].contains(mention, Qt::CaseInsensitive), qPrintable(lines[0]));
        }
    }

    // Before and after a fix, as CSV: largest change first; bad usage says so.
    void diffComparesTwoRuns()
    {
        const QString before = dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"));
        const QString after = dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_after.sqlite"));
        const Run r = runCli({"diff", "--report", "kernels", "--format", "csv", before, after});
        QCOMPARE(r.exitCode, 0);
        const QList<QStringList> rows = parseCsv(r.out);
        QVERIFY(rows.size() > 10);
        QCOMPARE(rows[0].first(), QStringLiteral("Name"));
        QCOMPARE(rows[0].last(), QStringLiteral("Change"));
        QVERIFY(rows[1][0].contains(QLatin1String("flash_fwd_kernel")));
        const Run ranks = runCli({"diff", "--report", "memcpy", "--rank-a", "0", "--rank-b", "1", before, before});
        QCOMPARE(ranks.exitCode, 0);
        QCOMPARE(runCli({"diff", "--report", "frames", before, after}).exitCode, 1);
        QCOMPARE(runCli({"diff", "--report", "steps", "--format", "json", before, after}).exitCode, 0);
        // SendRecv pairs and their summed skew, from the exports with sqlite3 (see tst_rundiff).
        const Run collectives = runCli({"diff", "--report", "collectives", "--format", "csv", before, after});
        QCOMPARE(collectives.exitCode, 0);
        const QList<QStringList> c = parseCsv(collectives.out);
        QCOMPARE(c.value(1).value(0), QStringLiteral("SendRecv"));
        QCOMPARE(c.value(1).value(1), QStringLiteral("33"));
        QCOMPARE(c.value(1).value(3), QStringLiteral("13375816"));
        QCOMPARE(c.value(1).value(4), QStringLiteral("31"));
        QCOMPARE(c.value(1).value(6), QStringLiteral("22485194"));
        // The user's communication pattern: only what it names is matched.
        const Run none = runCli({"diff", "--report", "collectives", "--format", "csv", "--comm-pattern", "^no_such_kernel$", before, after});
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(parseCsv(none.out).size(), 1); // the header alone
        const Run sendRecv = runCli({"diff", "--report", "collectives", "--format", "csv", "--comm-pattern", "SendRecv", before, after});
        QCOMPARE(sendRecv.exitCode, 0);
        QCOMPARE(parseCsv(sendRecv.out).value(1), c.value(1));
        const Run bad = runCli({"diff", "--report", "collectives", "--comm-pattern", "(", before, after});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.err.contains(QLatin1String("--comm-pattern")));
        QCOMPARE(runCli({"diff", before}).exitCode, 1);
        QCOMPARE(runCli({"diff", "--rank-b", "7", before, after}).exitCode, 1);
    }

    void infoDescribesEachRank()
    {
        const Run r = runCli({"info", demoPath()});
        QCOMPARE(r.exitCode, 0);
        for (int rank = 0; rank < 4; ++rank)
            QVERIFY(r.out.contains(QStringLiteral("Rank %1: ").arg(rank) + ddpFixture(rank)));
        QVERIFY(r.out.contains(QLatin1String("nsys 2025.3.2.0, schema 3.20.3")));
        QVERIFY(r.out.contains(QLatin1String("NVIDIA H100 80GB HBM3, 132 SMs")));
        QVERIFY(r.out.contains(QLatin1String("kernels 704")));
        QVERIFY(r.out.contains(QLatin1String("Load time:")));
        QVERIFY(r.out.contains(QLatin1String("Resident memory:")));
        QVERIFY(!r.out.contains(QLatin1String("event times")));

        // --memory: the model size part by part; the parts add up to it.
        const Run parts = runCli({"info", "--memory", slowFixture()});
        QCOMPARE(parts.exitCode, 0);
        const QRegularExpression model(QStringLiteral("Model size: +[0-9.]+ [KMG]?i?B \\(([0-9.]+) B/event\\)"));
        const QRegularExpressionMatch total = model.match(parts.out);
        QVERIFY2(total.hasMatch(), qPrintable(parts.out));
        const QRegularExpression part(QStringLiteral("\\n    ([A-Za-z][^\\n]*?) +[0-9.]+ [KMG]?i?B +([0-9.]+) B/event"));
        double sum = 0;
        QStringList names;
        for (auto it = part.globalMatch(parts.out); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            names << m.captured(1).trimmed();
            sum += m.captured(2).toDouble();
        }
        QVERIFY2(names.contains(QLatin1String("strings")) && names.contains(QLatin1String("event times")), qPrintable(parts.out));
        QVERIFY2(std::abs(sum - total.captured(1).toDouble()) <= 0.05 * double(names.size()) + 0.05,
                 qPrintable(QStringLiteral("parts %1 B/event, model %2").arg(sum).arg(total.captured(1))));
    }

    void benchMeasuresTheViewerProcess()
    {
        // The viewer runs as its own process beside the CLI's own run.
        const Run run = runCli({"bench", "--frames", "5", slowFixture()});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QLatin1String("SQLite bare-scan floor:")), qPrintable(run.out));
        // The floor names its columns, and what the columns the loader leaves out would cost.
        const QRegularExpression floorColumns(QStringLiteral("the ([0-9]+) columns the loader selects"));
        const QRegularExpression everyColumn(QStringLiteral("Every column of those tables: [0-9.]+ ms \\(([0-9]+) columns;"));
        const QRegularExpressionMatch selected = floorColumns.match(run.out), all = everyColumn.match(run.out);
        QVERIFY2(selected.hasMatch() && all.hasMatch(), qPrintable(run.out));
        QVERIFY(selected.captured(1).toInt() > 0 && all.captured(1).toInt() > 0);
        const QRegularExpression viewer(QStringLiteral("Viewer, first frame: +[0-9.]+ s, peak [0-9.]+ MiB; info [0-9.]+ s, [0-9.]+ MiB: "
                                                       "[0-9.]+x the time, [0-9.]+x the memory"));
        QVERIFY2(viewer.match(run.out).hasMatch(), qPrintable(run.out));
        QVERIFY(run.out.contains(QLatin1String("Viewer, statistics:")));
        // The input's rate and the load's peak against it; the statistics
        // against the load (issue 37's figures).
        const QRegularExpression input(QStringLiteral("Input: +[0-9.]+ MB at [0-9.]+ MB/s; load peak [0-9.]+ MiB = [0-9.]+ x the input"));
        QVERIFY2(input.match(run.out).hasMatch(), qPrintable(run.out));
        const QRegularExpression statistics(
            QStringLiteral("Statistics \\(all\\): +[0-9.]+ ms = [0-9.]+ x the load; peak [0-9.]+ MiB = [0-9.]+ x the load's"));
        QVERIFY2(statistics.match(run.out).hasMatch(), qPrintable(run.out));
        QVERIFY(!runCli({"bench", "--frames", "5", "--no-viewer", slowFixture()}).out.contains(QLatin1String("Viewer")));
    }

    void collectivesAcrossRanks()
    {
        // The real 2-rank nsys export: SendRecv pairs matched by stream, one
        // rank_wait row per rank, how they were matched on stderr.
        const QString file = dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"));
        const Run run = runCli({"stats", "--report", "collectives", file});
        QCOMPARE(run.exitCode, 0);
        const QList<QStringList> rows = parseCsv(run.out);
        QCOMPARE(rows[0].join(QLatin1Char(',')), QStringLiteral("Index,Communicator,Sequence,Name,Ranks,Bytes,First Arrival (ns),"
                                                                "Last Arrival (ns),Last Rank,Skew (ns),End (ns),Bus Bandwidth (GB/s)"));
        QVERIFY(rows.size() > 30);
        QCOMPARE(rows[1][1], QStringLiteral("stream #0"));
        QCOMPARE(rows[1][3], QStringLiteral("SendRecv"));
        QCOMPARE(rows[1][4], QStringLiteral("2"));
        QVERIFY2(run.err.contains(QLatin1String("collectives: The trace names no process groups")), qPrintable(run.err));
        const QList<QStringList> ranks = parseCsv(runCli({"stats", "--report", "rank_wait", file}).out);
        QCOMPARE(ranks.size(), 3);
        QCOMPARE(ranks[0][3], QStringLiteral("Delay Caused (ns)"));
        QCOMPARE(ranks[1][3], ranks[2][4]); // two ranks: one's delay is the other's wait
    }

    void rankTimeMapAddsUpToTheRankTables()
    {
        // The real 2-rank nsys export in 12 bins: per rank, busy time summed
        // over the bins is rank_comparison's busy share of its GPU span, and
        // waiting time summed is rank_wait's waited time (each to the
        // rounding of the printed percentages).
        const QString file = dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite"));
        const Run run = runCli({"stats", "--report", "rank_time_map", "--bins", "12", file});
        QCOMPARE(run.exitCode, 0);
        const QList<QStringList> rows = parseCsv(run.out);
        QCOMPARE(rows[0].join(QLatin1Char(',')), QStringLiteral("Rank,Start (ns),Duration (ns),GPU Busy (%),Collective Wait (%)"));
        QCOMPARE(rows.size(), 1 + 2 * 12);
        std::map<QString, double> busy, waited, length;
        for (qsizetype r = 1; r < rows.size(); ++r) {
            const double duration = rows[r][2].toDouble();
            busy[rows[r][0]] += rows[r][3].toDouble() / 100.0 * duration;
            waited[rows[r][0]] += rows[r][4].toDouble() / 100.0 * duration;
            length[rows[r][0]] += duration;
        }
        const QList<QStringList> comparison = parseCsv(runCli({"stats", "--report", "rank_comparison", file}).out);
        const QList<QStringList> waits = parseCsv(runCli({"stats", "--report", "rank_wait", file}).out);
        QCOMPARE(comparison.size(), 3);
        QCOMPARE(comparison[0][2], QStringLiteral("GPU Busy (%)"));
        QCOMPARE(waits[0][4], QStringLiteral("Waited (ns)"));
        for (int r = 1; r <= 2; ++r) {
            const QString rank = comparison[r][0];
            const double expectedBusy = comparison[r][1].toDouble() * comparison[r][2].toDouble() / 100.0;
            QVERIFY2(std::abs(busy[rank] - expectedBusy) <= 0.001 * length[rank],
                     qPrintable(QStringLiteral("rank %1: %2 vs %3").arg(rank).arg(busy[rank]).arg(expectedBusy)));
            for (int w = 1; w <= 2; ++w)
                if (waits[w][0] == rank)
                    QVERIFY2(std::abs(waited[rank] - waits[w][4].toDouble()) <= 0.001 * length[rank],
                             qPrintable(QStringLiteral("rank %1: waited %2 vs %3").arg(rank).arg(waited[rank]).arg(waits[w][4])));
        }
        QCOMPARE(runCli({"stats", "--report", "rank_time_map", "--bins", "0", file}).exitCode, 1);
    }

    // Names from a trace are data on every output: a kernel named with an
    // OSC 52 sequence (sets the clipboard) and one named as a spreadsheet
    // formula, a file named with a CSI sequence, a report named with a
    // command substitution.
    void namesFromTracesAreDataOnEveryOutput()
    {
        QTemporaryDir dir;
        const QString trace = writeFile(dir, QStringLiteral("names.pt.trace.json"),
                                        "{\"traceEvents\":["
                                        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\\u001b]52;c;cHduZWQ=\\u0007\",\"pid\":0,\"tid\":7,"
                                        "\"ts\":120,\"dur\":20,\"args\":{\"device\":0,\"stream\":7}},"
                                        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"=HYPERLINK(\\\"http://evil.example\\\",\\\"x\\\")\",\"pid\":0,"
                                        "\"tid\":7,\"ts\":200,\"dur\":10,\"args\":{\"device\":0,\"stream\":7}}]}");
        const QStringList kernels{"stats", "--no-cache", "--report", "cuda_gpu_kern_sum"};
        // Piped (`stats FILE | head`): the CSV shows the escape and the
        // formula as text, whatever reads it next.
        const Run csv = runCli(kernels + QStringList{trace});
        QCOMPARE(csv.exitCode, 0);
        QVERIFY2(csv.out.contains(QLatin1String(",\"'=HYPERLINK(")), qPrintable(csv.out));
        QVERIFY(!csv.out.contains(QChar(0x1b)) && !csv.out.contains(QChar(0x07)));
        QVERIFY2(csv.out.contains(QLatin1String("k\\x1B]52;c;cHduZWQ=\\x07")), qPrintable(csv.out));
        // --csv-raw: the bytes nsys would write, on request.
        const Run raw = runCli(kernels + QStringList{"--csv-raw", trace});
        QVERIFY2(raw.out.contains(QLatin1String(",\"=HYPERLINK(\"\"http")), qPrintable(raw.out));
        QVERIFY(raw.out.contains(QLatin1String("k\x1b]52;")));
        // JSON: escapes a JSON reader decodes back to the name.
        const Run json = runCli(kernels + QStringList{"--format", "json", trace});
        QVERIFY(!json.out.contains(QChar(0x1b)) && !json.out.contains(QChar(0x07)));
        QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).array().at(0).toObject().value(QStringLiteral("Name")).toString(),
                 QStringLiteral("k\x1b]52;c;cHduZWQ=\x07")); // the longer kernel first
        // Written with -o: the same as piped.
        const Run written = runCli(kernels + QStringList{"--output", dir.filePath(QStringLiteral("names")), trace});
        QCOMPARE(written.exitCode, 0);
        QCOMPARE(readText(dir.filePath(QStringLiteral("names_cuda_gpu_kern_sum.csv"))), csv.out);
        // An aligned table is for a terminal: the escape is shown.
        const Run table = runCli(kernels + QStringList{"--format", "table", trace});
        QVERIFY(!table.out.contains(QChar(0x1b)) && !table.out.contains(QChar(0x07)));
        QVERIFY2(table.out.contains(QLatin1String("k\\x1B]52;c;cHduZWQ=\\x07")), qPrintable(table.out));
        // On a terminal (script(1) gives it one), even --csv-raw's escape is shown.
        QProcess onTerminal;
        onTerminal.start(QStringLiteral("script"),
                         {QStringLiteral("-qec"),
                          QStringLiteral("%1 %2 --csv-raw %3").arg(QStringLiteral(RANKSCOPE_CLI), kernels.join(QLatin1Char(' ')), trace),
                          QStringLiteral("/dev/null")});
        if (!onTerminal.waitForStarted())
            QSKIP("script(1) is not installed");
        QVERIFY(onTerminal.waitForFinished(60000));
        const QByteArray shown = onTerminal.readAllStandardOutput();
        QVERIFY2(shown.contains("k\\x1B]52;c;cHduZWQ=\\x07"), shown.constData());
        QVERIFY(!shown.contains('\x1b') && !shown.contains('\x07'));

        // Error lines always show a file name's escapes.
        const QString badName = writeFile(dir, QStringLiteral("bad\x1b[2J\x1b]0;title\x07.json"), "not json");
        const Run bad = runCli({"stats", "--no-cache", badName});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(!bad.err.contains(QChar(0x1b)) && !bad.err.contains(QChar(0x07)));
        QVERIFY2(bad.err.contains(QLatin1String("bad\\x1B[2J\\x1B]0;title\\x07.json")), qPrintable(bad.err));

        // The export hint for a report is safe to paste into a shell.
        const QString report = writeFile(dir, QStringLiteral("run$(touch PWNED).nsys-rep"), "NSYS binary");
        const Run hint = runCli({"stats", "--no-cache", report});
        QVERIFY2(hint.err.contains(QLatin1String("nsys export --type sqlite --output 'run$(touch PWNED).sqlite' 'run$(touch PWNED).nsys-rep'")),
                 qPrintable(hint.err));
        const QString command = hint.err.section(QLatin1String("installed with: "), 1).section(QLatin1String(", then open"), 0, 0);
        QProcess sh;
        sh.setWorkingDirectory(dir.path());
        sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("nsys() { printf '%s|' \"$@\"; }; ") + command});
        QVERIFY(sh.waitForFinished());
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()),
                 QStringLiteral("export|--type|sqlite|--output|run$(touch PWNED).sqlite|run$(touch PWNED).nsys-rep|"));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("PWNED"))));
    }

    // Exports are new files renamed into place, and never replace what is
    // there unasked: a link planted under an output name in a shared
    // folder is neither followed nor replaced (that report fails, with a
    // line naming it, and the others are written); with --force-overwrite
    // it is replaced, and its target untouched.
    void anOutputNameThatIsALinkIsNotFollowed()
    {
        QTemporaryDir out, home;
        const QString victim = home.filePath(QStringLiteral("bashrc"));
        QVERIFY(!writeFile(home, QStringLiteral("bashrc"), "alias ls='ls -F'\n").isEmpty());
        const QString prefix = out.filePath(QStringLiteral("run"));
        const QString planted = prefix + QStringLiteral("_cuda_gpu_kern_sum.csv");
        QVERIFY(QFile::link(victim, planted));
        const QStringList args{"stats", "--no-cache", "--report", "cuda_gpu_kern_sum,cuda_api_sum", "--output", prefix, ddpFixture(0)};
        const Run kept = runCli(args);
        QCOMPARE(kept.exitCode, 2);
        QVERIFY2(kept.err.contains(planted + QStringLiteral(": exists: not replaced")), qPrintable(kept.err));
        QVERIFY(QFileInfo(planted).isSymLink());
        QCOMPARE(readText(prefix + QStringLiteral("_cuda_api_sum.csv")), reference(QStringLiteral("ddp4"), QStringLiteral("cuda_api_sum")));
        QCOMPARE(readText(victim), QStringLiteral("alias ls='ls -F'\n"));

        const Run replaced = runCli(args + QStringList{"--force-overwrite"});
        QCOMPARE(replaced.exitCode, 0);
        QCOMPARE(readText(victim), QStringLiteral("alias ls='ls -F'\n"));
        QVERIFY(!QFileInfo(planted).isSymLink());
        QCOMPARE(readText(planted), reference(QStringLiteral("ddp4"), QStringLiteral("cuda_gpu_kern_sum")));
    }

    // A name that cannot be written (a directory planted under it) fails
    // its report alone: every later report is still written.
    void aReportThatCannotBeWrittenFailsAlone()
    {
        QTemporaryDir out;
        const QString prefix = out.filePath(QStringLiteral("run"));
        QVERIFY(QDir().mkpath(prefix + QStringLiteral("_cuda_api_sum.csv")));
        const Run r = runCli(
            {"stats", "--no-cache", "--force-overwrite", "--report", "cuda_api_sum,cuda_gpu_kern_sum,nvtx_sum", "--output", prefix, ddpFixture(0)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(prefix + QStringLiteral("_cuda_api_sum.csv: cannot write")), qPrintable(r.err));
        QCOMPARE(readText(prefix + QStringLiteral("_cuda_gpu_kern_sum.csv")), reference(QStringLiteral("ddp4"), QStringLiteral("cuda_gpu_kern_sum")));
        QCOMPARE(readText(prefix + QStringLiteral("_nvtx_sum.csv")), reference(QStringLiteral("ddp4"), QStringLiteral("nvtx_sum")));
    }

    // Two inputs of one name from two folders write two files, each its
    // own numbers; a 240-character trace name still gives files, their
    // names shortened with a hash.
    void outputNamesAreUniquePerInputAndFit()
    {
        QTemporaryDir in, out;
        QVERIFY(QDir().mkpath(in.filePath(QStringLiteral("a"))) && QDir().mkpath(in.filePath(QStringLiteral("b"))));
        const QString first = in.filePath(QStringLiteral("a/rank.sqlite")), second = in.filePath(QStringLiteral("b/rank.sqlite"));
        QVERIFY(QFile::copy(ddpFixture(0), first) && QFile::copy(ddpFixture(1), second));
        const QString prefix = out.filePath(QStringLiteral("two"));
        const Run r = runCli({"stats", "--no-cache", "--report", "cuda_gpu_kern_sum", "--output", prefix, first, second});
        QCOMPARE(r.exitCode, 0);
        const QStringList files = QDir(out.path()).entryList({QStringLiteral("two_rank-*_cuda_gpu_kern_sum.csv")}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 2);
        const QString rank0 = runCli({"stats", "--no-cache", "--report", "cuda_gpu_kern_sum", ddpFixture(0)}).out;
        const QString rank1 = runCli({"stats", "--no-cache", "--report", "cuda_gpu_kern_sum", ddpFixture(1)}).out;
        const QSet<QString> contents{readText(out.filePath(files[0])), readText(out.filePath(files[1]))};
        QCOMPARE(contents, (QSet<QString>{rank0, rank1}));

        const QString longName = in.filePath(QString(240, QLatin1Char('n')) + QStringLiteral(".sqlite"));
        QVERIFY(QFile::copy(ddpFixture(0), longName));
        const Run longRun = runCli(
            {"stats", "--no-cache", "--report", "cuda_gpu_kern_sum,nvtx_sum", "--output", out.filePath(QStringLiteral("long")), longName, first});
        QCOMPARE(longRun.exitCode, 0);
        const QStringList longFiles = QDir(out.path()).entryList({QStringLiteral("long_nnn*")}, QDir::Files);
        QCOMPARE(longFiles.size(), 2);
        for (const QString &f : longFiles) {
            QVERIFY2(f.toUtf8().size() <= 200 && f.contains(QLatin1Char('~')) && f.endsWith(QLatin1String(".csv")), qPrintable(f));
            QVERIFY(!readText(out.filePath(f)).isEmpty());
        }
    }

    void diagnosePrintsThePanelsFindings()
    {
        // The data-loader-bound run: input starvation first, as the panel lists it.
        const Run md = runCli({"diagnose", slowFixture()});
        QCOMPARE(md.exitCode, 0);
        QVERIFY2(md.out.startsWith(QLatin1String("# Diagnosis\n\n## GPU starved by the input pipeline (high")), qPrintable(md.out.left(300)));
        QVERIFY(md.out.contains(QLatin1String("num_workers")));
        const QList<QStringList> rows = parseCsv(runCli({"diagnose", "--format", "csv", slowFixture()}).out);
        QCOMPARE(rows[0].join(QLatin1Char(',')), QStringLiteral("Severity,Finding,Ranks,Cost (ns),Share (%),Instances,Evidence,Advice"));
        QCOMPARE(rows[1][1], QStringLiteral("GPU starved by the input pipeline"));
        const QJsonDocument json = QJsonDocument::fromJson(runCli({"diagnose", "--format", "json", slowFixture()}).out.toUtf8());
        const QJsonArray findings = json.object().value(QStringLiteral("findings")).toArray();
        QCOMPARE(findings.size(), rows.size() - 1);
        QCOMPARE(findings[0].toObject().value(QStringLiteral("id")).toString(), QStringLiteral("input_starvation"));
        QVERIFY(findings[0].toObject().value(QStringLiteral("instances")).toArray().size() > 0);
        // Thresholds are the user's: a gap must now be 3 steps long.
        const QList<QStringList> strict = parseCsv(runCli({"diagnose", "--format", "csv", "--threshold", "gap-share=3", slowFixture()}).out);
        for (const QStringList &row : strict)
            QVERIFY(row.value(1) != QLatin1String("GPU starved by the input pipeline"));
        QCOMPARE(runCli({"diagnose", "--threshold", "nope=1", slowFixture()}).exitCode, 1);
    }

    void communicationPatternIsTheUsers()
    {
        // An NCCL kernel 200-300 µs under a GEMM from 250 µs: 50 µs exposed.
        const QString file = dataPath(QStringLiteral("kineto/variants/nccl_rank1.json"));
        const QList<QStringList> builtIn = parseCsv(runCli({"stats", "--report", "rank_comparison", file}).out);
        QCOMPARE(builtIn[0][5], QStringLiteral("Exposed Comm (ns)"));
        QCOMPARE(builtIn[1][5], QStringLiteral("50000"));
        QCOMPARE(builtIn[1][7], QStringLiteral("50.0"));
        // A pattern that matches nothing: the NCCL kernel is compute.
        const QList<QStringList> none = parseCsv(runCli({"stats", "--report", "rank_comparison", "--comm-pattern", "^no_such", file}).out);
        QCOMPARE(none[1][5], QStringLiteral("0"));
        QCOMPARE(none[1][7], QString());
        const Run bad = runCli({"stats", "--report", "rank_comparison", "--comm-pattern", "nccl(", file});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QLatin1String("--comm-pattern: invalid regular expression 'nccl('")), qPrintable(bad.err));
        QVERIFY(runCli({"stats", "--help"}).out.contains(QLatin1String("deep_ep::")));
    }

    // diagnose reads the same communication classes as stats: with no
    // kernel counted as communication, no collective, hence no straggler.
    void diagnoseTakesTheCommunicationPattern()
    {
        QTemporaryDir dir;
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), {"--profile", "ddp", "--format", "nsys", "--events", "1720", "--ranks", "4",
                                                                        "--straggler", "2:2000:1", dir.filePath(QStringLiteral("ddp"))}),
                 0);
        auto findings = [&](const QStringList &extra) {
            QStringList ids;
            const Run run = runCli(QStringList{"diagnose", "--format", "json"} + extra + QStringList{dir.filePath(QStringLiteral("ddp"))});
            for (const QJsonValue f : QJsonDocument::fromJson(run.out.toUtf8()).object().value(QStringLiteral("findings")).toArray())
                ids << f.toObject().value(QStringLiteral("id")).toString();
            return ids;
        };
        QVERIFY(findings({}).contains(QStringLiteral("straggler")));
        QVERIFY(!findings({"--comm-pattern", "^no_such_kernel$"}).contains(QStringLiteral("straggler")));
        const Run bad = runCli({"diagnose", "--comm-pattern", "nccl(", dir.filePath(QStringLiteral("ddp"))});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QLatin1String("--comm-pattern: invalid regular expression")), qPrintable(bad.err));
    }

    // The critical path reports from the command line: the columns,
    // one step, a what-if re-solved (the straggler 10 % faster saves time in
    // its steps), and bad options named.
    void criticalPathReports()
    {
        QTemporaryDir dir;
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), {"--profile", "ddp", "--format", "nsys", "--events", "200", "--ranks", "4",
                                                                        "--straggler", "2:3000:2", dir.filePath(QStringLiteral("ddp"))}),
                 0);
        const QString set = dir.filePath(QStringLiteral("ddp"));
        const Run path = runCli({"stats", "--no-cache", "--report", "critical_path", "--step", "0", set});
        QCOMPARE(path.exitCode, 0);
        const QList<QStringList> rows = parseCsv(path.out);
        QCOMPARE(rows.value(0), (QStringList{"Step", "Segment", "Rank", "Kind", "Name", "Start (ns)", "End (ns)", "Duration (ns)"}));
        QVERIFY(rows.size() > 3);
        qint64 total = 0;
        for (qsizetype i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].value(0), QStringLiteral("0"));
            if (i > 1)
                QCOMPARE(rows[i].value(5), rows[i - 1].value(6)); // contiguous
            total += rows[i].value(7).toLongLong();
        }
        QCOMPARE(rows.last().value(3), QStringLiteral("communication"));
        const Run summary = runCli({"stats", "--no-cache", "--report", "critical_path_summary", "--what-if", "rank:2=0.9", set});
        QCOMPARE(summary.exitCode, 0);
        const QList<QStringList> steps = parseCsv(summary.out);
        const qsizetype duration = steps.value(0).indexOf(QStringLiteral("Duration (ns)"));
        const qsizetype saved = steps.value(0).indexOf(QStringLiteral("What-if Saved (ns)"));
        QVERIFY(duration >= 0 && saved >= 0);
        QCOMPARE(steps.value(1).value(duration).toLongLong(), total);
        QVERIFY(steps.value(1).value(saved).toLongLong() > 0); // step 0: rank 2 is late
        QCOMPARE(steps.value(2).value(saved).toLongLong(), 0); // step 1: it is not
        const Run bad = runCli({"stats", "--no-cache", "--report", "critical_path_summary", "--what-if", "stream:7=0.5", set});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QLatin1String("the target is kernel, nvtx or rank")), qPrintable(bad.err));
        QCOMPARE(runCli({"stats", "--report", "critical_path", "--step", "-1", set}).exitCode, 1);
    }

    void rowsOutOfTimeOrderGiveTheSameStatistics()
    {
        // nsys 2025.6 and later no longer write tables in time order.
        QTemporaryDir dir;
        for (const QString &order : {QStringLiteral("ordered"), QStringLiteral("shuffled")}) {
            QStringList args{"--profile", "pytorch", "--events", "20000", dir.filePath(order)};
            if (order == QLatin1String("shuffled"))
                args.prepend(QStringLiteral("--shuffle"));
            QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), args), 0);
        }
        // Memory in use is a running total over allocations in time order;
        // the 16 GPU metrics are sampled at 10 kHz.
        const Run orderedInfo = runCli({"info", dir.filePath(QStringLiteral("ordered/pytorch_rank0.sqlite"))});
        QVERIFY2(orderedInfo.out.contains(QLatin1String("Counters:    17 tracks")), qPrintable(orderedInfo.out));
        const Run ordered = runCli({"stats", dir.filePath(QStringLiteral("ordered/pytorch_rank0.sqlite"))});
        const Run shuffled = runCli({"stats", dir.filePath(QStringLiteral("shuffled/pytorch_rank0.sqlite"))});
        QCOMPARE(ordered.exitCode, 0);
        QVERIFY(ordered.out.contains(QLatin1String("aten::linear, seq = ")));
        QCOMPARE(QString(shuffled.out).replace(QLatin1String("/shuffled/"), QLatin1String("/ordered/")), ordered.out);
    }

    // Issue 37: running out of memory is an outcome. Under address-space
    // limits (ulimit -v) around the point where the statistics stop
    // fitting, `stats` never dies of a signal: it prints every table it
    // could compute, a line per report (or file) that could not get its
    // memory, and exits 2; with room enough it exits 0. The limit is
    // bisected, as the process's own size differs between machines.
    void statisticsUnderAMemoryLimit()
    {
#ifdef RANKSCOPE_ASAN
        QSKIP("AddressSanitizer reserves terabytes of address space for its shadow: no RLIMIT_AS fits it");
#endif
        QTemporaryDir dir;
        QCOMPARE(QProcess::execute(QStringLiteral(RANKSCOPE_TRACEGEN), {"--profile", "pytorch", "--events", "300000", "--seed", "4", dir.path()}), 0);
        const QString trace = dir.filePath(QStringLiteral("pytorch_rank0.sqlite"));
        struct Outcome {
            bool signalled = false;
            int exitCode = -1;
            QString out, err;
        };
        auto statsUnder = [&](std::uint64_t limitBytes) {
            QProcess p;
            p.setChildProcessModifier([limitBytes] {
                const rlimit limit{rlim_t(limitBytes), rlim_t(limitBytes)};
                ::setrlimit(RLIMIT_AS, &limit);
            });
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("RANKSCOPE_INDEX_CACHE"), QStringLiteral("off"));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(RANKSCOPE_CLI), {"stats", "--no-cache", trace});
            Outcome o;
            if (!p.waitForFinished(120000))
                return o;
            o.signalled = p.exitStatus() != QProcess::NormalExit;
            o.exitCode = p.exitCode();
            o.out = QString::fromUtf8(p.readAllStandardOutput());
            o.err = QString::fromUtf8(p.readAllStandardError());
            return o;
        };
        auto check = [&](std::uint64_t limit, const Outcome &o) {
            const QString what = QStringLiteral("limit %1 MiB: exit %2, %3").arg(limit >> 20).arg(o.exitCode).arg(o.err);
            QVERIFY2(!o.signalled, qPrintable(what));
            QVERIFY2(o.exitCode == 0 || o.exitCode == 2, qPrintable(what));
            if (o.exitCode == 2)
                QVERIFY2(o.err.contains(QLatin1String("ran out of memory")) || o.err.contains(QLatin1String("of memory to load")), qPrintable(what));
        };
        std::uint64_t low = std::uint64_t(16) << 20, high = std::uint64_t(4) << 30;
        const Outcome roomy = statsUnder(high);
        check(high, roomy);
        QCOMPARE(roomy.exitCode, 0);
        bool aReportFailedAlone = false;
        while (high - low > (std::uint64_t(1) << 20)) {
            const std::uint64_t mid = low + (high - low) / 2;
            const Outcome o = statsUnder(mid);
            check(mid, o);
            if (QTest::currentTestFailed())
                return;
            if (o.exitCode == 0) {
                high = mid;
                continue;
            }
            low = mid;
            // A report that failed alone: named, and the other tables printed.
            static const QRegularExpression reportFailed(QStringLiteral(": ([a-z_]+): ran out of memory computing it"));
            const QRegularExpressionMatch m = reportFailed.match(o.err);
            if (m.hasMatch() && o.out.contains(QLatin1String("Time (%),Total Time (ns),Instances,")))
                aReportFailedAlone = true;
        }
        QVERIFY2(aReportFailedAlone,
                 qPrintable(QStringLiteral("no limit between %1 and %2 MiB made one report fail alone").arg(low >> 20).arg(high >> 20)));
        // A little above the point found, every report prints (where the
        // point lies varies a little from run to run: threads, layout).
        QCOMPARE(statsUnder(high + (std::uint64_t(64) << 20)).exitCode, 0);
    }

    void usageErrors()
    {
        QCOMPARE(runCli({"stats", "--report", "no_such_report", slowFixture()}).exitCode, 1);
        QCOMPARE(runCli({"stats", "--format", "xml", slowFixture()}).exitCode, 1);
        QCOMPARE(runCli({"frobnicate"}).exitCode, 1);
        QCOMPARE(runCli({"--version"}).exitCode, 0);
        QVERIFY(runCli({"stats", "--help"}).out.contains(QLatin1String("cuda_gpu_kern_sum")));
    }

    // The 26 reports `nsys stats --help-reports` lists for Linux GPU and HPC
    // work, each with the arguments nsys' help gives it where Rankscope
    // takes them.
    void statsHelpListsNsysReports()
    {
        const QString help = runCli({"stats", "--help"}).out;
        static const char *const kNsysReports[] = {"cuda_api_gpu_sum[:nvtx-name][:base|:mangled]",
                                                   "cuda_api_sum",
                                                   "cuda_api_trace",
                                                   "cuda_gpu_kern_gb_sum[:nvtx-name][:base|:mangled]",
                                                   "cuda_gpu_kern_sum[:nvtx-name][:base|:mangled]",
                                                   "cuda_gpu_mem_size_sum",
                                                   "cuda_gpu_mem_time_sum",
                                                   "cuda_gpu_sum[:nvtx-name][:base|:mangled]",
                                                   "cuda_gpu_trace[:nvtx-name][:base|:mangled]",
                                                   "cuda_kern_exec_sum[:nvtx-name][:base|:mangled]",
                                                   "cuda_kern_exec_trace[:nvtx-name][:base|:mangled]",
                                                   "mpi_event_sum",
                                                   "mpi_event_trace",
                                                   "nvtx_gpu_proj_sum",
                                                   "nvtx_gpu_proj_trace",
                                                   "nvtx_kern_sum[:base|:mangled]",
                                                   "nvtx_pushpop_sum",
                                                   "nvtx_pushpop_trace",
                                                   "nvtx_startend_sum",
                                                   "nvtx_sum",
                                                   "openacc_sum",
                                                   "openmp_sum",
                                                   "osrt_sum",
                                                   "um_cpu_page_faults_sum",
                                                   "um_sum[:rows=N]",
                                                   "um_total_sum"};
        static_assert(std::size(kNsysReports) == 26);
        for (const char *report : kNsysReports)
            QVERIFY2(help.contains(QStringLiteral("\n  %1 ").arg(QLatin1String(report))), report);
    }

    void helpAndVersion()
    {
        const Run version = runCli({"--version"});
        QCOMPARE(version.exitCode, 0);
        QVERIFY2(QRegularExpression(QStringLiteral("^rankscope-cli \\d+\\.\\d+\\.\\d+\n$")).match(version.out).hasMatch(), qPrintable(version.out));
        const Run help = runCli({"--help"});
        QCOMPARE(help.exitCode, 0);
        for (const char *command : {"stats", "info", "bench"})
            QVERIFY(help.out.contains(QLatin1String(command)));
        for (const char *command : {"stats", "info", "bench"}) {
            const Run sub = runCli({command, "--help"});
            QCOMPARE(sub.exitCode, 0);
            QVERIFY(sub.out.startsWith(QLatin1String("Usage:")));
        }
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
