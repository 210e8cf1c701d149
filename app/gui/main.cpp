// rankscope: the timeline viewer.
#include "core/memoryusage.h"
#include "core/untrustedtext.h"
#include "demotraces.h"
#include "heappages.h"
#include "load/traceloader.h"
#include "mainwindow.h"
#include "panels/statsdock.h"
#include "screenshot.h"
#include "session/session.h"
#include "sessioncontroller.h"
#include "timeline/timelineview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QIcon>
#include <QTextStream>

int main(int argc, char **argv)
{
    rankscope::rerunWithHugePageHeap(argv); // before any thread starts
    QElapsedTimer started;                  // for --first-frame
    started.start();
    // Screenshots need no display: pick the offscreen platform unless the
    // caller chose one.
    for (int i = 1; i < argc; ++i)
        if (QByteArray(argv[i]) == "--screenshot" && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    rankscope::configureProcessForUntrustedTraces();
    QApplication::setApplicationName(QStringLiteral("Rankscope"));
    QApplication::setOrganizationName(QStringLiteral("Rankscope"));
    QApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.rankscope.Rankscope"));
    QIcon icon;
    for (int size : {16, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/rankscope-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(icon);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Timeline viewer for multi-rank GPU training traces (Nsight Systems SQLite exports, PyTorch profiler JSON). "
                       "With no file, opens the bundled demo traces."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"), QStringLiteral("Load, render the window offscreen to OUT.png and exit."),
                                              QStringLiteral("OUT.png"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size for --screenshot (default 1600x900)."),
                                        QStringLiteral("WxH"), QStringLiteral("1600x900"));
    const QCommandLineOption rangeOption(QStringLiteral("range"),
                                         QStringLiteral("Visible range for --screenshot, relative to the session start "
                                                        "(units ns, us, ms, s; a bare number is seconds), e.g. 2s:2.5s."),
                                         QStringLiteral("START:END"));
    const QCommandLineOption panelOption(QStringLiteral("panel"), QStringLiteral("Show a statistics panel: memcpy, gaps, summaries or ranks."),
                                         QStringLiteral("NAME"));
    const QCommandLineOption compareOption(QStringLiteral("compare"),
                                           QStringLiteral("Compare the files opened (run A) with run B: a trace file or a directory of rank files "
                                                          "(repeat for more files of run B)."),
                                           QStringLiteral("B"));
    const QCommandLineOption stretchOption(QStringLiteral("stretch-steps"),
                                           QStringLiteral("With --compare: draw step k of run B over step k of run A (View > Align Runs)."));
    const QCommandLineOption firstFrameOption(QStringLiteral("first-frame"),
                                              QStringLiteral("With --screenshot: capture the window as it first shows the session, index caches "
                                                             "not checked before drawn from their summaries (as the viewer opens them), and print "
                                                             "when, and the peak resident memory then."));
    parser.addOptions({screenshotOption, sizeOption, rangeOption, panelOption, compareOption, stretchOption, firstFrameOption});
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Trace files or directories to open as one session."),
                                 QStringLiteral("[FILE|DIR...]"));
    parser.process(app);

    QStringList inputs = parser.positionalArguments();
    if (inputs.isEmpty())
        inputs << rankscope::demoTraceDirectory();

    rankscope::MainWindow window;
    const QString panel = parser.value(panelOption);
    if (parser.isSet(panelOption) && !rankscope::StatsDock::panelNames().contains(panel)) {
        QTextStream(stderr) << "rankscope: --panel takes one of " << rankscope::StatsDock::panelNames().join(QStringLiteral(", ")) << "\n";
        return 1;
    }
    if (parser.isSet(screenshotOption)) {
        QTextStream err(stderr);
        const auto size = rankscope::parseSizeSpec(parser.value(sizeOption));
        if (!size) {
            err << "rankscope: --size takes WxH, e.g. 1600x900\n";
            return 1;
        }
        std::optional<rankscope::TimeRange> range;
        if (parser.isSet(rangeOption) && !(range = rankscope::parseRangeSpec(parser.value(rangeOption)))) {
            err << "rankscope: --range takes START:END, e.g. 2s:2.5s\n";
            return 1;
        }
        if (parser.isSet(firstFrameOption))
            window.openToFirstFrame(inputs);
        else
            window.open(inputs, true);
        if (parser.isSet(compareOption))
            window.compareWith(parser.values(compareOption), true);
        if (parser.isSet(stretchOption))
            window.session()->stretchSteps(true);
        const rankscope::Session *session = window.timeline()->session().get();
        if (!session || session->ranks().empty()) {
            err << "rankscope: nothing could be opened\n";
            return 2;
        }
        if (!panel.isEmpty()) {
            window.resize(*size);
            window.showStatsPanel(panel);
        }
        const QString error = rankscope::saveScreenshot(window, parser.value(screenshotOption), *size, range);
        if (!error.isEmpty()) {
            err << "rankscope: " << rankscope::terminalSafe(error, false) << "\n"; // the path is the user's, anything
            return 2;
        }
        if (parser.isSet(firstFrameOption)) {
            err << "rankscope: first frame after " << QString::number(double(started.nsecsElapsed()) / 1e9, 'f', 2) << " s, peak resident "
                << QString::number(double(rankscope::peakResidentBytes()) / double(1 << 20), 'f', 0) << " MiB\n";
            err.flush();
        }
        return 0;
    }
    window.show();
    if (!panel.isEmpty())
        window.showStatsPanel(panel);
    window.open(inputs);
    if (parser.isSet(compareOption))
        window.compareWith(parser.values(compareOption)); // once run A is open
    return app.exec();
}
