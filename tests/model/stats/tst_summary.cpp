// The aggregate columns, against values worked out by hand.
#include "stats/summary.h"

#include <QtTest>

using namespace rankscope;

class TestSummary : public QObject {
    Q_OBJECT
private slots:
    void oddCount()
    {
        std::vector<std::int64_t> v{300, 100, 200};
        const Summary s = summarize(v);
        QCOMPARE(s.total, 600);
        QCOMPARE(s.count, 3);
        QCOMPARE(s.average, 200.0);
        QCOMPARE(s.median, 200.0);
        QCOMPARE(s.minimum, 100);
        QCOMPARE(s.maximum, 300);
        QCOMPARE(s.stdDev, 100.0); // sample: sqrt((100² + 0 + 100²) / 2)
    }

    void evenCountMedianIsMeanOfMiddle()
    {
        std::vector<std::int64_t> v{4, 1, 3, 2};
        const Summary s = summarize(v);
        QCOMPARE(s.median, 2.5);
        QVERIFY(qAbs(s.stdDev - 1.2909944487358056) < 1e-12);
    }

    void singleValueHasZeroDeviation()
    {
        std::vector<std::int64_t> v{42};
        const Summary s = summarize(v);
        QCOMPARE(s.stdDev, 0.0);
        QCOMPARE(s.median, 42.0);
    }

    void empty()
    {
        std::vector<std::int64_t> v;
        QCOMPARE(summarize(v).count, 0);
    }
};

QTEST_APPLESS_MAIN(TestSummary)
#include "tst_summary.moc"
