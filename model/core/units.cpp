#include "core/units.h"

#include <cmath>
#include <cstdlib>

namespace rankscope {

QString formatInteger(std::int64_t value)
{
    QString digits = QString::number(std::llabs(value));
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return value < 0 ? QLatin1Char('-') + digits : digits;
}

QString formatDuration(TimeNs ns)
{
    const double v = double(std::llabs(ns));
    const QString sign = ns < 0 ? QStringLiteral("-") : QString();
    if (v < 1e3)
        return sign + QString::number(std::llabs(ns)) + QStringLiteral(" ns");
    if (v < 1e6)
        return sign + QString::number(v / 1e3, 'f', 3) + QStringLiteral(" µs");
    if (v < 1e9)
        return sign + QString::number(v / 1e6, 'f', 3) + QStringLiteral(" ms");
    return sign + QString::number(v / 1e9, 'f', 3) + QStringLiteral(" s");
}

QString formatBinarySize(std::uint64_t bytes)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int unit = 0;
    while (v >= 1024.0 && unit < 4) {
        v /= 1024.0;
        ++unit;
    }
    return QString::number(v, 'f', unit ? 2 : 0) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

QString formatBytes(std::uint64_t bytes)
{
    const QString exact = formatInteger(std::int64_t(bytes)) + QStringLiteral(" B");
    return bytes < 1024 ? exact : exact + QStringLiteral(" (") + formatBinarySize(bytes) + QLatin1Char(')');
}

QString formatThroughput(std::uint64_t bytes, TimeNs ns)
{
    if (ns <= 0)
        return QStringLiteral("n/a");
    return QString::number(double(bytes) / double(ns), 'f', 2) + QStringLiteral(" GB/s");
}

QString formatCounterValue(double value, const QString &unit)
{
    if (unit == QLatin1String("B"))
        return formatBinarySize(std::uint64_t(std::max(0.0, value)));
    if (unit == QLatin1String("%"))
        return QString::number(value, 'f', 1) + QStringLiteral(" %");
    if (unit == QLatin1String("ns")) // a duration (a GPU gap's length)
        return formatDuration(TimeNs(std::llround(value)));
    static const struct {
        double scale;
        const char *prefix;
    } prefixes[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    const double magnitude = std::abs(value);
    for (const auto &p : prefixes)
        if (magnitude >= p.scale) {
            const double scaled = value / p.scale;
            return QStringLiteral("%1 %2%3").arg(QString::number(scaled, 'f',
                                                                 std::abs(scaled) >= 100  ? 0
                                                                 : std::abs(scaled) >= 10 ? 1
                                                                                          : 2),
                                                 QLatin1String(p.prefix), unit);
        }
    const int decimals = magnitude >= 100 || magnitude == 0 ? 0 : magnitude >= 10 ? 1 : 2;
    const QString number = QString::number(value, 'f', decimals);
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

QString formatTimestamp(TimeNs ns)
{
    // Magnitude as unsigned: |kTimeMin| does not fit a TimeNs.
    const std::uint64_t magnitude = ns < 0 ? std::uint64_t(0) - std::uint64_t(ns) : std::uint64_t(ns);
    const QString fraction = QStringLiteral("%1").arg(magnitude % 1'000'000'000ull, 9, 10, QLatin1Char('0'));
    return QStringLiteral("%1%2.%3 %4 %5 s")
        .arg(ns < 0 ? QStringLiteral("-") : QString())
        .arg(magnitude / 1'000'000'000ull)
        .arg(fraction.mid(0, 3), fraction.mid(3, 3), fraction.mid(6, 3));
}

} // namespace rankscope
