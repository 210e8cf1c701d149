// rankscope-cli diff: two runs (or two ranks) compared per kernel, NVTX
// path, CUDA API call or copy kind, largest absolute change first.
#include "analysis/analysisworkspace.h"
#include "clicommands.h"
#include "stats/comparison/rundiff.h"
#include "stats/sampling/samplingcomparison.h"

#include <QCommandLineParser>
#include <QTextStream>

namespace rankscope::cli {

int runDiff(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Compare run A with run B (each a report or a folder of rank reports): per kernel, NVTX path, CUDA API call or "
                       "memcpy kind, the count, total and mean time on each side, the difference and the ratio, largest change first."));
    parser.addHelpOption();
    const QCommandLineOption reportOption({QStringLiteral("r"), QStringLiteral("report")},
                                          QStringLiteral("kernels (default), nvtx, api, memcpy, steps (step k of A against step k of B) or "
                                                         "collectives (skew and waits, each run's ranks matched among themselves) or "
                                                         "cpu_sampling (each function's share of the CPU samples)."),
                                          QStringLiteral("REPORT"), QStringLiteral("kernels"));
    const QCommandLineOption formatOption({QStringLiteral("f"), QStringLiteral("format")}, QStringLiteral("table (default), csv or json."),
                                          QStringLiteral("FORMAT"), QStringLiteral("table"));
    const QCommandLineOption normalizeOption(QStringLiteral("normalize-kernels"),
                                             QStringLiteral("Compare kernels without their template arguments and hashes."));
    const QCommandLineOption rankAOption(QStringLiteral("rank-a"), QStringLiteral("Only this rank of A (its place in A's ranks, from 0)."),
                                         QStringLiteral("N"));
    const QCommandLineOption rankBOption(QStringLiteral("rank-b"), QStringLiteral("Only this rank of B."), QStringLiteral("N"));
    const QCommandLineOption commOption(QStringLiteral("comm-pattern"),
                                        QStringLiteral("collectives: kernels whose name matches this regular expression are communication, as in\n"
                                                       "`stats --comm-pattern` and the viewer's Compare panel (default: the built-in patterns)."),
                                        QStringLiteral("REGEX"));
    parser.addOptions({reportOption, formatOption, normalizeOption, rankAOption, rankBOption, commOption});
    addIndexCacheOptions(parser);
    parser.addPositionalArgument(QStringLiteral("A"), QStringLiteral("The run before: a report or a folder of rank reports."));
    parser.addPositionalArgument(QStringLiteral("B"), QStringLiteral("The run after (may be A again, with --rank-a/--rank-b)."));
    parser.process(arguments);
    const auto report = stats::diffReportNamed(parser.value(reportOption));
    const QString format = parser.value(formatOption);
    if (!report || (format != QLatin1String("table") && format != QLatin1String("csv") && format != QLatin1String("json"))
        || parser.positionalArguments().size() != 2) {
        QTextStream(&standardError())
            << "rankscope-cli diff: give A and B, --report kernels|nvtx|api|memcpy|steps|collectives|cpu_sampling and --format table|csv|json\n";
        return 1;
    }
    const QString communicationPattern = parser.value(commOption);
    if (const QString error = stats::KernelClassifier::patternError(communicationPattern); !error.isEmpty()) {
        QTextStream(&standardError()) << "rankscope-cli diff: --comm-pattern: " << error << "\n";
        return 1;
    }
    AnalysisSettings settings;
    settings.communicationPattern = communicationPattern;
    stats::DiffOptions options;
    options.normalizeKernelNames = parser.isSet(normalizeOption);
    bool failed = false;
    std::vector<std::shared_ptr<const Session>> sides;
    const LoadControl control = cachedLoadControl(indexCacheDirectoryFrom(parser));
    for (const QString &input : parser.positionalArguments()) {
        Session s = Session::load({input}, control);
        for (const auto &f : s.failures()) {
            printFailure(f.path, f.error);
            failed = true;
        }
        if (s.ranks().empty()) {
            QTextStream(&standardError()) << "rankscope-cli diff: nothing could be read from " << input << "\n";
            return 2;
        }
        sides.push_back(std::make_shared<const Session>(std::move(s)));
    }
    for (const auto &[option, side, target] : {std::tuple{&rankAOption, 0, &options.rankA}, std::tuple{&rankBOption, 1, &options.rankB}})
        if (parser.isSet(*option)) {
            bool ok = false;
            const int rank = parser.value(*option).toInt(&ok);
            if (!ok || rank < 0 || rank >= int(sides[std::size_t(side)]->ranks().size())) {
                QTextStream(&standardError()) << "rankscope-cli diff: no rank " << parser.value(*option) << " in "
                                              << parser.positionalArguments()[side] << "\n";
                return 1;
            }
            *target = rank;
        }
    // A side's CPU samples: one rank's (--rank-a/--rank-b), else all of its ranks'.
    const auto samplesOf = [](const Session &side, std::optional<int> rank) {
        return rank ? stats::samplingProfileOfRank(side, *rank) : stats::samplingProfile(side, stats::StatsScope{});
    };
    const Session &a = *sides[0], &b = *sides[1];
    // Each run's collectives matched among its ranks, by the run's workspace.
    const auto collectivesOf = [&](const std::shared_ptr<const Session> &side) {
        return AnalysisWorkspace(side, settings).collectiveMatch(MatchClock::Recorded);
    };
    const ResultTable table = *report == stats::DiffReport::Steps ? stats::stepDiffTable(stats::diffSteps(a, b, options))
                              : *report == stats::DiffReport::Collectives
                                  ? stats::collectiveDiffTable(stats::diffCollectives(*collectivesOf(sides[0]), *collectivesOf(sides[1])))
                              : *report == stats::DiffReport::CpuSampling
                                  ? stats::samplingDiffTable(samplesOf(a, options.rankA), samplesOf(b, options.rankB))
                                  : stats::diffTable(stats::diffRuns(a, b, *report, options), *report);
    for (const QString &note : table.notes)
        QTextStream(&standardError()) << note << "\n";
    QTextStream out(&standardOutput());
    if (format == QLatin1String("csv"))
        out << table.toCsv();
    else if (format == QLatin1String("json"))
        out << table.toJson();
    else
        out << table.toText();
    return failed ? 2 : 0;
}

} // namespace rankscope::cli
