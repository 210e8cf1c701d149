#pragma once
// Names and paths from traces are data: a kernel, NVTX range, thread or
// file name is whatever the trace's author wrote, and reaches terminals,
// shells, spreadsheets and Markdown viewers. Each function here makes such
// a text inert for one destination; the caller picks the destination, the
// text is never trusted to be harmless.
#include <QString>
#include <string_view>

namespace rankscope {

// `word` as one POSIX shell word: in single quotes, a quote inside written
// as '\'' (so "run$(touch x).nsys-rep" is a name, not a command). Words of
// only safe characters (letters, digits, - _ . / + , : @ %) stay as they are.
QString shellQuoted(const QString &word);

// `text` with what a terminal would act on shown instead: C0 controls
// (ESC, BEL, CR, backspace...), DEL and C1 controls as \xNN, Unicode
// direction overrides and isolates as \u202E and the like. Tabs stay, and
// line feeds too with keepLineFeeds (a table's own line ends); otherwise
// they are shown as \x0A. Everything else, non-ASCII letters included, is kept.
QString terminalSafe(const QString &text, bool keepLineFeeds = true);
// Whether terminalSafe would change `text`.
bool needsTerminalEscaping(const QString &text, bool keepLineFeeds = true);
// The same for UTF-8 text, without decoding it (a CSV of 10^7 names).
bool needsTerminalEscaping(std::string_view utf8, bool keepLineFeeds = true);

// JSON text (as QJsonDocument writes it: C0 controls already escaped) with
// the characters terminalSafe escapes written as \uXXXX escapes, which
// any JSON reader decodes back: DEL, C1 controls, direction overrides.
QString jsonTerminalSafe(const QString &json);

// A CSV cell's text that a spreadsheet would take as a formula (it begins
// with = + - @, a tab or a carriage return) behind a leading ', which the
// spreadsheet shows as text (OWASP's CSV injection advice); others as they are.
QString spreadsheetSafe(const QString &cell);

// `text` as literal text on one line of Markdown, wherever it stands on
// the line: line breaks as spaces, < > & as HTML entities, Markdown's
// inline punctuation (\ ` * _ [ ] ! | # ~) and a leading list or underline
// marker behind a backslash, so a name cannot start a heading, a list, a
// link, an image or an HTML tag. Prose stays readable: . ( ) are kept.
QString markdownText(const QString &text);

} // namespace rankscope
