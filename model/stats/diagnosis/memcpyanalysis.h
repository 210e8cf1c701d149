#pragma once
// What the memory-transfer panel shows: transfer sizes by direction in
// power-of-two bins, size against throughput, and how much host traffic
// goes through pageable memory (the pin_memory=False symptom).
#include "stats/statsscope.h"

#include <QString>

namespace rankscope::stats {

enum class Direction { HtoD, DtoH, DtoD, PtoP, Other };
constexpr int kDirectionCount = int(Direction::Other) + 1;
Direction directionOf(MemcpyKind kind);
QString directionName(Direction d);

struct TransferBin {
    Direction direction = Direction::Other;
    int log2Bytes = -1; // bin [2^k, 2^(k+1)); -1 holds zero-byte copies
    std::size_t count = 0;
    std::uint64_t bytes = 0;
};

struct TransferPoint {
    Direction direction = Direction::Other;
    std::uint64_t bytes = 0;
    double gigabytesPerSecond = 0; // bytes per ns
    bool pageable = false;
    EventLocation event;
};

struct HostMemoryShare {
    std::uint64_t pageableBytes = 0, pinnedBytes = 0;
    TimeNs pageableTime = 0, pinnedTime = 0;
    double pageableByteShare() const { return pageableBytes + pinnedBytes ? double(pageableBytes) / double(pageableBytes + pinnedBytes) : 0.0; }
    double pageableTimeShare() const { return pageableTime + pinnedTime ? double(pageableTime) / double(pageableTime + pinnedTime) : 0.0; }
};

// Pageable host-to-device copies earn advice when they are most of the
// traffic (by bytes or time) and there is enough of it to matter: at least
// 1 ms or 1 MiB of pageable copies. A few hundred bytes of pageable copies
// are not worth changing a data loader for.
constexpr TimeNs kPageableAdviceMinTime = 1000000;
constexpr std::uint64_t kPageableAdviceMinBytes = std::uint64_t(1) << 20;
bool pageableAdviceWarranted(const HostMemoryShare &hostToDevice);

struct MemcpyAnalysis {
    std::vector<TransferBin> bins; // by direction, then size
    std::vector<TransferPoint> points;
    HostMemoryShare hostToDevice, deviceToHost;
    QString advice; // plain-language note when pageable copies dominate
};

MemcpyAnalysis analyzeMemcpy(const Session &session, const StatsScope &scope);
// The copies of one bin, in time order (what clicking a bar selects).
std::vector<EventLocation> transfersInBin(const Session &session, const StatsScope &scope, Direction direction, int log2Bytes);
int log2Bin(std::uint64_t bytes);

} // namespace rankscope::stats
