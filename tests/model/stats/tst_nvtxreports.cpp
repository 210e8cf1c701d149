// nsys' NVTX trace and projection reports (nvtx_pushpop_trace,
// nvtx_gpu_proj_trace, nvtx_gpu_proj_sum, nvtx_kern_sum) against SQL over
// the exports' own tables: the real runs' push/pop ranges, and a copy of
// one with start/end ranges planted around its launches (overlapping, one
// nested in another of its name, one ending on another thread).
#include "load/traceloader.h"
#include "nsysfixture.h"
#include "sqlquery.h"
#include "stats/reportcatalog.h"
#include "testdata.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// The ranges nsys' reports list, as SQL over NVTX_EVENTS: id, start, end,
// thread, style and "domain:text" name. `types` are the event types.
QString rangesCte(const QString &types, bool sameThreadOnly)
{
    return QStringLiteral(
               "dom AS (SELECT e.domainId AS id, (e.globalTid >> 24) & 0xFFFFFF AS pid, coalesce(s.value, e.text) AS name FROM NVTX_EVENTS e"
               " LEFT JOIN StringIds s ON s.id = e.textId WHERE e.eventType = 75 GROUP BY 1, 2),"
               " r AS (SELECT e.rowid AS id, e.start AS start, e.end AS end, e.globalTid AS tid,"
               " iif(e.eventType IN (59, 70), 'PushPop', 'StartEnd') AS style,"
               " coalesce(d.name, '') || ':' || coalesce(s.value, e.text, '') AS name FROM NVTX_EVENTS e"
               " LEFT JOIN StringIds s ON s.id = e.textId LEFT JOIN dom d ON d.id = e.domainId AND d.pid = (e.globalTid >> 24) & 0xFFFFFF"
               " WHERE e.eventType IN (%1)%2)")
        .arg(types, sameThreadOnly ? QStringLiteral(" AND e.endGlobalTid IS NULL") : QString());
}

// Each range's tightest enclosing range on its thread, as SQL finds it.
QString parentColumn()
{
    return QStringLiteral("(SELECT p.id FROM r p WHERE p.tid = r.tid AND p.id <> r.id AND p.start <= r.start AND p.end >= r.end"
                          " ORDER BY p.end - p.start, p.start LIMIT 1)");
}

// The GPU operations each range launched: its projection, as SQL joins
// the launches inside it to their kernels, copies and memsets.
QString projectionSql()
{
    return QStringLiteral("WITH ") + rangesCte(QStringLiteral("59, 60, 70, 71"), true)
           + QStringLiteral(", ops AS (SELECT start, end, correlationId, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL"
                            " UNION ALL SELECT start, end, correlationId, globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY"
                            " UNION ALL SELECT start, end, correlationId, globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET)"
                            " SELECT r.id, r.name, min(o.start), max(o.end) - min(o.start), r.start, r.end - r.start, r.style,"
                            " (r.tid >> 24) & 0xFFFFFF, r.tid & 0xFFFFFF, count(DISTINCT o.correlationId), ")
           + parentColumn()
           + QStringLiteral(" FROM r JOIN CUPTI_ACTIVITY_KIND_RUNTIME a ON a.globalTid = r.tid AND a.start >= r.start AND a.end <= r.end"
                            " JOIN ops o ON o.correlationId = a.correlationId AND o.globalPid = (a.globalTid & 0xFFFFFFFFFF000000)"
                            " GROUP BY r.id");
}

QString fixed1(double v)
{
    return QString::number(std::round(v * 10.0) / 10.0, 'f', 1);
}

} // namespace

class TestNvtxReports : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::map<QString, QString> m_paths;     // fixture -> export
    std::map<QString, ReportPtr> m_reports; // fixture -> as loaded

private slots:
    void initTestCase()
    {
        m_paths[QStringLiteral("slow_1gpu")] = slowFixture();
        m_paths[QStringLiteral("ddp4")] = ddpFixture(0);
        // The slow run with start/end ranges around the 10th to 40th launches of its first launching thread.
        const QString planted = m_dir.filePath(QStringLiteral("planted.sqlite"));
        QVERIFY(writableCopy(slowFixture(), planted));
        const QList<QStringList> launches = queryRows(
            planted, QStringLiteral("WITH l AS (SELECT a.start, a.end, a.globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME a"
                                    " JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON k.correlationId = a.correlationId)"
                                    " SELECT * FROM l WHERE globalTid = (SELECT globalTid FROM l ORDER BY start LIMIT 1) ORDER BY start LIMIT 40"));
        QCOMPARE(launches.size(), 40);
        const auto before = [&](int i) { return launches[i][0].toLongLong() - 1; };
        const auto after = [&](int i) { return launches[i][1].toLongLong() + 1; };
        const QString tid = launches[0][2];
        {
            NsysFixture db(planted);
            db.exec(QStringLiteral("INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, endGlobalTid, domainId) VALUES"
                                   " (%1, NULL, 75, 'io', %2, NULL, 77),"        // the domain
                                   " (%3, %4, 60, 'stage', %2, NULL, 77),"       // launches 10-25
                                   " (%5, %6, 60, 'stage', %2, NULL, 77),"       // 12-14, inside it, of its name
                                   " (%7, %8, 60, 'overlap', %2, NULL, 0),"      // 20-35, across its end
                                   " (%3, %8, 60, 'elsewhere', %2, %9, 0),"      // 10-35, ended on another thread
                                   " (%10, %11, 71, 'registered', %2, NULL, 0)") // 30-39, an NVTXT start/end range
                        .arg(before(0))
                        .arg(tid)
                        .arg(before(10))
                        .arg(after(25))
                        .arg(before(12))
                        .arg(after(14))
                        .arg(before(20))
                        .arg(after(35))
                        .arg(tid.toLongLong() + 1)
                        .arg(before(30))
                        .arg(after(39)));
            db.close();
        }
        m_paths[QStringLiteral("planted")] = planted;
        for (const auto &[name, path] : m_paths) {
            const LoadResult r = loadTraceFile(path);
            QVERIFY2(r.ok(), qPrintable(r.error));
            m_reports[name] = r.report;
        }
    }

    void pushPopTraceIsSqlOverTheRanges_data()
    {
        QTest::addColumn<QString>("fixture");
        for (const char *fixture : {"slow_1gpu", "ddp4", "planted"})
            QTest::newRow(fixture) << QString::fromLatin1(fixture);
    }

    // Every push/pop range with its tightest enclosing one (SQL), and from
    // that its level, children, their time and its stack; ids differ
    // (nsys numbers rows by the export's rowid), so ranges are compared by
    // thread, start and end.
    void pushPopTraceIsSqlOverTheRanges()
    {
        QFETCH(QString, fixture);
        const QList<QStringList> rows =
            queryRows(m_paths[fixture], QStringLiteral("WITH ") + rangesCte(QStringLiteral("59, 70"), false)
                                            + QStringLiteral(" SELECT r.id, r.start, r.end, r.name, (r.tid >> 24) & 0xFFFFFF, r.tid & 0xFFFFFF, ")
                                            + parentColumn() + QStringLiteral(" FROM r"));
        QVERIFY(rows.size() >= 48);
        std::map<QString, const QStringList *> byId;
        std::map<QString, qint64> childTime;
        std::map<QString, int> children;
        for (const QStringList &r : rows) {
            byId[r[0]] = &r;
            if (!r[6].isEmpty()) {
                childTime[r[6]] += r[2].toLongLong() - r[1].toLongLong();
                ++children[r[6]];
            }
        }
        const auto keyOf = [](const QStringList &r) { return r[5] + QLatin1Char('@') + r[1] + QLatin1Char('-') + r[2]; };
        // Start,End,Duration,DurChild,DurNonChild,Name,PID,TID,Lvl,NumChild,ParentId,RangeStack,NameTree, ids as keys.
        std::multiset<QStringList> expected;
        for (const QStringList &r : rows) {
            QStringList stack;
            for (const QStringList *p = &r; p; p = p->at(6).isEmpty() ? nullptr : byId[p->at(6)])
                stack.prepend(keyOf(*p));
            const qint64 duration = r[2].toLongLong() - r[1].toLongLong();
            const int level = int(stack.size()) - 1;
            expected.insert({r[1], r[2], QString::number(duration), QString::number(childTime[r[0]]), QString::number(duration - childTime[r[0]]),
                             r[3], r[4], r[5], QString::number(level), QString::number(children[r[0]]),
                             r[6].isEmpty() ? QString() : keyOf(*byId[r[6]]), stack.join(QLatin1Char('|')),
                             QString(level * 2, QLatin1Char('-')) + r[3]});
        }
        const auto table = stats::runReport(QStringLiteral("nvtx_pushpop_trace"), *m_reports[fixture]);
        QVERIFY(table);
        const QList<QStringList> actual = parseCsv(table->toCsv(CsvCells::Raw));
        QCOMPARE(actual.value(0).join(QLatin1Char(',')), QStringLiteral("Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),Name,"
                                                                        "PID,TID,Lvl,NumChild,RangeId,ParentId,RangeStack,NameTree"));
        QCOMPARE(std::size_t(actual.size() - 1), expected.size());
        std::map<QString, QString> keyOfId;
        for (qsizetype r = 1; r < actual.size(); ++r)
            keyOfId[actual[r][10]] = actual[r][7] + QLatin1Char('@') + actual[r][0] + QLatin1Char('-') + actual[r][1];
        std::multiset<QStringList> got;
        for (qsizetype r = 1; r < actual.size(); ++r) {
            const QStringList &a = actual[r];
            QStringList stack;
            for (const QString &id : a[12].split(QLatin1Char(':'), Qt::SkipEmptyParts))
                stack << keyOfId[id];
            got.insert(a.mid(0, 10) + QStringList{a[11].isEmpty() ? QString() : keyOfId[a[11]], stack.join(QLatin1Char('|')), a[13]});
            if (r > 1) // by start, then the shorter first
                QVERIFY(std::pair(actual[r - 1][0].toLongLong(), actual[r - 1][2].toLongLong()) <= std::pair(a[0].toLongLong(), a[2].toLongLong()));
        }
        QCOMPARE(got, expected);
    }

    void projectionTraceIsSqlOverTheLaunches_data() { pushPopTraceIsSqlOverTheRanges_data(); }

    // Each range that launched GPU work, projected onto it: the span of
    // its operations and their distinct correlation ids, its level and
    // how many of its children projected too.
    void projectionTraceIsSqlOverTheLaunches()
    {
        QFETCH(QString, fixture);
        const QList<QStringList> rows = queryRows(m_paths[fixture], projectionSql());
        QVERIFY(rows.size() >= 10);
        const QList<QStringList> all =
            queryRows(m_paths[fixture], QStringLiteral("WITH ") + rangesCte(QStringLiteral("59, 60, 70, 71"), true) + QStringLiteral(" SELECT r.id, ")
                                            + parentColumn() + QStringLiteral(" FROM r"));
        std::map<QString, QString> parentOf;
        for (const QStringList &r : all)
            parentOf[r[0]] = r[1];
        std::map<QString, int> projectedChildren;
        for (const QStringList &r : rows)
            if (!r[10].isEmpty())
                ++projectedChildren[r[10]];
        std::multiset<QStringList> expected; // Name ... NumGPUOps, Lvl, NumChild
        for (const QStringList &r : rows) {
            int level = 0;
            for (QString p = r[10]; !p.isEmpty(); p = parentOf[p])
                ++level;
            expected.insert(r.mid(1, 9) + QStringList{QString::number(level), QString::number(projectedChildren[r[0]])});
        }
        const auto table = stats::runReport(QStringLiteral("nvtx_gpu_proj_trace"), *m_reports[fixture]);
        QVERIFY(table);
        const QList<QStringList> actual = parseCsv(table->toCsv(CsvCells::Raw));
        QCOMPARE(actual.value(0).join(QLatin1Char(',')),
                 QStringLiteral("Name,Projected Start (ns),Projected Duration (ns),Orig Start (ns),Orig Duration (ns),Style,PID,TID,NumGPUOps,"
                                "Lvl,NumChild,RangeId,ParentId,RangeStack"));
        std::multiset<QStringList> got;
        for (qsizetype r = 1; r < actual.size(); ++r) {
            got.insert(actual[r].mid(0, 11));
            if (r > 1) // by projected start, then the longer first
                QVERIFY(std::pair(actual[r - 1][1].toLongLong(), -actual[r - 1][2].toLongLong())
                        <= std::pair(actual[r][1].toLongLong(), -actual[r][2].toLongLong()));
        }
        QCOMPARE(got, expected);
        if (fixture == QLatin1String("planted")) { // the range ended elsewhere is left out; the others are in, with both styles
            QVERIFY(!table->toCsv().contains(QLatin1String(":elsewhere")));
            QVERIFY(table->toCsv().contains(QLatin1String("io:stage")));
            QVERIFY(table->toCsv().contains(QLatin1String(":registered")));
        }
    }

    void projectionSummaryIsSqlOverTheLaunches_data() { pushPopTraceIsSqlOverTheRanges_data(); }

    // The projections by name and style: their count, projected and range
    // time, GPU operations, levels and projected children.
    void projectionSummaryIsSqlOverTheLaunches()
    {
        QFETCH(QString, fixture);
        const auto trace = stats::runReport(QStringLiteral("nvtx_gpu_proj_trace"), *m_reports[fixture]);
        // From the trace (checked against SQL above), each group summed here.
        struct Group {
            QStringList projected;
            qint64 rangeTime = 0, ops = 0, levels = 0, children = 0, count = 0;
        };
        std::map<QStringList, Group> groups;
        const QList<QStringList> traceRows = parseCsv(trace->toCsv());
        for (qsizetype r = 1; r < traceRows.size(); ++r) {
            const QStringList &t = traceRows[r];
            Group &g = groups[{t[0], t[5]}];
            g.projected << t[2];
            g.rangeTime += t[4].toLongLong();
            g.ops += t[8].toLongLong();
            g.levels += t[9].toLongLong();
            g.children += t[10].toLongLong();
            ++g.count;
        }
        std::map<QStringList, QStringList> expected;
        for (const auto &[key, g] : groups) {
            qint64 total = 0;
            const QStringList s = summaryCells(g.projected.join(QLatin1Char(',')), &total);
            const double n = double(g.count);
            expected[key] =
                QStringList{QString::number(total), QString::number(g.rangeTime), QString::number(g.count)} + s
                + QStringList{QString::number(g.ops), fixed1(double(g.ops) / n), fixed1(double(g.levels) / n), fixed1(double(g.children) / n)};
        }
        const auto table = stats::runReport(QStringLiteral("nvtx_gpu_proj_sum"), *m_reports[fixture]);
        QVERIFY(table);
        const QList<QStringList> actual = parseCsv(table->toCsv(CsvCells::Raw));
        QCOMPARE(actual.value(0).join(QLatin1Char(',')),
                 QStringLiteral("Range,Style,Total Proj Time (ns),Total Range Time (ns),Range Instances,Proj Avg (ns),Proj Med (ns),Proj Min (ns),"
                                "Proj Max (ns),Proj StdDev (ns),Total GPU Ops,Avg GPU Ops,Avg Range Lvl,Avg Num Child"));
        QCOMPARE(std::size_t(actual.size() - 1), expected.size());
        for (qsizetype r = 1; r < actual.size(); ++r) {
            QCOMPARE(actual[r].mid(2), expected[actual[r].mid(0, 2)]);
            if (r > 1)
                QVERIFY(actual[r - 1][2].toLongLong() >= actual[r][2].toLongLong()); // the most projected time first
        }
    }

    void kernelSummaryIsSqlOverTheLaunches_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("naming");
        for (const char *fixture : {"slow_1gpu", "ddp4", "planted"})
            for (const char *naming : {"", "base", "mangled"})
                QTest::addRow("%s%s%s", fixture, *naming ? ":" : "", naming) << QString::fromLatin1(fixture) << QString::fromLatin1(naming);
    }

    // Each kernel under every range on its launching thread that holds its
    // launch (a stack of ranges counts it for each), else under no range:
    // SQL's groups, their distinct ranges and kernels, and the statistics
    // of the pairs' durations.
    void kernelSummaryIsSqlOverTheLaunches()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, naming);
        const QString nameColumn = naming == QLatin1String("base")      ? QStringLiteral("k.shortName")
                                   : naming == QLatin1String("mangled") ? QStringLiteral("coalesce(k.mangledName, k.demangledName)")
                                                                        : QStringLiteral("k.demangledName");
        const QList<QStringList> rows = queryRows(
            m_paths[fixture],
            QStringLiteral("WITH ") + rangesCte(QStringLiteral("59, 60, 70, 71"), true)
                + QStringLiteral(", c AS (SELECT r.name AS name, r.style AS style, r.id AS rid, k.rowid AS kid, k.end - k.start AS d,"
                                 " (a.globalTid >> 24) & 0xFFFFFF AS pid, a.globalTid & 0xFFFFFF AS tid, kn.value AS kname"
                                 " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds kn ON kn.id = %1"
                                 " LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME a ON a.correlationId = k.correlationId"
                                 " AND (a.globalTid & 0xFFFFFFFFFF000000) = k.globalPid"
                                 " LEFT JOIN r ON r.tid = a.globalTid AND r.start <= a.start AND r.end >= a.end)"
                                 " SELECT name, style, pid, tid, count(DISTINCT rid), count(DISTINCT kid), sum(d), group_concat(d), kname FROM c"
                                 " GROUP BY pid, tid, name, style, kname")
                      .arg(nameColumn));
        QVERIFY(rows.size() >= 5);
        std::map<QStringList, QStringList> expected; // (range, style, pid, tid, kernel) -> the rest
        for (const QStringList &g : rows)
            expected[{g[0], g[1], g[2], g[3], g[8]}] = QStringList{g[4], g[5], g[6]} + summaryCells(g[7]);
        const QString request = naming.isEmpty() ? QStringLiteral("nvtx_kern_sum") : QStringLiteral("nvtx_kern_sum:") + naming;
        QVERIFY(stats::isKnownReport(request));
        const auto table = stats::runReport(request, *m_reports[fixture]);
        QVERIFY(table);
        const QList<QStringList> actual = parseCsv(table->toCsv(CsvCells::Raw));
        QCOMPARE(actual.value(0).join(QLatin1Char(',')), QStringLiteral("NVTX Range,Style,PID,TID,NVTX Inst,Kern Inst,Total Time (ns),Avg (ns),"
                                                                        "Med (ns),Min (ns),Max (ns),StdDev (ns),Kernel Name"));
        QCOMPARE(std::size_t(actual.size() - 1), expected.size());
        for (qsizetype r = 1; r < actual.size(); ++r) {
            const auto it = expected.find(actual[r].mid(0, 4) + QStringList{actual[r][12]});
            QVERIFY2(it != expected.end(), qPrintable(actual[r].join(QLatin1Char(','))));
            QCOMPARE(actual[r].mid(4, 8), it->second);
            if (r > 1) { // by range (none first), process, thread, then the most time first
                const auto key = [](const QStringList &row) {
                    return std::tuple(row[0].toUtf8(), row[2].toLongLong(), row[3].toLongLong(), -row[6].toLongLong());
                };
                QVERIFY(key(actual[r - 1]) <= key(actual[r]));
            }
        }
        if (fixture == QLatin1String("planted")) { // the nested range of the same name: two ranges, each kernel once
            bool seen = false;
            for (qsizetype r = 1; r < actual.size(); ++r)
                seen = seen || (actual[r][0] == QLatin1String("io:stage") && actual[r][4] == QLatin1String("2"));
            QVERIFY(seen);
        }
    }

    // Arguments are checked against what the report takes.
    void argumentsAreChecked()
    {
        QVERIFY(stats::isKnownReport(QStringLiteral("nvtx_kern_sum:mangled")));
        QVERIFY(!stats::isKnownReport(QStringLiteral("nvtx_kern_sum:base:mangled")));
        QVERIFY(!stats::isKnownReport(QStringLiteral("nvtx_kern_sum:fast")));
        QVERIFY(!stats::isKnownReport(QStringLiteral("osrt_sum:base")));
        QVERIFY(stats::reportArgumentError(QStringLiteral("osrt_sum:base")).contains(QLatin1String("takes no arguments")));
        QVERIFY(stats::reportArgumentError(QStringLiteral("nvtx_kern_sum:fast")).contains(QLatin1String("'base' or 'mangled'")));
    }
};

QTEST_GUILESS_MAIN(TestNvtxReports)
#include "tst_nvtxreports.moc"
