#pragma once
// Picks the loader for a file by its content, not its name: SQLite header
// -> Nsight Systems export; gzip or JSON -> PyTorch profiler (Kineto) trace.
#include "load/loadcontrol.h"

#include <QStringList>

#include <cstdint>

namespace rankscope {

// Process-wide settings for reading untrusted traces: SQLite's hard heap
// limit (1 GiB for all connections of the process, so a hostile export
// cannot make a query allocate the machine away). A process setting is the
// application's to make, so the executables call this once at start-up;
// opening a file never changes it. Returns the SQLite heap limit in force.
std::int64_t configureProcessForUntrustedTraces();
// The SQLite heap limit in force (0: none).
std::int64_t sqliteHeapLimit();

LoadResult loadTraceFile(const QString &path, const LoadControl &control = {});

// Files in a directory that look like traces Rankscope reads, sorted.
QStringList traceFilesIn(const QString &directory);

} // namespace rankscope
