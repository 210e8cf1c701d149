#pragma once
// Where a Chrome-trace / Kineto document keeps its events, found by one
// scan of its bytes (strings skipped with memchr, brackets counted), cut
// between events into parts of about a given size. The scan takes the
// document piece by piece as it is read (or inflated), so that the parser
// holds only the parts in flight, never the whole text: parsed whole, a
// 345 MB trace made simdjson touch ~500 MB of fresh index and string
// buffers, and the text itself was the file's size again.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
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
    // An array still open has end 0.
    std::vector<EventPart> arrays;
    // Where the scan stopped when the structure is not sound (unbalanced
    // brackets, a string left open); the document is then invalid JSON.
    std::optional<std::size_t> brokenAt;
    // The first byte that is not blank is neither '{' nor '[' (after a BOM).
    bool notADocument = false;
};

// Scans a document fed piece by piece, handing each part of about
// `partBytes` to onPart() in document order as soon as its end is seen;
// onPart() returning false stops the scan. A "traceEvents" key written
// with escapes is not recognised (no arrays: the caller parses whole).
class EventArrayScanner {
public:
    EventArrayScanner(std::size_t partBytes, std::function<bool(EventPart)> onPart);
    // The document's next bytes. False once the scan has stopped: onPart()
    // said so, the structure broke, or the text is not a JSON document.
    bool feed(std::string_view bytes);
    // The document ends here.
    void finish();
    const EventArrayScan &result() const { return m_scan; }
    // The bytes fed so far.
    std::size_t fedBytes() const { return m_fed; }
    // Where the part being gathered begins (a document offset): the bytes
    // from there on are still needed. Nothing outside an event array.
    std::optional<std::size_t> openPartBegin() const;

private:
    std::size_t skipString(const char *text, std::size_t n, std::size_t from);
    bool broken(std::size_t at);

    const std::size_t m_partBytes;
    const std::function<bool(EventPart)> m_onPart;
    EventArrayScan m_scan;
    std::size_t m_fed = 0;
    bool m_started = false, m_bare = false, m_stopped = false;
    bool m_inArray = false;
    int m_depth = 0, m_arrayDepth = 0;
    std::size_t m_partBegin = 0;
    // Inside a string across feeds: whether the next byte is escaped, and
    // whether its text is kept (a key at the top of the object).
    bool m_inString = false, m_escapeNext = false, m_keepString = false;
    std::string m_string;      // the kept text, up to a few bytes more than "traceEvents"
    bool m_lastWasKey = false; // m_string is the last top-level string, nothing opened since
};

// Scans a whole document at once.
EventArrayScan scanEventArrays(std::string_view json, std::size_t partBytes, const std::function<bool(EventPart)> &onPart);

} // namespace rankscope::kineto
