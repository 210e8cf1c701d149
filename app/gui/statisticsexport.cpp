#include "statisticsexport.h"
#include "core/outputnames.h"
#include "core/safefiles.h"
#include "stats/reportcatalog.h"

#include <QDir>
#include <QFileInfo>

namespace rankscope {

QStringList exportStatisticsCsv(const AnalysisWorkspace &workspace, const QString &directory, QString *error)
{
    const Session &session = *workspace.session();
    const AnalysisSettings &options = workspace.settings();
    const QDir dir(directory);
    QStringList written, failed;
    // A table that cannot be written fails alone: the others are still written.
    auto write = [&](const QString &fileName, const ResultTable &table) {
        AtomicFileWriter file(dir.filePath(fileNameThatFits(fileName))); // a link planted under the name is replaced, not followed
        if (!file.open(QIODevice::WriteOnly) || !table.writeCsv(file) || !file.commit())
            failed << QStringLiteral("cannot write %1: %2").arg(file.path(), file.errorString());
        else
            written << file.path();
    };
    QStringList paths;
    for (const ReportPtr &report : session.reports())
        paths << report->filePath;
    const QStringList stems = uniqueStemsFor(paths); // two ranks' files of one name write two files
    // Every declared report: the per-file ones for each file, then the
    // session's; one run only when named is written where it has rows.
    for (std::size_t i = 0; i < session.reports().size(); ++i)
        for (const stats::ReportDeclaration &d : stats::reportDeclarations())
            if (d.perFile)
                if (ResultTable table = d.perFile(*session.reports()[i], options); d.byDefault || table.rowCount() > 0)
                    write(stems[qsizetype(i)] + QLatin1Char('_') + d.name + QStringLiteral(".csv"), table);
    for (const stats::ReportDeclaration &d : stats::reportDeclarations())
        if (d.perSession)
            if (ResultTable table =
                    workspace.withCollectiveInputs([&](stats::CollectiveInputs &records) { return d.perSession(session, options, {records}); });
                d.byDefault || table.rowCount() > 0)
                write(d.name + QStringLiteral(".csv"), table);
    if (!failed.isEmpty())
        *error = failed.join(QLatin1Char('\n'));
    return written;
}

} // namespace rankscope
