#pragma once
// Nsight Systems reports (.nsys-rep, and .qdrep before 2021.4) are nsys' own
// binary format. They are read through `nsys export --type sqlite` when an
// nsys is installed (on PATH, or under NSYS_HOME), into a per-user cache
// that is reused for as long as the report is unchanged (same path, size
// and modification time). The report itself is only read.
#include "load/loadcontrol.h"

#include <QString>

namespace rankscope {

bool isNsysReport(const QString &path);

// The nsys executable: $NSYS_HOME/bin/nsys (or its target-linux-x64/), else
// nsys on PATH; empty when there is none.
QString findNsys();

// Where the export of `report` is cached:
// $XDG_CACHE_HOME/Rankscope/nsys-exports/<hash of path, size, mtime>.sqlite
QString nsysExportCachePath(const QString &report);

struct NsysExport {
    QString sqlitePath;  // set on success
    bool reused = false; // an earlier export of the unchanged report
    QString error;       // one line
    bool cancelled = false;
};

// Returns the cached export, or runs nsys to make it. Progress covers the
// export (nsys prints percentages); cancelling kills nsys.
NsysExport exportNsysReport(const QString &report, const LoadControl &control = {});

} // namespace rankscope
