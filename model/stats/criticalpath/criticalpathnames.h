#pragma once
// What an event's name is to the critical path: a communication kernel
// (the classifier's pattern) or a data-loading range (isDataLoadingName).
// Both are regular expressions; a step meets the same few hundred names as
// every other step, so each rank's distinct names are decided once for all
// the steps solved, not once per event per step (on a 20M-event export
// that was a fifth of the path's time). Safe to share between threads
// solving steps side by side; lives no longer than the session it reads.
#include "core/report.h"
#include "session/session.h"
#include "stats/kernelclasses.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace rankscope::stats {

class PathNameClasses {
public:
    PathNameClasses(const Session &session, KernelClassifier classes);

    bool isCommunication(int rankIndex, StringId name) const;
    bool isDataLoader(int rankIndex, StringId name) const;

private:
    // Per string of a rank's table: which answers are known, and what they are.
    enum Bits : std::uint8_t {
        kClassKnown = 1,
        kCommunication = 2,
        kLoaderKnown = 4,
        kLoader = 8,
    };
    std::uint8_t decided(int rankIndex, StringId name, Bits known, Bits answer, bool (*decide)(const PathNameClasses &, std::string_view)) const;

    const Session &m_session;
    KernelClassifier m_classes;
    // Per rank index, one byte per string of its report, filled as names are
    // met (two threads deciding one name write the same bits).
    std::vector<std::unique_ptr<std::atomic<std::uint8_t>[]>> m_known;
    std::vector<std::size_t> m_sizes;
};

} // namespace rankscope::stats
