#include "timeline/rows/samplesrow.h"

#include "session/eventdetails.h"
#include "theme/theme.h"
#include "timeline/timelinecanvas.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rankscope {

int SamplesRowItem::height(const TimelineRow &) const
{
    return TimelineRows::kLaneHeight + 3;
}

void SamplesRowItem::build(RowFrame &frame, RowGeometry &g, const TimelineRow &r) const
{
    const GeometryPass &pass = frame.pass;
    const RowState &state = frame.state;
    const RankEntry &entry = frame.session.ranks()[std::size_t(r.rank)];
    const Report &report = *entry.report;
    const CpuSampling &sampling = report.sampling;
    if (r.sampledThread < 0 || std::size_t(r.sampledThread) >= sampling.threads.size())
        return;
    const std::span<const CpuSample> samples = sampling.samplesOf(sampling.threads[std::size_t(r.sampledThread)]);
    const std::vector<bool> *marked = std::size_t(r.rank) < state.markedChains.size() && !state.markedChains[std::size_t(r.rank)].empty()
                                          ? &state.markedChains[std::size_t(r.rank)]
                                          : nullptr;
    const QRgb markedColor = Theme::markedSampleColor().rgb();
    g.sampleCount.assign(std::size_t(pass.width), 0);
    g.sampleColor.assign(std::size_t(pass.width), 0);
    // Each pixel column's samples by two binary searches: a frame costs the
    // columns, not the samples (a long run samples millions).
    auto it = samples.begin();
    for (int x = 0; x < pass.width && it != samples.end(); ++x) {
        const TimeNs from = frame.displayTime.toSession(r.rank, pass.scale.time(x)) - entry.sessionOffset;
        const TimeNs to = std::max(from + 1, frame.displayTime.toSession(r.rank, pass.scale.time(x + 1)) - entry.sessionOffset);
        it = std::lower_bound(it, samples.end(), from, [](const CpuSample &s, TimeNs t) { return s.time < t; });
        const auto last = std::lower_bound(it, samples.end(), to, [](const CpuSample &s, TimeNs t) { return s.time < t; });
        if (last == it)
            continue;
        g.sampleCount[std::size_t(x)] = std::uint32_t(last - it);
        const auto markedOne =
            marked ? std::find_if(it, last, [&](const CpuSample &s) { return s.callchain < marked->size() && (*marked)[s.callchain]; }) : last;
        if (markedOne != last) {
            g.sampleColor[std::size_t(x)] = markedColor;
        } else if (state.sampleColoring == SampleColoring::ByThreadState) {
            g.sampleColor[std::size_t(x)] = Theme::threadStateColor(it->threadState).rgb();
        } else {
            const auto frames = sampling.callchain(it->callchain);
            g.sampleColor[std::size_t(x)] =
                Theme::moduleColor(frames.empty() ? std::string_view() : report.strings.view(sampling.frames[frames.front()].module)).rgb();
        }
        it = last;
    }
}

void SamplesRowItem::paint(QPainter &p, const RowPaint &paint, const TimelineRow &) const
{
    if (paintRowBase(p, paint))
        paintSamplesRow(p, paint.area);
}

RowChoice SamplesRowItem::choiceAt(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const
{
    const TimelineRow &r = canvas.rows().rows()[std::size_t(hit.row->row)];
    if (r.sampledThread < 0)
        return {};
    const TimeScale s = canvas.scale();
    const DisplayTime &display = canvas.displayTime();
    const int x = pos.x() - canvas.labelWidth();
    const RankEntry &entry = canvas.session()->ranks()[std::size_t(r.rank)];
    const TimeNs at = display.toSession(r.rank, s.time(x)) - entry.sessionOffset;
    const TimeNs slop = std::max<TimeNs>(1, display.toSession(r.rank, s.time(x + 3)) - display.toSession(r.rank, s.time(x)));
    return {std::nullopt, sampleNear(*canvas.session(), r.rank, std::uint32_t(r.sampledThread), at, slop)};
}

QString SamplesRowItem::tooltip(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const
{
    const TimelineRow &row = canvas.rows().rows()[std::size_t(hit.row->row)];
    const std::optional<SampleLocation> sample = choiceAt(canvas, hit, pos).sample;
    if (!sample)
        return row.label;
    const EventDetails d = describeSample(*canvas.session(), *sample);
    const Report &report = *canvas.session()->ranks()[std::size_t(sample->rank)].report;
    QString text =
        QStringLiteral("CPU sample at %1 · %2").arg(d.fields.front().value, threadStateName(report.sampling.samples[sample->sample].threadState));
    const QStringList frames = backtraceLines(report, report.sampling.samples[sample->sample].callchain);
    text += frames.isEmpty() ? QStringLiteral("\nno backtrace recorded") : QLatin1Char('\n') + frames.join(QLatin1Char('\n'));
    return text;
}

void SamplesRowItem::addToArea(const Session &session, const TimelineRow &row, AreaContents &area) const
{
    if (row.sampledThread < 0)
        return;
    const SampledThread &t = session.ranks()[std::size_t(row.rank)].report->sampling.threads[std::size_t(row.sampledThread)];
    area.sampledThreads.insert({row.rank, t.pid, t.tid});
}

void paintSamplesRow(QPainter &p, const RowArea &row)
{
    const RowGeometry &g = *row.geometry;
    if (g.sampleCount.empty())
        return;
    const std::uint32_t busiest = *std::max_element(g.sampleCount.begin(), g.sampleCount.end());
    if (busiest == 0)
        return;
    const int base = row.area.top() + row.area.height() - 2, span = row.area.height() - 4;
    for (std::size_t x = 0; x < g.sampleCount.size(); ++x) {
        if (g.sampleCount[x] == 0)
            continue;
        // A column with one sample among columns of many still shows (3 px).
        const int h = std::max(3, int(std::round(double(g.sampleCount[x]) / busiest * span)));
        p.fillRect(row.area.left() + int(x), base - h, 1, h, QColor::fromRgb(g.sampleColor[x]));
    }
}

} // namespace rankscope
