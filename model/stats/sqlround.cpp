#include "stats/sqlround.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace rankscope {

namespace {

enum class Ties { AwayFromZero, ToEven };

QString nonFinite(double value)
{
    return std::isnan(value) ? QStringLiteral("nan") : (value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf"));
}

// The digits without the exact expansion, when they cannot differ from it:
// |value| × 10^decimals is computed to within half an ulp, so unless its
// fraction lies within an ulp or two of a half, the nearest integer is the
// same for the product as computed and as exact, whatever the ties rule (a
// tie needs the exact product to end in .5). A table of 400,000 rows (an
// nvtx_sum of a PyTorch export with unique texts) printed its averages and
// medians through "%.80f" in seconds.
// Writes the digits into `out` (room for 40 chars) and returns their count,
// or 0 when the quick way cannot decide them.
std::size_t roundedQuickly(double value, int decimals, char *out)
{
    static constexpr std::uint64_t kPowers[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    if (decimals < 0 || decimals >= int(std::size(kPowers)))
        return 0;
    const std::uint64_t power = kPowers[decimals];
    const double scaled = std::fabs(value) * double(power); // the power is exact
    if (!(scaled < 0x1p52))
        return 0;
    const double whole = std::floor(scaled);
    const double fraction = scaled - whole;                                                // exact
    const double slack = scaled >= 1 ? std::ldexp(1.0, std::ilogb(scaled) - 51) : 0x1p-52; // two ulps
    if (std::fabs(fraction - 0.5) <= slack)
        return 0;
    const std::uint64_t rounded = std::uint64_t(whole) + (fraction > 0.5 ? 1 : 0);
    char *at = out;
    if (std::signbit(value) && rounded != 0)
        *at++ = '-';
    at = std::to_chars(at, out + 40, rounded / power).ptr;
    if (decimals > 0) {
        *at++ = '.';
        char digits[20];
        char *end = std::to_chars(digits, digits + sizeof digits, rounded % power).ptr;
        const auto count = std::size_t(end - digits);
        for (std::size_t i = count; i < std::size_t(decimals); ++i)
            *at++ = '0';
        at = std::copy(static_cast<char *>(digits), end, at);
    }
    return std::size_t(at - out);
}

QString formatRoundedWith(double value, int decimals, Ties ties)
{
    if (!std::isfinite(value))
        return nonFinite(value);
    char digits[40];
    if (const std::size_t length = roundedQuickly(value, decimals, digits))
        return QString::fromLatin1(digits, qsizetype(length));
    return formatRoundedExactly(value, decimals, ties == Ties::ToEven);
}

} // namespace

QString formatRoundedExactly(double value, int decimals, bool tiesToEven)
{
    if (!std::isfinite(value))
        return nonFinite(value);
    const Ties ties = tiesToEven ? Ties::ToEven : Ties::AwayFromZero;
    // glibc prints the exact binary expansion when asked for enough digits
    // (a double has at most 1074 fractional bits; 60 decimals are plenty
    // to decide a tie at the few places we keep, and any digit beyond the
    // tie position that is non-zero breaks the tie correctly).
    char buffer[512];
    const bool negative = std::signbit(value);
    std::snprintf(buffer, sizeof buffer, "%.80f", std::fabs(value));
    std::string digits(buffer);
    const std::size_t point = digits.find('.');
    std::string integer = digits.substr(0, point);
    std::string fraction = digits.substr(point + 1);
    const std::size_t cut = std::size_t(decimals);
    bool roundUp = fraction[cut] > '5' || (fraction[cut] == '5' && fraction.find_first_not_of('0', cut + 1) != std::string::npos);
    if (fraction[cut] == '5' && !roundUp) { // exactly halfway
        const char last = decimals > 0 ? fraction[cut - 1] : integer.back();
        roundUp = ties == Ties::AwayFromZero || (last - '0') % 2 == 1;
    }
    fraction.resize(std::size_t(decimals));
    std::string kept = integer + fraction;
    if (roundUp) {
        int i = int(kept.size()) - 1;
        for (; i >= 0; --i) {
            if (kept[std::size_t(i)] == '9') {
                kept[std::size_t(i)] = '0';
            } else {
                ++kept[std::size_t(i)];
                break;
            }
        }
        if (i < 0)
            kept.insert(kept.begin(), '1');
    }
    const std::size_t integerDigits = kept.size() - std::size_t(decimals);
    std::string out = kept.substr(0, integerDigits);
    if (decimals > 0)
        out += "." + kept.substr(integerDigits);
    const bool isZero = out.find_first_not_of("0.") == std::string::npos;
    if (negative && !isZero)
        out.insert(out.begin(), '-');
    return QString::fromStdString(out);
}

void appendRounded(QByteArray &out, double value, int decimals, bool tiesToEven)
{
    char digits[40];
    if (std::isfinite(value))
        if (const std::size_t length = roundedQuickly(value, decimals, digits)) {
            out.append(digits, qsizetype(length));
            return;
        }
    out += formatRoundedWith(value, decimals, tiesToEven ? Ties::ToEven : Ties::AwayFromZero).toLatin1();
}

QString formatRounded(double value, int decimals)
{
    return formatRoundedWith(value, decimals, Ties::AwayFromZero);
}

QString formatRoundedHalfEven(double value, int decimals)
{
    return formatRoundedWith(value, decimals, Ties::ToEven);
}

} // namespace rankscope
