#include "timeline/displaytime.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

// Linear between (a0, b0) and (a1, b1), in double: spans of hours at ns.
TimeNs interpolate(TimeNs t, TimeNs a0, TimeNs a1, TimeNs b0, TimeNs b1)
{
    return b0 + TimeNs(std::llround(double(t - a0) * double(b1 - b0) / double(a1 - a0)));
}

template <class From, class To>
TimeNs mapThrough(const std::vector<stats::StretchPoint> &points, TimeNs t, From from, To to)
{
    // Before the first point and after the last: moved, not stretched.
    if (t <= from(points.front()))
        return t - from(points.front()) + to(points.front());
    if (t >= from(points.back()))
        return t - from(points.back()) + to(points.back());
    const auto next = std::upper_bound(points.begin(), points.end(), t, [&](TimeNs v, const stats::StretchPoint &p) { return v < from(p); });
    const auto prev = next - 1;
    return interpolate(t, from(*prev), from(*next), to(*prev), to(*next));
}

TimeNs ownOf(const stats::StretchPoint &p)
{
    return p.own;
}
TimeNs shownOf(const stats::StretchPoint &p)
{
    return p.shown;
}

} // namespace

bool DisplayTime::isStretched() const
{
    return std::any_of(m_points.begin(), m_points.end(), [](const auto &p) { return !p.empty(); });
}

bool DisplayTime::isStretched(int rank) const
{
    return pointsOf(rank) != nullptr;
}

const std::vector<stats::StretchPoint> *DisplayTime::pointsOf(int rank) const
{
    if (rank < 0 || std::size_t(rank) >= m_points.size() || m_points[std::size_t(rank)].empty())
        return nullptr;
    return &m_points[std::size_t(rank)];
}

TimeNs DisplayTime::toDisplay(int rank, TimeNs sessionTime) const
{
    const auto *points = pointsOf(rank);
    return points ? mapThrough(*points, sessionTime, ownOf, shownOf) : sessionTime;
}

TimeNs DisplayTime::toSession(int rank, TimeNs displayTime) const
{
    const auto *points = pointsOf(rank);
    return points ? mapThrough(*points, displayTime, shownOf, ownOf) : displayTime;
}

std::vector<DisplayTime::Piece> DisplayTime::pieces(int rank, const TimeScale &view, int widthPx) const
{
    const auto *points = pointsOf(rank);
    if (!points)
        return {{0, widthPx, view}};
    std::vector<Piece> out;
    // A piece's scale: x = (own - start) / nsPerPixel, matching the view at
    // both of its ends.
    auto add = [&](double xFrom, double xTo, TimeNs own0, TimeNs shown0, double ownPerShown) {
        const double edge = double(widthPx) + 1.0; // clamped before int: the outer pieces reach infinity
        const int x0 = std::max(0, int(std::floor(std::clamp(xFrom, -1.0, edge))));
        const int x1 = std::min(widthPx, int(std::ceil(std::clamp(xTo, -1.0, edge))));
        if (x0 >= x1)
            return;
        TimeScale s;
        s.nsPerPixel = view.nsPerPixel * ownPerShown;
        s.start = own0 - TimeNs(std::llround(view.x(shown0) * s.nsPerPixel));
        out.push_back({x0, x1, s});
    };
    const auto &p = *points;
    const double inf = 1e18;
    add(-inf, view.x(p.front().shown), p.front().own, p.front().shown, 1.0);
    for (std::size_t i = 1; i < p.size(); ++i)
        add(view.x(p[i - 1].shown), view.x(p[i].shown), p[i - 1].own, p[i - 1].shown,
            double(p[i].own - p[i - 1].own) / double(p[i].shown - p[i - 1].shown));
    add(view.x(p.back().shown), inf, p.back().own, p.back().shown, 1.0);
    // Neighbours share an edge pixel (floor/ceil): each pixel to one piece.
    for (std::size_t i = 1; i < out.size(); ++i)
        out[i].x0 = std::max(out[i].x0, out[i - 1].x1);
    out.erase(std::remove_if(out.begin(), out.end(), [](const Piece &piece) { return piece.x0 >= piece.x1; }), out.end());
    return out;
}

} // namespace rankscope
