#pragma once
// `stats` under mpirun or srun: each process opens its share of the files
// (split by size, as `index` splits them; a stale or missing cache is built
// on the way), runs the per-file reports on them and sends the tables to
// process 0, which prints them in the serial order without computing them
// again. The session-wide reports (collectives matched across every rank)
// stay process 0's, read from the caches.
#include "stats/reportcatalog.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <utility>

namespace rankscope::cli {

class GatheredTables {
public:
    // The table another process computed for `file` (as the session names
    // it), if one did.
    std::optional<ResultTable> take(const QString &file, const QString &report);
    std::size_t size() const { return m_bytes.size(); }

private:
    friend GatheredTables perFileTablesAcrossProcesses(const QStringList &, const QString &, const QStringList &,
                                                       const stats::ReportOptions &);
    std::map<std::pair<QString, QString>, QByteArray> m_bytes; // (file, report) -> the table, serialised
};

// Every process calls it. On process 0 of several: the tables of every file
// that opened; elsewhere, or alone, or without a cache folder: none (the
// caller computes). A process whose tables pass kMaxBytesPerProcess sends
// the rest uncomputed: process 0 computes those itself.
constexpr qsizetype kMaxBytesPerProcess = qsizetype(256) << 20;
GatheredTables perFileTablesAcrossProcesses(const QStringList &inputs, const QString &cacheDirectory, const QStringList &reports,
                                            const stats::ReportOptions &options);

} // namespace rankscope::cli
