#pragma once
// Where a Chrome-trace / Kineto document keeps its events, found by one
// scan of its bytes (strings skipped with memchr, brackets counted), cut
// between events into parts of about a given size. The parser parses part
// after part with one reused simdjson parser while the scan goes on in
// another thread: parsed whole, a 345 MB trace made simdjson touch ~500 MB
// of fresh index and string buffers, whose zeroing by the kernel was a
// third of the load, and the peak 2.9x the file.
#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace rankscope::kineto {

// A run of events: bytes [begin, end) of the document, whole events
// separated by commas (no brackets around them).
struct EventPart {
    std::size_t begin = 0;
    std::size_t end = 0;
    // The array's only part: it alone may be empty ("[]"); an empty part
    // between commas is a stray comma, which makes the JSON invalid.
    bool wholeArray = false;
};

struct EventArrayScan {
    // Each event array's bytes between its brackets: the values of the
    // top-level "traceEvents" keys, or the document when it is an array.
    std::vector<EventPart> arrays;
    // Where the scan stopped when the structure is not sound (unbalanced
    // brackets, a string left open); the document is then invalid JSON.
    std::optional<std::size_t> brokenAt;
};

// Scans `json`, handing each part of about `partBytes` to onPart() in
// document order as soon as its end is found; onPart() returning false
// stops the scan. A "traceEvents" key written with escapes is not
// recognised (no arrays: the caller parses whole).
EventArrayScan scanEventArrays(std::string_view json, std::size_t partBytes,
                               const std::function<bool(EventPart)> &onPart);

} // namespace rankscope::kineto
