#include "statisticsexport.h"
#include "core/safefiles.h"

#include <QDir>
#include <QFileInfo>

namespace rankscope {

QStringList exportStatisticsCsv(const Session &session, const QString &directory, const stats::ReportOptions &options,
                                QString *error)
{
    const QDir dir(directory);
    QStringList written;
    auto write = [&](const QString &fileName, const ResultTable &table) {
        AtomicFileWriter file(dir.filePath(fileName)); // a link planted under the name is replaced, not followed
        if (!file.open(QIODevice::WriteOnly) || !table.writeCsv(file) || !file.commit()) {
            *error = QStringLiteral("cannot write %1: %2").arg(file.path(), file.errorString());
            return false;
        }
        written << file.path();
        return true;
    };
    for (const ReportPtr &report : session.reports())
        for (const QString &name : stats::fileReportNames())
            if (const auto table = stats::runReport(name, *report, options);
                table && !write(QFileInfo(report->filePath).completeBaseName() + QLatin1Char('_') + name + QStringLiteral(".csv"), *table))
                return written;
    for (const QString &name : stats::reportNames())
        if (stats::isSessionReport(name))
            if (const auto table = stats::runSessionReport(name, session, options); table && !write(name + QStringLiteral(".csv"), *table))
                return written;
    return written;
}

} // namespace rankscope
