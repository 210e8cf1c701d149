#include "viewerrun.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <string>
#include <vector>

extern char **environ;

namespace rankscope::cli {

QString viewerExecutable()
{
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString &candidate : {here.filePath(QStringLiteral("../gui/rankscope")), here.filePath(QStringLiteral("rankscope"))})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    return {};
}

std::optional<ProcessFigures> runMeasured(const QString &program, const QStringList &arguments)
{
    std::vector<std::string> args{program.toStdString()};
    for (const QString &a : arguments)
        args.push_back(a.toStdString());
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // The child's environment: this one, offscreen unless a platform is chosen.
    std::vector<std::string> env;
    bool hasPlatform = false;
    for (char **e = environ; *e; ++e) {
        env.emplace_back(*e);
        hasPlatform = hasPlatform || env.back().rfind("QT_QPA_PLATFORM=", 0) == 0;
    }
    if (!hasPlatform)
        env.emplace_back("QT_QPA_PLATFORM=offscreen");
    std::vector<char *> envp;
    for (std::string &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    QElapsedTimer timer;
    timer.start();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return std::nullopt;
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid)
        return std::nullopt;
    ProcessFigures f;
    f.seconds = double(timer.nsecsElapsed()) / 1e9;
    f.peakKiB = usage.ru_maxrss;
    f.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return f;
}

} // namespace rankscope::cli
