// Interval arithmetic the statistics share (core/intervals.h).
#include "core/intervals.h"

#include <QtTest>

#include <random>

using namespace rankscope;
using namespace rankscope::stats;

class TestIntervals : public QObject {
    Q_OBJECT

private slots:
    void piecesSortAsAWhole()
    {
        // Values appended track by track: merging pieces that are in order
        // gives what sorting the whole gives, and a piece out of order
        // falls back to sorting.
        std::mt19937_64 random(7);
        for (int round = 0; round < 200; ++round) {
            std::vector<TimeNs> values;
            std::vector<std::size_t> pieces;
            const int pieceCount = int(random() % 7);
            for (int p = 0; p < pieceCount; ++p) {
                pieces.push_back(values.size());
                const std::size_t length = random() % 50;
                std::vector<TimeNs> piece;
                for (std::size_t i = 0; i < length; ++i)
                    piece.push_back(TimeNs(random() % 100)); // repeats on purpose
                if (round % 5 != 0)
                    std::sort(piece.begin(), piece.end());
                values.insert(values.end(), piece.begin(), piece.end());
            }
            std::vector<TimeNs> expected = values;
            std::sort(expected.begin(), expected.end());
            sortPieces(values, pieces);
            QCOMPARE(values, expected);
        }
    }

    void unionOfSortedIsTheUnion()
    {
        std::vector<Interval> intervals{{5, 9}, {0, 3}, {3, 4}, {8, 12}, {20, 20}, {15, 16}};
        const std::vector<Interval> expected{{0, 4}, {5, 12}, {15, 16}, {20, 20}};
        QCOMPARE(unionOf(intervals), expected);
        std::sort(intervals.begin(), intervals.end());
        QCOMPARE(unionOfSorted(intervals), expected);
    }
};

QTEST_GUILESS_MAIN(TestIntervals)
#include "tst_intervals.moc"
