// rankscope-cli: the headless side of Rankscope. The same statistics as the
// viewer, printed like `nsys stats` prints them, without nsys installed.
#include "clicommands.h"
#include "core/memoryusage.h"
#include "core/units.h"
#include "heappages.h"
#include "load/traceloader.h"
#include "processworld.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>
#include <memory>
#include <new>

namespace {

constexpr const char *kCommands =
    "Commands:\n"
    "  stats   Print nsys-compatible statistics reports (rankscope-cli stats --help)\n"
    "  diagnose  Print what is wrong with the run: findings, cost, advice (rankscope-cli diagnose --help)\n"
    "  diff    Compare two runs (or two ranks) per kernel, NVTX path, API call or copy kind (rankscope-cli diff --help)\n"
    "  info    Print what each report holds (rankscope-cli info --help)\n"
    "  index   Build the index cache of each report, for fast opening (rankscope-cli index --help)\n"
    "  bench   Measure loading, drawing, hit tests and statistics (rankscope-cli bench --help)";

int run(int argc, char **argv)
{
    // bench paints real frames: it needs a GUI application (offscreen);
    // everything else stays a plain console program.
    const bool bench = argc > 1 && QByteArray(argv[1]) == "bench";
    if (bench && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> app = bench ? std::make_unique<QApplication>(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    rankscope::configureProcessForUntrustedTraces();
    QCoreApplication::setApplicationName(QStringLiteral("rankscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));

    // The command's own options are its parser's: stop at the command.
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The headless side of Rankscope: the statistics of Nsight Systems exports and "
                                                    "PyTorch profiler traces, printed as `nsys stats` prints them.\n\n")
                                     + QLatin1String(kCommands));
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("stats, diagnose, diff, info, index or bench"),
                                 QStringLiteral("<command> [options] FILE|DIR..."));
    QStringList args = QCoreApplication::arguments();
    if (!parser.parse(args.mid(0, 2))) {
        QTextStream(&rankscope::cli::standardError()) << "rankscope-cli: " << parser.errorText() << "\n";
        return 1;
    }
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (args.size() < 2) {
        QTextStream(&rankscope::cli::standardError()) << parser.helpText();
        return 1;
    }
    const QString command = args[1];
    args.removeAt(1); // leave the program name for the command's parser
    if (command == QLatin1String("stats"))
        return rankscope::cli::runStats(args);
    if (command == QLatin1String("diagnose"))
        return rankscope::cli::runDiagnose(args);
    if (command == QLatin1String("diff"))
        return rankscope::cli::runDiff(args);
    if (command == QLatin1String("info"))
        return rankscope::cli::runInfo(args);
    if (command == QLatin1String("index"))
        return rankscope::cli::runIndex(args);
    if (command == QLatin1String("bench"))
        return rankscope::cli::runBench(args);
    QTextStream(&rankscope::cli::standardError()) << "rankscope-cli: unknown command '" << command << "'\n" << parser.helpText();
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    rankscope::rerunWithHugePageHeap(argv); // before MPI or any thread starts
    // Before anything else reads the arguments: MPI may take its own.
    rankscope::cli::startProcessWorld(&argc, &argv);
    int status = 3;
    try {
        status = run(argc, argv);
    } catch (const std::bad_alloc &) { // what no report or load caught: one line, not "terminate called"
        rankscope::releaseFreedMemory();
        QTextStream(&rankscope::cli::standardError())
            << "rankscope-cli: ran out of memory (" << rankscope::formatBinarySize(rankscope::availableMemoryBytes())
            << " is available to this process now)\n";
    }
    rankscope::cli::stopProcessWorld();
    return status;
}
