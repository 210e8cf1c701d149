#include "fuzzload.h"

#include "load/traceloader.h"
#include "session/session.h"
#include "stats/reportcatalog.h"

#include <QDir>
#include <QFile>
#include <QString>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace rankscope::fuzz {

namespace {

[[noreturn]] void broken(const char *what, const QString &detail = {})
{
    std::fprintf(stderr, "fuzz invariant broken: %s %s\n", what, qPrintable(detail));
    std::abort();
}

QString scratchPath(const char *suffix)
{
    // tmpfs when there is one: an input per iteration, thousands a second.
    const QString dir = QDir(QStringLiteral("/dev/shm")).exists() ? QStringLiteral("/dev/shm") : QDir::tempPath();
    return QStringLiteral("%1/rankscope-fuzz-%2%3").arg(dir).arg(::getpid()).arg(QLatin1String(suffix));
}

void inspect(const Report &report)
{
    for (const Track &track : report.tracks) {
        const SliceTrack &slices = track.slices;
        for (std::size_t i = 0; i < slices.size(); ++i) {
            if (slices.end(i) < slices.start(i))
                broken("slice ends before it starts");
            if (i && slices.start(i) < slices.start(i - 1))
                broken("slices not sorted by start");
        }
        if (slices.isEmpty())
            continue;
        const TimeRange extent = slices.extent();
        std::size_t visited = 0;
        slices.forEachOverlapping(extent.start, extent.end, [&](std::uint32_t) { ++visited; });
        if (visited != slices.size())
            broken("interval index misses events");
        for (double nsPerPixel : {1.0, 1e3, 1e6, 1e9})
            (void)slices.lod().levelFor(nsPerPixel);
    }
    for (const QString &name : stats::fileReportNames())
        (void)stats::runReport(name, report);
}

} // namespace

void loadAndInspect(const std::uint8_t *data, std::size_t size, const char *suffix)
{
    static const QString path = scratchPath(suffix);
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            broken("cannot write the scratch file", path);
        file.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    const LoadResult result = loadTraceFile(path);
    if (!result.ok()) {
        if (result.error.isEmpty() || result.error.contains(QLatin1Char('\n')))
            broken("error is not one line:", result.error);
        return;
    }
    inspect(*result.report);
    const Session session = Session::fromReports({result.report});
    for (const QString &name : stats::reportNames())
        if (stats::isSessionReport(name))
            (void)stats::runSessionReport(name, session);
}

} // namespace rankscope::fuzz
