// CPU sampling and backtraces against independent SQL over the real
// exports' own tables (pipit's saxpy and CloverLeaf, the slow run's OS
// runtime backtraces): self and total samples per function, per thread
// and per time range; the trees against the flat list; backtraces of CUDA
// API and OS runtime calls frame by frame; the index cache against a
// parse; and damaged callchain tables.
#include "analysisinputs.h"
#include "badcorpus.h"
#include "load/cache/cachefile.h"
#include "load/cache/indexcache.h"
#include "load/traceloader.h"
#include "session/session.h"
#include "stats/diagnosis/diagnosis.h"
#include "stats/diagnosis/gapanalysis.h"
#include "stats/reportcatalog.h"
#include "stats/sampling/samplingcomparison.h"
#include "stats/sampling/samplingprofile.h"
#include "testdata.h"

#include <QtTest>
#include <map>
#include <sqlite3.h>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

QString saxpy()
{
    return dataPath(QStringLiteral("third-party/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"));
}
QString cloverleaf()
{
    return dataPath(QStringLiteral("third-party/pipit/perlmutter-cloverleaf-cuda.sqlite"));
}

class Db {
public:
    explicit Db(const QString &path, bool writable = false)
    {
        sqlite3_open_v2(path.toUtf8().constData(), &m_db, writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, nullptr);
    }
    ~Db() { sqlite3_close(m_db); }
    // Every row of `sql` as texts.
    QList<QStringList> rows(const QString &sql) const
    {
        QList<QStringList> out;
        sqlite3_stmt *st = nullptr;
        if (sqlite3_prepare_v2(m_db, sql.toUtf8().constData(), -1, &st, nullptr) != SQLITE_OK) {
            qWarning() << sqlite3_errmsg(m_db);
            return out;
        }
        while (sqlite3_step(st) == SQLITE_ROW) {
            QStringList row;
            for (int c = 0; c < sqlite3_column_count(st); ++c)
                row << QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, c)));
            out << row;
        }
        sqlite3_finalize(st);
        return out;
    }
    qint64 integer(const QString &sql) const { return rows(sql).value(0).value(0).toLongLong(); }
    bool exec(const QString &sql) const { return sqlite3_exec(m_db, sql.toUtf8().constData(), nullptr, nullptr, nullptr) == SQLITE_OK; }

private:
    sqlite3 *m_db = nullptr;
};

// "function\tmodule" -> (self, total), from SQL alone: self counts samples
// whose depth-0 frame is the function, total the distinct samples that
// have it at any depth. `where` filters COMPOSITE_EVENTS (alias ce).
std::map<QString, std::pair<qint64, qint64>> flatBySql(const Db &db, const QString &where = QStringLiteral("1"))
{
    const QString frames = QStringLiteral("SELECT sc.id AS id, sc.stackDepth AS depth, coalesce(f.value, '') AS fn, coalesce(m.value, '') AS mo "
                                          "FROM SAMPLING_CALLCHAINS sc JOIN COMPOSITE_EVENTS ce ON ce.id = sc.id "
                                          "LEFT JOIN StringIds f ON f.id = sc.symbol LEFT JOIN StringIds m ON m.id = sc.module WHERE %1")
                               .arg(where);
    std::map<QString, std::pair<qint64, qint64>> out;
    for (const QStringList &r : db.rows(QStringLiteral("SELECT fn, mo, count(DISTINCT id) FROM (%1) GROUP BY fn, mo").arg(frames)))
        out[r[0] + QLatin1Char('\t') + r[1]].second = r[2].toLongLong();
    for (const QStringList &r : db.rows(QStringLiteral("SELECT fn, mo, count(*) FROM (%1) WHERE depth = 0 GROUP BY fn, mo").arg(frames)))
        out[r[0] + QLatin1Char('\t') + r[1]].first = r[2].toLongLong();
    return out;
}

std::map<QString, std::pair<qint64, qint64>> flatByProfile(const SamplingProfile &p)
{
    std::map<QString, std::pair<qint64, qint64>> out;
    for (const FlatFunction &f : p.flat())
        out[p.functions[f.function].function + QLatin1Char('\t') + p.functions[f.function].module] = {qint64(f.self), qint64(f.total)};
    return out;
}

} // namespace

class TestCpuSampling : public QObject {
    Q_OBJECT
    std::shared_ptr<Report> m_saxpy, m_clover;

private slots:
    void initTestCase()
    {
        m_saxpy = loadTraceFile(saxpy()).report;
        m_clover = loadTraceFile(cloverleaf()).report;
        QVERIFY(m_saxpy && m_clover);
    }

    void everySampleIsLoadedOnItsThread()
    {
        for (const auto &[path, report] : {std::pair{saxpy(), m_saxpy}, std::pair{cloverleaf(), m_clover}}) {
            const Db db(path);
            QCOMPARE(qint64(report->sampling.samples.size()), db.integer(QStringLiteral("SELECT count(*) FROM COMPOSITE_EVENTS")));
            const auto perThread = db.rows(QStringLiteral("SELECT (globalTid >> 24) & 16777215, globalTid & 16777215, count(*), min(start), "
                                                          "max(start) FROM COMPOSITE_EVENTS GROUP BY globalTid"));
            QCOMPARE(qsizetype(report->sampling.threads.size()), perThread.size());
            for (const QStringList &t : perThread) {
                const SampledThread *thread = report->sampling.thread(t[0].toUInt(), t[1].toUInt());
                QVERIFY(thread);
                const auto samples = report->sampling.samplesOf(*thread);
                QCOMPARE(qint64(samples.size()), t[2].toLongLong());
                QCOMPARE(samples.front().time, t[3].toLongLong());
                QCOMPARE(samples.back().time, t[4].toLongLong());
                QVERIFY(std::is_sorted(samples.begin(), samples.end(), [](const CpuSample &a, const CpuSample &b) { return a.time < b.time; }));
            }
        }
        QCOMPARE(m_saxpy->sampling.samples.size(), std::size_t(5451));
        QCOMPARE(m_clover->sampling.threads.size(), std::size_t(3));
    }

    void flatListIsTheSqlCount()
    {
        for (const auto &[path, report] : {std::pair{saxpy(), m_saxpy}, std::pair{cloverleaf(), m_clover}}) {
            const Db db(path);
            const SamplingProfile profile = samplingProfile(*report);
            QCOMPARE(
                qint64(profile.samples),
                db.integer(QStringLiteral("SELECT count(DISTINCT sc.id) FROM SAMPLING_CALLCHAINS sc JOIN COMPOSITE_EVENTS ce ON ce.id = sc.id")));
            QCOMPARE(flatByProfile(profile), flatBySql(db));
        }
    }

    void cliTableIsSortedAndInPercentOfSamples()
    {
        const std::optional<ResultTable> t = runReport(QStringLiteral("cpu_sampling_flat"), *m_saxpy);
        QVERIFY(t);
        QCOMPARE(t->headers, QStringList({QStringLiteral("Self Samples"), QStringLiteral("Self (%)"), QStringLiteral("Total Samples"),
                                          QStringLiteral("Total (%)"), QStringLiteral("Function"), QStringLiteral("Module")}));
        // From SQL: main is where 2,980 of the 5,451 samples were (54.67 %), and in 3,568 (65.46 %).
        QCOMPARE(t->cell(0, 4).text, QStringLiteral("main"));
        QCOMPARE(t->cell(0, 0).integer, 2980);
        QCOMPARE(t->cell(0, 1).display(), QStringLiteral("54.67"));
        QCOMPARE(t->cell(0, 2).integer, 3568);
        QCOMPARE(t->cell(0, 3).display(), QStringLiteral("65.46"));
        for (std::size_t r = 1; r < t->rowCount(); ++r) {
            const auto before = std::pair(t->integerAt(r - 1, 0), t->integerAt(r - 1, 2));
            const auto here = std::pair(t->integerAt(r, 0), t->integerAt(r, 2));
            QVERIFY(before >= here);
        }
    }

    void perThreadAndPerRangeAreTheSqlCount()
    {
        const Db db(cloverleaf());
        // One thread.
        const SampledThread thread = m_clover->sampling.threads[1];
        SamplingScope scope{{wholeReport(*m_clover)}, std::set<SamplingScope::ThreadKey>{{0, thread.pid, thread.tid}}};
        QCOMPARE(
            flatByProfile(samplingProfile(scope)),
            flatBySql(db,
                      QStringLiteral("((ce.globalTid >> 24) & 16777215) = %1 AND (ce.globalTid & 16777215) = %2").arg(thread.pid).arg(thread.tid)));
        // The middle third of the samples' span, ends included (as statistics count events).
        const qint64 first = db.integer(QStringLiteral("SELECT min(start) FROM COMPOSITE_EVENTS"));
        const qint64 last = db.integer(QStringLiteral("SELECT max(start) FROM COMPOSITE_EVENTS"));
        const TimeRange middle{first + (last - first) / 3, first + 2 * (last - first) / 3};
        const auto inRange = flatBySql(db, QStringLiteral("ce.start BETWEEN %1 AND %2").arg(middle.start).arg(middle.end));
        QVERIFY(!inRange.empty());
        QCOMPARE(flatByProfile(samplingProfile(*m_clover, middle)), inRange);
    }

    void treesAgreeWithTheFlatList()
    {
        for (const auto &report : {m_saxpy, m_clover}) {
            const SamplingProfile profile = samplingProfile(*report);
            const CallTree down = profile.topDown(), up = profile.bottomUp();
            QCOMPARE(down.nodes[0].total, profile.samples);
            QCOMPARE(up.nodes[0].total, profile.samples);
            std::map<std::uint32_t, std::uint64_t> selfDown, selfUp;
            std::uint64_t rootChildren = 0;
            for (const std::uint32_t child : down.nodes[0].children)
                rootChildren += down.nodes[child].total;
            QCOMPARE(rootChildren, profile.samples);
            for (std::size_t n = 1; n < down.nodes.size(); ++n) {
                selfDown[down.nodes[n].function] += down.nodes[n].self;
                // A node's total is its self and its children's totals.
                std::uint64_t children = 0;
                for (const std::uint32_t c : down.nodes[n].children)
                    children += down.nodes[c].total;
                QCOMPARE(down.nodes[n].total, down.nodes[n].self + children);
            }
            for (const std::uint32_t child : up.nodes[0].children)
                selfUp[up.nodes[child].function] += up.nodes[child].total;
            for (const FlatFunction &f : profile.flat()) {
                QCOMPARE(selfDown[f.function], f.self);
                QCOMPARE(selfUp[f.function], f.self);
            }
            // The top-down table lists every node once, each under its parent.
            const ResultTable table = samplingTopDownTable(profile);
            QCOMPARE(table.rowCount(), down.nodes.size() - 1);
            QCOMPARE(table.integerAt(0, 2), std::int64_t(down.nodes[down.nodes[0].children[0]].total));
        }
    }

    void filtersFoldWhatTheyName()
    {
        SamplingFilter noKernel;
        noKernel.hideKernelFrames = true;
        const SamplingProfile all = samplingProfile(*m_clover), user = samplingProfile(*m_clover, TimeRange::everything(), noKernel);
        for (const SampledFunction &f : user.functions)
            QVERIFY(!f.kernelMode);
        QCOMPARE(user.samples + user.withoutCallchain, all.samples + all.withoutCallchain);
        SamplingFilter byModule;
        byModule.groupByModule = true;
        const SamplingProfile modules = samplingProfile(*m_saxpy, TimeRange::everything(), byModule);
        const Db db(saxpy());
        // Self per module is the samples whose innermost frame is in that module.
        for (const QStringList &r : db.rows(QStringLiteral("SELECT m.value, count(*) FROM SAMPLING_CALLCHAINS sc JOIN StringIds m ON m.id = "
                                                           "sc.module WHERE sc.stackDepth = 0 GROUP BY m.value"))) {
            const std::optional<std::uint32_t> f = modules.find(r[0], r[0]);
            QVERIFY(f);
            const auto flat = modules.flat();
            const auto row = std::find_if(flat.begin(), flat.end(), [&](const FlatFunction &x) { return x.function == *f; });
            QCOMPARE(qint64(row->self), r[1].toLongLong());
        }
        SamplingFilter collapse;
        collapse.collapseUnresolved = true;
        const SamplingProfile collapsed = samplingProfile(*m_saxpy, TimeRange::everything(), collapse);
        for (const auto &stack : collapsed.stacks)
            for (std::size_t i = 1; i < stack.size(); ++i)
                QVERIFY(!(collapsed.functions[stack[i]].unresolved && stack[i] == stack[i - 1]));
        QCOMPARE(collapsed.samples, all.samples == 0 ? 0 : collapsed.samples);
    }

    void backtracesOfCudaCallsAreTheirCallchains()
    {
        const Db db(saxpy());
        QCOMPARE(
            qint64(m_saxpy->sampling.backtraces.size()),
            db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.callchainId IN (SELECT id FROM CUDA_CALLCHAINS)")));
        // Each call's frames, innermost first, are its rows by depth.
        for (const EventBacktrace &b : m_saxpy->sampling.backtraces) {
            const Track &track = m_saxpy->tracks[b.track];
            QCOMPARE(track.kind, TrackKind::CudaApi);
            const auto ids = db.rows(QStringLiteral("SELECT callchainId FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE start = %1 AND end = %2")
                                         .arg(track.slices.start(b.event))
                                         .arg(track.slices.end(b.event)));
            QCOMPARE(ids.size(), 1);
            const auto frames = db.rows(QStringLiteral("SELECT f.value, m.value FROM CUDA_CALLCHAINS c JOIN StringIds f ON f.id = c.symbol "
                                                       "JOIN StringIds m ON m.id = c.module WHERE c.id = %1 ORDER BY c.stackDepth")
                                            .arg(ids[0][0]));
            const auto chain = m_saxpy->sampling.callchain(b.callchain);
            QCOMPARE(qsizetype(chain.size()), frames.size());
            for (std::size_t i = 0; i < chain.size(); ++i) {
                const CallFrame &f = m_saxpy->sampling.frames[chain[i]];
                QCOMPARE(m_saxpy->strings.string(f.function), frames[qsizetype(i)][0]);
                QCOMPARE(m_saxpy->strings.string(f.module), frames[qsizetype(i)][1]);
            }
        }
    }

    void backtracesOfOsRuntimeCalls()
    {
        for (const QString &path : {cloverleaf(), slowFixture()}) {
            const std::shared_ptr<Report> r = path == cloverleaf() ? m_clover : loadTraceFile(path).report;
            const Db db(path);
            QCOMPARE(qint64(r->sampling.backtraces.size()),
                     db.integer(QStringLiteral(
                         "SELECT count(*) FROM OSRT_API WHERE eventClass NOT IN (31, 32) AND callchainId IN (SELECT id FROM OSRT_CALLCHAINS)")));
            // The deepest chain frame by frame.
            const auto deepest =
                db.rows(QStringLiteral("SELECT o.start, o.end, o.callchainId FROM OSRT_API o JOIN OSRT_CALLCHAINS c ON c.id = o.callchainId "
                                       "GROUP BY o.rowid ORDER BY count(*) DESC, o.start LIMIT 1"));
            QCOMPARE(deepest.size(), 1);
            const auto frames =
                db.rows(QStringLiteral("SELECT f.value, c.kernelMode, c.unresolved FROM OSRT_CALLCHAINS c JOIN StringIds f ON f.id = c.symbol "
                                       "WHERE c.id = %1 ORDER BY c.stackDepth")
                            .arg(deepest[0][2]));
            bool found = false;
            for (const EventBacktrace &b : r->sampling.backtraces) {
                const Track &track = r->tracks[b.track];
                if (track.kind != TrackKind::OsRuntime || track.slices.start(b.event) != deepest[0][0].toLongLong()
                    || track.slices.end(b.event) != deepest[0][1].toLongLong())
                    continue;
                const auto chain = r->sampling.callchain(b.callchain);
                QCOMPARE(qsizetype(chain.size()), frames.size());
                for (std::size_t i = 0; i < chain.size(); ++i) {
                    const CallFrame &f = r->sampling.frames[chain[i]];
                    QCOMPARE(r->strings.string(f.function), frames[qsizetype(i)][0]);
                    QCOMPARE(f.has(CallFrame::KernelMode), frames[qsizetype(i)][1].toInt() != 0);
                    QCOMPARE(f.has(CallFrame::Unresolved), frames[qsizetype(i)][2].toInt() != 0);
                }
                found = true;
            }
            QVERIFY(found);
            // The ids were carried in the payloads only while loading.
            for (const Track &t : r->tracks)
                if (t.kind == TrackKind::OsRuntime)
                    for (std::size_t e = 0; e < t.slices.size(); ++e)
                        QCOMPARE(t.slices.payload(e), 0u);
        }
    }

    void ranksSideBySideAndRunsComparedByShare()
    {
        // Two reports as two ranks: each rank's column is its own flat list's self share.
        const Session session = Session::load({saxpy(), cloverleaf()});
        QCOMPARE(session.ranks().size(), std::size_t(2));
        const ResultTable byRank = samplingByRankTable(session);
        QCOMPARE(byRank.headers.size(), 5);
        std::map<QString, double> expected[2];
        for (int r = 0; r < 2; ++r) {
            const SamplingProfile p = samplingProfile(*session.ranks()[std::size_t(r)].report);
            for (const FlatFunction &f : p.flat())
                expected[r][p.functions[f.function].function + QLatin1Char('\t') + p.functions[f.function].module] = p.percentOf(f.self);
        }
        double lastSpread = 1e9;
        for (std::size_t row = 0; row < byRank.rowCount(); ++row) {
            const QString key = byRank.cell(row, 0).text + QLatin1Char('\t') + byRank.cell(row, 1).text;
            const double a = expected[0].count(key) ? expected[0][key] : 0.0, b = expected[1].count(key) ? expected[1][key] : 0.0;
            QCOMPARE(byRank.numberAt(row, 2), a);
            QCOMPARE(byRank.numberAt(row, 3), b);
            QCOMPARE(byRank.numberAt(row, 4), std::abs(a - b));
            QVERIFY(byRank.numberAt(row, 4) <= lastSpread);
            lastSpread = byRank.numberAt(row, 4);
        }
        // The largest difference between saxpy and CloverLeaf is saxpy's main (54.67 % of its samples, SQL above).
        QCOMPARE(byRank.cell(0, 0).text, QStringLiteral("main"));
        const int saxpyRank = session.ranks()[0].report->filePath == saxpy() ? 0 : 1;
        const ResultTable diff = samplingDiffTable(samplingProfileOfRank(session, saxpyRank), samplingProfileOfRank(session, 1 - saxpyRank));
        QCOMPARE(diff.cell(0, 0).text, QStringLiteral("main"));
        QCOMPARE(diff.integerAt(0, 2), std::int64_t(2980));
        QCOMPARE(diff.cell(0, 3).display(), QStringLiteral("54.67"));
        QCOMPARE(diff.integerAt(0, 5), std::int64_t(0));
        QCOMPARE(diff.cell(0, 8).display(), QStringLiteral("-54.67"));
    }

    void gapsNameWhereTheCpuWasSampled()
    {
        // CloverLeaf's GPU idles while its host sets up: the longest gap's
        // top sampled functions are the SQL count of innermost frames in it.
        const Session session = Session::load({cloverleaf()});
        const std::vector<GpuGapInfo> gaps = findGaps(session, {}, 1'000'000);
        QVERIFY(!gaps.empty());
        const Db db(cloverleaf());
        bool checked = false;
        for (const GpuGapInfo &g : gaps) {
            const RankEntry &entry = session.ranks()[std::size_t(g.rankIndex)];
            const TimeNs from = g.time.start - entry.sessionOffset, to = g.time.end - entry.sessionOffset;
            const QString inGap = QStringLiteral("FROM COMPOSITE_EVENTS ce JOIN SAMPLING_CALLCHAINS sc ON sc.id = ce.id AND sc.stackDepth = 0 "
                                                 "JOIN StringIds f ON f.id = sc.symbol WHERE ce.start BETWEEN %1 AND %2")
                                      .arg(from)
                                      .arg(to);
            const qint64 total = db.integer(QStringLiteral("SELECT count(*) ") + inGap);
            const auto top = db.rows(QStringLiteral("SELECT f.value, count(*) AS n ") + inGap
                                     + QStringLiteral(" GROUP BY sc.symbol, sc.module ORDER BY n DESC, f.value LIMIT 3"));
            QCOMPARE(qsizetype(g.sampled.size()), top.size());
            for (qsizetype i = 0; i < top.size(); ++i) {
                QCOMPARE(qint64(g.sampled[std::size_t(i)].samples), top[i][1].toLongLong());
                QCOMPARE(g.sampled[std::size_t(i)].share, double(top[i][1].toLongLong()) / double(total));
            }
            checked |= total > 0;
        }
        QVERIFY(checked);
        // Spans of two reports add up by function text.
        const Report &r = *m_saxpy;
        const TimeRange all = r.extent();
        const TimeRange firstHalf{all.start, all.start + all.duration() / 2}, secondHalf{firstHalf.end + 1, all.end};
        const auto whole = topSampledFunctions(r, std::nullopt, all, 5);
        const auto halves = topSampledFunctions({SampledSpans{&r, std::nullopt, {firstHalf, secondHalf}}}, 5);
        QCOMPARE(halves.size(), whole.size());
        for (std::size_t i = 0; i < whole.size(); ++i) {
            QCOMPARE(halves[i].function, whole[i].function);
            QCOMPARE(halves[i].samples, whole[i].samples);
        }
        QCOMPARE(whole.front().function, QStringLiteral("main"));
        QVERIFY(sampledSharesText(whole).startsWith(QStringLiteral("main (saxpy-mpi-cuda) 55 %")));
    }

    void inputStarvationNamesWhereTheCpuWasSampled()
    {
        // The data-loader-bound run with planted samples on its training
        // thread every 50 µs over its GPU's span: three in four in
        // decode_jpeg (libjpeg.so.8), the fourth in pthread_cond_wait.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sampled.sqlite"));
        QVERIFY(QFile::copy(slowFixture(), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        constexpr qint64 kFirst = 7190962533, kLast = 8652417046, kPeriod = 50'000, kThread = 281492643120157;
        {
            const Db db(path, true);
            QVERIFY(
                db.exec(QStringLiteral(
                            "CREATE TABLE COMPOSITE_EVENTS(id INTEGER PRIMARY KEY, start INTEGER NOT NULL, cpu INTEGER, threadState INTEGER, "
                            "globalTid INTEGER, cpuCycles INTEGER NOT NULL);"
                            "CREATE TABLE SAMPLING_CALLCHAINS(id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL, kernelMode "
                            "INTEGER, thumbCode INTEGER,"
                            " unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER, unwindMethod INTEGER, stackDepth INTEGER NOT NULL, "
                            "PRIMARY KEY (id, stackDepth));"
                            "INSERT INTO StringIds VALUES (100001, 'decode_jpeg'), (100002, '/usr/lib/libjpeg.so.8'), (100003, 'pthread_cond_wait'),"
                            " (100004, '/usr/lib/libc.so.6'), (100005, 'main'), (100006, 'python3');"
                            "WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE %1 + (n + 1) * %3 <= %2)"
                            " INSERT INTO COMPOSITE_EVENTS SELECT n + 1, %1 + n * %3, 0, 1, %4, 0 FROM k;"
                            "INSERT INTO SAMPLING_CALLCHAINS SELECT id, CASE WHEN (id - 1) % 4 = 3 THEN 100003 ELSE 100001 END,"
                            " CASE WHEN (id - 1) % 4 = 3 THEN 100004 ELSE 100002 END, 0, 0, 0, 0, 0, 1, 0 FROM COMPOSITE_EVENTS;"
                            "INSERT INTO SAMPLING_CALLCHAINS SELECT id, 100005, 100006, 0, 0, 0, 0, 0, 1, 1 FROM COMPOSITE_EVENTS;")
                            .arg(kFirst)
                            .arg(kLast)
                            .arg(kPeriod)
                            .arg(kThread)));
        }
        const Session session = Session::load({path});
        QCOMPARE(session.failures().size(), std::size_t(0));
        const Diagnosis d = diagnosed(session);
        const auto input =
            std::find_if(d.findings.begin(), d.findings.end(), [](const Finding &f) { return f.id == QLatin1String("input_starvation"); });
        QVERIFY(input != d.findings.end());
        // The planted truth, counted here: the samples inside the finding's gaps, ends included.
        const RankEntry &entry = session.ranks()[0];
        qint64 jpeg = 0, all = 0;
        for (const FindingInstance &i : input->instances) {
            const qint64 from = i.time.start - entry.sessionOffset, to = i.time.end - entry.sessionOffset;
            qint64 inGap = 0, jpegInGap = 0;
            for (qint64 k = std::max<qint64>(0, (from - kFirst + kPeriod - 1) / kPeriod); kFirst + k * kPeriod <= to; ++k) {
                ++inGap;
                jpegInGap += k % 4 != 3;
            }
            all += inGap;
            jpeg += jpegInGap;
            if (inGap > 0) {
                QVERIFY2(i.what.contains(QStringLiteral("; CPU sampled in decode_jpeg (libjpeg.so.8) %1 %")
                                             .arg(std::lround(100.0 * double(jpegInGap) / double(inGap)))),
                         qPrintable(i.what));
            }
        }
        QVERIFY(all > 1000);
        QVERIFY2(input->evidence.contains(QStringLiteral("sampled mostly in decode_jpeg (libjpeg.so.8) %1 %, pthread_cond_wait (libc.so.6) %2 %")
                                              .arg(std::lround(100.0 * double(jpeg) / double(all)))
                                              .arg(std::lround(100.0 * double(all - jpeg) / double(all)))),
                 qPrintable(input->evidence));
    }

    void indexCacheGivesWhatTheParseGave()
    {
        QTemporaryDir dir;
        LoadControl control;
        control.indexCacheDirectory = dir.path();
        for (const QString &path : {saxpy(), cloverleaf()}) {
            QCOMPARE(loadTraceFile(path, control).indexCache, LoadResult::IndexCache::Written);
            const LoadResult cached = loadTraceFile(path, control);
            QCOMPARE(cached.indexCache, LoadResult::IndexCache::Opened);
            const Report &parsed = *(path == saxpy() ? m_saxpy : m_clover);
            const CpuSampling &a = parsed.sampling, &b = cached.report->sampling;
            QCOMPARE(b.samples.size(), a.samples.size());
            QVERIFY(std::equal(a.samples.begin(), a.samples.end(), b.samples.begin(), [](const CpuSample &x, const CpuSample &y) {
                return x.time == y.time && x.callchain == y.callchain && x.cpu == y.cpu && x.threadState == y.threadState;
            }));
            QVERIFY(std::equal(a.frames.begin(), a.frames.end(), b.frames.begin(), b.frames.end()));
            QVERIFY(std::equal(a.chainFrames.begin(), a.chainFrames.end(), b.chainFrames.begin(), b.chainFrames.end()));
            QVERIFY(std::equal(a.chainStarts.begin(), a.chainStarts.end(), b.chainStarts.begin(), b.chainStarts.end()));
            QCOMPARE(b.backtraces.size(), a.backtraces.size());
            QCOMPARE(samplingTopDownTable(samplingProfile(*cached.report)).toCsv(), samplingTopDownTable(samplingProfile(parsed)).toCsv());
        }
    }

    void damagedCachedCallchainsAreRejected()
    {
        QTemporaryDir dir;
        for (int lie = 0; lie < 4; ++lie) {
            const LoadResult parsed = loadTraceFile(saxpy());
            CpuSampling &s = parsed.report->sampling;
            switch (lie) {
            case 0:
                s.chainFrames[0] = std::uint32_t(s.frames.size());
                break;
            case 1:
                s.samples[0].callchain = std::uint32_t(s.chainCount()) + 3;
                break;
            case 2:
                s.backtraces[0].event = 1u << 30;
                break;
            case 3:
                std::swap(s.samples[0], s.samples[1]);
                s.samples[0].time += 1000000000;
                break;
            }
            const CacheKey key = CacheKey::of(saxpy());
            const QString cachePath = indexCachePathFor(dir.path(), key);
            QCOMPARE(writeIndexCache(*parsed.report, key, cachePath), QString());
            const CacheOpenResult opened = openIndexCache(cachePath, key);
            QVERIFY2(!opened.report, qPrintable(QString::number(lie)));
        }
    }

    // One sample 1,024 frames deep, each function a distinct 1,000-character
    // name (the audit's 1.2 MB export: 20 s, 8 GiB and 2.1 GB of output
    // with a path string per tree node). A node names its parent by row,
    // so the tables grow with the frames, and the chain is still there.
    void aDeepCallchainMakesTablesLinearInIt()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deep.sqlite"));
        QVERIFY(QFile::copy(saxpy(), path));
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(Db(path, true).exec(QString::fromUtf8(deepCallchainSql())));
        const Session session = Session::load({path});
        QCOMPARE(session.ranks().size(), std::size_t(1));
        const SamplingProfile profile = samplingProfile(*session.ranks()[0].report);
        for (const ResultTable &t : {samplingTopDownTable(profile), samplingBottomUpTable(profile)}) {
            const QString csv = t.toCsv();
            QVERIFY2(csv.size() < 8'000'000, qPrintable(QString::number(csv.size()))); // the names alone are 1 MB
            const qsizetype node = t.headers.indexOf(QStringLiteral("Node")), parent = t.headers.indexOf(QStringLiteral("Parent")),
                            depth = t.headers.indexOf(QStringLiteral("Depth")), function = t.headers.indexOf(QStringLiteral("Function"));
            QVERIFY(node >= 0 && parent >= 0 && !t.headers.contains(QStringLiteral("Path")));
            // Walk up from the deepest row: one parent a level, to a root.
            std::size_t deepest = 0;
            for (std::size_t r = 0; r < t.rowCount(); ++r) {
                QCOMPARE(t.cell(r, std::size_t(node)).integer, std::int64_t(r + 1));
                if (t.cell(r, std::size_t(depth)).integer > t.cell(deepest, std::size_t(depth)).integer)
                    deepest = r;
            }
            QCOMPARE(t.cell(deepest, std::size_t(depth)).integer, std::int64_t(1023));
            int levels = 1;
            for (std::int64_t up = t.cell(deepest, std::size_t(parent)).integer; up != 0;
                 up = t.cell(std::size_t(up - 1), std::size_t(parent)).integer) {
                QVERIFY(up <= std::int64_t(t.rowCount()));
                QCOMPARE(t.cell(std::size_t(up - 1), std::size_t(depth)).integer, std::int64_t(1023 - levels));
                ++levels;
            }
            QCOMPARE(levels, 1024);
            QCOMPARE(t.cell(deepest, std::size_t(function)).text.size(), qsizetype(1000));
        }
    }

    void damagedCallchainTablesStillOpen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.sqlite"));
        QVERIFY(QFile::copy(saxpy(), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        {
            const Db db(path, true);
            const qint64 deepId = db.integer(QStringLiteral("SELECT id FROM SAMPLING_CALLCHAINS GROUP BY id ORDER BY count(*) DESC LIMIT 1"));
            const qint64 other =
                db.integer(QStringLiteral("SELECT id FROM SAMPLING_CALLCHAINS WHERE id <> %1 AND stackDepth = 2 LIMIT 1").arg(deepId));
            // A depth gap, strings the table does not hold, a million frames on one sample.
            QVERIFY(db.exec(QStringLiteral("DELETE FROM SAMPLING_CALLCHAINS WHERE id = %1 AND stackDepth = 1").arg(other)));
            QVERIFY(db.exec(
                QStringLiteral("UPDATE SAMPLING_CALLCHAINS SET symbol = 987654321, module = -5 WHERE id = %1 AND stackDepth = 0").arg(other)));
            QVERIFY(db.exec(QStringLiteral("WITH RECURSIVE d(n) AS (SELECT 100 UNION ALL SELECT n + 1 FROM d WHERE n < 1000099) "
                                           "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) SELECT %1, 1, 1, n FROM d")
                                .arg(deepId)));
            // A CUDA call whose callchain id names a chain that is not there, or a sample's.
            QVERIFY(db.exec(QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 424242 WHERE rowid = (SELECT min(rowid) FROM "
                                           "CUPTI_ACTIVITY_KIND_RUNTIME WHERE callchainId IN (SELECT id FROM CUDA_CALLCHAINS))")));
        }
        const LoadResult loaded = loadTraceFile(path);
        QVERIFY2(loaded.report, qPrintable(loaded.error));
        const Report &r = *loaded.report;
        QCOMPARE(r.sampling.samples.size(), std::size_t(5451));
        std::size_t deepest = 0;
        for (std::size_t c = 0; c < r.sampling.chainCount(); ++c)
            deepest = std::max(deepest, r.sampling.callchain(std::uint32_t(c)).size());
        QCOMPARE(deepest, std::size_t(1024));
        QCOMPARE(r.sampling.backtraces.size(), m_saxpy->sampling.backtraces.size() - 1);
        QStringList texts;
        for (const Diagnostic &d : r.diagnostics)
            texts << d.text;
        const QString all = texts.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("deeper than 1024 frames")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("skip a depth")), qPrintable(all));
        // The statistics still add up.
        const SamplingProfile profile = samplingProfile(r);
        QCOMPARE(profile.samples + profile.withoutCallchain, std::uint64_t(5451));
        QVERIFY(!samplingFlatTable(profile).toCsv().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCpuSampling)
#include "tst_cpusampling.moc"
