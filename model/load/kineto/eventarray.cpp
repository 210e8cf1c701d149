#include "load/kineto/eventarray.h"

#include <cstring>

namespace rankscope::kineto {

EventArrayScan scanEventArrays(std::string_view json, std::size_t partBytes,
                               const std::function<bool(EventPart)> &onPart)
{
    EventArrayScan scan;
    const char *text = json.data();
    const std::size_t n = json.size();
    std::size_t i = json.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    while (i < n && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        ++i;
    if (i == n || (text[i] != '{' && text[i] != '['))
        return scan; // not a document the parts could come from
    const bool bare = text[i] == '[';
    bool inArray = false;
    int depth = 0, arrayDepth = 0;
    std::string_view lastTopLevelString; // at depth 1 of the object: the key of what follows
    std::size_t partBegin = 0;
    auto broken = [&](std::size_t at) {
        scan.brokenAt = at;
        return scan;
    };
    for (; i < n; ++i) {
        const char c = text[i];
        switch (c) {
        case '"': {
            // To the closing quote: one not preceded by an odd run of backslashes.
            std::size_t from = i + 1, close = 0;
            while (true) {
                const void *quote = std::memchr(text + from, '"', n - from);
                if (!quote)
                    return broken(i);
                close = std::size_t(static_cast<const char *>(quote) - text);
                std::size_t backslashes = 0;
                while (close - backslashes > i + 1 && text[close - backslashes - 1] == '\\')
                    ++backslashes;
                if (backslashes % 2 == 0)
                    break;
                from = close + 1;
            }
            if (depth == 1 && !bare)
                lastTopLevelString = json.substr(i + 1, close - i - 1);
            i = close;
            break;
        }
        case '{':
        case '[':
            ++depth;
            if (c == '[' && ((bare && depth == 1) || (!bare && depth == 2 && lastTopLevelString == "traceEvents"))) {
                inArray = true;
                arrayDepth = depth;
                partBegin = i + 1;
                scan.arrays.push_back({i + 1, 0, true});
            }
            lastTopLevelString = {};
            break;
        case '}':
        case ']':
            if (inArray && depth == arrayDepth) {
                if (c != ']')
                    return broken(i);
                inArray = false;
                scan.arrays.back().end = i;
                if (!onPart({partBegin, i, partBegin == scan.arrays.back().begin}))
                    return scan;
            }
            if (--depth < 0)
                return broken(i);
            break;
        case ',':
            if (inArray && depth == arrayDepth && i - partBegin >= partBytes) {
                if (!onPart({partBegin, i, false}))
                    return scan;
                partBegin = i + 1;
            }
            break;
        default: break;
        }
    }
    if (depth != 0)
        return broken(n);
    return scan;
}

} // namespace rankscope::kineto
