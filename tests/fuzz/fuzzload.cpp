#include "fuzzload.h"

#include "load/traceloader.h"
#include "session/session.h"
#include "stats/ranks/collectiveinputs.h"
#include "stats/reportcatalog.h"

#include <QDir>
#include <QFile>
#include <QString>

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace rankscope::fuzz {

namespace {

[[noreturn]] void broken(const char *what, const QString &detail = {})
{
    std::fprintf(stderr, "fuzz invariant broken: %s %s\n", what, qPrintable(detail));
    std::abort();
}

QString scratchPath(int part, const char *suffix)
{
    // tmpfs when there is one: an input per iteration, thousands a second.
    const QString dir = QDir(QStringLiteral("/dev/shm")).exists() ? QStringLiteral("/dev/shm") : QDir::tempPath();
    return QStringLiteral("%1/rankscope-fuzz-%2-%3%4").arg(dir).arg(::getpid()).arg(part).arg(QLatin1String(suffix));
}

} // namespace

void inspectReport(const Report &report, bool fromIndexCache)
{
    const auto inspectSlices = [&](const SliceTrack &slices) {
        for (std::size_t i = 0; i < slices.size(); ++i) {
            if (slices.end(i) < slices.start(i))
                broken("slice ends before it starts");
            if (i && slices.start(i) < slices.start(i - 1))
                broken("slices not sorted by start");
        }
        if (slices.isEmpty())
            return;
        const TimeRange extent = slices.extent();
        std::size_t visited = 0;
        slices.forEachOverlapping(extent.start, extent.end, [&](std::uint32_t) { ++visited; });
        if (visited != slices.size() && !fromIndexCache)
            broken("interval index misses events");
        for (double nsPerPixel : {1.0, 1e3, 1e6, 1e9})
            (void)slices.lod().levelFor(nsPerPixel);
    };
    for (const Track &track : report.tracks)
        inspectSlices(track.slices);
    // What a first frame draws of a report opened with its summaries only.
    for (const BusySummary &busy : report.gpuBusy)
        inspectSlices(busy.runs);
    for (const QString &name : stats::fileReportNames())
        (void)stats::runReport(name, report);
}

namespace {

void inspect(const Session &session)
{
    for (const RankEntry &entry : session.ranks())
        if (entry.sessionOffset < 0)
            broken("a rank starts before the session", QString::number(entry.sessionOffset));
    const TimeRange extent = session.extent();
    if (extent.end < extent.start)
        broken("the session ends before it starts");
    stats::CollectiveInputs records(session, stats::collectiveClassesFor({}));
    for (const QString &name : stats::reportNames())
        if (stats::isSessionReport(name))
            (void)stats::runSessionReport(name, session, {}, {records});
}

} // namespace

void loadAndInspect(const std::uint8_t *data, std::size_t size, const char *suffix, const char *companionPath)
{
    static const ReportPtr companion = [companionPath] {
        configureProcessForUntrustedTraces(); // as the executables do
        const LoadResult r = loadTraceFile(QString::fromLocal8Bit(companionPath));
        if (!r.ok())
            broken("the companion trace does not load:", r.error);
        return r.report;
    }();
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    std::vector<ReportPtr> reports{companion};
    std::size_t from = 0;
    for (int part = 0; part < 3 && from <= input.size(); ++part) {
        std::size_t to = input.find(kFileSeparator, from);
        if (to == std::string_view::npos || part == 2)
            to = input.size();
        const std::string_view bytes = input.substr(from, to - from);
        const QString path = scratchPath(part, suffix);
        {
            QFile file(path);
            if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
                broken("cannot write the scratch file", path);
            file.write(bytes.data(), qint64(bytes.size()));
        }
        const LoadResult result = loadTraceFile(path);
        if (result.ok()) {
            inspectReport(*result.report);
            reports.push_back(result.report);
        } else if (result.error.isEmpty() || result.error.contains(QLatin1Char('\n'))) {
            broken("error is not one line:", result.error);
        }
        from = to + sizeof(kFileSeparator) - 1;
    }
    inspect(Session::fromReports(std::move(reports)));
}

} // namespace rankscope::fuzz
