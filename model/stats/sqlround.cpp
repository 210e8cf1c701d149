#include "stats/sqlround.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace rankscope {

namespace {

enum class Ties { AwayFromZero, ToEven };

QString formatRoundedWith(double value, int decimals, Ties ties)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? QStringLiteral("nan") : (value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf"));
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

} // namespace

QString formatRounded(double value, int decimals)
{
    return formatRoundedWith(value, decimals, Ties::AwayFromZero);
}

QString formatRoundedHalfEven(double value, int decimals)
{
    return formatRoundedWith(value, decimals, Ties::ToEven);
}

} // namespace rankscope
