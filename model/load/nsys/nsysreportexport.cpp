#include "load/nsys/nsysreportexport.h"

#include "core/safefiles.h"
#include "core/untrustedtext.h"
#include "load/nsys/sqlitedatabase.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cstdio>
#include <sys/stat.h>

namespace rankscope {

namespace {

// How long an export may take before it is given up: real reports of a
// few GB export in minutes.
constexpr int kExportTimeoutMs = 60 * 60 * 1000;

QString howToExport(const QString &report)
{
    const QString name = QFileInfo(report).fileName();
    QString stem = name;
    stem.chop(QFileInfo(report).suffix().size() + 1);
    // The names are quoted: a report's name is anyone's ("run$(touch x).nsys-rep"),
    // and this line is meant to be pasted into a shell.
    const QString output = shellQuoted(stem + QStringLiteral(".sqlite"));
    return QStringLiteral("export it where nsys is installed with: nsys export --type sqlite --output %1 %2, then open %1")
        .arg(output, shellQuoted(name));
}

// Whether `path` is a regular file (not a link) of this user's.
bool isOwnRegularFile(const QString &path)
{
    struct stat st { };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISREG(st.st_mode) && onlyThisUserMayWrite(st);
}

} // namespace

bool isNsysReport(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("nsys-rep") || suffix == QLatin1String("qdrep");
}

QString findNsys()
{
    const QString home = qEnvironmentVariable("NSYS_HOME");
    if (!home.isEmpty())
        for (const QString &relative : {QStringLiteral("bin/nsys"), QStringLiteral("target-linux-x64/nsys"), QStringLiteral("nsys")}) {
            const QFileInfo candidate(QDir(home).filePath(relative));
            if (candidate.isFile() && candidate.isExecutable())
                return candidate.absoluteFilePath();
        }
    return QStandardPaths::findExecutable(QStringLiteral("nsys"));
}

QString nsysExportCachePath(const QString &report)
{
    const QFileInfo info(report);
    QCryptographicHash key(QCryptographicHash::Sha256);
    key.addData(info.absoluteFilePath().toUtf8());
    key.addData(QByteArray::number(info.size()));
    key.addData(QByteArray::number(info.lastModified().toMSecsSinceEpoch()));
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    return QDir(cache).filePath(
        QStringLiteral("Rankscope/nsys-exports/%1-%2.sqlite").arg(info.completeBaseName(), QString::fromLatin1(key.result().toHex().left(16))));
}

NsysExport exportNsysReport(const QString &report, const LoadControl &control)
{
    NsysExport result;
    const QString cached = nsysExportCachePath(report);
    const QString folder = QFileInfo(cached).absolutePath();
    // The exports live in a folder of this user's alone: nsys writes its
    // partial file by name there, and a name in a folder others can write
    // could be a link to one of this user's files.
    if (!makeFolderPath(folder) || !isPrivateFolder(folder)) {
        result.error =
            QStringLiteral("cannot use the export cache folder %1: it must be a folder of this user's that no one else can write").arg(folder);
        return result;
    }
    if (isOwnRegularFile(cached) && looksLikeSqliteFile(cached)) {
        result.sqlitePath = cached;
        result.reused = true;
        return result;
    }
    const QString nsys = findNsys();
    if (nsys.isEmpty()) {
        result.error =
            QStringLiteral("an Nsight Systems report, and nsys is not installed here (not on PATH, NSYS_HOME not set); ") + howToExport(report);
        return result;
    }
    // Written beside the cache entry, renamed when complete: an interrupted
    // export never looks like a finished one.
    const QString partial = cached
                            + QStringLiteral(".partial-%1-%2.sqlite")
                                  .arg(QCoreApplication::applicationPid())
                                  .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    QFile::remove(partial);
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(nsys, {QStringLiteral("export"), QStringLiteral("--type"), QStringLiteral("sqlite"), QStringLiteral("--force-overwrite"),
                         QStringLiteral("true"), QStringLiteral("--output"), partial, QFileInfo(report).absoluteFilePath()});
    if (!process.waitForStarted()) {
        result.error = QStringLiteral("cannot run %1: %2; %3").arg(nsys, process.errorString(), howToExport(report));
        return result;
    }
    static const QRegularExpression percent(QStringLiteral("(\\d{1,3})%"));
    QByteArray output;
    // nsys prints its progress as "NN%": each becomes the export's progress.
    auto consume = [&](const QByteArray &chunk) {
        output += chunk;
        QRegularExpressionMatchIterator it = percent.globalMatch(QString::fromLocal8Bit(chunk));
        while (it.hasNext())
            if (const int value = it.next().captured(1).toInt(); value <= 100)
                control.report(value / 100.0);
    };
    QElapsedTimer timer;
    timer.start();
    while (!process.waitForFinished(100)) {
        if (control.isCancelled() || timer.elapsed() > kExportTimeoutMs) {
            process.kill();
            process.waitForFinished();
            QFile::remove(partial);
            result.cancelled = control.isCancelled();
            result.error = result.cancelled ? QStringLiteral("cancelled") : QStringLiteral("nsys export took longer than an hour; stopped");
            return result;
        }
        consume(process.readAll());
    }
    consume(process.readAll());
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0 || !looksLikeSqliteFile(partial)) {
        QFile::remove(partial);
        const QString said = QString::fromLocal8Bit(output).trimmed().section(QLatin1Char('\n'), -1);
        result.error =
            QStringLiteral("nsys export failed (exit %1)%2").arg(process.exitCode()).arg(said.isEmpty() ? QString() : QStringLiteral(": ") + said);
        return result;
    }
    // The export holds the report's names: readable by no one who cannot
    // read the report (nsys made it with the umask's mode).
    struct stat reportStatus { };
    const mode_t mode = ::stat(QFile::encodeName(report).constData(), &reportStatus) == 0 ? modeReadableLike(reportStatus.st_mode) : 0600;
    ::chmod(QFile::encodeName(partial).constData(), mode);
    // rename(2) replaces whatever has the name, a link included, in one step.
    if (::rename(QFile::encodeName(partial).constData(), QFile::encodeName(cached).constData()) != 0) {
        result.error = QStringLiteral("cannot move the export into the cache (%1)").arg(cached);
        QFile::remove(partial);
        return result;
    }
    result.sqlitePath = cached;
    return result;
}

} // namespace rankscope
