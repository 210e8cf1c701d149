#pragma once
// `stats` under mpirun or srun: each process opens its share of the files
// (split by size, as `index` splits them; a stale or missing cache is built
// on the way), runs the per-file reports on them and sends the tables to
// process 0, which prints them in the serial order without computing them
// again. For the session-wide reports that match collectives across ranks,
// each process also sends its ranks' communication kernels (and, for
// rank_wait, their other GPU work) as compact records: process 0 matches
// those instead of reading every rank's kernels again. For rank_summary
// each sends its ranks' breakdowns, both with and without HTA's step
// window, which process 0 chooses between once it knows every rank's steps;
// for rank_comparison, its ranks' rows (process 0 adds the waits).
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/rankbreakdown.h"
#include "stats/ranks/rankcomparison.h"
#include "stats/reportcatalog.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <utility>

namespace rankscope::cli {

class GatheredResults {
public:
    // The table another process computed for `file` (as the session names
    // it), if one did.
    std::optional<ResultTable> take(const QString &file, const QString &report);
    std::size_t size() const { return m_bytes.size(); }
    // Gives `inputs` the records gathered for its session's ranks (found by
    // file and process); returns how many ranks had them.
    std::size_t giveCollectiveOps(stats::CollectiveInputs &inputs);
    // rank_summary's parts per rank of `session` (by index into its
    // ranks()), those gathered; a rank without is computed by the caller.
    stats::GatheredBreakdowns breakdownsFor(const Session &session) const;
    // rank_comparison's rows, likewise.
    stats::GatheredComparisonRows comparisonRowsFor(const Session &session) const;

private:
    friend GatheredResults perFileResultsAcrossProcesses(const QStringList &, const QString &, const QStringList &, const AnalysisSettings &);
    std::map<std::pair<QString, QString>, QByteArray> m_bytes; // (file, report) -> the table, serialised
    // (file, process id or -1 for a whole report) -> its collective records, serialised
    std::map<std::pair<QString, qint64>, QByteArray> m_collectiveOps;
    std::map<std::pair<QString, qint64>, QByteArray> m_breakdowns;     // the same keys -> rank_summary's parts
    std::map<std::pair<QString, qint64>, QByteArray> m_comparisonRows; // the same keys -> rank_comparison's rows

    template <class Part>
    std::vector<std::optional<Part>> partsFor(const Session &session, const std::map<std::pair<QString, qint64>, QByteArray> &bytes) const;
};

// Every process calls it, with every report asked for. On process 0 of
// several: the tables of every file that opened and, when `reports` has a
// session report that matches collectives, each rank's collective records
// (with rank_summary, its breakdown's parts);
// elsewhere, or alone, or without a cache folder: none (the caller
// computes). A process whose results pass kMaxBytesPerProcess sends the
// rest uncomputed: process 0 computes those itself.
constexpr qsizetype kMaxBytesPerProcess = qsizetype(256) << 20;
GatheredResults perFileResultsAcrossProcesses(const QStringList &inputs, const QString &cacheDirectory, const QStringList &reports,
                                              const AnalysisSettings &options);

} // namespace rankscope::cli
