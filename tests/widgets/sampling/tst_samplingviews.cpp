// CPU samples in the views: a sample row per sampled thread on the
// timeline, a click on a tick giving its backtrace, a function's samples
// marked; the CPU samples panel's trees, search and export against the
// model's counts (themselves tested against SQL, tst_cpusampling); the
// icicle's zoom; Details of a call with a backtrace.
#include "sampling/calltreemodel.h"
#include "sampling/icicleview.h"
#include "sampling/samplingpanel.h"
#include "session/eventdetails.h"
#include "session/sampledetails.h"
#include "testdata.h"
#include "theme/theme.h"
#include "timeline/timelinecanvas.h"
#include "timeline/timelineinput.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

QString saxpy()
{
    return dataPath(QStringLiteral("third-party/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"));
}
QString cloverleaf()
{
    return dataPath(QStringLiteral("third-party/pipit/perlmutter-cloverleaf-cuda.sqlite"));
}

void click(QWidget *w, QPoint pos, Qt::MouseButton button = Qt::LeftButton)
{
    QMouseEvent press(QEvent::MouseButtonPress, QPointF(pos), w->mapToGlobal(QPointF(pos)), button, button, Qt::NoModifier);
    QApplication::sendEvent(w, &press);
    QMouseEvent release(QEvent::MouseButtonRelease, QPointF(pos), w->mapToGlobal(QPointF(pos)), button, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(w, &release);
}

} // namespace

class TestSamplingViews : public QObject {
    Q_OBJECT
    std::shared_ptr<Session> m_saxpy, m_clover;

private slots:
    void initTestCase()
    {
        m_saxpy = std::make_shared<Session>(Session::load({saxpy()}));
        m_clover = std::make_shared<Session>(Session::load({cloverleaf()}));
        QCOMPARE(m_saxpy->ranks().size(), std::size_t(1));
        QCOMPARE(m_clover->ranks().size(), std::size_t(1));
    }

    void detailsOfACallShowItsBacktrace()
    {
        const Report &r = *m_clover->ranks()[0].report;
        QVERIFY(!r.sampling.backtraces.empty());
        const EventBacktrace &b = r.sampling.backtraces.front();
        const EventDetails d = describeEvent(*m_clover, {0, b.track, b.event});
        const auto field = [&](const QString &label) {
            return std::find_if(d.fields.begin(), d.fields.end(), [&](const DetailField &f) { return f.label == label; });
        };
        QVERIFY(field(QStringLiteral("Backtrace")) != d.fields.end());
        const auto frames = r.sampling.callchain(b.callchain);
        QCOMPARE(field(QStringLiteral("#0"))->value, frameText(r, r.sampling.frames[frames[0]]));
        QVERIFY(field(QStringLiteral("#%1").arg(frames.size() - 1)) != d.fields.end());
    }

    void panelListsWhatTheProfileCounts()
    {
        SamplingPanel panel;
        panel.setSession(m_saxpy);
        panel.setShape(CallTreeModel::Shape::Flat);
        panel.ensureComputed();
        const stats::SamplingProfile expected = stats::samplingProfile(*m_saxpy->ranks()[0].report);
        const auto flat = expected.flat();
        CallTreeModel *model = panel.model();
        QCOMPARE(model->rowCount(), int(flat.size()));
        QCOMPARE(model->data(model->index(0, CallTreeModel::FunctionColumn), Qt::DisplayRole).toString(), QStringLiteral("main"));
        QCOMPARE(model->data(model->index(0, CallTreeModel::SelfColumn), Qt::UserRole).toULongLong(), 2980ull);
        QVERIFY(panel.note().contains(QStringLiteral("5451")) || panel.note().contains(QStringLiteral("5,451")));
        // Sorted by a header: every row's total at most the one above.
        model->sort(CallTreeModel::TotalColumn, Qt::DescendingOrder);
        for (int row = 1; row < model->rowCount(); ++row)
            QVERIFY(model->data(model->index(row, CallTreeModel::TotalColumn), Qt::UserRole).toULongLong()
                    <= model->data(model->index(row - 1, CallTreeModel::TotalColumn), Qt::UserRole).toULongLong());
        // Top-Down: the roots' totals are every sample.
        panel.setShape(CallTreeModel::Shape::TopDown);
        qulonglong roots = 0;
        for (int row = 0; row < model->rowCount(); ++row)
            roots += model->data(model->index(row, CallTreeModel::TotalColumn), Qt::UserRole).toULongLong();
        QCOMPARE(roots, qulonglong(expected.samples));
    }

    void searchFindsAndActivatingMarks()
    {
        SamplingPanel panel;
        panel.setSession(m_saxpy);
        panel.setShape(CallTreeModel::Shape::TopDown);
        panel.ensureComputed();
        QVERIFY(panel.findNext(QStringLiteral("ABS(double")));
        const QModelIndex found = panel.tree()->currentIndex();
        QVERIFY(found.isValid());
        QVERIFY(found.data().toString().contains(QStringLiteral("std::abs(double)")));
        QVERIFY(!panel.findNext(QStringLiteral("no function has this name")));
        QSignalSpy marked(&panel, &SamplingPanel::functionMarked);
        emit panel.tree()->activated(found);
        QCOMPARE(marked.size(), 1);
        QCOMPARE(marked[0][0].toString(), QStringLiteral("std::abs(double)"));
        QVERIFY(marked[0][1].toString().endsWith(QStringLiteral("saxpy-mpi-cuda")));
        QCOMPARE(marked[0][2].toBool(), false);
        // Grouped by module, a row is a module.
        stats::SamplingFilter byModule;
        byModule.groupByModule = true;
        panel.setFilter(byModule);
        panel.ensureComputed();
        for (const stats::SampledFunction &f : panel.model()->profile()->functions)
            QCOMPARE(f.function, f.module);
    }

    void areaSelectionsThreadsAloneAreCounted()
    {
        SamplingPanel panel;
        panel.setSession(m_clover);
        const Report &r = *m_clover->ranks()[0].report;
        const SampledThread &thread = r.sampling.threads[1];
        panel.setThreads(std::set<stats::SamplingScope::ThreadKey>{{0, thread.pid, thread.tid}});
        panel.ensureComputed();
        std::uint64_t withChain = 0;
        for (const CpuSample &sample : r.sampling.samplesOf(thread))
            withChain += sample.callchain != CpuSample::kNoCallchain;
        QCOMPARE(panel.model()->profile()->samples, withChain);
        QVERIFY2(panel.note().contains(QStringLiteral("area selection")), qPrintable(panel.note()));
        panel.setThreads(std::nullopt);
        panel.ensureComputed();
        QCOMPARE(panel.model()->profile()->samples, stats::samplingProfile(r).samples);
    }

    void exportWritesTheThreeTables()
    {
        SamplingPanel panel;
        panel.setSession(m_saxpy);
        panel.ensureComputed();
        QTemporaryDir dir;
        const QStringList written = panel.exportAll(dir.path());
        for (const QString &name :
             {QStringLiteral("cpu_sampling_flat"), QStringLiteral("cpu_sampling_top_down"), QStringLiteral("cpu_sampling_bottom_up")})
            QVERIFY2(written.contains(dir.filePath(name + QStringLiteral(".csv"))), qPrintable(written.join(QLatin1Char(' '))));
        const stats::SamplingProfile profile = stats::samplingProfile(*m_saxpy->ranks()[0].report);
        QCOMPARE(readText(dir.filePath(QStringLiteral("cpu_sampling_flat.csv"))), stats::samplingFlatTable(profile).toCsv());
    }

    void icicleZoomsIntoAFunctionAndBackOut()
    {
        const stats::SamplingProfile profile = stats::samplingProfile(*m_clover->ranks()[0].report);
        IcicleView icicle;
        icicle.resize(800, 600);
        stats::CallTree tree = profile.topDown();
        const std::uint32_t widest = tree.nodes[0].children.front();
        icicle.setTree(std::make_shared<const stats::SamplingProfile>(profile), std::move(tree));
        QCOMPARE(icicle.nodeAt({2, 5}).value_or(0), widest);
        QSignalSpy activated(&icicle, &IcicleView::functionActivated);
        click(&icicle, {2, 5});
        QCOMPARE(icicle.focus(), widest);
        QTest::keyClick(&icicle, Qt::Key_Escape);
        QCOMPARE(icicle.focus(), 0u);
        QTest::mouseDClick(&icicle, Qt::LeftButton, Qt::NoModifier, {2, 5});
        QVERIFY(!activated.isEmpty());
    }

    // Last: it shows a window.
    void timelineHasASampleRowPerThreadAndClicksGiveBacktraces()
    {
        TimelineView view;
        view.resize(1400, 900);
        view.setSession(m_clover);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        TimelineCanvas *canvas = view.canvas();
        const Report &r = *m_clover->ranks()[0].report;
        std::vector<int> sampleRows;
        for (int row = 0; row < int(canvas->rows().rows().size()); ++row)
            if (canvas->rows().rows()[std::size_t(row)].kind == TimelineRow::Kind::Samples)
                sampleRows.push_back(row);
        QCOMPARE(sampleRows.size(), r.sampling.threads.size());
        // The busiest thread's row: zoom to one of its samples and click it.
        const TimelineRow &row = canvas->rows().rows()[std::size_t(sampleRows.front())];
        const SampledThread &thread = r.sampling.threads[std::size_t(row.sampledThread)];
        const CpuSample &sample = r.sampling.samples[thread.first + thread.count / 2];
        const TimeNs at = sample.time + m_clover->ranks()[0].sessionOffset;
        view.zoom()->show({at - 50'000, at + 50'000});
        canvas->revealRow(sampleRows.front());
        QApplication::processEvents();
        canvas->viewport()->repaint();
        const QRect rect = canvas->rowRect(sampleRows.front());
        const int x = canvas->labelWidth() + int(std::floor(canvas->scale().x(at)));
        const QPoint pos(x, rect.center().y());
        const std::optional<SampleLocation> hit = canvas->sampleAt(pos);
        QVERIFY(hit);
        QCOMPARE(hit->sample, thread.first + thread.count / 2);
        // Hovering it shows its backtrace.
        const QString tip = canvas->input()->tooltipAt(pos);
        QVERIFY2(tip.startsWith(QStringLiteral("CPU sample at ")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("#0 ") + frameText(r, r.sampling.frames[r.sampling.callchain(sample.callchain).front()])),
                 qPrintable(tip));
        QSignalSpy chosen(canvas, &TimelineCanvas::sampleChosen);
        click(canvas->viewport(), pos);
        QCOMPARE(chosen.size(), 1);
        const TimeMark mark = chosen[0][0].value<TimeMark>();
        QCOMPARE(mark.time.start, at);
        QStringList labels;
        for (const auto &[label, value] : mark.fields)
            labels << label;
        QVERIFY(labels.contains(QStringLiteral("Thread state")));
        if (sample.callchain != CpuSample::kNoCallchain)
            QVERIFY(labels.contains(QStringLiteral("#0")));
        // Coloured by the module of its innermost frame, or by its thread's state.
        const auto colorAt = [&] {
            canvas->viewport()->repaint();
            const RowGeometry *row = canvas->geometry().rowAt(pos.y());
            return row && !row->sampleColor.empty() ? QColor::fromRgb(row->sampleColor[std::size_t(x - canvas->labelWidth())]) : QColor();
        };
        const auto chain = r.sampling.callchain(sample.callchain);
        QCOMPARE(colorAt().rgb(), Theme::moduleColor(r.strings.view(r.sampling.frames[chain.front()].module)).rgb());
        canvas->setSampleColoring(TimelineCanvas::SampleColoring::ByThreadState);
        QCOMPARE(colorAt().rgb(), Theme::threadStateColor(sample.threadState).rgb());
        canvas->setSampleColoring(TimelineCanvas::SampleColoring::ByModule);
        // An area over the row names its thread.
        canvas->setAreaRows(sampleRows.front(), sampleRows.front());
        QCOMPARE(canvas->areaSampledThreads(), (std::set<stats::SamplingScope::ThreadKey>{{0, thread.pid, thread.tid}}));
        canvas->clearAreaRows();
        // Marking the sample's innermost function colours its column.
        const auto frames = r.sampling.callchain(sample.callchain);
        QVERIFY(!frames.empty());
        const CallFrame &inner = r.sampling.frames[frames.front()];
        std::vector<std::vector<bool>> marked{callchainsWith(r, r.strings.string(inner.function), r.strings.string(inner.module), false)};
        QVERIFY(marked[0][sample.callchain]);
        canvas->setMarkedCallchains(std::move(marked));
        canvas->viewport()->repaint();
        const RowGeometry *g = canvas->geometry().rowAt(pos.y());
        QVERIFY(g && !g->sampleColor.empty());
        QCOMPARE(QColor::fromRgb(g->sampleColor[std::size_t(x - canvas->labelWidth())]), Theme::markedSampleColor());
    }
};

QTEST_MAIN(TestSamplingViews)
#include "tst_samplingviews.moc"
