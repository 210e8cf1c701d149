#pragma once
// `rankscope --screenshot OUT.png [--size WxH] [--range START:END] FILE...`:
// load, render the main window offscreen, save a PNG.
#include "core/timetypes.h"

#include <QSize>
#include <QString>
#include <optional>

namespace rankscope {

class MainWindow;

// "1.5s", "250ms", "40us", "1200ns", or a bare number of seconds; nullopt
// when the text is not a time.
std::optional<TimeNs> parseTimeSpec(const QString &text);
// "START:END", each relative to the session start.
std::optional<TimeRange> parseRangeSpec(const QString &text);
std::optional<QSize> parseSizeSpec(const QString &text);

// Renders `window` at `size`, showing `range` (session-relative) when
// given, and writes it to `path`. Returns an error message, empty on success.
QString saveScreenshot(MainWindow &window, const QString &path, QSize size, std::optional<TimeRange> range);

} // namespace rankscope
