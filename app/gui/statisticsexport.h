#pragma once
// File > Export > Statistics as CSV: every statistics report of a session
// into a folder, as `rankscope-cli stats -o` writes them.
#include "session/session.h"
#include "stats/reportcatalog.h"

#include <QStringList>

namespace rankscope {

// Writes <file stem>_<report>.csv per loaded file (core/outputnames.h: two
// files of one name get two stems, long names are shortened) and
// <report>.csv for the reports that cover the whole session. Returns the
// files written; a table that cannot be written fails alone, and `error`
// gets a line for each.
QStringList exportStatisticsCsv(const Session &session, const QString &directory, const AnalysisSettings &options,
                                QString *error);

} // namespace rankscope
