#pragma once
// File > Export > Statistics as CSV: every statistics report of a session
// into a folder, as `rankscope-cli stats -o` writes them.
#include "analysis/analysisworkspace.h"

#include <QStringList>

namespace rankscope {

// Writes <file stem>_<report>.csv per loaded file (core/outputnames.h: two
// files of one name get two stems, long names are shortened) and
// <report>.csv for the reports that cover the whole session. Returns the
// files written; a table that cannot be written fails alone, and `error`
// gets a line for each. The workspace's session, with its settings; the
// session reports read its collective match.
QStringList exportStatisticsCsv(const AnalysisWorkspace &workspace, const QString &directory, QString *error);

} // namespace rankscope
