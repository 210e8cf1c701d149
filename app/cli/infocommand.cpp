#include "clicommands.h"
#include "core/memoryusage.h"
#include "core/units.h"

#include <QCommandLineParser>
#include <QTextStream>
#include <algorithm>
#include <utility>

namespace rankscope::cli {

namespace {

void printMemoryParts(QTextStream &out, const Report &r)
{
    const double events = double(std::max<std::size_t>(r.eventCount(), 1));
    for (const Report::MemoryPart &part : r.memoryParts()) {
        if (part.bytes == 0)
            continue;
        out << "    " << QString::fromLatin1(part.name).leftJustified(46) << formatBinarySize(part.bytes).rightJustified(11) << "  "
            << QString::number(double(part.bytes) / events, 'f', 1).rightJustified(6) << " B/event\n";
    }
}

void printRank(QTextStream &out, const RankEntry &entry, bool memoryParts)
{
    const Report &r = *entry.report;
    out << "Rank " << entry.rank << ": " << r.filePath;
    if (entry.pid)
        out << " (process " << *entry.pid << ")";
    out << "\n";
    out << "  Format:      " << r.meta.format;
    if (!r.meta.productVersion.isEmpty())
        out << ", nsys " << r.meta.productVersion;
    if (!r.meta.schemaVersion.isEmpty())
        out << ", schema " << r.meta.schemaVersion;
    out << "\n";
    if (r.meta.worldSize)
        out << "  Distributed: rank " << r.meta.declaredRank.value_or(-1) << " of " << *r.meta.worldSize << ", backend " << r.meta.distributedBackend
            << ", " << r.meta.processGroups.size() << " process group(s)\n";
    if (!r.meta.hostName.isEmpty())
        out << "  Host:        " << r.meta.hostName << "\n";
    for (const GpuInfo &g : r.gpus) {
        out << "  GPU " << g.id << ":       " << g.name;
        if (g.smCount)
            out << ", " << g.smCount << " SMs";
        if (g.totalMemory)
            out << ", " << formatBinarySize(std::uint64_t(g.totalMemory));
        out << "\n";
    }
    const std::vector<std::uint32_t> cudaPids = r.cudaProcesses();
    out << "  Processes:   " << r.processes.size() << " (" << cudaPids.size() << " with CUDA work";
    for (std::uint32_t pid : cudaPids) {
        const ProcessInfo *p = r.process(pid);
        out << "; " << pid << " " << (p && !p->name.isEmpty() ? p->name : QStringLiteral("?"));
    }
    out << "), threads: " << r.threads.size() << "\n";
    const TimeRange span = r.extent();
    out << "  Time span:   " << span.start << " .. " << span.end << " ns (" << QString::number(double(span.duration()) / 1e9, 'f', 3)
        << " s), session offset " << entry.sessionOffset << " ns, UTC start " << r.meta.utcStartNs << " ns\n";
    out << "  Events:      kernels " << r.eventCount(TrackKind::Kernel) << ", memcpy " << r.eventCount(TrackKind::Memcpy) << ", memset "
        << r.eventCount(TrackKind::Memset) << ", sync " << r.eventCount(TrackKind::Sync) << ", CUDA API " << r.eventCount(TrackKind::CudaApi)
        << ", NVTX " << r.eventCount(TrackKind::Nvtx);
    // The kinds few traces record, named where they did.
    for (const auto &[kind, name] :
         {std::pair(TrackKind::CpuOp, "CPU ops"), std::pair(TrackKind::Mpi, "MPI"), std::pair(TrackKind::CudaLibrary, "cuDNN/cuBLAS"),
          std::pair(TrackKind::OpenAcc, "OpenACC"), std::pair(TrackKind::OpenMp, "OpenMP"), std::pair(TrackKind::CudaGraph, "CUDA graph launches"),
          std::pair(TrackKind::UmCpuPageFault, "UM CPU page faults"), std::pair(TrackKind::UmGpuPageFault, "UM GPU page faults")})
        if (const std::size_t events = r.eventCount(kind))
            out << ", " << name << " " << events;
    out << ", OS runtime " << r.eventCount(TrackKind::OsRuntime) << " (total " << r.eventCount() << ")\n";
    std::size_t samples = 0;
    for (const CounterTrack &c : r.counters)
        samples += c.time.size();
    out << "  Counters:    " << r.counters.size() << " tracks, " << samples << " samples\n";
    if (!r.sampling.isEmpty())
        out << "  CPU samples: " << r.sampling.samples.size() << " on " << r.sampling.threads.size() << " threads; " << r.sampling.chainCount()
            << " distinct callchains of " << r.sampling.frames.size() << " distinct frames; " << r.sampling.backtraces.size()
            << " calls with a backtrace\n";
    out << "  Tracks:      " << r.tracks.size() << "\n";
    out << "  Diagnostics: " << r.diagnostics.size() << "\n";
    out << "  Load time:   " << QString::number(r.loadSeconds * 1000.0, 'f', 1) << " ms\n";
    out << "  Model size:  " << formatBinarySize(r.memoryBytes()) << " ("
        << QString::number(r.eventCount() ? double(r.memoryBytes()) / double(r.eventCount()) : 0.0, 'f', 1) << " B/event)";
    if (r.indexCacheBytes() > 0)
        out << " in memory, and " << formatBinarySize(r.indexCacheBytes()) << " mapped from its index cache (read as needed)";
    out << "\n";
    if (memoryParts)
        printMemoryParts(out, r);
    if (!r.indexCacheWrittenBy.isEmpty())
        out << "  Index cache: written by " << r.indexCacheWrittenBy
            << ", a trusted cache writer (read from a private copy and checked whole; bound to the trace's content hash, "
               "but what it says of the events was not compared with the trace)\n";
}

} // namespace

int runInfo(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Print, per rank: file, nsys version and schema, GPUs, processes, "
                                                    "event counts, time span, load time and memory."));
    parser.addHelpOption();
    const QCommandLineOption memoryOption(QStringLiteral("memory"), QStringLiteral("Also print where each rank's model size goes, part by part."));
    parser.addOption(memoryOption);
    addInputArgument(parser);
    parser.process(arguments);
    const std::optional<Session> loaded = loadInputs(parser);
    if (!loaded)
        return 1;
    const Session &session = *loaded;
    QTextStream out(&standardOutput());
    for (const RankEntry &entry : session.ranks())
        printRank(out, entry, parser.isSet(memoryOption));
    if (!session.ranks().empty())
        out << "Resident memory: " << formatBinarySize(residentBytes()) << "\n";
    return session.failures().empty() ? 0 : 2;
}

} // namespace rankscope::cli
