// Two runs side by side: the real PyTorch profiles of one model before
// (data-loader bound) and after a fix, lined up on their first steps and on
// one event and its counterpart. The expected times are the traces' own
// (ts/dur of ProfilerStep# and kernel events, read from the JSON with
// Python's json module), not the loader's.
#include "session/session.h"
#include "stats/comparison/runalignment.h"
#include "testdata.h"

#include <QtTest>
#include <algorithm>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

// user_annotation "ProfilerStep#2".."#7": ts in µs, from the JSON.
constexpr double kSlowStepTs[] = {4493981546684.026, 4493981693697.522, 4493981914378.977, 4493982139920.909, 4493982369858.799, 4493982604210.738};
constexpr double kFastStepTs[] = {4493991355413.343, 4493991374098.202, 4493991392720.771, 4493991411315.803, 4493991429885.352, 4493991448680.037};
// The most frequent kernel (60 in each run) and its 10th launch in each run.
const char *const kTransposeKernel = "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)0>"
                                     "(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, float const*, float*)";
constexpr double kFastTenthTransposeTs = 4493991370048.425;
constexpr TimeNs kFastTenthTransposeDuration = 371016;

TimeNs microsToNs(double us)
{
    return TimeNs(std::llround(us * 1000.0));
}
// A 13-digit µs timestamp as a double is exact to about 1 ns (its last
// bit is 2^-10 µs): a difference of four such times is good to 2 ns.
constexpr TimeNs kDoublePrecision = 2;

// Events of one rank named `name` on rows of `kind`, by start (the test's own scan).
std::vector<EventLocation> named(const Session &s, int rank, TrackKind kind, const QString &name)
{
    std::vector<EventLocation> out;
    const Report &r = *s.ranks()[std::size_t(rank)].report;
    for (std::uint32_t t = 0; t < r.tracks.size(); ++t)
        if (r.tracks[t].kind == kind)
            for (std::uint32_t e = 0; e < r.tracks[t].slices.size(); ++e)
                if (r.strings.string(r.tracks[t].slices.name(e)) == name)
                    out.push_back({rank, t, e});
    std::sort(out.begin(), out.end(),
              [&](const EventLocation &a, const EventLocation &b) { return s.sessionTime(a).start < s.sessionTime(b).start; });
    return out;
}

} // namespace

class TestRunAlignment : public QObject {
    Q_OBJECT
    std::unique_ptr<Session> m_both;

private slots:
    void initTestCase()
    {
        const Session slow = Session::load({dataPath(QStringLiteral("kineto/slow_rank0.pt.trace.json.gz"))});
        const Session fast = Session::load({dataPath(QStringLiteral("kineto/fast_rank0.pt.trace.json.gz"))});
        QCOMPARE(slow.ranks().size(), 1u);
        QCOMPARE(fast.ranks().size(), 1u);
        m_both = std::make_unique<Session>(Session::comparison(slow, fast));
    }

    void sidesAreLabelled()
    {
        const Session &s = *m_both;
        QVERIFY(s.isComparison());
        QCOMPARE(s.ranks().size(), 2u);
        QCOMPARE(s.ranks()[0].displayName(), QStringLiteral("A · rank 0"));
        QCOMPARE(s.ranks()[1].displayName(), QStringLiteral("B · rank 0"));
        QCOMPARE(s.rankIndicesOf(RunSide::B), std::vector<int>{1});
        QCOMPARE(s.rankIndicesOf(RunSide::None), (std::vector<int>{0, 1}));
        const Session b = s.subset({1});
        QCOMPARE(b.ranks().size(), 1u);
        QVERIFY(b.ranks()[0].report->filePath.endsWith(QLatin1String("fast_rank0.pt.trace.json.gz")));
        QCOMPARE(b.reports().size(), 1u);
        QVERIFY(!Session::fromReports(s.reports()).isComparison());
    }

    void firstStepsLineUp()
    {
        const std::optional<TimeNs> delta = runAnchorDelta(*m_both, RunAnchor::FirstStep);
        QVERIFY(delta);
        const Session aligned = movedRun(*m_both, RunSide::B, *delta);
        QCOMPARE(runAnchorDelta(aligned, RunAnchor::FirstStep), std::optional<TimeNs>(0));
        // Step k of B starts where the traces say, relative to step 0 of each run.
        for (int k = 0; k < 6; ++k) {
            const QString step = QStringLiteral("ProfilerStep#%1").arg(k + 2);
            const auto a = named(aligned, 0, TrackKind::CpuOp, step), b = named(aligned, 1, TrackKind::CpuOp, step);
            QVERIFY2(!a.empty() && !b.empty(), qPrintable(step));
            const TimeNs expected = microsToNs(kFastStepTs[k] - kFastStepTs[0]) - microsToNs(kSlowStepTs[k] - kSlowStepTs[0]);
            const TimeNs got = aligned.sessionTime(b.front()).start - aligned.sessionTime(a.front()).start;
            QVERIFY2(std::llabs(got - expected) <= kDoublePrecision,
                     qPrintable(QStringLiteral("%1: %2, expected %3").arg(step).arg(got).arg(expected)));
        }
    }

    void firstEventsLineUp()
    {
        const std::optional<TimeNs> delta = runAnchorDelta(*m_both, RunAnchor::Starts);
        QVERIFY(delta);
        const Session aligned = movedRun(*m_both, RunSide::B, *delta);
        QCOMPARE(aligned.subset({0}).extent().start, aligned.subset({1}).extent().start);
        QCOMPARE(aligned.ranks()[0].sessionOffset, m_both->ranks()[0].sessionOffset); // A stays
    }

    void counterpartIsTheSameOccurrence()
    {
        const QString kernel = QString::fromUtf8(kTransposeKernel);
        const auto inA = named(*m_both, 0, TrackKind::Kernel, kernel), inB = named(*m_both, 1, TrackKind::Kernel, kernel);
        QCOMPARE(inA.size(), 60u);
        QCOMPARE(inB.size(), 60u);
        const std::optional<EventLocation> other = counterpartEvent(*m_both, inA[9]);
        QVERIFY(other);
        QCOMPARE(other->rank, 1);
        QCOMPARE(m_both->sessionTime(*other).duration(), kFastTenthTransposeDuration);
        const auto stepsB = named(*m_both, 1, TrackKind::CpuOp, QStringLiteral("ProfilerStep#2"));
        QVERIFY(!stepsB.empty());
        QVERIFY(std::llabs(m_both->sessionTime(*other).start - m_both->sessionTime(stepsB.front()).start
                           - microsToNs(kFastTenthTransposeTs - kFastStepTs[0]))
                <= kDoublePrecision);
        // And back again.
        QCOMPARE(counterpartEvent(*m_both, *other), std::optional<EventLocation>(inA[9]));
        // Aligning on the pair puts them one above the other.
        const TimeNs delta = m_both->sessionTime(inA[9]).start - m_both->sessionTime(*other).start;
        const Session aligned = movedRun(*m_both, RunSide::B, delta);
        QCOMPARE(aligned.sessionTime(*other).start, aligned.sessionTime(inA[9]).start);
    }

    void stretchPinsStepKOfBToStepKOfA()
    {
        const std::vector<std::vector<StretchPoint>> points = stepStretchPoints(*m_both);
        QCOMPARE(points.size(), 2u);
        QVERIFY(points[0].empty());      // A is drawn as recorded
        QCOMPARE(points[1].size(), 12u); // six steps, each start and end (they do not touch)
        for (int k = 0; k < 6; ++k) {
            const StretchPoint &start = points[1][std::size_t(2 * k)];
            QVERIFY(std::llabs(start.own - points[1][0].own - microsToNs(kFastStepTs[k] - kFastStepTs[0])) <= kDoublePrecision);
            QVERIFY(std::llabs(start.shown - points[1][0].shown - microsToNs(kSlowStepTs[k] - kSlowStepTs[0])) <= kDoublePrecision);
        }
        QVERIFY(stepStretchPoints(m_both->subset({0})).front().empty()); // no comparison, nothing to stretch
    }

    void noCounterpartOutsideAComparison()
    {
        const Session one = m_both->subset({0});
        const Session plain = Session::fromReports(one.reports());
        const auto kernels = named(plain, 0, TrackKind::Kernel, QString::fromUtf8(kTransposeKernel));
        QVERIFY(!kernels.empty());
        QVERIFY(!counterpartEvent(plain, kernels.front()));
        QVERIFY(!runAnchorDelta(plain, RunAnchor::FirstStep));
    }
};

QTEST_GUILESS_MAIN(TestRunAlignment)
#include "tst_runalignment.moc"
