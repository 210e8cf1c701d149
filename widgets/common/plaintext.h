#pragma once
// Names from traces are data. Where Qt guesses whether a text is markup
// (tooltips, and labels and message boxes left at Qt::AutoText), a kernel
// or NVTX name such as x<img src="/tmp/red.png"> would be rendered as HTML
// and show an image. Every text that can hold a name reaches a tooltip
// through plainTooltip; labels that show names are set to Qt::PlainText,
// and rich labels escape the names they quote (QString::toHtmlEscaped).
#include <QString>

namespace rankscope {

// `text` as a tooltip shows it: literally, its lines as they are and not
// wrapped (as a plain-text tooltip shows them; Qt wraps rich tooltips to a
// narrow column unless told not to).
inline QString plainTooltip(const QString &text)
{
    return text.isEmpty() ? text : QStringLiteral("<p style='white-space:pre'>") + text.toHtmlEscaped() + QStringLiteral("</p>");
}

} // namespace rankscope
