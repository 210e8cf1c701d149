// The read-only SQLite connection every export is read through: a table
// whose columns a hostile file computes as they are read (GENERATED) is not
// read at all, every statement stops when the load is cancelled and when
// the connection has done more work than any export of the file's size
// needs; the loader says which tables it left out.
#include "badcorpus.h"
#include "load/nsys/sqlitedatabase.h"
#include "load/traceloader.h"
#include "testdata.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

#include <thread>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// A copy of a real export with `sql` run on it.
QString editedExport(const QTemporaryDir &dir, const QString &name, const char *sql)
{
    const QString path = dir.filePath(name);
    if (!QFile::copy(slowFixture(), path) || !QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner))
        return {};
    sqlite3 *db = nullptr;
    const bool ok = sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK && sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok ? path : QString();
}

} // namespace

class TestSqliteDatabase : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void aTableWithAGeneratedColumnIsNotRead()
    {
        const QString path = editedExport(m_dir, QStringLiteral("generated.sqlite"), generatedStringIdsSql().constData());
        QVERIFY(!path.isEmpty());
        SqliteDatabase db;
        QString error;
        QVERIFY2(db.open(path, &error), qPrintable(error));
        QVERIFY(!db.hasTable("StringIds"));
        QVERIFY(db.hasTable("CUPTI_ACTIVITY_KIND_KERNEL"));
        QCOMPARE(db.refusedTables().size(), std::size_t(1));
        QCOMPARE(db.refusedTables()[0].first, std::string("StringIds"));
        QVERIFY2(db.refusedTables()[0].second.contains(QLatin1String("column value is generated")), qPrintable(db.refusedTables()[0].second));

        // The loader opens the rest and says what it left out.
        QElapsedTimer timer;
        timer.start();
        const LoadResult loaded = loadTraceFile(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        bool said = false;
        for (const Diagnostic &d : loaded.report->diagnostics)
            said = said || d.text.contains(QLatin1String("table StringIds not read: its column value is generated"));
        QVERIFY(said);
        QVERIFY(loaded.report->eventCount(TrackKind::Kernel) > 0);
        qInfo("opened in %lld ms", timer.elapsed());
    }

    // A stored generated column is refused too: the rule is simple, and no
    // export has one.
    void aStoredGeneratedColumnIsRefusedToo()
    {
        const QString path = editedExport(
            m_dir, QStringLiteral("stored.sqlite"),
            "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO old;"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, \"end\" INTEGER, twice INTEGER GENERATED ALWAYS AS (start * 2) STORED);"
            "DROP TABLE old;");
        SqliteDatabase db;
        QString error;
        QVERIFY(db.open(path, &error));
        QVERIFY(!db.hasTable("CUPTI_ACTIVITY_KIND_KERNEL"));
        QVERIFY(db.refusedTables()[0].second.contains(QLatin1String("twice")));
    }

    // A statement that runs past the connection's step budget stops, and
    // says why; so does one whose load is cancelled, within milliseconds.
    void statementsStopAtTheBudgetAndOnCancel()
    {
        SqliteDatabase db;
        QString error;
        QVERIFY(db.open(slowFixture(), &error, nullptr, 200'000));
        QVERIFY(db.budgetError().isEmpty());
        SqliteStatement scan = db.prepare("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME a, CUPTI_ACTIVITY_KIND_RUNTIME b", &error);
        QVERIFY(scan.isValid());
        QVERIFY(!scan.step());
        QVERIFY(!scan.error().isEmpty());
        QVERIFY2(db.budgetError().contains(QLatin1String("more work than any export of its size needs")), qPrintable(db.budgetError()));

        std::atomic<bool> cancel{false};
        SqliteDatabase cancelled;
        QVERIFY(cancelled.open(slowFixture(), &error, &cancel));
        SqliteStatement endless = cancelled.prepare("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n", &error);
        QVERIFY(endless.isValid());
        std::thread canceller([&cancel] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            cancel = true;
        });
        QElapsedTimer timer;
        timer.start();
        QVERIFY(!endless.step());
        canceller.join();
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed()))); // stops at the flag, not at the end
        QVERIFY(cancelled.budgetError().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSqliteDatabase)
#include "tst_sqlitedatabase.moc"
