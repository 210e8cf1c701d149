#include "panels/histogramgrid.h"

#include "core/units.h"
#include "panels/rankheatmap.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

constexpr int kAxisHeight = 34;     // two lines of bin labels, alternating
constexpr int kMaxLabelWidth = 300; // "rank 12 · pt_nccl_watchdg (tid 4242)" whole
constexpr int kMinimumRowHeight = 10;
// Up to this many rows each gets a line of text (the panel scrolls);
// more draw thinner with every k-th named.
constexpr int kRowsNamedEach = 48;

} // namespace

HistogramGrid::HistogramGrid(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void HistogramGrid::setHistogram(stats::DurationHistogram histogram, QStringList rowNames, QString what)
{
    m_histogram = std::move(histogram);
    m_rowNames = std::move(rowNames);
    m_what = std::move(what);
    setMeasure(m_measure);
    updateGeometry();
}

void HistogramGrid::setMeasure(Measure measure)
{
    m_measure = measure;
    m_largest = 0;
    for (std::size_t row = 0; row < m_histogram.rowCount(); ++row)
        for (int bin = m_histogram.firstBin; bin <= m_histogram.lastBin; ++bin)
            m_largest = std::max(m_largest, value(int(row), bin));
    QToolTip::hideText();
    update();
}

int HistogramGrid::columns() const
{
    return std::max(0, m_histogram.lastBin - m_histogram.firstBin + 1);
}

double HistogramGrid::value(int row, int bin) const
{
    return m_measure == Measure::Count ? double(m_histogram.count(std::size_t(row), bin)) : double(m_histogram.total(std::size_t(row), bin));
}

double HistogramGrid::cellFraction(int row, int bin) const
{
    const double v = value(row, bin);
    if (v <= 0 || m_largest <= 0)
        return std::nan("");
    return std::log1p(v) / std::log1p(m_largest);
}

int HistogramGrid::labelWidth() const
{
    int widest = 0;
    for (const QString &name : m_rowNames)
        widest = std::max(widest, fontMetrics().horizontalAdvance(name));
    return std::min(widest + 8, kMaxLabelWidth);
}

QRect HistogramGrid::cellArea() const
{
    const int left = labelWidth();
    return QRect(left, 0, std::max(width() - left - 4, 1), std::max(height() - kAxisHeight, 1));
}

QSize HistogramGrid::sizeHint() const
{
    const int rows = std::max(int(m_histogram.rowCount()), 1);
    return QSize(600, std::max(std::min(rows, 32) * 16 + kAxisHeight, minimumSizeHint().height()));
}

QSize HistogramGrid::minimumSizeHint() const
{
    const int rows = int(m_histogram.rowCount());
    const int lineHeight = fontMetrics().height() + 2;
    const int rowHeight = rows <= kRowsNamedEach ? lineHeight : kMinimumRowHeight;
    return QSize(240, std::max(std::min(rows, 2) * lineHeight, rows * rowHeight) + kAxisHeight);
}

std::pair<int, int> HistogramGrid::cellAt(QPoint position) const
{
    const QRect area = cellArea();
    const int rows = int(m_histogram.rowCount());
    if (!area.contains(position) || rows == 0 || columns() == 0)
        return {-1, -1};
    const int row = std::clamp(int(double(position.y() - area.top()) * rows / area.height()), 0, rows - 1);
    const int column = std::clamp(int(double(position.x() - area.left()) * columns() / area.width()), 0, columns() - 1);
    return {row, m_histogram.firstBin + column};
}

QString HistogramGrid::describeCell(int row, int bin) const
{
    const auto r = std::size_t(row);
    const QString high = bin >= stats::DurationHistogram::kBins - 1 ? QStringLiteral("∞") : formatDuration(stats::DurationHistogram::binHigh(bin));
    return tr("%1 · %2 to %3\n%4 %5, %6 in all\nClick to select them on the timeline.")
        .arg(m_rowNames.value(row), formatDuration(stats::DurationHistogram::binLow(bin)), high)
        .arg(formatInteger(std::int64_t(m_histogram.count(r, bin))), m_what, formatDuration(m_histogram.total(r, bin)));
}

void HistogramGrid::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    const int rows = int(m_histogram.rowCount());
    if (rows == 0 || columns() == 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("No %1 in this range").arg(m_what));
        return;
    }
    const QRect area = cellArea();
    const double rowHeight = double(area.height()) / rows, columnWidth = double(area.width()) / columns();
    for (int row = 0; row < rows; ++row)
        for (int c = 0; c < columns(); ++c) {
            const double fraction = cellFraction(row, m_histogram.firstBin + c);
            const QRectF cell(area.left() + c * columnWidth, area.top() + row * rowHeight, columnWidth, rowHeight);
            p.fillRect(cell, std::isnan(fraction) ? palette().color(QPalette::Base) : RankHeatmap::shareColor(float(fraction)));
        }
    // Row names, every k-th when rows are thin; bin labels alternating on
    // two lines so that neighbours never overlap.
    p.setPen(palette().color(QPalette::WindowText));
    const int textHeight = fontMetrics().height();
    const int every = std::max(1, int(std::ceil(textHeight / rowHeight)));
    for (int row = 0; row < rows; row += every)
        p.drawText(QRectF(0, area.top() + (row + 0.5) * rowHeight - textHeight / 2.0, area.left() - 4, textHeight), Qt::AlignRight | Qt::AlignVCenter,
                   fontMetrics().elidedText(m_rowNames.value(row), Qt::ElideMiddle, area.left() - 4));
    const int labelEvery = std::max(1, int(std::ceil(fontMetrics().horizontalAdvance(QStringLiteral("999 ms")) / (2 * columnWidth))));
    for (int c = 0; c < columns(); c += labelEvery) {
        const QString label = formatDuration(stats::DurationHistogram::binLow(m_histogram.firstBin + c));
        const int line = (c / labelEvery) % 2;
        p.drawText(QRectF(area.left() + c * columnWidth, area.bottom() + 2 + line * (textHeight - 2), 200, textHeight), Qt::AlignLeft | Qt::AlignTop,
                   label);
    }
}

void HistogramGrid::mouseMoveEvent(QMouseEvent *event)
{
    const auto [row, bin] = cellAt(event->position().toPoint());
    if (row < 0)
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), describeCell(row, bin), this);
}

void HistogramGrid::mousePressEvent(QMouseEvent *event)
{
    const auto [row, bin] = cellAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && row >= 0)
        emit cellActivated(row, bin);
}

} // namespace rankscope
