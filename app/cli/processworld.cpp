#include "processworld.h"

#include "session/filesplit.h"

#include <QFileInfo>

#ifdef RANKSCOPE_WITH_MPI
#include <mpi.h>
#endif

#include <vector>

namespace rankscope::cli {

namespace {

ProcessWorld g_world;
bool g_joined = false;

#ifdef RANKSCOPE_WITH_MPI
// Started by a launcher that wires up MPI (Open MPI's mpirun, Slurm's srun
// with PMI or PMIx). A plain start stays a single process: no MPI set-up
// cost, no launcher warnings on a laptop.
bool startedByMpiLauncher()
{
    for (const char *variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
        if (qEnvironmentVariableIsSet(variable))
            return true;
    return false;
}
#endif

} // namespace

void startProcessWorld(int *argc, char ***argv)
{
#ifdef RANKSCOPE_WITH_MPI
    if (!startedByMpiLauncher())
        return;
    MPI_Init(argc, argv);
    g_joined = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_world.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_world.size);
#else
    (void)argc;
    (void)argv;
#endif
}

void stopProcessWorld()
{
#ifdef RANKSCOPE_WITH_MPI
    if (g_joined)
        MPI_Finalize();
#endif
    g_joined = false;
}

const ProcessWorld &processWorld()
{
    return g_world;
}

QList<QByteArray> gatherToFirst(const QByteArray &mine)
{
#ifdef RANKSCOPE_WITH_MPI
    if (g_joined && g_world.size > 1) {
        int length = int(mine.size());
        std::vector<int> lengths(std::size_t(g_world.size), 0);
        MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
        std::vector<int> offsets(std::size_t(g_world.size), 0);
        QByteArray all;
        if (g_world.isFirst()) {
            long long total = 0;
            for (std::size_t p = 0; p < lengths.size(); ++p) {
                offsets[p] = int(total);
                total += lengths[p];
            }
            all.resize(qsizetype(total));
        }
        MPI_Gatherv(mine.constData(), length, MPI_BYTE, all.data(), lengths.data(), offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
        QList<QByteArray> parts;
        if (g_world.isFirst())
            for (std::size_t p = 0; p < lengths.size(); ++p)
                parts.append(all.mid(offsets[p], lengths[p]));
        return parts;
    }
#endif
    return {mine};
}

void waitForAllProcesses()
{
#ifdef RANKSCOPE_WITH_MPI
    if (g_joined)
        MPI_Barrier(MPI_COMM_WORLD);
#endif
}

std::vector<qsizetype> myShareOf(const QStringList &files)
{
    std::vector<std::int64_t> sizes;
    for (const QString &file : files)
        sizes.push_back(QFileInfo(file).size());
    const std::vector<int> owner = splitFilesBySize(sizes, processWorld().size);
    std::vector<qsizetype> mine;
    for (qsizetype i = 0; i < files.size(); ++i)
        if (owner[std::size_t(i)] == processWorld().rank)
            mine.push_back(i);
    return mine;
}

} // namespace rankscope::cli
