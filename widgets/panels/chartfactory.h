#pragma once
// The one place that includes Qt Charts: the panels ask for charts by what
// they show, so a later move to Qt Graphs stays in this file.
#include <QColor>
#include <QPointF>
#include <QSize>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QValueAxis;
QT_END_NAMESPACE

namespace rankscope::charts {

struct Series {
    QString name;
    QColor color;
    std::vector<double> values;  // bar charts: one per category
    std::vector<QPointF> points; // scatter and area charts
    bool squareMarkers = false;  // scatter: tell apart series of one hue
};

// A scatter chart's x axis: plain numbers, or a power-of-two scale (sizes)
// with ticks at powers of two labelled by `log2Label` ("4 KiB").
struct LogAxis {
    std::function<QString(int log2)> log2Label;
};

// A value axis that ends at the data (plus `margin` of its span on each
// side), with ticks at round values inside it: 62 s of collectives get an
// axis to 62 s, not one stretched to 80 s.
void fitAxisToData(QValueAxis *axis, double minimum, double maximum, double margin);

// One horizontal bar per category split into the series' shares (their
// values, in %, stacked; each category's should add up to 100), the first
// category on top; onClick(category) when a bar is clicked. HTA's temporal
// breakdown per rank.
QWidget *shareBarChart(const QString &title, const QStringList &categories, const std::vector<Series> &series, std::function<void(int)> onClick,
                       QWidget *parent);

// A column per category, the series' values stacked as they are (a step's
// time per kind, in the unit `valueTitle` names): each column as tall as
// its total; onClick(category) when a column is clicked.
QWidget *stackedBarChart(const QString &title, const QStringList &categories, const std::vector<Series> &series, const QString &valueTitle,
                         std::function<void(int)> onClick, QWidget *parent);

// Grouped bars; onClick(series, category) when a bar is clicked.
QWidget *barChart(const QString &title, const QStringList &categories, const std::vector<Series> &series, const QString &valueTitle,
                  std::function<void(int, int)> onClick, QWidget *parent);
QWidget *scatterChart(const QString &title, const std::vector<Series> &series, const QString &xTitle, const QString &yTitle,
                      const std::optional<LogAxis> &logX, QWidget *parent);
// Filled areas under each series' points (x in seconds).
QWidget *areaChart(const QString &title, const std::vector<Series> &series, const QString &xTitle, const QString &yTitle, QWidget *parent);
// The least height at which a chart shows its plot and its axis labels.
// (Panels scroll in their dock: a chart need not squeeze its titles.)
constexpr int kMinimumChartHeight = 190;
// A horizontal bar's height at least: its label's line.
constexpr int kCategoryHeight = 18;

// Writes the chart at a readable size (kExportSize), whatever its size on screen.
constexpr QSize kExportSize{1600, 900};
bool savePng(QWidget *chart, const QString &path);

} // namespace rankscope::charts
