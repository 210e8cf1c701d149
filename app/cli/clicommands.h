#pragma once
// The subcommands of rankscope-cli. Each takes the arguments after the
// command name and returns the process exit status: 0 success, 1 usage
// error, 2 when any input file could not be read.
#include "session/session.h"
#include "terminaloutput.h"

#include <QCommandLineParser>
#include <QStringList>
#include <optional>

namespace rankscope::cli {

int runStats(const QStringList &arguments);
int runInfo(const QStringList &arguments);
int runDiagnose(const QStringList &arguments);
int runDiff(const QStringList &arguments);
int runBench(const QStringList &arguments); // needs a QApplication
int runIndex(const QStringList &arguments);

// One line per failed file on stderr: "rankscope-cli: FILE: reason".
void printFailure(const QString &path, const QString &reason);

// Adds --cache DIR and --no-cache (load/cache/indexcache.h) to a parser.
void addIndexCacheOptions(QCommandLineParser &parser);
// The index cache folder those options choose; none when --no-cache, or
// when neither is given and the command does not cache by default.
QString indexCacheDirectoryFrom(const QCommandLineParser &parser, bool cacheByDefault = true);
// Loading through the caches in that folder (none when it is empty), and
// trusting those this user has checked before (load/cache/checkedcaches.h).
LoadControl cachedLoadControl(const QString &cacheDirectory);
// Adds the FILE|DIR... positional argument and the index cache options.
void addInputArgument(QCommandLineParser &parser);
// Loads the files the parser's positional arguments name (through their
// index caches as the options say), printing a line per file that fails;
// nullopt (after a usage message) when none are given.
std::optional<Session> loadInputs(const QCommandLineParser &parser, const LoadControl &control = {}, bool cacheByDefault = true);

} // namespace rankscope::cli
