// The timeline as a user drives it: keys zoom around the centre, Shift+drag
// and Z zoom to a range, F fits, a click selects the event under it.
#include "core/units.h"
#include "load/derivedtracks.h"
#include "session/eventlinks.h"
#include "session/session.h"
#include "testdata.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineinput.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"

#include <QScrollBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// The 4 MiB pageable HtoD copy of slow_1gpu (cuda_gpu_trace.csv: start
// 7724753678, 357832 ns, stream 7, correlation id of a cudaMemcpyAsync).
constexpr TimeNs kCopyStart = 7724753678;
constexpr TimeNs kCopyDuration = 357832;

void sendMouse(QWidget *w, QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons, Qt::KeyboardModifiers mods)
{
    QMouseEvent e(type, QPointF(pos), w->mapToGlobal(QPointF(pos)), button, buttons, mods);
    QApplication::sendEvent(w, &e);
}

} // namespace

class TestTimelineCanvas : public QObject {
    Q_OBJECT
    std::unique_ptr<TimelineView> m_view;

    TimelineCanvas *canvas() { return m_view->canvas(); }
    ZoomState *zoom() { return m_view->zoom(); }

private slots:
    void initTestCase()
    {
        auto session = std::make_shared<Session>(Session::load({slowFixture()}));
        QCOMPARE(session->ranks().size(), std::size_t(1));
        m_view = std::make_unique<TimelineView>();
        m_view->resize(1200, 800);
        m_view->setSession(session);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        QCursor::setPos(QPoint(-5000, -5000)); // keys anchor on the centre
    }

    void init() { zoom()->fit(); }

    void plusAndMinusZoomAroundTheCentre()
    {
        const TimeRange before = zoom()->visible();
        const TimeNs centre = before.start + before.duration() / 2;
        QTest::keyClick(canvas(), Qt::Key_Plus);
        TimeRange after = zoom()->visible();
        QVERIFY(qAbs(double(after.duration()) * ZoomState::kZoomStep - double(before.duration())) <= 2.0);
        QVERIFY(qAbs(after.start + after.duration() / 2 - centre) <= 1);
        QTest::keyClick(canvas(), Qt::Key_Minus);
        after = zoom()->visible();
        QVERIFY(qAbs(after.duration() - before.duration()) <= 2);
        QVERIFY(qAbs(after.start + after.duration() / 2 - centre) <= 1);
        // Ctrl+= and Ctrl+- are the same zoom steps.
        QTest::keyClick(canvas(), Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY(qAbs(double(zoom()->visible().duration()) * ZoomState::kZoomStep - double(before.duration())) <= 2.0);
    }

    void shiftDragThenZZoomsToTheRangeAndFRestores()
    {
        const TimeRange full = zoom()->visible();
        QWidget *vp = canvas()->viewport();
        const int x0 = canvas()->labelWidth() + 200, x1 = canvas()->labelWidth() + 500, y = 200;
        const TimeScale s = canvas()->scale();
        sendMouse(vp, QEvent::MouseButtonPress, {x0, y}, Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(vp, QEvent::MouseMove, {x0 + 100, y}, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(vp, QEvent::MouseMove, {x1, y}, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(vp, QEvent::MouseButtonRelease, {x1, y}, Qt::LeftButton, Qt::NoButton, Qt::ShiftModifier);
        QVERIFY(zoom()->selection());
        QCOMPARE(zoom()->selection()->start, s.time(200));
        QCOMPARE(zoom()->selection()->end, s.time(500));
        QTest::keyClick(canvas(), Qt::Key_Z);
        QCOMPARE(zoom()->visible().start, s.time(200));
        QCOMPARE(zoom()->visible().end, s.time(500));
        QTest::keyClick(canvas(), Qt::Key_F);
        QCOMPARE(zoom()->visible().start, full.start);
        QCOMPARE(zoom()->visible().end, full.end);
        QTest::keyClick(canvas(), Qt::Key_Backspace); // back to the selection zoom
        QCOMPARE(zoom()->visible().start, s.time(200));
    }

    void clickingTheCopySelectsIt()
    {
        zoom()->show({kCopyStart - 200000, kCopyStart + kCopyDuration + 200000});
        const TimeScale s = canvas()->scale();
        // The Stream 7 row, found by its label; copies sit on its only lane.
        int streamRow = -1;
        for (int r : canvas()->rows().shownRows())
            if (canvas()->rows().rows()[std::size_t(r)].label == QLatin1String("Stream 7"))
                streamRow = r;
        QVERIFY(streamRow >= 0);
        const QRect rect = canvas()->rowRect(streamRow);
        const QPoint pixel(canvas()->labelWidth() + int(s.x(kCopyStart + kCopyDuration / 2)), rect.top() + 2 + TimelineRows::kLaneHeight / 2);
        QTest::mouseClick(canvas()->viewport(), Qt::LeftButton, Qt::NoModifier, pixel);
        const auto selected = canvas()->selectedEvent();
        QVERIFY(selected);
        const Session &session = *m_view->session();
        QCOMPARE(session.track(*selected).kind, TrackKind::Memcpy);
        QCOMPARE(session.sessionTime(*selected).start, kCopyStart);
        const Report &report = *session.ranks()[0].report;
        QCOMPARE(report.memcpys[session.track(*selected).slices.payload(selected->event)].bytes, std::uint64_t(4194304));
        // Its launching API call is known (the correlation line's other end).
        const auto api = launchingApiCall(session, *selected);
        QVERIFY(api);
        QCOMPARE(report.strings.string(session.track(*api).slices.name(api->event)), QStringLiteral("cudaMemcpyAsync_v3020"));
        // A spot below every row clears the selection.
        QVERIFY(canvas()->rows().totalHeight() < canvas()->viewport()->height() - 10);
        QTest::mouseClick(canvas()->viewport(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(canvas()->labelWidth() + 10, canvas()->viewport()->height() - 5));
        QVERIFY(!canvas()->selectedEvent());
    }

    void zoomedOutFramesUseSummaries()
    {
        // At full zoom a frame draws far fewer rectangles than events.
        zoom()->fit();
        std::size_t rects = 0;
        const TimeScale s = canvas()->scale();
        for (const Track &t : m_view->session()->ranks()[0].report->tracks) {
            std::vector<SliceRect> out;
            buildSliceGeometry({&t.slices, 0, 0, false, 0}, s, canvas()->trackAreaWidth(), out);
            rects += out.size();
        }
        QVERIFY(rects < m_view->session()->ranks()[0].report->eventCount() / 4);
    }

    // A collapsed rank draws its GPU's busy share per pixel: summed over the
    // row it is the GPU's busy time (the union of kernels, copies and
    // memsets, worked out here from the events themselves).
    void aCollapsedRankDrawsWhereItsGpuIsBusy()
    {
        zoom()->fit();
        const Report &report = *m_view->session()->ranks()[0].report;
        std::vector<std::pair<TimeNs, TimeNs>> work;
        for (const Track &t : report.tracks)
            if (t.kind == TrackKind::Kernel || t.kind == TrackKind::Memcpy || t.kind == TrackKind::Memset)
                for (std::size_t i = 0; i < t.slices.size(); ++i)
                    work.push_back({t.slices.start(i), t.slices.end(i)});
        std::sort(work.begin(), work.end());
        TimeNs busy = 0, runStart = work.front().first, runEnd = work.front().second;
        for (const auto &[s, e] : work) {
            if (s > runEnd) {
                busy += runEnd - runStart;
                runStart = s;
            }
            runEnd = std::max(runEnd, e);
        }
        busy += runEnd - runStart;
        // The busy time of the union inside [lo, hi).
        const auto busyIn = [&work](TimeNs lo, TimeNs hi) {
            TimeNs sum = 0, coveredTo = lo;
            for (const auto &[s, e] : work) {
                const TimeNs from = std::max(s, coveredTo), to = std::min(e, hi);
                if (to > from) {
                    sum += to - from;
                    coveredTo = to;
                }
            }
            return sum;
        };
        QCOMPARE(busyIn(report.extent().start, report.extent().end + 1), busy);

        // Zoomed out it is drawn from the rank's GPU busy summary alone
        // (no event read); zoomed in past the summary's finest level, from
        // the union of the events. Both add up to the busy time in view.
        canvas()->rows().setCollapsed(0, true);
        canvas()->rowsChanged();
        QVERIFY(gpuBusySummaryOf(report, canvas()->rows().rows().front().summaryTracks));
        const auto drawnBusy = [this] {
            const RowGeometry &g = canvas()->geometry().rows().front();
            if (g.row != 0 || int(g.busy.size()) != canvas()->trackAreaWidth())
                return -1.0;
            double drawn = 0;
            for (float share : g.busy)
                drawn += share;
            return drawn * canvas()->scale().nsPerPixel;
        };
        const double drawn = drawnBusy();
        QVERIFY2(std::abs(drawn / double(busy) - 1.0) < 0.01, qPrintable(QStringLiteral("%1 vs %2").arg(drawn).arg(busy)));
        for (const TimeRange range : {TimeRange{kCopyStart - kCopyDuration, kCopyStart + 2 * kCopyDuration}, // ~900 ns per pixel
                                      TimeRange{kCopyStart - 1000, kCopyStart + 1000}}) {                    // ~2
            zoom()->show(range);
            canvas()->rowsChanged();
            const double drawnAroundCopy = drawnBusy();
            const auto busyAroundCopy = double(busyIn(canvas()->scale().start, canvas()->scale().time(canvas()->trackAreaWidth())));
            QVERIFY(busyAroundCopy >= double(std::min(kCopyDuration, range.end - kCopyStart)));
            QVERIFY2(std::abs(drawnAroundCopy / busyAroundCopy - 1.0) < 0.01,
                     qPrintable(QStringLiteral("%1 vs %2").arg(drawnAroundCopy).arg(busyAroundCopy)));
        }
        zoom()->fit();
        canvas()->rows().setCollapsed(0, false);
        canvas()->rowsChanged();
        QVERIFY(canvas()->geometry().rows().front().busy.empty());
    }

    // A pinned row sits at the top while the rest scroll under it, and the
    // pointer finds it there.
    void aPinnedRowStaysOnTopWhileScrolling()
    {
        TimelineRows &rows = canvas()->rows();
        const int all = rows.shownRows()[2]; // "All streams"
        QCOMPARE(rows.rows()[std::size_t(all)].label, QStringLiteral("All streams"));
        rows.setPinned(all, true);
        canvas()->rowsChanged();
        canvas()->verticalScrollBar()->setValue(canvas()->verticalScrollBar()->maximum());
        const RowGeometry &first = canvas()->geometry().rows().front();
        QCOMPARE(first.row, all);
        QVERIFY(first.pinned);
        QCOMPARE(first.top, 0);
        QCOMPARE(canvas()->hit(QPoint(canvas()->labelWidth() + 10, 5)).row->row, all);
        QCOMPARE(canvas()->rowRect(all).top(), 0);
        for (const RowGeometry &g : canvas()->geometry().rows())
            if (!g.pinned)
                QVERIFY(g.top + g.height > rows.pinnedHeight());
        rows.setPinned(all, false);
        canvas()->rowsChanged();
        canvas()->verticalScrollBar()->setValue(0);
    }

    // Scrolling keeps the rows still in view and builds the rows scrolled
    // in within a frame's budget; the rest are drawn pending and built in
    // the frames after. Once none is pending, every row is what a full
    // build draws.
    void scrolledInRowsAreBuiltProgressively()
    {
        m_view->resize(1200, 260); // a short window: the rows scroll
        QCoreApplication::processEvents();
        QScrollBar *bar = canvas()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        zoom()->fit();
        bar->setValue(0);
        canvas()->viewport()->repaint();
        canvas()->setScrollBuildBudget(0); // one row a frame
        bar->setValue(bar->maximum());
        canvas()->viewport()->repaint();
        const int pendingAfterScroll = canvas()->pendingRows();
        int frames = 1;
        for (; canvas()->pendingRows() > 0 && frames < 100; ++frames) {
            QCoreApplication::processEvents(); // the rebuild the frame scheduled
            canvas()->viewport()->repaint();
        }
        canvas()->setScrollBuildBudget(TimelineCanvas::kScrollBuildBudgetNs);
        QVERIFY2(pendingAfterScroll > 0, "the scroll brought in more than one row of events");
        QCOMPARE(canvas()->pendingRows(), 0);
        QCOMPARE(frames, pendingAfterScroll + 1); // one row built per frame

        std::map<int, std::vector<SliceRect>> progressive;
        for (const RowGeometry &g : canvas()->geometry().rows())
            progressive[g.row] = g.rects;
        canvas()->rowsChanged(); // a full build of the same view
        for (const RowGeometry &g : canvas()->geometry().rows()) {
            QVERIFY(!g.pending);
            const std::vector<SliceRect> &p = progressive.at(g.row);
            QCOMPARE(p.size(), g.rects.size());
            for (std::size_t i = 0; i < p.size(); ++i)
                QVERIFY(p[i].x0 == g.rects[i].x0 && p[i].x1 == g.rects[i].x1 && p[i].lane == g.rects[i].lane && p[i].event == g.rects[i].event
                        && p[i].count == g.rects[i].count);
        }
        bar->setValue(0);
        m_view->resize(1200, 800);
        QCoreApplication::processEvents();
    }

    // Ranks opened from their index caches read their events through a
    // mapping that may wait on the disk: scrolled in, their rows (and a
    // collapsed group's busy share) are built on the worker, drawn pending
    // until they arrive, and then are what a full build draws.
    void rowsOfCachedRanksAreBuiltOnTheWorker()
    {
        QTemporaryDir caches;
        QVERIFY(caches.isValid());
        LoadControl control;
        control.indexCacheDirectory = caches.path();
        const QStringList files{ddpFixture(0), ddpFixture(1), ddpFixture(2), ddpFixture(3)};
        QCOMPARE(Session::load(files, control).failures().size(), std::size_t(0)); // writes the caches
        auto session = std::make_shared<Session>(Session::load(files, control));
        QCOMPARE(session->ranks().size(), std::size_t(4));
        for (const RankEntry &entry : session->ranks())
            QVERIFY(entry.report->indexCache);
        TimelineView view;
        view.resize(1200, 260); // a short window: the rows scroll
        view.setSession(session);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        TimelineCanvas *c = view.canvas();
        QScrollBar *bar = c->verticalScrollBar();
        for (const bool collapsed : {false, true}) {
            // Then rank 0 expanded over the others collapsed: scrolling to
            // the bottom brings the collapsed ranks in.
            bar->setValue(0);
            c->rows().setAllCollapsed(false);
            for (std::size_t r = 0; r < c->rows().rows().size(); ++r) {
                const TimelineRow &row = c->rows().rows()[r];
                if (collapsed && row.kind == TimelineRow::Kind::Group && row.parent < 0 && row.rank > 0)
                    c->rows().setCollapsed(int(r), true);
            }
            c->rowsChanged();
            QCoreApplication::processEvents();
            QVERIFY2(bar->maximum() > 0,
                     qPrintable(QStringLiteral("rows %1 px, view %2 px").arg(c->rows().totalHeight()).arg(c->viewport()->height())));
            view.zoom()->fit();
            bar->setValue(0);
            c->rowsChanged(); // a new view: built in the frame
            c->viewport()->repaint();
            QCOMPARE(c->pendingRows(), 0);
            bar->setValue(bar->maximum());
            c->viewport()->repaint();
            QVERIFY2(c->pendingRows() > 0, "rows scrolled in wait for the worker");
            int pendingGroups = 0;
            for (const RowGeometry &g : c->geometry().rows())
                if (g.pending) {
                    QVERIFY(g.rects.empty() && g.busy.empty());
                    pendingGroups += c->rows().rows()[std::size_t(g.row)].kind == TimelineRow::Kind::Group;
                }
            QCOMPARE(pendingGroups > 0, collapsed);
            QTRY_COMPARE_WITH_TIMEOUT(c->pendingRows(), 0, 10000); // arrived and painted by the event loop
            std::map<int, RowGeometry> fromWorker;
            for (const RowGeometry &g : c->geometry().rows())
                fromWorker[g.row] = g;
            c->rowsChanged(); // a full build of the same view, in the frame
            c->viewport()->repaint();
            QCOMPARE(c->pendingRows(), 0);
            int busyRows = 0, eventRows = 0;
            for (const RowGeometry &g : c->geometry().rows()) {
                const RowGeometry &w = fromWorker.at(g.row);
                QCOMPARE(w.busy, g.busy);
                busyRows += !g.busy.empty();
                QCOMPARE(w.rects.size(), g.rects.size());
                eventRows += !g.rects.empty();
                for (std::size_t i = 0; i < g.rects.size(); ++i)
                    QVERIFY(w.rects[i].x0 == g.rects[i].x0 && w.rects[i].x1 == g.rects[i].x1 && w.rects[i].lane == g.rects[i].lane
                            && w.rects[i].event == g.rects[i].event && w.rects[i].count == g.rects[i].count);
            }
            QVERIFY(collapsed ? busyRows > 0 : eventRows > 0);
            if (collapsed)
                continue;

            // A zoom: the rows go to the worker too, the last frame's
            // rectangles standing in (moved to the new scale, naming no
            // event to the mouse) until they arrive.
            const TimeRange visible = view.zoom()->visible();
            view.zoom()->show({visible.start + visible.duration() / 2, visible.end}); // where these rows' events are
            c->viewport()->repaint();
            QVERIFY(c->pendingRows() > 0);
            int standIns = 0;
            for (const RowGeometry &g : c->geometry().rows())
                if (g.pending && !g.rects.empty()) {
                    ++standIns;
                    const SliceRect &r = g.rects.front();
                    const QPoint inside(c->labelWidth() + int((r.x0 + r.x1) / 2),
                                        g.top + FrameGeometry::kLaneTopMargin + r.lane * TimelineRows::kLaneHeight + 2);
                    QVERIFY(!c->eventAt(inside));
                }
            QVERIFY(standIns > 0);
            QTRY_COMPARE_WITH_TIMEOUT(c->pendingRows(), 0, 10000);
            std::map<int, std::vector<SliceRect>> zoomed;
            for (const RowGeometry &g : c->geometry().rows())
                zoomed[g.row] = g.rects;
            c->rowsChanged();
            c->viewport()->repaint();
            for (const RowGeometry &g : c->geometry().rows()) {
                const std::vector<SliceRect> &z = zoomed.at(g.row);
                QCOMPARE(z.size(), g.rects.size());
                for (std::size_t i = 0; i < g.rects.size(); ++i)
                    QVERIFY(z[i].x0 == g.rects[i].x0 && z[i].x1 == g.rects[i].x1 && z[i].event == g.rects[i].event);
            }

            // A zoom to where rows have no events: a row the worker built
            // empty is kept like any other, not asked for again each frame
            // (pending, and the canvas repainting, for ever).
            const TimeRange bounds = view.zoom()->bounds();
            view.zoom()->show({bounds.end - 1000, bounds.end});
            c->viewport()->repaint();
            QVERIFY(c->pendingRows() > 0);
            QTRY_COMPARE_WITH_TIMEOUT(c->pendingRows(), 0, 10000);
            int emptySliceRows = 0;
            for (const RowGeometry &g : c->geometry().rows())
                emptySliceRows += g.rects.empty() && c->rows().rows()[std::size_t(g.row)].kind == TimelineRow::Kind::Slices;
            QVERIFY(emptySliceRows > 0);
            c->setMarkedCallchains({}); // another frame of the same view (as a row arriving asks for)
            c->viewport()->repaint();
            QCOMPARE(c->pendingRows(), 0);
        }
    }

    // Ranks opened from their caches' summaries (a first frame of caches not
    // checked before) draw their collapsed groups from the GPU busy
    // summaries and every other row hatched, naming no event; the whole
    // session then takes their place, the view as the user left it.
    void aCachedProcessIsDrawnFromItsBusySummary()
    {
        // A process row folded over its threads reads the summary its
        // cache keeps, not every event of its threads: the row's tracks
        // are the ones the summary is the union of.
        QTemporaryDir caches;
        QVERIFY(caches.isValid());
        LoadControl control;
        control.indexCacheDirectory = caches.path();
        const QStringList files{ddpFixture(0)};
        QCOMPARE(Session::load(files, control).failures().size(), std::size_t(0)); // writes the cache
        auto session = std::make_shared<Session>(Session::load(files, control));
        const Report &report = *session->ranks().front().report;
        QVERIFY(report.indexCache && !report.hostBusy.empty());
        TimelineView view;
        view.setSession(session);
        int processes = 0;
        for (const TimelineRow &row : view.canvas()->rows().rows()) {
            if (row.kind != TimelineRow::Kind::Group || row.level != 1 || row.summaryTracks.empty()
                || isGpuTrack(report.tracks[row.summaryTracks.front()].kind))
                continue;
            ++processes;
            QVERIFY2(hostBusySummaryOf(report, row.summaryTracks), qPrintable(row.label));
        }
        QCOMPARE(processes, int(report.hostBusy.size()));
    }

    void ranksFromSummariesAreHatchedUntilWhole()
    {
        QTemporaryDir caches;
        QVERIFY(caches.isValid());
        LoadControl control;
        control.indexCacheDirectory = caches.path(); // no record of checked caches: every cache is new
        const QStringList files{ddpFixture(0), ddpFixture(1), ddpFixture(2), ddpFixture(3)};
        QCOMPARE(Session::load(files, control).failures().size(), std::size_t(0)); // writes the caches
        control.summariesOfUncheckedCaches = true;
        auto first = std::make_shared<const Session>(Session::load(files, control));
        QCOMPARE(first->ranks().size(), std::size_t(4));
        for (const RankEntry &entry : first->ranks())
            QVERIFY(entry.report->summariesOnly);
        TimelineView view;
        view.resize(1200, 700);
        view.setSession(first);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        TimelineCanvas *c = view.canvas();
        int collapsedRank = -1;
        for (std::size_t r = 0; r < c->rows().rows().size(); ++r) {
            const TimelineRow &row = c->rows().rows()[r];
            if (row.kind == TimelineRow::Kind::Group && row.parent < 0 && row.rank == 2) {
                collapsedRank = int(r);
                c->rows().setCollapsed(collapsedRank, true);
            }
        }
        QVERIFY(collapsedRank >= 0);
        c->rowsChanged();
        const TimeRange visible{first->extent().start + first->extent().duration() / 4, first->extent().start + first->extent().duration() / 2};
        view.zoom()->show(visible);
        c->viewport()->repaint();
        int hatched = 0, busyColumns = 0;
        for (const RowGeometry &g : c->geometry().rows()) {
            const TimelineRow &row = c->rows().rows()[std::size_t(g.row)];
            if (row.kind == TimelineRow::Kind::Group) {
                busyColumns += int(std::count_if(g.busy.begin(), g.busy.end(), [](float share) { return share > 0; }));
                continue;
            }
            QVERIFY(g.pending && g.rects.empty());
            ++hatched;
            QVERIFY(!c->eventAt(QPoint(c->labelWidth() + 300, g.top + FrameGeometry::kLaneTopMargin + 2)));
        }
        QVERIFY(hatched > 0);
        QVERIFY2(busyColumns > 0, "the collapsed rank draws its GPU busy summary");
        QCOMPARE(c->pendingRows(), 0); // nothing waits on the worker: the events come with the whole session

        auto whole = std::make_shared<const Session>(first->withWholeReports(control));
        QVERIFY(!whole->hasSummariesOnlyRanks());
        QCOMPARE(whole->ranks().size(), first->ranks().size());
        view.replaceSession(whole);
        QCOMPARE(view.zoom()->visible().start, visible.start);
        QCOMPARE(view.zoom()->visible().end, visible.end);
        QVERIFY(c->rows().rows()[std::size_t(collapsedRank)].collapsed);
        c->viewport()->repaint();
        QTRY_COMPARE_WITH_TIMEOUT(c->pendingRows(), 0, 10000);
        int withEvents = 0;
        for (const RowGeometry &g : c->geometry().rows())
            withEvents += !g.pending && !g.rects.empty();
        QVERIFY(withEvents > 0);

        // The rows are laid out alike from the summaries and from the whole
        // reports (what keeping the arrangement needs), counters included.
        QTemporaryDir kinetoCaches;
        LoadControl kineto;
        kineto.indexCacheDirectory = kinetoCaches.path();
        const QStringList traces{dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz")),
                                 dataPath(QStringLiteral("kineto/ddp_gloo_rank1.pt.trace.json.gz"))};
        const Session written = Session::load(traces, kineto);
        QVERIFY(std::any_of(written.reports().begin(), written.reports().end(), [](const ReportPtr &r) { return !r->counters.empty(); }));
        kineto.summariesOfUncheckedCaches = true;
        const Session summaries = Session::load(traces, kineto);
        QVERIFY(summaries.hasSummariesOnlyRanks());
        TimelineRows fromSummaries, fromWhole;
        fromSummaries.build(summaries);
        fromWhole.build(summaries.withWholeReports(kineto));
        QCOMPARE(fromSummaries.rows().size(), fromWhole.rows().size());
        for (std::size_t r = 0; r < fromWhole.rows().size(); ++r) {
            QCOMPARE(fromSummaries.rows()[r].label, fromWhole.rows()[r].label);
            QCOMPARE(fromSummaries.rows()[r].parent, fromWhole.rows()[r].parent);
        }
    }

    // Hovering the memory counter reads its value there; a range gives min, mean, max.
    void counterRowsReadOutValues()
    {
        TimelineRows &rows = canvas()->rows();
        int counterRow = -1;
        for (int r : rows.shownRows())
            if (rows.rows()[std::size_t(r)].kind == TimelineRow::Kind::Counter)
                counterRow = r;
        QVERIFY(counterRow >= 0);
        const RankEntry &entry = m_view->session()->ranks()[0];
        const CounterTrack &c = entry.report->counters[std::size_t(rows.rows()[std::size_t(counterRow)].counter)];
        // Zoom onto one sample so the pixel reads it.
        const std::size_t sample = c.time.size() / 2;
        const TimeNs at = c.time[sample] + entry.sessionOffset;
        zoom()->show({at - 1000, at + 1000});
        const QRect rect = canvas()->rowRect(counterRow);
        const int x = canvas()->labelWidth() + canvas()->trackAreaWidth() * 3 / 4; // just after the sample
        const QString tip = canvas()->input()->tooltipAt(QPoint(x, rect.center().y()));
        QVERIFY2(tip.contains(formatCounterValue(c.value[sample], c.unit) + QStringLiteral(" at ")), qPrintable(tip));
        zoom()->setSelection(TimeRange{c.time.front() + entry.sessionOffset, c.time.back() + entry.sessionOffset});
        const QString range = canvas()->counterRangeText(rows.rows()[std::size_t(counterRow)]);
        QVERIFY2(range.contains(QStringLiteral("max ") + formatCounterValue(c.largest(), c.unit)), qPrintable(range));
        QVERIFY(range.contains(QStringLiteral("min ")) && range.contains(QStringLiteral("mean ")));
        zoom()->setSelection(std::nullopt);
    }

    // A panel points at a gap of rank 2's GPU while rank 2 is collapsed and
    // scrolled away: its all-streams row is expanded into view and the mark
    // stays on it.
    void aMarkBringsItsRowIntoView()
    {
        auto session = std::make_shared<Session>(Session::load({ddpFixture(0), ddpFixture(1), ddpFixture(2), ddpFixture(3)}));
        TimelineView view;
        view.resize(1200, 300);
        view.setSession(session);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        TimelineCanvas *c = view.canvas();
        for (std::size_t r = 0; r < c->rows().rows().size(); ++r) {
            const TimelineRow &row = c->rows().rows()[r];
            if (row.kind == TimelineRow::Kind::Group && row.rank == 2)
                c->rows().setCollapsed(int(r), true);
        }
        c->rowsChanged();
        const TimeRange gap{session->extent().start + 1'000'000, session->extent().start + 2'000'000};
        const int row = c->showMark(TimeMark{2, 0, gap, std::nullopt, QStringLiteral("GPU gap"), {}});
        QVERIFY(row >= 0);
        const TimelineRow &marked = c->rows().rows()[std::size_t(row)];
        QCOMPARE(marked.rank, 2);
        QVERIFY(marked.onGpu);
        QCOMPARE(session->ranks()[2].report->tracks[marked.tracks.front()].deviceId, 0);
        for (int p = marked.parent; p >= 0; p = c->rows().rows()[std::size_t(p)].parent)
            QVERIFY(!c->rows().rows()[std::size_t(p)].collapsed);
        const QRect rect = c->rowRect(row);
        QVERIFY2(!rect.isNull() && rect.top() >= 0 && rect.bottom() <= c->viewport()->height(),
                 qPrintable(QStringLiteral("%1..%2 of %3").arg(rect.top()).arg(rect.bottom()).arg(c->viewport()->height())));
        QCOMPARE(c->markRow(), row);
        // Without a GPU, the rank's own row; Esc-like clearing drops it.
        QCOMPARE(c->rows().rows()[std::size_t(c->showMark(TimeMark{1, -1, gap, std::nullopt, {}, {}}))].kind, TimelineRow::Kind::Group);
        c->showMark(std::nullopt);
        QCOMPARE(c->markRow(), -1);
    }

    void derivedGpuRowsArriveFromAWorker()
    {
        // View > Derived GPU Rows: the counters are computed on a worker,
        // the rows come when they are ready; turned off meanwhile, they do
        // not come at all.
        const auto derivedRows = [&] {
            int n = 0;
            for (const TimelineRow &row : canvas()->rows().rows())
                n += row.derivedCounter ? 1 : 0;
            return n;
        };
        canvas()->setDerivedGpuRowsForAll(true);
        canvas()->setDerivedGpuRowsForAll(false);
        QVERIFY(!canvas()->derivedGpuRowsPending());
        QTest::qWait(200);
        QCOMPARE(derivedRows(), 0);
        canvas()->setDerivedGpuRowsForAll(true);
        QVERIFY(canvas()->derivedGpuRowsPending());
        QCOMPARE(derivedRows(), 0);
        QTRY_VERIFY(!canvas()->derivedGpuRowsPending());
        QCOMPARE(derivedRows(), 4); // slow_1gpu has one GPU
        QCOMPARE(canvas()->derivedGpuRanks(), std::set<int>{0});
        // Computed once: off and on again shows them at once.
        canvas()->setDerivedGpuRowsForAll(false);
        QCOMPARE(derivedRows(), 0);
        canvas()->setDerivedGpuRowsForAll(true);
        QVERIFY(!canvas()->derivedGpuRowsPending());
        QCOMPARE(derivedRows(), 4);
        canvas()->setDerivedGpuRowsForAll(false);
    }
};

QTEST_MAIN(TestTimelineCanvas)
#include "tst_timelinecanvas.moc"
