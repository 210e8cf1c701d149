#pragma once
// Runs the viewer as its own process and measures it as a user meets it:
// wall time from start to exit and the peak resident memory of that
// process (bench: "the viewer as a whole process").
#include <QString>
#include <QStringList>
#include <optional>

namespace rankscope::cli {

struct ProcessFigures {
    double seconds = 0;
    long peakKiB = 0; // the child's peak resident set (ru_maxrss)
    int exitCode = -1;
};

// The viewer beside this executable (the build tree's app/gui, or the same
// bin directory when installed); empty if there is none.
QString viewerExecutable();
// Runs `program arguments` with the offscreen platform unless a display
// platform is set, its output discarded; nullopt if it could not be
// started. The peak counts this process's own peak so far (Linux keeps it
// across the child's exec): run it while this process is small.
std::optional<ProcessFigures> runMeasured(const QString &program, const QStringList &arguments);

} // namespace rankscope::cli
