// Rounding as SQLite's round() does it, which is what nsys stats prints.
#include "stats/sqlround.h"

#include <QRandomGenerator>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace rankscope;

class TestSqlRound : public QObject {
    Q_OBJECT
private slots:
    void formats_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("expected");
        // From the fixtures: an exact .25 tie rounds away from zero.
        QTest::newRow("nsys avg tie") << 1038255.25 << 1 << "1038255.3";
        QTest::newRow("half up") << 2.5 << 0 << "3";
        QTest::newRow("negative half") << -2.5 << 0 << "-3";
        // 0.15 is 0.1499999999999999944... in binary: it rounds down.
        QTest::newRow("binary below tie") << 0.15 << 1 << "0.1";
        // 0.35 is 0.34999999999999997779...: down as well.
        QTest::newRow("binary below tie 2") << 0.35 << 1 << "0.3";
        // 2.675 is 2.67499999999999982236431605997495353221893310546875.
        QTest::newRow("classic") << 2.675 << 2 << "2.67";
        QTest::newRow("carry") << 9.96 << 1 << "10.0";
        QTest::newRow("zero") << 0.0 << 1 << "0.0";
        QTest::newRow("tiny negative is zero") << -0.0001 << 1 << "0.0";
        QTest::newRow("MB") << 4.194304 << 3 << "4.194";
        QTest::newRow("MB 2") << 35.062832 << 3 << "35.063";
        QTest::newRow("integer") << 594368445.0 << 1 << "594368445.0";
        QTest::newRow("large") << 4429896.04 << 1 << "4429896.0";
    }

    void formats()
    {
        QFETCH(double, value);
        QFETCH(int, decimals);
        QFETCH(QString, expected);
        QCOMPARE(formatRounded(value, decimals), expected);
        QCOMPARE(formatRoundedExactly(value, decimals, false), expected);
    }

    // The shortcut gives the exact expansion's digits: on values at and a
    // few ulps around every kind of tie, averages of integers as the
    // summaries print them, integers, and random doubles of every scale.
    void shortcutMatchesTheExactExpansion()
    {
        std::vector<double> values{0.0,    -0.0,   0.5,    1.5,    2.5,  0.05, 0.25, 0.125, 1e15 + 0.5, 4503599627370495.5,
                                   0x1p52, 0x1p53, 1e-300, 5e-324, 1e300};
        QRandomGenerator random(2026);
        for (int i = 0; i < 20000; ++i) {
            // Ties at 0-4 places, and the doubles next to them.
            const int places = int(random.bounded(5));
            double tie = (double(random.bounded(1u << 30)) + 0.5);
            for (int p = 0; p < places; ++p)
                tie /= 10;
            double below = tie, above = tie;
            values.push_back(tie);
            for (int step = 0; step < 3; ++step) {
                below = std::nextafter(below, 0.0);
                above = std::nextafter(above, 1e300);
                values.push_back(below);
                values.push_back(above);
            }
            // An average of integers (sum / count), a median of two.
            const double sum = double(random.generate64() % (std::uint64_t(1) << 50));
            values.push_back(sum / double(1 + random.bounded(1000000u)));
            values.push_back((sum + double(random.bounded(1000u))) / 2);
            // Any double: random bits, finite.
            double any = 0;
            const std::uint64_t bits = random.generate64();
            std::memcpy(&any, &bits, sizeof any);
            if (std::isfinite(any))
                values.push_back(any);
            values.push_back(std::ldexp(random.generateDouble(), int(random.bounded(130u)) - 70));
            values.push_back(-values.back());
        }
        std::size_t checked = 0;
        for (const double v : values)
            for (int decimals = 0; decimals <= 4; ++decimals) {
                const QString away = formatRounded(v, decimals), even = formatRoundedHalfEven(v, decimals);
                if (away != formatRoundedExactly(v, decimals, false) || even != formatRoundedExactly(v, decimals, true))
                    QFAIL(qPrintable(QStringLiteral("%1 at %2 places: %3 / %4").arg(v, 0, 'g', 17).arg(decimals).arg(away, even)));
                // The CSV writer's bytes are the same digits.
                QByteArray awayBytes, evenBytes;
                appendRounded(awayBytes, v, decimals, false);
                appendRounded(evenBytes, v, decimals, true);
                if (awayBytes != away.toLatin1() || evenBytes != even.toLatin1())
                    QFAIL(qPrintable(QStringLiteral("appended %1 at %2 places: %3 / %4")
                                         .arg(v, 0, 'g', 17)
                                         .arg(decimals)
                                         .arg(QString::fromLatin1(awayBytes), QString::fromLatin1(evenBytes))));
                ++checked;
            }
        QVERIFY(checked > 500000);
    }
};

QTEST_APPLESS_MAIN(TestSqlRound)
#include "tst_sqlround.moc"
