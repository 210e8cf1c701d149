// rankscope-cli: the headless side of Rankscope. The same statistics as the
// viewer, printed like `nsys stats` prints them, without nsys installed.
#include "clicommands.h"

#include <QCoreApplication>
#include <QTextStream>

namespace {

void printUsage(QTextStream &out)
{
    out << "Usage: rankscope-cli <command> [options] FILE|DIR...\n\n"
           "Commands:\n"
           "  stats   Print nsys-compatible statistics reports (rankscope-cli stats --help)\n"
           "  info    Print what each report holds (rankscope-cli info --help)\n\n"
           "Options:\n"
           "  -h, --help     Show this help\n"
           "  -v, --version  Show the version\n";
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
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
    QTextStream(stderr) << "rankscope-cli: unknown command '" << command << "'\n";
    printUsage(out);
    return 1;
}
