#include "statisticsexport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace rankscope {

QStringList exportStatisticsCsv(const Session &session, const QString &directory, const stats::ReportOptions &options,
                                QString *error)
{
    const QDir dir(directory);
    QStringList written;
    auto write = [&](const QString &fileName, const ResultTable &table) {
        QFile file(dir.filePath(fileName));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || !table.writeCsv(file)) {
            *error = QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
            return false;
        }
        written << file.fileName();
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
