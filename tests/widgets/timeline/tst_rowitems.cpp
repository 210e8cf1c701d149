// The row items (timeline/rows/): each kind of row has its one item, which
// says what the row holds for an area selection; the painters alone draw
// what a row's geometry says, pixel by pixel, into an image; the text on a
// slice by its track's kind on a real 2-rank NCCL export.
#include "load/traceloader.h"
#include "session/eventdetails.h"
#include "testdata.h"
#include "theme/theme.h"
#include "timeline/rows/counterrow.h"
#include "timeline/rows/grouprow.h"
#include "timeline/rows/samplesrow.h"
#include "timeline/rows/slicerow.h"
#include "timeline/timelinerows.h"

#include <QImage>
#include <QPainter>
#include <QtTest>

#include <cmath>
#include <random>
#include <set>

using namespace rankscope;
using namespace rankscope::test;

namespace {

constexpr QRgb kBackground = 0xff000000;

QImage blank(int width, int height)
{
    QImage image(width, height, QImage::Format_ARGB32);
    image.fill(kBackground);
    return image;
}

const Track *firstTrackOf(const Report &report, TrackKind kind)
{
    for (const Track &t : report.tracks)
        if (t.kind == kind && t.slices.size() > 0)
            return &t;
    return nullptr;
}

} // namespace

class TestRowItems : public QObject {
    Q_OBJECT

private slots:
    // Every kind of row the real sessions make has its own item, and an
    // item says what its row holds: a row of events its tracks, a samples
    // row its thread, a group (which folds) and a counter nothing.
    void eachRowKindIsOneItem()
    {
        const Session sampled = Session::load({dataPath(QStringLiteral("third-party/pipit/perlmutter-cloverleaf-cuda.sqlite")),
                                               dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"))});
        TimelineRows rows;
        rows.build(sampled);
        std::set<const RowItem *> items;
        std::set<TimelineRow::Kind> kinds;
        for (const TimelineRow &row : rows.rows()) {
            const RowItem &item = rowItem(row.kind);
            items.insert(&item);
            kinds.insert(row.kind);
            QCOMPARE(item.folds(), row.kind == TimelineRow::Kind::Group);
            AreaContents area;
            item.addToArea(sampled, row, area);
            switch (row.kind) {
            case TimelineRow::Kind::Slices:
                QCOMPARE(area.tracks.size(), row.tracks.size());
                QVERIFY(area.sampledThreads.empty());
                break;
            case TimelineRow::Kind::Samples: {
                const SampledThread &t = sampled.ranks()[std::size_t(row.rank)].report->sampling.threads[std::size_t(row.sampledThread)];
                QCOMPARE(area.sampledThreads, (std::set<stats::SamplingScope::ThreadKey>{{row.rank, t.pid, t.tid}}));
                QVERIFY(area.tracks.empty());
                break;
            }
            case TimelineRow::Kind::Group:
            case TimelineRow::Kind::Counter:
                QVERIFY(area.tracks.empty() && area.sampledThreads.empty());
                break;
            }
        }
        QCOMPARE(kinds.size(), std::size_t(4)); // the sessions hold every kind
        QCOMPARE(items.size(), kinds.size());
    }

    void collapsedBusyIsABarPerColumn()
    {
        RowGeometry g;
        g.height = 30;
        g.busy = {1.0f, 1.0f, 0.0f, 0.5f};
        QImage image = blank(20, 30);
        {
            QPainter p(&image);
            paintCollapsedBusy(p, {QRect(10, 0, 4, 30), &g}, QColor(Qt::red));
        }
        // The bars stand on row 28 (the area's bottom less 2); the span is 25 px.
        const QRgb red = QColor(Qt::red).rgb();
        QCOMPARE(image.pixel(10, 27), red);
        QCOMPARE(image.pixel(11, 3), red); // full: 25 px, rows 3 to 27
        QCOMPARE(image.pixel(11, 2), kBackground);
        QCOMPARE(image.pixel(12, 27), kBackground); // idle
        QCOMPARE(image.pixel(13, 15), red);         // half: 13 px, rows 15 to 27
        QCOMPARE(image.pixel(13, 14), kBackground);
        QCOMPARE(image.pixel(9, 27), kBackground); // nothing left of the area
    }

    void counterColumnsAreAStepChart()
    {
        RowGeometry g;
        g.top = 0;
        g.height = 36;
        g.counterShare = {0.0f, 1.0f, -1.0f, 0.5f};
        QImage image = blank(20, 36);
        QPalette palette;
        palette.setColor(QPalette::Text, Qt::white);
        {
            QPainter p(&image);
            paintCounterRow(p, {QRect(10, 0, 4, 36), &g}, Theme(palette), QString(), QString());
        }
        // Base row 33, span 28 px.
        const QRgb fill = Theme::kindColor(TrackKind::Memset).rgb();
        QCOMPARE(image.pixel(11, 32), fill);
        QCOMPARE(image.pixel(11, 5), fill);
        QCOMPARE(image.pixel(11, 4), kBackground);
        QCOMPARE(image.pixel(12, 32), kBackground); // no sample in that column
        QCOMPARE(image.pixel(13, 19), fill);        // half: 14 px, rows 19 to 32
        QCOMPARE(image.pixel(13, 18), kBackground);
        QCOMPARE(image.pixel(10, 32), kBackground); // 0: no bar

        // A counter that never leaves 0 says so instead of a flat chart.
        RowGeometry zero;
        zero.height = 36;
        zero.counterAllZero = true;
        QImage said = blank(300, 36);
        {
            QPainter p(&said);
            paintCounterRow(p, {QRect(0, 0, 300, 36), &zero}, Theme(palette), QStringLiteral("max 1"), QString());
        }
        int lit = 0;
        for (int x = 0; x < 300; ++x)
            for (int y = 0; y < 36; ++y)
                lit += said.pixel(x, y) != kBackground;
        QVERIFY(lit > 50);
    }

    void counterChartCoversABarPerColumn()
    {
        // Runs of equal heights, gaps and single columns, against a bar
        // filled per column.
        RowGeometry g;
        g.height = 40;
        std::mt19937 random(7);
        for (int x = 0; x < 500; ++x) {
            const int kind = int(random() % 6);
            g.counterShare.push_back(kind == 0            ? -1.0f
                                     : kind == 1 && x > 0 ? g.counterShare.back()
                                     : kind == 2          ? 0.0f
                                                          : float(random() % 1001) / 1000.0f);
        }
        QPalette palette;
        palette.setColor(QPalette::Text, Qt::white);
        QImage chart = blank(520, 40), bars = blank(520, 40);
        {
            QPainter p(&chart);
            p.setRenderHint(QPainter::Antialiasing);
            paintCounterRow(p, {QRect(10, 0, 500, 40), &g}, Theme(palette), QString(), QString());
        }
        const int base = 40 - 3, span = 40 - 8;
        for (std::size_t x = 0; x < g.counterShare.size(); ++x)
            if (g.counterShare[x] >= 0) {
                const int h = int(std::round(double(g.counterShare[x]) * span));
                QPainter(&bars).fillRect(10 + int(x), base - h, 1, h, Theme::kindColor(TrackKind::Memset));
            }
        for (int x = 0; x < 520; ++x)
            for (int y = 14; y < 40; ++y) // below the texts' line
                if (chart.pixel(x, y) != bars.pixel(x, y))
                    QFAIL(qPrintable(QStringLiteral("pixel %1,%2 differs").arg(x).arg(y)));
    }

    void eachTrackKindLabelsItsSlicesItsOwnWay()
    {
        const LoadResult loaded = loadTraceFile(dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite")));
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const Report &report = *loaded.report;
        const Track *nccl = firstTrackOf(report, TrackKind::NcclKernels);
        const Track *kernels = firstTrackOf(report, TrackKind::Kernel);
        const Track *nvtx = firstTrackOf(report, TrackKind::Nvtx);
        QVERIFY(nccl && kernels && nvtx);
        const KernelRecord &ncclKernel = report.kernels[nccl->slices.payload(0)];
        const QString call = collectiveSummary(report, ncclKernel);
        QCOMPARE(sliceLabel(report, *nccl, 0), call.isEmpty() ? report.strings.string(ncclKernel.shortName) : call);
        QCOMPARE(sliceLabel(report, *kernels, 0), report.strings.string(report.kernels[kernels->slices.payload(0)].shortName));
        QCOMPARE(sliceLabel(report, *nvtx, 0), report.strings.string(nvtx->slices.name(0)));
    }

    void aSliceIsItsEventsColourInItsLane()
    {
        const LoadResult loaded = loadTraceFile(dataPath(QStringLiteral("third-party/nsys-ai/mfu_2gpu_before.sqlite")));
        QVERIFY(loaded.ok());
        const Report &report = *loaded.report;
        const Track *nvtx = firstTrackOf(report, TrackKind::Nvtx);
        TimelineRow row;
        row.tracks = {std::uint32_t(nvtx - report.tracks.data())};
        RowGeometry g;
        g.top = 10;
        g.height = 3 * TimelineRows::kLaneHeight + 4;
        SliceRect r;
        r.x0 = 5;
        r.x1 = 105;
        r.lane = 1;
        r.event = 0;
        r.count = 1;
        g.rects = {r};
        QImage image = blank(200, 80);
        EventColorCache colors;
        {
            QPainter p(&image);
            paintSliceRow(p, {QRect(20, 10, 150, g.height), &g}, report, row, colors);
        }
        const RowArea area{QRect(20, 10, 150, g.height), &g};
        const int top = area.laneTop(1);
        QCOMPARE(top, 10 + FrameGeometry::kLaneTopMargin + TimelineRows::kLaneHeight);
        const QRgb colour = colors.color(report, *nvtx, 0).rgb();
        QCOMPARE(image.pixel(20 + 5, top), colour);          // x from the area's left
        QCOMPARE(image.pixel(20 + 5, top - 1), kBackground); // lane 0 is empty
        QCOMPARE(image.pixel(20 + 104, top + TimelineRows::kLaneHeight - 3), colour);
        QCOMPARE(image.pixel(20 + 106, top), kBackground);
        QCOMPARE(image.pixel(20 + 5, top + TimelineRows::kLaneHeight - 2), kBackground); // 2 px between lanes
    }
};

QTEST_MAIN(TestRowItems)
#include "tst_rowitems.moc"
