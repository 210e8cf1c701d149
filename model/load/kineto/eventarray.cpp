#include "load/kineto/eventarray.h"

#include <array>
#include <cstring>

namespace rankscope::kineto {

namespace {

constexpr std::string_view kEventsKey = "traceEvents";
// Enough of a key to tell "traceEvents" from every longer key.
constexpr std::size_t kKeptStringBytes = kEventsKey.size() + 1;

constexpr auto kStructural = [] {
    std::array<bool, 256> table{};
    for (const unsigned char c : {'"', '{', '[', '}', ']', ','})
        table[c] = true;
    return table;
}();

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

} // namespace

EventArrayScanner::EventArrayScanner(std::size_t partBytes, std::function<bool(EventPart)> onPart)
    : m_partBytes(partBytes), m_onPart(std::move(onPart))
{
}

std::optional<std::size_t> EventArrayScanner::openPartBegin() const
{
    if (m_inArray)
        return m_partBegin;
    return std::nullopt;
}

bool EventArrayScanner::broken(std::size_t at)
{
    m_scan.brokenAt = at;
    m_stopped = true;
    return false;
}

// From `from` (inside a string) to its closing quote: the first quote not
// preceded by an odd run of backslashes. Returns n when the string goes on
// past these bytes, remembering whether their last byte escapes the next.
std::size_t EventArrayScanner::skipString(const char *text, std::size_t n, std::size_t from)
{
    const std::size_t textFrom = from;
    if (m_escapeNext && from < n) {
        ++from; // the byte the last feed's backslash escaped
        m_escapeNext = false;
    }
    const std::size_t runFloor = from; // backslashes before it belong to an earlier, resolved run
    std::size_t close = n;
    for (std::size_t searchFrom = from; searchFrom < n;) {
        const void *quote = std::memchr(text + searchFrom, '"', n - searchFrom);
        if (!quote)
            break;
        const std::size_t at = std::size_t(static_cast<const char *>(quote) - text);
        std::size_t backslashes = 0;
        while (at - backslashes > runFloor && text[at - backslashes - 1] == '\\')
            ++backslashes;
        if (backslashes % 2 == 0) {
            close = at;
            break;
        }
        searchFrom = at + 1;
    }
    if (m_keepString && m_string.size() < kKeptStringBytes)
        m_string.append(text + textFrom, std::min(close - textFrom, kKeptStringBytes - m_string.size()));
    if (close == n) {
        std::size_t backslashes = 0;
        while (n - backslashes > runFloor && text[n - backslashes - 1] == '\\')
            ++backslashes;
        m_escapeNext = m_escapeNext || backslashes % 2 == 1;
        return n;
    }
    m_inString = false;
    if (m_keepString)
        m_lastWasKey = true;
    return close;
}

bool EventArrayScanner::feed(std::string_view bytes)
{
    if (m_stopped)
        return false;
    const char *text = bytes.data();
    const std::size_t n = bytes.size();
    const std::size_t base = m_fed;
    m_fed += n;
    std::size_t i = 0;
    if (!m_started) {
        if (base == 0 && bytes.starts_with("\xEF\xBB\xBF"))
            i = 3;
        while (i < n && isBlank(text[i]))
            ++i;
        if (i == n)
            return true;
        if (text[i] != '{' && text[i] != '[') {
            m_scan.notADocument = true;
            m_stopped = true;
            return false;
        }
        m_started = true;
        m_bare = text[i] == '[';
    }
    if (m_inString) {
        i = skipString(text, n, i);
        if (m_inString)
            return true;
        ++i;
    }
    for (; i < n; ++i) {
        // Numbers, blanks, colons: skipped without the switch.
        while (i < n && !kStructural[static_cast<unsigned char>(text[i])])
            ++i;
        if (i == n)
            break;
        const char c = text[i];
        switch (c) {
        case '"':
            m_inString = true;
            m_escapeNext = false;
            m_keepString = m_depth == 1 && !m_bare;
            m_string.clear();
            m_lastWasKey = false;
            i = skipString(text, n, i + 1);
            if (m_inString)
                return true;
            break;
        case '{':
        case '[':
            ++m_depth;
            if (c == '[' && ((m_bare && m_depth == 1) || (!m_bare && m_depth == 2 && m_lastWasKey && m_string == kEventsKey))) {
                m_inArray = true;
                m_arrayDepth = m_depth;
                m_partBegin = base + i + 1;
                m_scan.arrays.push_back({base + i + 1, 0, true});
            }
            m_lastWasKey = false;
            break;
        case '}':
        case ']':
            if (m_inArray && m_depth == m_arrayDepth) {
                if (c != ']')
                    return broken(base + i);
                m_inArray = false;
                m_scan.arrays.back().end = base + i;
                if (!m_onPart({m_partBegin, base + i, m_partBegin == m_scan.arrays.back().begin})) {
                    m_stopped = true;
                    return false;
                }
            }
            if (--m_depth < 0)
                return broken(base + i);
            break;
        case ',':
            if (m_inArray && m_depth == m_arrayDepth && base + i - m_partBegin >= m_partBytes) {
                if (!m_onPart({m_partBegin, base + i, false})) {
                    m_stopped = true;
                    return false;
                }
                m_partBegin = base + i + 1;
            }
            break;
        default:
            break;
        }
    }
    return true;
}

void EventArrayScanner::finish()
{
    if (m_stopped || !m_started)
        return;
    if (m_depth != 0 || m_inString)
        broken(m_fed);
    m_stopped = true;
}

EventArrayScan scanEventArrays(std::string_view json, std::size_t partBytes, const std::function<bool(EventPart)> &onPart)
{
    EventArrayScanner scanner(partBytes, onPart);
    if (scanner.feed(json))
        scanner.finish();
    return scanner.result();
}

} // namespace rankscope::kineto
