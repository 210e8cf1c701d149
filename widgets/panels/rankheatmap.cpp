#include "panels/rankheatmap.h"
#include "common/plaintext.h"

#include "core/units.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

constexpr int kAxisHeight = 18;
constexpr int kLegendWidth = 150;
constexpr int kMaxLabelWidth = 160;
constexpr int kMinimumRowHeight = 8; // px: a rank's row stays a visible stripe, every other one named

} // namespace

RankHeatmap::RankHeatmap(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void RankHeatmap::setMap(stats::RankTimeMap map, QStringList rowNames, QString measure, TimeNs origin)
{
    m_origin = origin;
    m_map = std::move(map);
    m_rowNames = std::move(rowNames);
    m_measure = std::move(measure);
    const int rows = int(m_map.rankIndices.size());
    float largest = 0.0f;
    for (const float share : m_map.shares)
        if (!std::isnan(share))
            largest = std::max(largest, share);
    m_scaleTop = 1.0f;
    for (const float step : {0.001f, 0.002f, 0.005f, 0.01f, 0.02f, 0.05f, 0.1f, 0.2f, 0.5f})
        if (largest <= step) {
            m_scaleTop = step;
            break;
        }
    m_image = QImage(std::max(m_map.bins, 1), std::max(rows, 1), QImage::Format_RGB32);
    m_image.fill(palette().color(QPalette::Base));
    for (int row = 0; row < rows; ++row)
        for (int bin = 0; bin < m_map.bins; ++bin)
            m_image.setPixelColor(bin, row, cellColor(m_map.share(std::size_t(row), bin)));
    m_hoverRow = -1;
    QToolTip::hideText(); // it described the map before
    updateGeometry();
    update();
}

QColor RankHeatmap::shareColor(float fraction)
{
    if (std::isnan(fraction))
        return QColor(0xd8, 0xd8, 0xd8); // nothing recorded: neither busy nor idle
    // Viridis' ends and middle: dark (none) to yellow (all), readable for
    // every kind of colour vision, and darkness follows the share.
    static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62),
                                   QColor(0xfd, 0xe7, 0x25)};
    const double x = std::clamp(double(fraction), 0.0, 1.0) * 4.0;
    const int i = std::min(int(x), 3);
    const double f = x - i;
    auto mix = [&](int a, int b) { return int(std::lround(a + (b - a) * f)); };
    return QColor(mix(stops[i].red(), stops[i + 1].red()), mix(stops[i].green(), stops[i + 1].green()), mix(stops[i].blue(), stops[i + 1].blue()));
}

int RankHeatmap::labelWidth() const
{
    int widest = 0;
    for (const QString &name : m_rowNames)
        widest = std::max(widest, fontMetrics().horizontalAdvance(name));
    return std::min(widest + 8, kMaxLabelWidth);
}

QRect RankHeatmap::cellArea() const
{
    const int left = labelWidth();
    return QRect(left, 0, std::max(width() - left - 4, 1), std::max(height() - kAxisHeight, 1));
}

QSize RankHeatmap::sizeHint() const
{
    // Rows of a readable height up to 32 ranks; more ranks share the height.
    const int rows = std::max(int(m_map.rankIndices.size()), 1);
    return QSize(600, std::min(rows, 32) * 14 + kAxisHeight);
}

QSize RankHeatmap::minimumSizeHint() const
{
    // Every rank at least kMinimumRowHeight tall; in a scroll area beyond
    // the panel's height. Up to 8 ranks get rows tall enough for their names.
    const int rows = int(m_map.rankIndices.size());
    const int named = std::clamp(rows, 3, 8) * (fontMetrics().height() + 2);
    return QSize(200, std::max(named, rows * kMinimumRowHeight) + kAxisHeight);
}

std::pair<int, int> RankHeatmap::cellAt(QPoint position) const
{
    const QRect area = cellArea();
    const int rows = int(m_map.rankIndices.size());
    if (!area.contains(position) || rows == 0 || m_map.bins == 0)
        return {-1, -1};
    const int row = std::clamp(int(double(position.y() - area.top()) * rows / area.height()), 0, rows - 1);
    const int bin = std::clamp(int(double(position.x() - area.left()) * m_map.bins / area.width()), 0, m_map.bins - 1);
    return {row, bin};
}

QString RankHeatmap::timeText(TimeNs t) const
{
    return formatTimestamp(t - m_origin);
}

std::pair<QString, QString> RankHeatmap::axisTexts() const
{
    return {timeText(m_map.range.start), timeText(m_map.range.end)};
}

QString RankHeatmap::describeCell(int row, int bin) const
{
    const TimeRange range = m_map.binRange(bin);
    const float share = m_map.share(std::size_t(row), bin);
    const QString value = std::isnan(share) ? tr("nothing recorded") : QStringLiteral("%1 %").arg(double(share) * 100.0, 0, 'f', 1);
    return tr("%1 · %2 to %3\n%4: %5\nClick to show this bin in the timeline.")
        .arg(m_rowNames.value(row), timeText(range.start), timeText(range.end), m_measure, value);
}

void RankHeatmap::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    const QRect area = cellArea();
    const int rows = int(m_map.rankIndices.size());
    if (rows == 0 || m_map.bins == 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("No ranks to map"));
        return;
    }
    // Cells stay sharp whatever the scale: no smoothing between ranks.
    p.drawImage(area, m_image);
    // Every row's name when rows are tall enough; else every k-th row's,
    // so that names do not overlap (the tooltip names any row).
    const double rowHeight = double(area.height()) / rows;
    const int textHeight = fontMetrics().height();
    const int every = std::max(1, int(std::ceil(textHeight / rowHeight)));
    p.setPen(palette().color(QPalette::WindowText));
    for (int row = 0; row < rows; row += every) {
        const double middle = area.top() + (row + 0.5) * rowHeight;
        const QRect label(0, std::max(0, int(middle - textHeight / 2.0)), area.left() - 6, textHeight);
        p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, fontMetrics().elidedText(m_rowNames.value(row), Qt::ElideMiddle, label.width()));
    }
    if (m_hoverRow >= 0) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(area.left(), area.top() + m_hoverRow * rowHeight, area.width() - 1, std::max(rowHeight, 1.0)));
    }
    // Axis: the range's ends; legend: what the colours mean.
    p.setPen(palette().color(QPalette::WindowText));
    const QRect axis(area.left(), area.bottom() + 2, area.width(), kAxisHeight - 2);
    p.drawText(axis, Qt::AlignLeft | Qt::AlignVCenter, axisTexts().first);
    const QRect legend(axis.center().x() - kLegendWidth / 2, axis.top() + 3, kLegendWidth, axis.height() - 6);
    for (int x = 0; x < legend.width(); ++x)
        p.fillRect(legend.left() + x, legend.top(), 1, legend.height(), shareColor(float(x) / float(legend.width() - 1)));
    const QString top = QStringLiteral("%1 %").arg(double(m_scaleTop) * 100.0, 0, 'g', 3);
    p.drawText(QRect(legend.left() - 40, axis.top(), 36, axis.height()), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0 %"));
    p.drawText(QRect(legend.right() + 4, axis.top(), 60, axis.height()), Qt::AlignLeft | Qt::AlignVCenter, top);
    p.drawText(axis, Qt::AlignRight | Qt::AlignVCenter, axisTexts().second);
}

void RankHeatmap::mouseMoveEvent(QMouseEvent *event)
{
    const auto [row, bin] = cellAt(event->position().toPoint());
    if (row != m_hoverRow) {
        m_hoverRow = row;
        update();
    }
    if (row >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), plainTooltip(describeCell(row, bin)), this);
    else
        QToolTip::hideText();
}

void RankHeatmap::mousePressEvent(QMouseEvent *event)
{
    const auto [row, bin] = cellAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && row >= 0)
        emit binActivated(m_map.rankIndices[std::size_t(row)], m_map.binRange(bin));
}

void RankHeatmap::leaveEvent(QEvent *)
{
    m_hoverRow = -1;
    update();
}

} // namespace rankscope
