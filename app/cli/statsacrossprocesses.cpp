#include "statsacrossprocesses.h"

#include "clicommands.h"
#include "load/traceloader.h"
#include "processworld.h"
#include "session/session.h"

#include <QDataStream>

namespace rankscope::cli {

std::optional<ResultTable> GatheredTables::take(const QString &file, const QString &report)
{
    const auto it = m_bytes.find({file, report});
    if (it == m_bytes.end())
        return std::nullopt;
    ResultTable table;
    QDataStream in(it->second);
    in >> table;
    m_bytes.erase(it);
    if (in.status() != QDataStream::Ok)
        return std::nullopt; // the caller computes it
    return table;
}

GatheredTables perFileTablesAcrossProcesses(const QStringList &inputs, const QString &cacheDirectory, const QStringList &reports,
                                            const stats::ReportOptions &options)
{
    GatheredTables gathered;
    if (processWorld().size <= 1 || cacheDirectory.isEmpty()) {
        waitForAllProcesses();
        return gathered;
    }
    const QStringList files = expandTracePaths(inputs);
    const LoadControl control = cachedLoadControl(cacheDirectory);
    QByteArray mine;
    QDataStream out(&mine, QIODevice::WriteOnly);
    for (const qsizetype i : myShareOf(files)) {
        if (mine.size() > kMaxBytesPerProcess)
            break;
        // One report at a time: memory stays that of the largest. A file
        // that fails is left to process 0, which names it as a serial run does.
        const LoadResult loaded = loadTraceFile(files[i], control);
        if (!loaded.ok())
            continue;
        for (const QString &name : reports) {
            QByteArray table;
            QDataStream tableOut(&table, QIODevice::WriteOnly);
            tableOut << *stats::runReport(name, *loaded.report, options);
            out << files[i] << name << table;
        }
    }
    for (const QByteArray &part : gatherToFirst(mine)) {
        QDataStream in(part);
        while (!in.atEnd() && in.status() == QDataStream::Ok) {
            QString file, name;
            QByteArray table;
            in >> file >> name >> table;
            if (in.status() == QDataStream::Ok)
                gathered.m_bytes[{file, name}] = std::move(table);
        }
    }
    return gathered;
}

} // namespace rankscope::cli
