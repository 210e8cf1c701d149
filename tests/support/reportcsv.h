#pragma once
// Every statistics report of one file as CSV: what a user reads of a
// report, to compare two ways of opening the same trace.
#include "core/report.h"
#include "stats/reportcatalog.h"

#include <QString>

namespace rankscope::test {

inline QString allFileReports(const Report &report)
{
    QString all;
    for (const QString &name : stats::fileReportNames())
        if (const auto table = stats::runReport(name, report))
            all += name + QLatin1Char('\n') + table->toCsv();
    return all;
}

} // namespace rankscope::test
