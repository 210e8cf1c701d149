#pragma once
// The processes one rankscope-cli run is spread over: MPI's when the CLI is
// built with -DRANKSCOPE_MPI=ON and started by mpirun or srun, else this
// process alone. index and stats split the files over them by size
// (session/filesplit.h) and gather what each did to process 0, which prints
// what a serial run prints.
#include <QByteArray>
#include <QList>
#include <QStringList>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rankscope::cli {

struct ProcessWorld {
    int rank = 0;
    int size = 1;
    bool isFirst() const { return rank == 0; }
};

// Joins MPI when the launcher started this process as one of several.
void startProcessWorld(int *argc, char ***argv);
void stopProcessWorld();
const ProcessWorld &processWorld();

// The files (indices into `files`) this process handles: all of them split
// over the processes by size (session/filesplit.h), the same split for
// every command, so `stats` finds the caches `index` wrote on the same
// process.
std::vector<qsizetype> myShareOf(const QStringList &files);

// What gatherToFirst throws on process 0 when it cannot hold what the
// processes sent (every byte was still received, so no process waits).
struct GatherTooLarge : std::runtime_error {
    explicit GatherTooLarge(std::int64_t bytes)
        : std::runtime_error("process 0 cannot hold the " + std::to_string(bytes) + " bytes the other processes sent"), missingBytes(bytes)
    {
    }
    std::int64_t missingBytes;
};

// Every process's bytes in process order, on process 0; elsewhere empty.
// Any size: lengths travel in 64 bits, bytes in pieces of 256 MiB.
QList<QByteArray> gatherToFirst(const QByteArray &mine);
// Returns once every process has called it.
void waitForAllProcesses();

} // namespace rankscope::cli
