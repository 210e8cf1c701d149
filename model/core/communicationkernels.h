#pragma once
// Which kernels are communication by Rankscope's built-in table of
// communication libraries. One table, read by the statistics' kernel
// classes (stats/kernelclasses.h, where a user's pattern may replace it)
// and by what a report keeps of its communication kernels as it loads
// (Report::communication), so both name the same kernels.
#include <QString>

#include <string_view>
#include <vector>

namespace rankscope {

// A communication library and the pattern its kernel names match
// (case-insensitive, anywhere in the name unless anchored with ^).
struct CommunicationLibrary {
    const char *name;
    const char *pattern;
};
const std::vector<CommunicationLibrary> &communicationLibraries();
// The libraries' patterns as one regular expression: the default the user
// edits (to add their own kernels, or drop a false match).
QString defaultCommunicationPattern();

// Whether a kernel name (UTF-8, as the string table holds it) matches
// defaultCommunicationPattern(). Safe from any thread.
bool isBuiltInCommunicationKernel(std::string_view name);

} // namespace rankscope
