#pragma once
// What both fuzz targets do with an input: write it to a file (the loaders
// read files, as users' traces are files), load it through the same
// dispatcher the app uses, and when it loads, touch everything a user can:
// every statistics report, every track's index and summaries. A finding is
// a crash, a sanitizer report, a hang (libFuzzer's -timeout) or one of the
// invariants below failing.
#include <cstddef>
#include <cstdint>

namespace rankscope {
struct Report;
}

namespace rankscope::fuzz {

// An input holds one to three files separated by kFileSeparator; they load
// as one session together with a real trace of the same format (so the
// alignment of reports on their recorded starts is fuzzed too).
constexpr const char kFileSeparator[] = "\n#rankscope-next-file#\n";
// Touches everything a user can in one report. `fromIndexCache`: the
// interval index's completeness is not an invariant (a crafted cache may
// lie in it; cachechecks.h), only the absence of crashes.
void inspectReport(const Report &report, bool fromIndexCache = false);
void loadAndInspect(const std::uint8_t *data, std::size_t size, const char *suffix, const char *companionPath);

} // namespace rankscope::fuzz
