#pragma once
// The subcommands of rankscope-cli. Each takes the arguments after the
// command name and returns the process exit status: 0 success, 1 usage
// error, 2 when any input file could not be read.
#include <QStringList>

namespace rankscope::cli {

int runStats(const QStringList &arguments);
int runInfo(const QStringList &arguments);

// One line per failed file on stderr: "rankscope-cli: FILE: reason".
void printFailure(const QString &path, const QString &reason);

} // namespace rankscope::cli
