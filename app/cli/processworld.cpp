#include "processworld.h"

#include "session/filesplit.h"

#include <QFileInfo>

#ifdef RANKSCOPE_WITH_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace rankscope::cli {

namespace {

ProcessWorld g_world;
bool g_joined = false;

#ifdef RANKSCOPE_WITH_MPI
// The bytes one message carries at most (an MPI count is an int), and the
// tag of gathered pieces.
constexpr std::int64_t kGatherPieceBytes = std::int64_t(1) << 28;
constexpr int kGatherTag = 0x52534741;
#endif

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
        // Lengths in 64 bits and the bytes in pieces of an int's count:
        // MPI_Gatherv's int counts and displacements wrapped past 2 GiB.
        std::int64_t length = std::int64_t(mine.size());
        std::vector<std::int64_t> lengths(std::size_t(g_world.size), 0);
        MPI_Gather(&length, 1, MPI_INT64_T, lengths.data(), 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
        if (!g_world.isFirst()) {
            for (std::int64_t done = 0; done < length; done += kGatherPieceBytes) {
                const int piece = int(std::min<std::int64_t>(kGatherPieceBytes, length - done));
                MPI_Send(mine.constData() + done, piece, MPI_BYTE, 0, kGatherTag, MPI_COMM_WORLD);
            }
            return {};
        }
        QList<QByteArray> parts{mine};
        std::int64_t missing = 0; // bytes that could not be held
        std::unique_ptr<char[]> drain;
        for (int p = 1; p < g_world.size; ++p) {
            const std::int64_t bytes = lengths[std::size_t(p)];
            QByteArray part;
            try {
                part.resize(qsizetype(bytes));
            } catch (const std::bad_alloc &) {
                part = QByteArray();
                missing += bytes;
            }
            // Every piece is received, held or not: the sender waits for it.
            for (std::int64_t done = 0; done < bytes; done += kGatherPieceBytes) {
                const int piece = int(std::min<std::int64_t>(kGatherPieceBytes, bytes - done));
                char *into = part.size() == bytes ? part.data() + done : nullptr;
                if (!into) {
                    if (!drain)
                        drain.reset(new char[std::size_t(kGatherPieceBytes)]);
                    into = drain.get();
                }
                MPI_Recv(into, piece, MPI_BYTE, p, kGatherTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            parts.append(std::move(part));
        }
        if (missing > 0)
            throw GatherTooLarge(missing);
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
