// The executables re-run themselves once with glibc's huge-page heap
// (load/heappages.h): only where the kernel hands huge pages to memory that
// asks, with the user's own tunables kept, the arguments unchanged, and
// never when told not to or when the tunable is set already.
#include "heappages.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QtTest>

namespace {

struct ProbeRun {
    QString tunables;
    QString arguments;
    qint64 hugePagesKb = -1;
    QString processName; // /proc/self/comm
};

ProbeRun runProbe(const QStringList &setEnvironment, const QStringList &removeEnvironment = {})
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("GLIBC_TUNABLES"));
    environment.remove(QStringLiteral("RANKSCOPE_HUGE_PAGES"));
    for (const QString &name : removeEnvironment)
        environment.remove(name);
    for (const QString &assignment : setEnvironment)
        environment.insert(assignment.section(QLatin1Char('='), 0, 0), assignment.section(QLatin1Char('='), 1));
    QProcess probe;
    probe.setProcessEnvironment(environment);
    probe.start(QStringLiteral(HEAPPAGES_PROBE), {QStringLiteral("--panel"), QStringLiteral("a b"), QString()});
    if (!probe.waitForFinished(30000) || probe.exitCode() != 0)
        return {};
    const QStringList lines = QString::fromUtf8(probe.readAllStandardOutput()).split(QLatin1Char('\n'));
    if (lines.size() < 4)
        return {};
    return {lines[0], lines[1], lines[2].toLongLong(), lines[3]};
}

// Whether this machine is one the re-run is for (glibc 2.35 or later is
// Debian 12's 2.36 and what CI runs).
bool rerunExpected()
{
    QFile mode(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"));
    return !rankscope::sanitizerOwnsMalloc() && mode.open(QIODevice::ReadOnly) && mode.readAll().contains("[madvise]");
}

const QString kArguments = QStringLiteral("--panel|a b|");

} // namespace

class TestHeapPages : public QObject {
    Q_OBJECT
private slots:
    void rerunsOnceWithTheTunable()
    {
        const ProbeRun run = runProbe({});
        QCOMPARE(run.arguments, kArguments);
        // Re-run by its own path: ps and top name it, not "exe" (the kernel
        // keeps 15 bytes of the name).
        QCOMPARE(run.processName, QFileInfo(QStringLiteral(HEAPPAGES_PROBE)).fileName().left(15));
        QCOMPARE(run.tunables, rerunExpected() ? QStringLiteral("glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1") : QStringLiteral("(unset)"));
        // What the kernel gave depends on its free memory: told, not tested.
        qInfo("a 64 MiB allocation had %lld kB of huge pages", run.hugePagesKb);
    }

    void keepsTheUsersTunables()
    {
        const ProbeRun run = runProbe({QStringLiteral("GLIBC_TUNABLES=glibc.malloc.check=0")});
        QCOMPARE(run.arguments, kArguments);
        QCOMPARE(run.tunables, rerunExpected() ? QStringLiteral("glibc.malloc.check=0:glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1")
                                               : QStringLiteral("glibc.malloc.check=0"));
        // An arena count of the user's own is kept as it is.
        QCOMPARE(runProbe({QStringLiteral("GLIBC_TUNABLES=glibc.malloc.arena_max=4")}).tunables,
                 rerunExpected() ? QStringLiteral("glibc.malloc.arena_max=4:glibc.malloc.hugetlb=1") : QStringLiteral("glibc.malloc.arena_max=4"));
    }

    void leavesAChoiceAlone()
    {
        QCOMPARE(runProbe({QStringLiteral("GLIBC_TUNABLES=glibc.malloc.hugetlb=0")}).tunables, QStringLiteral("glibc.malloc.hugetlb=0"));
        QCOMPARE(runProbe({QStringLiteral("RANKSCOPE_HUGE_PAGES=off")}).tunables, QStringLiteral("(unset)"));
    }
};

QTEST_GUILESS_MAIN(TestHeapPages)
#include "tst_heappages.moc"
