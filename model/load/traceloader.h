#pragma once
// Picks the loader for a file by its content, not its name: SQLite header
// -> Nsight Systems export; gzip or JSON -> PyTorch profiler (Kineto) trace.
#include "load/loadcontrol.h"

#include <QStringList>

namespace rankscope {

LoadResult loadTraceFile(const QString &path, const LoadControl &control = {});

// Files in a directory that look like traces Rankscope reads, sorted.
QStringList traceFilesIn(const QString &directory);

} // namespace rankscope
