#include "core/untrustedtext.h"

#include <algorithm>
#include <cstdint>

namespace rankscope {

namespace {

bool isShellSafe(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '-' || u == '_' || u == '.' || u == '/' || u == '+'
           || u == ',' || u == ':' || u == '@' || u == '%';
}

// Characters that change how a terminal shows what follows them: the
// bidirectional embeddings, overrides and isolates ("Trojan Source"), and
// the line and paragraph separators some terminals take as line breaks.
bool isDirectionOrSeparator(char16_t u)
{
    return (u >= 0x202A && u <= 0x202E) || (u >= 0x2066 && u <= 0x2069) || u == 0x200E || u == 0x200F || u == 0x061C || u == 0x2028 || u == 0x2029;
}

bool needsEscape(char16_t u, bool keepLineFeeds)
{
    if (u == '\t' || (u == '\n' && keepLineFeeds))
        return false;
    return u < 0x20 || (u >= 0x7F && u <= 0x9F) || isDirectionOrSeparator(u);
}

} // namespace

QString shellQuoted(const QString &word)
{
    if (!word.isEmpty() && std::all_of(word.begin(), word.end(), isShellSafe))
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

bool needsTerminalEscaping(const QString &text, bool keepLineFeeds)
{
    return std::any_of(text.begin(), text.end(), [keepLineFeeds](QChar c) { return needsEscape(c.unicode(), keepLineFeeds); });
}

bool needsTerminalEscaping(std::string_view utf8, bool keepLineFeeds)
{
    // needsEscape's characters as their UTF-8 bytes: C0 and DEL are one
    // byte, C1 two (C2 80..9F), U+061C two (D8 9C), the direction marks,
    // overrides, isolates and separators three (E2 80 .., E2 81 ..).
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        const auto c = std::uint8_t(utf8[i]);
        if (c >= 0x20 && c < 0x7F) // printable ASCII: nearly every byte of a name
            continue;
        if (c < 0x80) {
            if (needsEscape(c, keepLineFeeds))
                return true;
            continue;
        }
        const auto next = [&](std::size_t k) { return i + k < utf8.size() ? std::uint8_t(utf8[i + k]) : 0; };
        char16_t u = 0;
        if (c == 0xC2 || c == 0xD8)
            u = char16_t(((c & 0x1F) << 6) | (next(1) & 0x3F));
        else if (c == 0xE2)
            u = char16_t(((c & 0x0F) << 12) | ((next(1) & 0x3F) << 6) | (next(2) & 0x3F));
        if (u != 0 && needsEscape(u, keepLineFeeds))
            return true;
    }
    return false;
}

QString terminalSafe(const QString &text, bool keepLineFeeds)
{
    if (!needsTerminalEscaping(text, keepLineFeeds))
        return text;
    QString out;
    out.reserve(text.size() + 16);
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (!needsEscape(u, keepLineFeeds))
            out += c;
        else if (u <= 0xFF)
            out += QLatin1String("\\x") + QString::number(u, 16).toUpper().rightJustified(2, QLatin1Char('0'));
        else
            out += QLatin1String("\\u") + QString::number(u, 16).toUpper().rightJustified(4, QLatin1Char('0'));
    }
    return out;
}

QString jsonTerminalSafe(const QString &json)
{
    if (!needsTerminalEscaping(json))
        return json;
    QString out;
    out.reserve(json.size() + 16);
    for (const QChar c : json) {
        if (needsEscape(c.unicode(), true))
            out += QLatin1String("\\u") + QString::number(c.unicode(), 16).toUpper().rightJustified(4, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

QString spreadsheetSafe(const QString &cell)
{
    if (cell.isEmpty())
        return cell;
    const char16_t first = cell.front().unicode();
    if (first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r')
        return QLatin1Char('\'') + cell;
    return cell;
}

QString markdownText(const QString &text)
{
    QString out;
    out.reserve(text.size() + 8);
    // What could begin a block where the text starts a line: a list item
    // ("- ", "+ ", "1. "), a setext underline ("=").
    qsizetype leadingDigits = 0;
    while (leadingDigits < text.size() && text[leadingDigits].isDigit())
        ++leadingDigits;
    const bool numberedItem =
        leadingDigits > 0 && leadingDigits < text.size() && (text[leadingDigits] == QLatin1Char('.') || text[leadingDigits] == QLatin1Char(')'));
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        switch (c.unicode()) {
        case '\n':
        case '\r':
        case 0x2028:
        case 0x2029:
            out += QLatin1Char(' ');
            break;
        case '<':
            out += QLatin1String("&lt;");
            break;
        case '>':
            out += QLatin1String("&gt;");
            break;
        case '&':
            out += QLatin1String("&amp;");
            break;
        // Emphasis, code, links and images, tables, headings, strike-through.
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '!':
        case '|':
        case '#':
        case '~':
            out += QLatin1Char('\\');
            out += c;
            break;
        default:
            if (c.unicode() < 0x20 || (c.unicode() >= 0x7F && c.unicode() <= 0x9F)) {
                out += QLatin1Char(' ');
            } else {
                const bool blockStart =
                    (i == 0 && (c == QLatin1Char('-') || c == QLatin1Char('+') || c == QLatin1Char('='))) || (numberedItem && i == leadingDigits);
                if (blockStart)
                    out += QLatin1Char('\\');
                out += c;
            }
        }
    }
    return out;
}

} // namespace rankscope
