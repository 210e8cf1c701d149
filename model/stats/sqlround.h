#pragma once
// Decimal rounding as `nsys stats` prints it: SQLite's round(), which rounds
// half away from zero on the exact binary value of the double. printf's %.1f
// rounds ties to even instead (1038255.25 -> "1038255.2", nsys prints .3).
#include <QByteArray>
#include <QString>

namespace rankscope {

// The value rounded to `decimals` places, as text with exactly that many
// decimals ("0.0", "4.194"). Non-finite values print as "nan"/"inf".
QString formatRounded(double value, int decimals);
// Python's round(): ties (only possible when the binary value is exactly
// halfway) go to the even digit. HTA's percentages are rounded this way.
QString formatRoundedHalfEven(double value, int decimals);
// Both from the double's exact decimal expansion ("%.80f"), every time: what
// the two above give, which take a shortcut where the expansion cannot
// change the digits (tests hold them to this).
QString formatRoundedExactly(double value, int decimals, bool tiesToEven);
// formatRounded() or formatRoundedHalfEven() appended to `out` as Latin-1,
// without a QString when the digits are quick to decide (CSV of 10^7 rows).
void appendRounded(QByteArray &out, double value, int decimals, bool tiesToEven);

} // namespace rankscope
