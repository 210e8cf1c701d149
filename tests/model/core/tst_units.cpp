// Human-readable units.
#include "core/units.h"

#include <QtTest>

using namespace rankscope;

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void counterValues()
    {
        QCOMPARE(formatCounterValue(2010000000.0, QStringLiteral("Hz")), QStringLiteral("2.01 GHz"));
        QCOMPARE(formatCounterValue(1410000000.0, QStringLiteral("Hz")), QStringLiteral("1.41 GHz"));
        QCOMPARE(formatCounterValue(87.54, QStringLiteral("%")), QStringLiteral("87.5 %"));
        QCOMPARE(formatCounterValue(12345.0, QString()), QStringLiteral("12.3 k"));
        QCOMPARE(formatCounterValue(0.5, QString()), QStringLiteral("0.50"));
        QCOMPARE(formatCounterValue(0.0, QStringLiteral("Hz")), QStringLiteral("0 Hz"));
        QCOMPARE(formatCounterValue(3.0 * 1024 * 1024, QStringLiteral("B")), QStringLiteral("3.00 MiB"));
    }
    void bytes()
    {
        QCOMPARE(formatBytes(16777216), QStringLiteral("16,777,216 B (16.00 MiB)"));
        QCOMPARE(formatBytes(4194304), QStringLiteral("4,194,304 B (4.00 MiB)"));
        QCOMPARE(formatBytes(512), QStringLiteral("512 B"));
        QCOMPARE(formatBytes(1536), QStringLiteral("1,536 B (1.50 KiB)"));
    }

    void durations()
    {
        QCOMPARE(formatDuration(800), QStringLiteral("800 ns"));
        QCOMPARE(formatDuration(357832), QStringLiteral("357.832 µs"));
        QCOMPARE(formatDuration(3651742307), QStringLiteral("3.652 s"));
        QCOMPARE(formatDuration(-1500), QStringLiteral("-1.500 µs"));
    }

    void timestampsToTheNanosecond()
    {
        QCOMPARE(formatTimestamp(7'096'050'123), QStringLiteral("7.096 050 123 s"));
        QCOMPARE(formatTimestamp(0), QStringLiteral("0.000 000 000 s"));
        QCOMPARE(formatTimestamp(-1'500), QStringLiteral("-0.000 001 500 s"));
        QCOMPARE(formatTimestamp(kTimeMin), QStringLiteral("-9223372036.854 775 808 s"));
    }
    void throughput()
    {
        // 4 MiB in 357,832 ns: 11.72 GB/s (decimal, as nsys prints rates).
        QCOMPARE(formatThroughput(4194304, 357832), QStringLiteral("11.72 GB/s"));
        QCOMPARE(formatThroughput(1, 0), QStringLiteral("n/a"));
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "tst_units.moc"
