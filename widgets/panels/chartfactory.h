#pragma once
// The one place that includes Qt Charts: the panels ask for charts by what
// they show, so a later move to Qt Graphs stays in this file.
#include <QColor>
#include <QPointF>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <vector>

namespace rankscope::charts {

struct Series {
    QString name;
    QColor color;
    std::vector<double> values;   // bar charts: one per category
    std::vector<QPointF> points;  // scatter and area charts
};

// Grouped bars; onClick(series, category) when a bar is clicked.
QWidget *barChart(const QString &title, const QStringList &categories, const std::vector<Series> &series,
                  const QString &valueTitle, std::function<void(int, int)> onClick, QWidget *parent);
QWidget *scatterChart(const QString &title, const std::vector<Series> &series, const QString &xTitle,
                      const QString &yTitle, bool logX, QWidget *parent);
// Filled areas under each series' points (x in seconds).
QWidget *areaChart(const QString &title, const std::vector<Series> &series, const QString &xTitle,
                   const QString &yTitle, QWidget *parent);
bool savePng(QWidget *chart, const QString &path);

} // namespace rankscope::charts
