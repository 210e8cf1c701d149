// Names from traces are data, never markup: every model a view shows
// (statistics tables, the Events table, the CPU samples trees) is walked
// index by index, and no tooltip it gives may be rich text holding the
// hostile name's tag (Qt would draw a local image named by the trace:
// the audit's canary). Every text of pipit's saxpy export (kernels, API
// calls, NVTX ranges, functions, modules, threads) gets the tag.
#include "analysisinputs.h"
#include "events/eventstablemodel.h"
#include "panels/resulttablemodel.h"
#include "sampling/calltreemodel.h"
#include "stats/reportcatalog.h"
#include "stats/sampling/samplingprofile.h"
#include "testdata.h"

#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>
#include <sqlite3.h>

using namespace rankscope;
using namespace rankscope::test;

namespace {

constexpr const char *kTag = "<img src=\"/tmp/rankscope-canary.png\">";

// What a tooltip would do with the tag: shown as text (plain, or escaped
// inside rich text) is fine; rich text holding the tag is not.
bool drawsTheTag(const QString &tip)
{
    return Qt::mightBeRichText(tip) && tip.contains(QLatin1String("<img"), Qt::CaseInsensitive);
}

int checkTips(const QAbstractItemModel &model, const QModelIndex &parent, QStringList &unsafe)
{
    int seen = 0;
    for (int row = 0; row < model.rowCount(parent); ++row)
        for (int column = 0; column < model.columnCount(parent); ++column) {
            const QModelIndex index = model.index(row, column, parent);
            const QString tip = model.data(index, Qt::ToolTipRole).toString();
            seen += tip.contains(QLatin1String("canary")) ? 1 : 0;
            if (drawsTheTag(tip))
                unsafe << tip.left(200);
            if (column == 0 && model.hasChildren(index))
                seen += checkTips(model, index, unsafe);
        }
    for (int column = 0; column < model.columnCount(parent); ++column)
        if (drawsTheTag(model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString()))
            unsafe << model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
    return seen;
}

} // namespace

class TestHostileNames : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::shared_ptr<const Session> m_session;

private slots:
    void initTestCase()
    {
        const QString path = m_dir.filePath(QStringLiteral("hostile.sqlite"));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("third-party/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite")), path));
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        const QByteArray sql = QByteArray("UPDATE StringIds SET value = '") + kTag + "' || value;";
        QCOMPARE(sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        m_session = std::make_shared<Session>(Session::load({path}));
        QCOMPARE(m_session->ranks().size(), std::size_t(1));
    }

    void statisticsTablesShowNamesAsText()
    {
        const Report &report = *m_session->ranks()[0].report;
        int seen = 0;
        QStringList unsafe;
        for (const QString &name : stats::reportNames()) {
            std::optional<ResultTable> table = stats::isSessionReport(name) ? sessionReport(name, *m_session) : stats::runReport(name, report);
            if (!table)
                continue;
            for (const bool readable : {false, true}) {
                ResultTableModel model;
                model.setTable(*table);
                model.setReadable(readable);
                seen += checkTips(model, {}, unsafe);
            }
        }
        QVERIFY2(unsafe.isEmpty(), qPrintable(unsafe.join(QLatin1Char('\n'))));
        QVERIFY(seen > 0); // the hostile names did reach the tables
    }

    void eventsTableShowsNamesAsText()
    {
        const Report &report = *m_session->ranks()[0].report;
        std::vector<std::uint32_t> tracks(report.tracks.size());
        std::iota(tracks.begin(), tracks.end(), 0u);
        EventsTableModel model;
        model.setEvents(m_session, 0, tracks, std::nullopt);
        QVERIFY(model.rowCount() > 0);
        QStringList unsafe;
        QVERIFY(checkTips(model, {}, unsafe) > 0);
        QVERIFY2(unsafe.isEmpty(), qPrintable(unsafe.join(QLatin1Char('\n'))));
    }

    void cpuSampleTreesShowNamesAsText()
    {
        auto profile = std::make_shared<const stats::SamplingProfile>(stats::samplingProfile(*m_session->ranks()[0].report));
        for (const CallTreeModel::Shape shape : {CallTreeModel::Shape::TopDown, CallTreeModel::Shape::BottomUp, CallTreeModel::Shape::Flat}) {
            CallTreeModel model;
            model.setProfile(profile, shape);
            QStringList unsafe;
            QVERIFY(checkTips(model, {}, unsafe) > 0);
            QVERIFY2(unsafe.isEmpty(), qPrintable(unsafe.join(QLatin1Char('\n'))));
        }
    }
};

QTEST_MAIN(TestHostileNames)
#include "tst_hostilenames.moc"
