// The theme: event colours keep their meaning in any palette; everything
// around the events follows the palette, light or dark, and stays readable.
#include "palettes.h"
#include "theme/theme.h"

#include <QTest>

using namespace rankscope;

namespace {

double contrast(const QColor &a, const QColor &b)
{
    return std::abs(a.lightnessF() - b.lightnessF());
}

} // namespace

class TestTheme : public QObject {
    Q_OBJECT
private slots:
    void followsThePalette_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void followsThePalette()
    {
        QFETCH(bool, dark);
        const QPalette palette = test::desktopPalette(dark);
        const Theme theme(palette);
        QCOMPARE(theme.isDark(), dark);
        QCOMPARE(theme.canvasBackground(), palette.color(QPalette::Base));
        QCOMPARE(theme.labelText(), palette.color(QPalette::WindowText));
        QCOMPARE(theme.selectionShade(50).alpha(), 50);
        // The standout cell (worst rank) keeps the palette's text readable.
        QVERIFY2(contrast(theme.standoutCellBackground(), palette.color(QPalette::Text)) > 0.3, qPrintable(theme.standoutCellBackground().name()));
        QVERIFY(theme.standoutCellBackground() != theme.canvasBackground());
        QVERIFY(contrast(theme.adviceBackground(), theme.adviceText()) > 0.4);
        QCOMPARE(theme.adviceBackground().lightnessF() < 0.5, dark);
        QVERIFY(contrast(theme.errorText(), theme.canvasBackground()) > 0.25);
    }
    void transfersHaveOneColourPerDirection()
    {
        using stats::Direction;
        QCOMPARE(Theme::memcpyColor(MemcpyKind::HtoD), Theme::transferColor(Direction::HtoD));
        QCOMPARE(Theme::memcpyColor(MemcpyKind::UvmHtoD), Theme::transferColor(Direction::HtoD));
        QCOMPARE(Theme::memcpyColor(MemcpyKind::DtoH), Theme::transferColor(Direction::DtoH));
        QSet<QRgb> seen;
        for (Direction d : {Direction::HtoD, Direction::DtoH, Direction::DtoD, Direction::PtoP, Direction::Other})
            seen.insert(Theme::transferColor(d).rgb());
        QCOMPARE(seen.size(), 5);
        QCOMPARE(Theme::kindColor(TrackKind::Memcpy), Theme::transferColor(Direction::HtoD));
    }
    void seriesColoursRepeatAfterFour()
    {
        QCOMPARE(Theme::seriesColor(0), Theme::seriesColor(4));
        QVERIFY(Theme::seriesColor(0) != Theme::seriesColor(1));
    }
    void aNameHasOneColourInEveryReport()
    {
        // Two ranks' reports intern "forward" under different ids: the
        // colour follows the text, not the id.
        Report a, b;
        b.strings.intern("backward");
        for (Report *r : {&a, &b}) {
            Track t;
            t.kind = TrackKind::Nvtx;
            t.slices.append(0, 10, r->strings.intern("forward"), NvtxRecord::kNoRecord);
            t.slices.finalize();
            r->tracks.push_back(std::move(t));
        }
        QVERIFY(a.tracks[0].slices.name(0) != b.tracks[0].slices.name(0));
        QCOMPARE(Theme::eventColor(a, a.tracks[0], 0), Theme::eventColor(b, b.tracks[0], 0));
    }
    void textIsReadableOnEveryKindColour()
    {
        for (TrackKind kind : {TrackKind::OsRuntime, TrackKind::CudaApi, TrackKind::Nvtx, TrackKind::Kernel, TrackKind::Memcpy, TrackKind::Memset,
                               TrackKind::Sync, TrackKind::NvtxGpuProjection, TrackKind::NcclKernels}) {
            const QColor c = Theme::kindColor(kind);
            QVERIFY(contrast(c, Theme::textColorOn(c)) > 0.4);
        }
    }
};

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
