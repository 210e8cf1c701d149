// rankscope-cli: the headless side of Rankscope. The same statistics as the
// viewer, printed like `nsys stats` prints them, without nsys installed.
#include "clicommands.h"

#include <QApplication>
#include <QCoreApplication>
#include <memory>
#include <QTextStream>

namespace {

void printUsage(QTextStream &out)
{
    out << "Usage: rankscope-cli <command> [options] FILE|DIR...\n\n"
           "Commands:\n"
           "  stats   Print nsys-compatible statistics reports (rankscope-cli stats --help)\n"
           "  info    Print what each report holds (rankscope-cli info --help)\n"
           "  bench   Measure loading, drawing, hit tests and statistics (rankscope-cli bench --help)\n\n"
           "Options:\n"
           "  -h, --help     Show this help\n"
           "  -v, --version  Show the version\n";
}

} // namespace

int main(int argc, char **argv)
{
    // bench paints real frames: it needs a GUI application (offscreen);
    // everything else stays a plain console program.
    const bool bench = argc > 1 && QByteArray(argv[1]) == "bench";
    if (bench && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> app = bench ? std::make_unique<QApplication>(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("rankscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
    QStringList args = QCoreApplication::arguments();
    QTextStream out(stdout);
    if (args.size() < 2 || args[1] == QLatin1String("-h") || args[1] == QLatin1String("--help")) {
        printUsage(out);
        return args.size() < 2 ? 1 : 0;
    }
    if (args[1] == QLatin1String("-v") || args[1] == QLatin1String("--version")) {
        out << "rankscope-cli " << RANKSCOPE_VERSION << "\n";
        return 0;
    }
    const QString command = args[1];
    args.removeAt(1); // leave the program name for QCommandLineParser
    if (command == QLatin1String("stats"))
        return rankscope::cli::runStats(args);
    if (command == QLatin1String("info"))
        return rankscope::cli::runInfo(args);
    if (command == QLatin1String("bench"))
        return rankscope::cli::runBench(args);
    QTextStream(stderr) << "rankscope-cli: unknown command '" << command << "'\n";
    printUsage(out);
    return 1;
}
