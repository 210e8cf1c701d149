#include "analysis/analysisworkspace.h"
#include "clicommands.h"
#include "core/memoryusage.h"
#include "core/outputnames.h"
#include "core/safefiles.h"
#include "core/units.h"
#include "load/cache/indexcache.h"
#include "processworld.h"
#include "session/residentbudget.h"
#include "stats/criticalpath/criticalpath.h"
#include "stats/kernelclasses.h"
#include "stats/ranks/collectiveinputs.h"
#include "stats/ranks/stepmatrix.h"
#include "stats/reportcatalog.h"
#include "statsacrossprocesses.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSet>
#include <QTextStream>

#include <sys/stat.h>
#include <utility>

namespace rankscope::cli {

void printFailure(const QString &path, const QString &reason)
{
    QTextStream(&standardError()) << "rankscope-cli: " << path << ": " << reason << "\n";
}

void addIndexCacheOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("cache"),
                      QStringLiteral("Index caches: read and write them in DIR (default: $RANKSCOPE_INDEX_CACHE, else ~/.cache/rankscope/index)."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("no-cache"), QStringLiteral("Parse every file; read and write no index cache.")});
}

QString indexCacheDirectoryFrom(const QCommandLineParser &parser, bool cacheByDefault)
{
    if (parser.isSet(QStringLiteral("no-cache")))
        return {};
    if (parser.isSet(QStringLiteral("cache")))
        return parser.value(QStringLiteral("cache"));
    return cacheByDefault ? defaultIndexCacheDirectory() : QString();
}

LoadControl cachedLoadControl(const QString &cacheDirectory)
{
    LoadControl control;
    control.indexCacheDirectory = cacheDirectory;
    if (!cacheDirectory.isEmpty()) {
        control.checkedCachesDirectory = defaultCheckedCachesDirectory();
        control.privateIndexCacheDirectory = defaultPrivateIndexCacheDirectory();
        QStringList unknown;
        control.trustedCacheWriters = defaultTrustedCacheWriters(&unknown);
        static bool told = false; // a command may make several controls
        for (const QString &name : std::exchange(told, true) ? QStringList() : unknown)
            QTextStream(&standardError()) << "rankscope-cli: trusted cache writer '" << name << "': no such user (ignored)\n";
    }
    return control;
}

void addInputArgument(QCommandLineParser &parser)
{
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Trace files or directories."), QStringLiteral("FILE|DIR..."));
    addIndexCacheOptions(parser);
}

std::optional<Session> loadInputs(const QCommandLineParser &parser, const LoadControl &control, bool cacheByDefault)
{
    if (parser.positionalArguments().isEmpty()) {
        QTextStream(&standardError()) << "rankscope-cli: no input files\n";
        return std::nullopt;
    }
    LoadControl withCache = control;
    const LoadControl cached = cachedLoadControl(indexCacheDirectoryFrom(parser, cacheByDefault));
    withCache.indexCacheDirectory = cached.indexCacheDirectory;
    withCache.checkedCachesDirectory = cached.checkedCachesDirectory;
    withCache.privateIndexCacheDirectory = cached.privateIndexCacheDirectory;
    withCache.trustedCacheWriters = cached.trustedCacheWriters;
    Session session = Session::load(parser.positionalArguments(), withCache);
    for (const LoadFailure &f : session.failures())
        printFailure(f.path, f.error);
    return session;
}

namespace {

// An option's help: the reports that read it (from their declarations),
// then what it does.
QString readersHelp(stats::ReportSetting setting, const QString &what)
{
    return stats::reportsReading(setting).join(QStringLiteral(", ")) + QStringLiteral(": ") + what;
}

// The declared reports, a line each: name and title, per file first.
QString reportListHelp()
{
    QString text;
    for (const bool wholeSession : {false, true}) {
        text += wholeSession ? QStringLiteral("\nReports on all ranks together:") : QStringLiteral("\nReports per file:");
        for (const stats::ReportDeclaration &d : stats::reportDeclarations()) {
            if (d.isSessionReport() != wholeSession)
                continue;
            QString usage = d.name; // with the arguments it takes, as nsys' help writes them
            if (d.reads(stats::ReportSetting::KernelNvtxNames))
                usage += QStringLiteral("[:nvtx-name]");
            if (d.reads(stats::ReportSetting::KernelNames))
                usage += QStringLiteral("[:base|:mangled]");
            if (d.reads(stats::ReportSetting::Rows))
                usage += QStringLiteral("[:rows=N]");
            text += QStringLiteral("\n  %1 %2%3").arg(usage, -38).arg(d.title, d.byDefault ? QString() : QStringLiteral(" (when named)"));
        }
    }
    return text;
}

QString formatTable(const ResultTable &table, const QString &format, CsvCells cells)
{
    if (format == QLatin1String("json"))
        return table.toJson();
    if (format == QLatin1String("table"))
        return table.toText();
    return table.toCsv(cells);
}

QString extensionFor(const QString &format)
{
    return format == QLatin1String("json")    ? QStringLiteral("json")
           : format == QLatin1String("table") ? QStringLiteral("txt")
                                              : QStringLiteral("csv");
}

} // namespace

int runStats(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print statistics reports for Nsight Systems SQLite exports and PyTorch profiler traces, with the same values,\n"
                       "columns and rounding as `nsys stats --format csv` (and `nsys analyze` for the rules).\n")
        + reportListHelp());
    parser.addHelpOption();
    const QCommandLineOption reportOption({QStringLiteral("r"), QStringLiteral("report")},
                                          QStringLiteral("Reports to print, comma separated (default: all)."), QStringLiteral("NAME[,NAME...]"));
    const QCommandLineOption formatOption({QStringLiteral("f"), QStringLiteral("format")},
                                          QStringLiteral("Output format: csv, table or json (default: csv)."), QStringLiteral("FORMAT"),
                                          QStringLiteral("csv"));
    const QCommandLineOption outputOption(
        {QStringLiteral("o"), QStringLiteral("output")},
        QStringLiteral("Write PREFIX_<report>.<ext> (several files: PREFIX_<file>_<report>.<ext>; two files of one "
                       "name get a hash of their path after it) instead of printing. A file that exists is left alone "
                       "(that report fails) unless --force-overwrite."),
        QStringLiteral("PREFIX"));
    const QCommandLineOption overwriteOption(QStringLiteral("force-overwrite"), QStringLiteral("With -o: replace files that exist."));
    const QCommandLineOption gapOption(QStringLiteral("gap-threshold"),
                                       readersHelp(stats::ReportSetting::GapThreshold, QStringLiteral("smallest gap to list, in ms (default 500).")),
                                       QStringLiteral("MS"), QStringLiteral("500"));
    const QCommandLineOption utilOption(
        QStringLiteral("util-threshold"),
        readersHelp(stats::ReportSetting::UtilThreshold, QStringLiteral("list chunks under this in-use % (default 50).")), QStringLiteral("PERCENT"),
        QStringLiteral("50"));
    const QCommandLineOption commOption(QStringLiteral("comm-pattern"),
                                        readersHelp(stats::ReportSetting::CommunicationPattern,
                                                    QStringLiteral("kernels whose name matches REGEX are communication, replacing the built-in "
                                                                   "patterns (default: %1; rank_summary: HTA's)."))
                                            .arg(stats::defaultCommunicationPattern()),
                                        QStringLiteral("REGEX"));
    const QCommandLineOption alignOption(
        QStringLiteral("align"),
        readersHelp(stats::ReportSetting::Alignment, QStringLiteral("'recorded' (the reports' UTC starts, default) or 'collectives' "
                                                                    "(each rank shifted so matched collectives end together).")),
        QStringLiteral("HOW"), QStringLiteral("recorded"));
    const QCommandLineOption rowsOption(
        QStringLiteral("rows"),
        readersHelp(stats::ReportSetting::RuleRows, QStringLiteral("at most N rows, the longest first (default 50, as nsys analyze; -1: all).")),
        QStringLiteral("N"), QStringLiteral("50"));
    const QCommandLineOption binsOption(
        QStringLiteral("bins"), readersHelp(stats::ReportSetting::MapBins, QStringLiteral("time bins across where the GPUs work (default 30).")),
        QStringLiteral("N"), QStringLiteral("30"));
    const QCommandLineOption csvRawOption(
        QStringLiteral("csv-raw"), QStringLiteral("CSV: write names as the trace has them, as nsys does; by default control characters in names "
                                                  "are written as \\xNN and a name that a spreadsheet would take as a formula (beginning with "
                                                  "= + - @) is written behind a '."));
    const QCommandLineOption stepOption(
        QStringLiteral("step"),
        readersHelp(stats::ReportSetting::Step, QStringLiteral("only step N (its number from 0, as the Steps panel counts them).")),
        QStringLiteral("N"));
    const QCommandLineOption stepNamesOption(
        QStringLiteral("step-names"),
        readersHelp(stats::ReportSetting::StepNames, QStringLiteral("the step ranges' names (an unanchored REGEX; default: "
                                                                    "ProfilerStep#N, \"step N\", \"iteration N\").")),
        QStringLiteral("REGEX"));
    const QCommandLineOption whatIfOption(
        QStringLiteral("what-if"),
        readersHelp(stats::ReportSetting::WhatIf,
                    QStringLiteral("re-solve each step with durations scaled: 'kernel:REGEX=0.8' (kernels whose "
                                   "name matches take 0.8 of their time), 'nvtx:REGEX=0.5' (the host time inside matching ranges), "
                                   "'rank:N=0.9' (what rank N computes). Repeat it to combine.")),
        QStringLiteral("TARGET:WHAT=FACTOR"));
    const QCommandLineOption patternOption(
        QStringLiteral("pattern"),
        readersHelp(stats::ReportSetting::NamePattern, QStringLiteral("only the events whose name matches REGEX (unanchored).")),
        QStringLiteral("REGEX"));
    const QCommandLineOption perThreadOption(
        QStringLiteral("per-thread"),
        readersHelp(stats::ReportSetting::PerThread, QStringLiteral("a row per thread, a kernel's being its GPU stream, not per rank.")));
    const QCommandLineOption budgetOption(QStringLiteral("memory-budget"),
                                          QStringLiteral("MiB of mapped index caches to keep resident while computing; past it, pages read "
                                                         "are given back and read again as needed (default: half the RAM)."),
                                          QStringLiteral("MIB"));
    parser.addOptions({reportOption, formatOption, outputOption, overwriteOption, gapOption, utilOption, commOption, alignOption, rowsOption,
                       binsOption, csvRawOption, stepOption, stepNamesOption, whatIfOption, patternOption, perThreadOption, budgetOption});
    addInputArgument(parser);
    parser.process(arguments);

    const QString format = parser.value(formatOption);
    const CsvCells cells = parser.isSet(csvRawOption) ? CsvCells::Raw : CsvCells::Safe;
    if (format != QLatin1String("csv") && format != QLatin1String("table") && format != QLatin1String("json")) {
        QTextStream(&standardError()) << "rankscope-cli: unknown format '" << format << "' (csv, table or json)\n";
        return 1;
    }
    QStringList reports =
        parser.isSet(reportOption) ? parser.value(reportOption).split(QLatin1Char(','), Qt::SkipEmptyParts) : stats::defaultReportNames();
    for (QString &name : reports) {
        name = name.trimmed();
        if (!stats::findReport(name)) {
            QTextStream(&standardError()) << "rankscope-cli: unknown report '" << name
                                          << "'; known: " << stats::reportNames().join(QStringLiteral(", ")) << "\n";
            return 1;
        }
        if (const QString error = stats::reportArgumentError(name); !error.isEmpty()) {
            QTextStream(&standardError()) << "rankscope-cli: " << error << "\n";
            return 1;
        }
    }
    bool ok = true;
    if (parser.isSet(budgetOption)) {
        const std::uint64_t mib = parser.value(budgetOption).toULongLong(&ok);
        if (!ok || mib == 0 || mib > (std::uint64_t(1) << 40)) {
            QTextStream(&standardError()) << "rankscope-cli: --memory-budget takes a positive number of MiB\n";
            return 1;
        }
        ResidentBudget::process().setBytes(mib << 20);
    }
    AnalysisSettings options; // what the flags set
    options.gapThresholdMs = parser.value(gapOption).toDouble(&ok);
    if (ok)
        options.utilThresholdPercent = parser.value(utilOption).toDouble(&ok);
    if (ok)
        options.ruleRowLimit = parser.value(rowsOption).toInt(&ok);
    if (ok)
        options.mapBins = parser.value(binsOption).toInt(&ok);
    if (ok && (options.mapBins < 1 || options.mapBins > 100'000)) {
        QTextStream(&standardError()) << "rankscope-cli: --bins is a whole number from 1 to 100000\n";
        return 1;
    }
    if (!ok || options.gapThresholdMs < 0) {
        QTextStream(&standardError()) << "rankscope-cli: thresholds must be non-negative numbers\n";
        return 1;
    }
    options.communicationPattern = parser.value(commOption);
    if (const QString error = stats::KernelClassifier::patternError(options.communicationPattern); !error.isEmpty()) {
        QTextStream(&standardError()) << "rankscope-cli: --comm-pattern: " << error << "\n";
        return 1;
    }
    options.perThread = parser.isSet(perThreadOption);
    options.namePattern = parser.value(patternOption);
    if (const QString error = stats::KernelClassifier::patternError(options.namePattern); !error.isEmpty()) {
        QTextStream(&standardError()) << "rankscope-cli: --pattern: " << error << "\n";
        return 1;
    }
    const QString align = parser.value(alignOption);
    if (align != QLatin1String("recorded") && align != QLatin1String("collectives")) {
        QTextStream(&standardError()) << "rankscope-cli: --align is 'recorded' or 'collectives'\n";
        return 1;
    }
    options.alignOnCollectives = align == QLatin1String("collectives");
    if (parser.isSet(stepOption)) {
        options.step = parser.value(stepOption).toInt(&ok);
        if (!ok || *options.step < 0) {
            QTextStream(&standardError()) << "rankscope-cli: --step is a step number from 0\n";
            return 1;
        }
    }
    options.stepNames = parser.value(stepNamesOption);
    if (const QString error = stats::stepPatternError(options.stepNames); !error.isEmpty()) {
        QTextStream(&standardError()) << "rankscope-cli: --step-names: " << error << "\n";
        return 1;
    }
    options.whatIfs = parser.values(whatIfOption);
    for (const QString &text : options.whatIfs) {
        QString error;
        if (!stats::parseWhatIf(text, &error)) {
            QTextStream(&standardError()) << "rankscope-cli: --" << error << "\n";
            return 1;
        }
    }
    QStringList perFile, wholeSession;
    for (const QString &name : reports)
        (stats::isSessionReport(name) ? wholeSession : perFile) << name;
    // Under MPI the processes index their shares of the files and run the
    // per-file reports on them in parallel; process 0 then opens them all
    // from their caches and prints, so the output is a single process's.
    GatheredResults gathered = perFileResultsAcrossProcesses(parser.positionalArguments(), indexCacheDirectoryFrom(parser), reports, options);
    if (!processWorld().isFirst())
        return 0;
    std::optional<Session> loadedSession = loadInputs(parser);
    if (!loadedSession)
        return 1;
    // The viewer's analysis workspace, headless, with the flags' settings:
    // the collective reports read one match of one reading of the ranks'
    // communication kernels.
    const AnalysisWorkspace workspace(std::make_shared<const Session>(std::move(*loadedSession)), options);
    const Session &session = *workspace.session();

    QTextStream out(&standardOutput());
    const auto &loaded = session.reports();
    const bool several = loaded.size() * std::size_t(perFile.size()) + std::size_t(wholeSession.size()) > 1;
    // Writes one table to PREFIX[_<file>]_<report>.<ext>, or to stdout. A
    // file that cannot be written fails that report alone, with a line
    // naming it; the others are still written.
    bool writeFailed = false;
    QSet<QString> writtenPaths;
    auto emitTable = [&](const ResultTable &table, const QString &fileStem, const QString &source) {
        const bool csv = format == QLatin1String("csv"); // written as it is made: no copy of a huge table's text
        const QString text = csv ? QString() : formatTable(table, format, cells);
        if (parser.isSet(outputOption)) {
            QString path = parser.value(outputOption);
            if (!fileStem.isEmpty())
                path += QLatin1Char('_') + fileStem;
            path = pathThatFits(path + QLatin1Char('_') + table.name + QLatin1Char('.') + extensionFor(format));
            const auto fail = [&](const QString &why) {
                printFailure(path, why);
                writeFailed = true;
            };
            if (writtenPaths.contains(path))
                return fail(QStringLiteral("not written: this run wrote that file already"));
            struct stat existing { };
            if (!parser.isSet(overwriteOption) && ::lstat(QFile::encodeName(path).constData(), &existing) == 0)
                return fail(QStringLiteral("exists: not replaced (use --force-overwrite to replace it)"));
            AtomicFileWriter file(path); // a link planted under the name is replaced, not followed
            if (!file.open(QIODevice::WriteOnly))
                return fail(QStringLiteral("cannot write: %1").arg(file.errorString()));
            const bool written = csv ? table.writeCsv(file, cells) : file.write(text.toUtf8()) >= 0;
            if (!written || !file.commit())
                return fail(QStringLiteral("cannot write: %1").arg(file.errorString()));
            writtenPaths.insert(path);
            return;
        }
        if (several)
            out << "\n** " << table.title << " (" << table.name << ") - " << source << ":\n\n";
        if (csv) {
            out.flush(); // the table goes to the device itself, after what is buffered
            table.writeCsv(standardOutput(), cells);
        } else
            out << text;
    };
    const bool nameFiles = loaded.size() > 1 || !session.failures().empty();
    QStringList loadedPaths;
    for (const ReportPtr &report : loaded)
        loadedPaths << report->filePath;
    const QStringList stems = uniqueStemsFor(loadedPaths);
    // A report that cannot get its memory fails alone: its line names it
    // and what this process could still get, the others still print.
    bool reportFailed = false;
    // RANKSCOPE_REPORT_TIMES: each report's time on stderr, to find where a
    // run's time goes (docs/performance.md).
    const bool timeReports = qEnvironmentVariableIsSet("RANKSCOPE_REPORT_TIMES");
    auto computed = [&reportFailed, timeReports](const QString &name, const QString &source, auto compute) -> std::optional<ResultTable> {
        try {
            QElapsedTimer timer;
            timer.start();
            std::optional<ResultTable> table = compute();
            if (timeReports)
                QTextStream(&standardError()) << "time: " << name << " " << QString::number(double(timer.nsecsElapsed()) / 1e6, 'f', 1) << " ms ("
                                              << source << ")\n";
            return table;
        } catch (const std::bad_alloc &) {
            releaseFreedMemory();
            printFailure(source,
                         QStringLiteral("%1: ran out of memory computing it (%2 is available to this process now); the other reports still print")
                             .arg(name, formatBinarySize(availableMemoryBytes())));
            reportFailed = true;
            return std::nullopt;
        }
    };
    // A report from an index cache maps the pages of the columns it reads,
    // and they count as this process's memory until given back: given back
    // after each report (they stay in the page cache), so a run's peak is its
    // largest report's, not the sum of every column any report read.
    auto giveBackPages = [](const Report &report) {
        if (report.indexCache)
            report.indexCache->release();
    };
    for (std::size_t fileIndex = 0; fileIndex < loaded.size(); ++fileIndex) {
        const ReportPtr &report = loaded[fileIndex];
        for (const QString &name : perFile) {
            std::optional<ResultTable> table = gathered.take(report->filePath, name);
            if (!table)
                table = computed(name, report->filePath, [&] { return *stats::runReport(name, *report, options); });
            giveBackPages(*report);
            if (table)
                emitTable(*table, nameFiles ? stems[qsizetype(fileIndex)] : QString(), report->filePath);
        }
    }
    // The ranks' communication kernels: gathered from the processes under
    // MPI, else read here once.
    const std::size_t gatheredRanks =
        workspace.withCollectiveInputs([&](stats::CollectiveInputs &records) { return gathered.giveCollectiveOps(records); });
    const stats::GatheredBreakdowns breakdowns = gathered.breakdownsFor(session);
    const stats::GatheredComparisonRows comparisonRows = gathered.comparisonRowsFor(session);
    // For tests/mpi/tst_mpi.sh: proof that the records came from the processes.
    if (qEnvironmentVariableIsSet("RANKSCOPE_REPORT_GATHERED") && processWorld().size > 1) {
        QTextStream(&standardError()) << "gathered: " << gatheredRanks << " of " << session.ranks().size() << " ranks' collective records\n";
        auto count = [](const auto &parts) { return std::count_if(parts.begin(), parts.end(), [](const auto &p) { return p.has_value(); }); };
        QTextStream(&standardError()) << "gathered: " << count(breakdowns) << " of " << session.ranks().size() << " ranks' breakdowns\n";
        QTextStream(&standardError()) << "gathered: " << count(comparisonRows) << " of " << session.ranks().size() << " ranks' comparison rows\n";
    }
    if (!session.ranks().empty())
        for (const QString &name : wholeSession) {
            const std::optional<ResultTable> table = computed(name, QStringLiteral("all ranks"), [&] {
                return workspace.withCollectiveInputs([&](stats::CollectiveInputs &records) {
                    return *stats::runSessionReport(name, session, options, {records, &breakdowns, &comparisonRows});
                });
            });
            for (const RankEntry &rank : session.ranks())
                giveBackPages(*rank.report);
            if (!table)
                continue;
            for (const QString &note : table->notes)
                QTextStream(&standardError()) << "rankscope-cli: " << name << ": " << note << "\n";
            emitTable(*table, QString(), QStringLiteral("all ranks"));
        }
    return session.failures().empty() && !reportFailed && !writeFailed ? 0 : 2;
}

} // namespace rankscope::cli
