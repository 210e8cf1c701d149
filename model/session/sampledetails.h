#pragma once
// CPU samples and backtraces as the viewer shows them: a sample under the
// mouse, its fields and backtrace for Details and tooltips, a call's
// backtrace, and which callchains hold a function (to mark its samples).
#include "session/eventdetails.h"

#include <QString>
#include <optional>
#include <vector>

namespace rankscope {

struct SampleLocation {
    int rank = -1;            // index into Session::ranks()
    std::uint32_t thread = 0; // row in the report's sampling.threads
    std::uint32_t sample = 0; // index into the report's sampling.samples
    bool operator==(const SampleLocation &) const = default;
};

// A frame in one line: "function — module", marked "[kernel]" or
// "(unresolved)"; a frame without a name reads "[unknown]".
QString frameText(const Report &report, const CallFrame &frame);
// A callchain's frames, innermost first, as Details rows ("#0", "#1", ...),
// at most `limit` of them and a last row saying how many more there are.
std::vector<DetailField> backtraceFields(const Report &report, std::uint32_t callchain, std::size_t limit = 64);
// The same as text lines, for a tooltip.
QStringList backtraceLines(const Report &report, std::uint32_t callchain, std::size_t limit = 24);

// The sample of a thread nearest to `reportTime`, if one is within `tolerance` ns.
std::optional<SampleLocation> sampleNear(const Session &session, int rank, std::uint32_t thread, TimeNs reportTime, TimeNs tolerance);
EventDetails describeSample(const Session &session, const SampleLocation &at);

// Which of a report's callchains hold the function (by its name and module
// as the statistics name it; with `byModule`, any frame of that module):
// the samples to mark when a function is chosen in the CPU samples panel.
std::vector<bool> callchainsWith(const Report &report, const QString &function, const QString &module, bool byModule);

} // namespace rankscope
