#pragma once
// The subcommands of rankscope-cli. Each takes the arguments after the
// command name and returns the process exit status: 0 success, 1 usage
// error, 2 when any input file could not be read.
#include "session/session.h"

#include <QCommandLineParser>
#include <QStringList>
#include <optional>

namespace rankscope::cli {

int runStats(const QStringList &arguments);
int runInfo(const QStringList &arguments);
int runDiagnose(const QStringList &arguments);
int runDiff(const QStringList &arguments);
int runBench(const QStringList &arguments); // needs a QApplication

// One line per failed file on stderr: "rankscope-cli: FILE: reason".
void printFailure(const QString &path, const QString &reason);

// Adds the FILE|DIR... positional argument to a parser.
void addInputArgument(QCommandLineParser &parser);
// Loads the files the parser's positional arguments name, printing a line
// per file that fails; nullopt (after a usage message) when none are given.
std::optional<Session> loadInputs(const QCommandLineParser &parser, const LoadControl &control = {});

} // namespace rankscope::cli
