// rankscope-cli diagnose: the Diagnosis panel's findings, as a short
// Markdown report, CSV or JSON.
#include "analysis/analysisworkspace.h"
#include "clicommands.h"
#include "core/untrustedtext.h"
#include "stats/diagnosis/diagnosis.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <map>

namespace rankscope::cli {

namespace {

QString findingsJson(const Session &session, const stats::Diagnosis &d)
{
    QJsonArray findings;
    const TimeNs zero = session.extent().start;
    for (const stats::Finding &f : d.findings) {
        QJsonArray instances;
        for (const stats::FindingInstance &i : f.instances)
            instances.append(QJsonObject{{QStringLiteral("rank"), session.ranks()[std::size_t(i.rankIndex)].rank},
                                         {QStringLiteral("start_ns"), double(i.time.start - zero)},
                                         {QStringLiteral("duration_ns"), double(i.time.duration())},
                                         {QStringLiteral("cost_ns"), double(i.cost)},
                                         {QStringLiteral("what"), i.what}});
        QJsonArray ranks;
        for (const int ri : f.rankIndices)
            ranks.append(session.ranks()[std::size_t(ri)].rank);
        findings.append(QJsonObject{{QStringLiteral("id"), f.id},
                                    {QStringLiteral("title"), f.title},
                                    {QStringLiteral("severity"), stats::severityName(f.severity)},
                                    {QStringLiteral("cost_ns"), double(f.cost)},
                                    {QStringLiteral("share"), f.share},
                                    {QStringLiteral("ranks"), ranks},
                                    {QStringLiteral("evidence"), f.evidence},
                                    {QStringLiteral("advice"), f.advice},
                                    {QStringLiteral("instances"), instances}});
    }
    return jsonTerminalSafe(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("gpu_span_ns"), double(d.gpuSpan)},
                                                                        {QStringLiteral("findings"), findings},
                                                                        {QStringLiteral("notes"), QJsonArray::fromStringList(d.notes)}})
                                                  .toJson(QJsonDocument::Indented)));
}

} // namespace

int runDiagnose(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "What is wrong with this run, across all ranks: input starvation, blocking copies, synchronisation, launch-bound "
        "execution, stragglers, low utilisation; each with its cost, ranks, evidence and advice (docs/statistics.md, \"Diagnosis\")."));
    parser.addHelpOption();
    const QCommandLineOption formatOption({QStringLiteral("f"), QStringLiteral("format")}, QStringLiteral("md (default), csv or json."),
                                          QStringLiteral("FORMAT"), QStringLiteral("md"));
    const QCommandLineOption thresholdOption(
        QStringLiteral("threshold"),
        QStringLiteral("Change a threshold (repeatable): gap-share (of the median step, 0.10), gap-without-steps-ms (1),\n"
                       "input-coverage (0.5), launch-short-kernels (0.5), launch-idle (0.10), low-busy (0.5),\n"
                       "low-unexplained (0.2), reported-share (0.01)."),
        QStringLiteral("NAME=VALUE"));
    const QCommandLineOption commOption(QStringLiteral("comm-pattern"),
                                        QStringLiteral("Kernels whose name matches this regular expression are communication (the straggler finding\n"
                                                       "matches them across ranks), as in `stats --comm-pattern` and the viewer's Rank comparison;\n"
                                                       "default: the built-in patterns."),
                                        QStringLiteral("REGEX"));
    parser.addOption(formatOption);
    parser.addOption(thresholdOption);
    parser.addOption(commOption);
    addInputArgument(parser);
    parser.process(arguments);
    const QString format = parser.value(formatOption);
    if (format != QLatin1String("md") && format != QLatin1String("csv") && format != QLatin1String("json")) {
        QTextStream(&standardError()) << "rankscope-cli: unknown format '" << format << "' (md, csv or json)\n";
        return 1;
    }
    stats::DiagnosisThresholds thresholds;
    for (const QString &setting : parser.values(thresholdOption)) {
        const QString name = setting.section(QLatin1Char('='), 0, 0).trimmed();
        bool ok = false;
        const double value = setting.section(QLatin1Char('='), 1).toDouble(&ok);
        const std::map<QString, double *> shares{{QStringLiteral("gap-share"), &thresholds.inLoopGapShareOfStep},
                                                 {QStringLiteral("input-coverage"), &thresholds.inputCoverage},
                                                 {QStringLiteral("launch-short-kernels"), &thresholds.launchBoundShortKernels},
                                                 {QStringLiteral("launch-idle"), &thresholds.launchBoundIdle},
                                                 {QStringLiteral("low-busy"), &thresholds.lowUtilisationBusy},
                                                 {QStringLiteral("low-unexplained"), &thresholds.lowUtilisationUnexplained},
                                                 {QStringLiteral("reported-share"), &thresholds.reportedShare}};
        if (ok && value >= 0 && name == QLatin1String("gap-without-steps-ms")) {
            thresholds.inLoopGapWithoutSteps = TimeNs(value * 1e6);
        } else if (const auto it = shares.find(name); ok && value >= 0 && it != shares.end()) {
            *it->second = value;
        } else {
            QTextStream(&standardError()) << "rankscope-cli: --threshold " << setting << ": unknown name or not a non-negative number\n";
            return 1;
        }
    }
    AnalysisSettings settings;
    settings.communicationPattern = parser.value(commOption);
    settings.diagnosis = thresholds;
    if (const QString error = stats::KernelClassifier::patternError(settings.communicationPattern); !error.isEmpty()) {
        QTextStream(&standardError()) << "rankscope-cli: --comm-pattern: " << error << "\n";
        return 1;
    }
    std::optional<Session> loaded = loadInputs(parser);
    if (!loaded)
        return 1;
    if (loaded->ranks().empty())
        return 2;
    // The viewer's Diagnosis, computed the same way (analysis/analysisworkspace.h).
    const AnalysisWorkspace workspace(std::make_shared<const Session>(std::move(*loaded)), settings);
    const Session *session = workspace.session().get();
    const stats::Diagnosis &d = *workspace.diagnosis();
    QTextStream out(&standardOutput());
    if (format == QLatin1String("json"))
        out << findingsJson(*session, d);
    else if (format == QLatin1String("csv"))
        out << stats::findingsTable(d).toCsv();
    else
        out << terminalSafe(stats::findingsMarkdown(*session, d)); // piped or not: a name's controls are shown, not acted on
    return session->failures().empty() ? 0 : 2;
}

} // namespace rankscope::cli
