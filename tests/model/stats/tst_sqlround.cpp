// Rounding as SQLite's round() does it, which is what nsys stats prints.
#include "stats/sqlround.h"

#include <QtTest>

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
    }
};

QTEST_APPLESS_MAIN(TestSqlRound)
#include "tst_sqlround.moc"
