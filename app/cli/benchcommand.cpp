#include "clicommands.h"
#include "core/memoryusage.h"
#include "session/residentbudget.h"
#include "stats/ranks/rankbreakdown.h"
#include "stats/reportcatalog.h"
#include "stats/selectionsummary.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"
#include "viewerrun.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTextStream>
#include <sqlite3.h>

#include <algorithm>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <unistd.h>

namespace rankscope::cli {

namespace {

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

// The floor: one thread stepping through the same statements the loader
// ran, reading every column of every row (text included), doing nothing
// with them. The loader's statements are plain `SELECT cols FROM table`
// (no ORDER BY, no join, no WHERE: sorting and joining are the loader's
// work, so they count against it), which makes this the bare-scan floor;
// isBareScan() checks that it stays so.
struct ScanFigures {
    double seconds = 0;
    std::size_t columns = 0; // selected, summed over the statements
};
ScanFigures sqliteScan(const QString &file, const std::vector<std::string> &statements)
{
    ScanFigures figures;
    sqlite3 *db = nullptr;
    const QByteArray uri = QByteArray("file:") + file.toUtf8() + "?mode=ro&immutable=1";
    if (sqlite3_open_v2(uri.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK)
        return figures;
    QElapsedTimer timer;
    timer.start();
    std::uint64_t sink = 0; // unsigned: the values (ids, times) add up past 2^63, and must wrap, not overflow
    for (const std::string &sql : statements) {
        sqlite3_stmt *stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), int(sql.size()), &stmt, nullptr) != SQLITE_OK)
            continue;
        const int columns = sqlite3_column_count(stmt);
        figures.columns += std::size_t(columns);
        while (sqlite3_step(stmt) == SQLITE_ROW)
            for (int c = 0; c < columns; ++c)
                sink += sqlite3_column_type(stmt, c) == SQLITE_TEXT ? std::uint64_t(sqlite3_column_bytes(stmt, c))
                                                                    : std::uint64_t(sqlite3_column_int64(stmt, c));
        sqlite3_finalize(stmt);
    }
    figures.seconds = double(timer.nsecsElapsed()) / 1e9;
    sqlite3_close(db);
    if (sink == 42) // keep the loop from being optimised away
        figures.seconds += 1e-12;
    return figures;
}

// The same tables read whole: `SELECT *` of every table the statements
// read, what the columns the loader leaves out would cost it.
std::vector<std::string> wholeTableScans(const std::vector<std::string> &statements)
{
    static const QRegularExpression from(QStringLiteral(" FROM \"?([A-Za-z0-9_]+)\"?"));
    std::set<QString> tables;
    for (const std::string &sql : statements)
        if (const QRegularExpressionMatch m = from.match(QString::fromStdString(sql)); m.hasMatch())
            tables.insert(m.captured(1));
    std::vector<std::string> scans;
    for (const QString &table : tables)
        scans.push_back("SELECT * FROM \"" + table.toStdString() + "\"");
    return scans;
}

// Load: time to a ready session, events per second, resident and model
// bytes per event; collects the statements the loaders ran, for the floor.
struct LoadFigures {
    std::optional<Session> session;
    double seconds = 0;
    std::uint64_t peakBytes = 0;                            // the process's peak resident size while loading
    std::map<QString, std::vector<std::string>> statements; // per file
};

LoadFigures measureLoad(const QCommandLineParser &parser, QTextStream &out)
{
    LoadFigures figures;
    std::mutex statementsMutex;
    LoadControl control;
    control.statementRun = [&](const QString &file, const std::string &sql) {
        const std::lock_guard lock(statementsMutex);
        figures.statements[file].push_back(sql);
    };
    const std::uint64_t rssBefore = residentBytes();
    resetPeakResidentBytes();
    QElapsedTimer timer;
    timer.start();
    figures.session = loadInputs(parser, control, false);
    figures.seconds = double(timer.nsecsElapsed()) / 1e9;
    figures.peakBytes = peakResidentBytes();
    if (!figures.session)
        return figures;
    const Session &session = *figures.session;
    std::size_t events = 0, modelBytes = 0;
    for (const ReportPtr &r : session.reports()) {
        events += r->eventCount();
        modelBytes += r->memoryBytes();
    }
    const double perEvent = std::max<double>(double(events), 1);
    out << "Files:                 " << session.reports().size() << " (" << session.failures().size() << " failed), ranks " << session.ranks().size()
        << "\n";
    out << "Events:                " << events << "\n";
    out << "Load to ready session: " << QString::number(figures.seconds * 1000, 'f', 1) << " ms, "
        << QString::number(double(events) / std::max(figures.seconds, 1e-9) / 1e6, 'f', 2) << " M events/s\n";
    out << "Resident:              " << QString::number((double(residentBytes()) - double(rssBefore)) / perEvent, 'f', 1)
        << " B/event (RSS growth), model " << QString::number(double(modelBytes) / perEvent, 'f', 1) << " B/event\n";
    // What was read against how fast and how big: a trace's bytes per
    // second, and the load's peak against the input (a JSON text is held
    // whole while it is parsed).
    std::uint64_t inputBytes = 0;
    for (const ReportPtr &r : session.reports())
        inputBytes += std::uint64_t(std::max<qint64>(QFileInfo(r->filePath).size(), 0));
    out << "Input:                 " << QString::number(double(inputBytes) / 1e6, 'f', 1) << " MB at "
        << QString::number(double(inputBytes) / 1e6 / std::max(figures.seconds, 1e-9), 'f', 1) << " MB/s; load peak "
        << QString::number(double(figures.peakBytes) / double(1 << 20), 'f', 1)
        << " MiB = " << QString::number(double(figures.peakBytes) / std::max<double>(double(inputBytes), 1), 'f', 2) << " x the input\n";
    return figures;
}

bool isBareScan(const std::string &sql)
{
    const QString upper = QString::fromStdString(sql).toUpper();
    return !upper.contains(QLatin1String(" ORDER BY ")) && !upper.contains(QLatin1String(" JOIN ")) && !upper.contains(QLatin1String(" WHERE "));
}

void reportFloor(const LoadFigures &load, QTextStream &out)
{
    ScanFigures floor, whole;
    bool bare = true;
    for (const auto &[file, sql] : load.statements) {
        const ScanFigures f = sqliteScan(file, sql), w = sqliteScan(file, wholeTableScans(sql));
        floor.seconds += f.seconds;
        floor.columns += f.columns;
        whole.seconds += w.seconds;
        whole.columns += w.columns;
        bare = bare && std::all_of(sql.begin(), sql.end(), isBareScan);
    }
    if (floor.seconds <= 0)
        return;
    out << "SQLite bare-scan floor: " << QString::number(floor.seconds * 1000, 'f', 1) << " ms (one thread, the " << floor.columns
        << " columns the loader selects" << (bare ? "" : "; NOT bare: a statement sorts, joins or filters")
        << "), load / floor = " << QString::number(load.seconds / floor.seconds, 'f', 2) << "\n";
    out << "Every column of those tables: " << QString::number(whole.seconds * 1000, 'f', 1) << " ms (" << whole.columns
        << " columns; the ones the loader leaves out would add " << QString::number((whole.seconds - floor.seconds) * 1000, 'f', 1) << " ms)\n";
}

// Frames of the real timeline widget, painted offscreen: the whole session,
// then `count` random zooms and pans. `rows` names the rows shown when they
// are not as the session opened. A zoom of ranks opened from caches hands
// their rows to the worker (TimelineCanvas): each zoom then lets the event
// loop run until none is pending; every frame painted counts, and
// "complete" is the wall time from the zoom to its last row.
void measureFrames(TimelineView &view, int count, std::mt19937_64 &rng, QTextStream &out, const QString &rows = {})
{
    QImage image(view.canvas()->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    auto frame = [&] {
        QElapsedTimer t;
        t.start();
        view.canvas()->viewport()->render(&image);
        return double(t.nsecsElapsed()) / 1e6;
    };
    view.zoom()->fit();
    frame(); // warm up
    view.zoom()->fit();
    view.canvas()->rowsChanged();
    const double fullFrame = frame();
    const TimeRange bounds = view.zoom()->bounds();
    std::vector<double> frames, complete;
    view.canvas()->setFrameTimeSink(&frames);
    for (int i = 0; i < count; ++i) {
        const double span =
            std::pow(10.0, std::uniform_real_distribution<double>(3.0, std::log10(std::max<double>(double(bounds.duration()), 1e4)))(rng));
        const TimeNs start = bounds.start + TimeNs(std::uniform_real_distribution<double>(0, std::max(0.0, double(bounds.duration()) - span))(rng));
        QElapsedTimer zoom;
        zoom.start();
        view.zoom()->show({start, start + TimeNs(span)});
        frame();
        while (view.canvas()->pendingRows() > 0) {
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents); // a row arrives
            frame();
        }
        complete.push_back(double(zoom.nsecsElapsed()) / 1e6);
    }
    view.canvas()->setFrameTimeSink(nullptr);
    const QString of = rows.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(rows);
    out << "Frame, full range" << of << ":     " << QString::number(fullFrame, 'f', 2) << " ms\n";
    out << "Zoom/pan complete" << of << ":     p50 " << QString::number(percentile(complete, 0.5), 'f', 2) << " ms, p99 "
        << QString::number(percentile(complete, 0.99), 'f', 2) << " ms after a zoom\n";
    out << "Frames, " << count << " zoom/pan" << of << ":  p50 " << QString::number(percentile(frames, 0.5), 'f', 2) << " ms, p99 "
        << QString::number(percentile(frames, 0.99), 'f', 2) << " ms\n";
}

// Frames while scrolling from the first rank to the last, a quarter page a
// step: the ranks as the session opened (collapsed when there are many,
// drawn from their summaries), then with every rank expanded (each rank's
// detail read as it comes into view, and released under the memory budget).
// Rows scrolled in are drawn pending until built (TimelineCanvas: on the
// worker for ranks opened from caches, in later frames otherwise): each
// step renders a frame, then lets the event loop run, as the viewer's
// would, until none is pending. Every frame painted counts, whoever asked
// for it; "complete" is the wall time from the step to its last row.
void measureScrolling(TimelineView &view, QTextStream &out)
{
    QImage image(view.canvas()->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    QScrollBar *bar = view.canvas()->verticalScrollBar();
    auto ms = [](double v) { return QString::number(v, 'f', 2); };
    auto pass = [&](const char *label) {
        std::vector<double> frames, steps;
        view.canvas()->setFrameTimeSink(&frames);
        int progressive = 0;
        for (int value = 0;; value += std::max(1, bar->pageStep() / 4)) {
            QElapsedTimer step;
            step.start();
            bar->setValue(std::min(value, bar->maximum()));
            view.canvas()->viewport()->render(&image);
            progressive += view.canvas()->pendingRows() > 0;
            while (view.canvas()->pendingRows() > 0) {
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents); // a row arrives, or the next frame's rebuild
                view.canvas()->viewport()->render(&image);
            }
            steps.push_back(double(step.nsecsElapsed()) / 1e6);
            if (value >= bar->maximum())
                break;
        }
        view.canvas()->setFrameTimeSink(nullptr);
        out << label << steps.size() << " steps, " << frames.size() << " frames p50 " << ms(percentile(frames, 0.5)) << " ms, p99 "
            << ms(percentile(frames, 0.99)) << " ms; detail complete p50 " << ms(percentile(steps, 0.5)) << " ms, p99 " << ms(percentile(steps, 0.99))
            << " ms after a step (" << progressive << " steps drawn progressively); resident after "
            << QString::number(double(residentBytes()) / double(1 << 20), 'f', 0) << " MiB\n";
    };
    view.zoom()->fit();
    bar->setValue(0);
    view.canvas()->viewport()->render(&image); // warm up: the image's first paint
    pass("Scrolling, as opened:  ");
    view.canvas()->rows().setAllCollapsed(false);
    view.canvas()->rowsChanged();
    bar->setValue(0);
    view.canvas()->viewport()->render(&image);
    pass("Scrolling, expanded:   ");
    out << "Memory budget:         " << QString::number(double(ResidentBudget::process().bytes()) / double(1 << 20), 'f', 0)
        << " MiB for mapped rank detail, " << ResidentBudget::process().releases() << " releases\n";
    bar->setValue(0);
}

// Every rank's mapped pages given back, then each cache file's pages dropped
// from the page cache (a page still mapped would stay): the next read of a
// rank's detail comes from disk.
void dropIndexCaches(const Session &session, const QString &cacheDirectory, QTextStream &out)
{
    for (const ReportPtr &report : session.reports())
        if (report->indexCache)
            report->indexCache->release();
    int dropped = 0;
    for (const QFileInfo &file : QDir(cacheDirectory).entryInfoList({QStringLiteral("*.rsindex")}, QDir::Files)) {
        const int fd = ::open(QFile::encodeName(file.filePath()).constData(), O_RDONLY);
        if (fd < 0)
            continue;
        dropped += ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
        ::close(fd);
    }
    out << "Cold scrolling:        " << dropped << " index caches dropped from the page cache\n";
}

// Hit tests at random points of the view as it was left.
void measureHitTests(const TimelineView &view, std::mt19937_64 &rng, QTextStream &out)
{
    std::vector<double> hits;
    const TimelineCanvas *canvas = view.canvas();
    const QSize size = canvas->viewport()->size();
    for (int i = 0; i < 10000; ++i) {
        const QPoint p(canvas->labelWidth() + int(rng() % std::uint64_t(std::max(1, size.width() - canvas->labelWidth()))),
                       int(rng() % std::uint64_t(std::max(1, size.height()))));
        QElapsedTimer t;
        t.start();
        volatile bool found = canvas->eventAt(p).has_value();
        (void)found;
        hits.push_back(double(t.nsecsElapsed()) / 1e3);
    }
    out << "Hit test:              p50 " << QString::number(percentile(hits, 0.5), 'f', 2) << " µs, p99 "
        << QString::number(percentile(hits, 0.99), 'f', 2) << " µs\n";
}

// The reports of every rank, against the load: their time and their peak
// resident size (the model included) as multiples of the load's. First
// what `stats` runs by default (and the viewer's panels show), then every
// declared report, the trace reports that print a row per event included.
void measureStatistics(const Session &session, const LoadFigures &load, QTextStream &out)
{
    const auto measure = [&](const char *label, const QStringList &names, bool withSessionReport) {
        resetPeakResidentBytes();
        QElapsedTimer timer;
        timer.start();
        for (const ReportPtr &r : session.reports())
            for (const QString &name : names)
                stats::runReport(name, *r);
        if (withSessionReport)
            stats::rankSummary(session, stats::KernelClassifier::hta());
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        const std::uint64_t peak = peakResidentBytes();
        out << label << QString::number(seconds * 1000, 'f', 1) << " ms = " << QString::number(seconds / std::max(load.seconds, 1e-9), 'f', 2)
            << " x the load; peak " << QString::number(double(peak) / double(1 << 20), 'f', 1)
            << " MiB = " << QString::number(double(peak) / std::max<double>(double(load.peakBytes), 1), 'f', 2) << " x the load's\n";
    };
    QStringList defaults;
    for (const QString &name : stats::defaultReportNames())
        if (!stats::isSessionReport(name))
            defaults << name;
    measure("Statistics (default): ", defaults, true);
    measure("Statistics (all):     ", stats::fileReportNames(), true);
}

// The area selection at its largest: every row of every rank over the whole
// session (what a Shift+drag from the first row to the last summarises),
// against the load.
void measureSelectionSummary(const Session &session, const LoadFigures &load, QTextStream &out)
{
    std::vector<stats::TrackRef> tracks;
    for (int rank = 0; rank < int(session.ranks().size()); ++rank)
        for (std::uint32_t t = 0; t < session.ranks()[std::size_t(rank)].report->tracks.size(); ++t)
            tracks.push_back({rank, t});
    QElapsedTimer timer;
    timer.start();
    const ResultTable table = stats::selectionSummary(session, tracks, session.extent());
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    std::int64_t slices = 0;
    for (std::size_t r = 0; r < table.rowCount(); ++r)
        slices += table.cell(r, 1).integer;
    out << "Selection summary:     " << QString::number(seconds * 1000, 'f', 1)
        << " ms = " << QString::number(seconds / std::max(load.seconds, 1e-9), 'f', 2) << " x the load (every row, whole session: " << slices
        << " slices, " << table.rowCount() << " names)\n";
}

// The viewer as a user runs it, each in a process of its own, against the
// CLI doing the same work: to its first frame (a screenshot of the window
// as it opens, docks as by default) against `rankscope-cli info`, and with
// the Statistics dock open and filled (its Summaries tab) against
// `rankscope-cli stats`. Wall time and peak resident memory of each.
void measureViewer(const QStringList &inputs, QTextStream &out)
{
    const QString viewer = viewerExecutable();
    QTemporaryDir dir;
    if (viewer.isEmpty() || !dir.isValid()) {
        out << "Viewer:                not measured (no rankscope executable beside rankscope-cli)\n";
        return;
    }
    const QString cli = QCoreApplication::applicationFilePath();
    const QString png = dir.filePath(QStringLiteral("frame.png"));
    runMeasured(cli, QStringList{QStringLiteral("info")} + inputs); // the files into the page cache, for both sides
    auto compare = [&](const char *label, const QStringList &viewerArgs, const QStringList &cliArgs, const char *cliName) {
        const auto v = runMeasured(viewer, viewerArgs + inputs);
        const auto c = runMeasured(cli, cliArgs + inputs);
        if (!v || !c || v->exitCode != 0 || c->exitCode != 0) {
            out << label << "could not be measured (a process did not run to the end)\n";
            return;
        }
        out << label << QString::number(v->seconds, 'f', 2) << " s, peak " << QString::number(double(v->peakKiB) / 1024, 'f', 1) << " MiB; "
            << cliName << " " << QString::number(c->seconds, 'f', 2) << " s, " << QString::number(double(c->peakKiB) / 1024, 'f', 1)
            << " MiB: " << QString::number(v->seconds / c->seconds, 'f', 2) << "x the time, "
            << QString::number(double(v->peakKiB) / double(c->peakKiB), 'f', 2) << "x the memory\n";
    };
    compare("Viewer, first frame:   ", {QStringLiteral("--screenshot"), png}, {QStringLiteral("info")}, "info");
    compare("Viewer, statistics:    ", {QStringLiteral("--screenshot"), png, QStringLiteral("--panel"), QStringLiteral("summaries")},
            {QStringLiteral("stats")}, "stats");
}

} // namespace

int runBench(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Measure a file set: load time to a ready session, events per second, resident bytes per event, frame times "
        "(full range, 200 random zoom/pan frames and scrolling through the ranks, 1920x1080 offscreen), hit-test latency, statistics time, the "
        "single-thread SQLite scan floor for Nsight Systems exports, and the viewer as its own process: time and peak "
        "memory to its first frame and with the statistics filled."));
    parser.addHelpOption();
    addInputArgument(parser);
    const QCommandLineOption framesOption(QStringLiteral("frames"), QStringLiteral("Random frames (default 200)."), QStringLiteral("N"),
                                          QStringLiteral("200"));
    const QCommandLineOption noViewerOption(QStringLiteral("no-viewer"), QStringLiteral("Do not run the viewer process."));
    const QCommandLineOption budgetOption(QStringLiteral("memory-budget"),
                                          QStringLiteral("MiB of mapped rank detail to keep resident while scrolling (default: half the RAM)."),
                                          QStringLiteral("MIB"));
    const QCommandLineOption noStatisticsOption(QStringLiteral("no-statistics"),
                                                QStringLiteral("Do not time the statistics (every report of every rank)."));
    const QCommandLineOption coldOption(QStringLiteral("cold-scroll"),
                                        QStringLiteral("Before scrolling, give back every rank's mapped pages and drop the index caches from the "
                                                       "page cache (as after other work pushed them out): rows read from disk."));
    const QCommandLineOption derivedOption(QStringLiteral("derived-gpu-rows"),
                                           QStringLiteral("Also time random frames with every GPU's derived state rows shown (View > Derived GPU "
                                                          "Rows), and the time to build them."));
    parser.addOptions({framesOption, noViewerOption, budgetOption, noStatisticsOption, coldOption, derivedOption});
    parser.process(arguments);
    if (parser.isSet(budgetOption))
        ResidentBudget::process().setBytes(parser.value(budgetOption).toULongLong() << 20);
    QTextStream out(&standardOutput());
    // The bench measures parsing unless told to open from caches, and the
    // processes it measures (viewer, info) do as it does.
    const QString cacheDirectory = indexCacheDirectoryFrom(parser, false);
    qputenv("RANKSCOPE_INDEX_CACHE", cacheDirectory.isEmpty() ? QByteArray("off") : QFile::encodeName(cacheDirectory));

    // First, while this process is small (see runMeasured).
    if (!parser.isSet(noViewerOption))
        measureViewer(parser.positionalArguments(), out);
    LoadFigures load = measureLoad(parser, out);
    if (!load.session)
        return 1;
    reportFloor(load, out);
    auto session = std::make_shared<const Session>(std::move(*load.session));
    TimelineView view;
    view.resize(1920, 1080);
    view.setSession(session);
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    QApplication::processEvents();
    std::mt19937_64 rng(7);
    measureFrames(view, parser.value(framesOption).toInt(), rng, out);
    if (parser.isSet(derivedOption)) {
        QElapsedTimer built;
        built.start();
        view.canvas()->setDerivedGpuRowsForAll(true);
        while (view.canvas()->derivedGpuRowsPending()) // computed on a worker
            QApplication::processEvents(QEventLoop::WaitForMoreEvents);
        out << "Derived GPU rows:      built in " << QString::number(double(built.nsecsElapsed()) / 1e6, 'f', 1) << " ms, resident "
            << QString::number(double(residentBytes()) / double(1 << 20), 'f', 0) << " MiB\n";
        measureFrames(view, parser.value(framesOption).toInt(), rng, out, QStringLiteral("with derived GPU rows"));
        view.canvas()->setDerivedGpuRowsForAll(false);
    }
    if (parser.isSet(coldOption)) {
        if (cacheDirectory.isEmpty()) {
            out << "--cold-scroll: the ranks are not read from index caches (--cache DIR)\n";
            return 1;
        }
        dropIndexCaches(*session, cacheDirectory, out);
    }
    measureScrolling(view, out);
    if (session->ranks().size() > TimelineRows::kRanksOpenedExpanded) // they opened collapsed; scrolling expanded them
        measureFrames(view, parser.value(framesOption).toInt(), rng, out, QStringLiteral("every rank expanded"));
    measureHitTests(view, rng, out);
    if (!parser.isSet(noStatisticsOption)) {
        measureStatistics(*session, load, out);
        measureSelectionSummary(*session, load, out);
    }
    return session->failures().empty() ? 0 : 2;
}

} // namespace rankscope::cli
