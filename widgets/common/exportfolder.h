#pragma once
// Where every Save and Export dialog starts: the folder the last export
// went to; else beside the traces on screen when that folder takes files;
// else the home folder. Never the process's working directory, which a
// desktop launcher sets to anything.
#include <QString>

namespace rankscope {

QString exportFolder();
// `fileName` in exportFolder(): a Save dialog's starting path.
QString exportPathFor(const QString &fileName);
// After an export: `path` is the file written, or the folder written into.
void rememberExportFolder(const QString &path);
// The traces' folder, offered when nothing was exported yet (the window
// sets it when a session is shown; empty: none).
void setTraceFolder(const QString &folder);

} // namespace rankscope
