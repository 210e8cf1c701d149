#pragma once
// Human-readable numbers for people: durations, byte counts, rates.
#include "core/timetypes.h"

#include <QString>
#include <cstdint>

namespace rankscope {

// "357.832 µs", "1.254 s", "800 ns": three decimals in the largest unit
// that keeps the value >= 1.
QString formatDuration(TimeNs ns);
// A point in time to the nanosecond, digits grouped by three as nsys shows
// it: "7.096 050 123 s", "-0.000 001 500 s".
QString formatTimestamp(TimeNs ns);
// "79.18 GiB", "512 B": two decimals in the largest binary unit.
QString formatBinarySize(std::uint64_t bytes);
// "16,777,216 B (16.00 MiB)"; below 1 KiB just "512 B".
QString formatBytes(std::uint64_t bytes);
// "1,234,567" with thousands separators.
QString formatInteger(std::int64_t value);
// Bytes per nanosecond is GB/s (10^9 B/s): "11.72 GB/s".
QString formatThroughput(std::uint64_t bytes, TimeNs ns);
// A counter sample in its unit: "87.5 %", "1.98 GHz" (unit "Hz"), bytes as
// formatBinarySize, anything else with an SI prefix and three significant
// digits ("12.3 k"); "ns" as a duration (formatDuration); never scientific
// notation.
QString formatCounterValue(double value, const QString &unit);

} // namespace rankscope
