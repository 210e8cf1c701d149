#include "panels/chartfactory.h"

#include "theme/theme.h"

#include <QGuiApplication>

#include <QtCharts/QAreaSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace rankscope::charts {

namespace {

// A chart in the theme of the palette it is shown in. The theme is set
// before any series is added: setting it later would repaint the series in
// the theme's own colours.
QChart *newChart(const QString &title, const QWidget *parent)
{
    auto *chart = new QChart;
    const Theme theme(parent ? parent->palette() : QGuiApplication::palette());
    chart->setTheme(theme.isDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitle(title);
    return chart;
}

QChartView *viewOf(QChart *chart, QWidget *parent)
{
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(200);
    return view;
}

} // namespace

QWidget *barChart(const QString &title, const QStringList &categories, const std::vector<Series> &series,
                  const QString &valueTitle, std::function<void(int, int)> onClick, QWidget *parent)
{
    QChart *chart = newChart(title, parent);
    auto *bars = new QBarSeries;
    for (std::size_t s = 0; s < series.size(); ++s) {
        auto *set = new QBarSet(series[s].name);
        set->setColor(series[s].color);
        for (double v : series[s].values)
            *set << v;
        bars->append(set);
        if (onClick)
            QObject::connect(set, &QBarSet::clicked, set, [onClick, s](int index) { onClick(int(s), index); });
    }
    chart->addSeries(bars);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    chart->addAxis(x, Qt::AlignBottom);
    bars->attachAxis(x);
    auto *y = new QValueAxis;
    y->setTitleText(valueTitle);
    y->setLabelFormat(QStringLiteral("%d"));
    double top = 1;
    for (const Series &s : series)
        for (double v : s.values)
            top = std::max(top, v);
    // Counts: five ticks over a range that is a multiple of four, so every
    // tick is a whole number ("%d" printed 0, 0, 1, 1, 2 for a range of 2).
    y->setRange(0, std::ceil(std::ceil(top * 1.1) / 4.0) * 4.0);
    y->setTickCount(5);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(y);
    return viewOf(chart, parent);
}

QWidget *scatterChart(const QString &title, const std::vector<Series> &series, const QString &xTitle,
                      const QString &yTitle, bool logX, QWidget *parent)
{
    QChart *chart = newChart(title, parent);
    double minX = 1e300, maxX = 0, maxY = 0;
    std::vector<QScatterSeries *> made;
    for (const Series &s : series) {
        auto *scatter = new QScatterSeries;
        scatter->setName(s.name);
        scatter->setColor(s.color);
        scatter->setMarkerSize(7);
        for (const QPointF &p : s.points) {
            *scatter << QPointF(logX ? std::max(p.x(), 1.0) : p.x(), p.y());
            minX = std::min(minX, std::max(p.x(), 1.0));
            maxX = std::max(maxX, p.x());
            maxY = std::max(maxY, p.y());
        }
        chart->addSeries(scatter);
        made.push_back(scatter);
    }
    QAbstractAxis *x = nullptr;
    if (logX) {
        auto *log = new QLogValueAxis;
        log->setBase(2);
        log->setLabelFormat(QStringLiteral("%g"));
        log->setRange(std::max(1.0, minX / 2), std::max(2.0, maxX * 2));
        x = log;
    } else {
        x = new QValueAxis;
    }
    x->setTitleText(xTitle);
    auto *y = new QValueAxis;
    y->setTitleText(yTitle);
    y->setRange(0, std::max(1e-3, maxY * 1.1));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QScatterSeries *s : made) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    return viewOf(chart, parent);
}

QWidget *areaChart(const QString &title, const std::vector<Series> &series, const QString &xTitle,
                   const QString &yTitle, QWidget *parent)
{
    QChart *chart = newChart(title, parent);
    auto *x = new QValueAxis;
    x->setTitleText(xTitle);
    auto *y = new QValueAxis;
    y->setTitleText(yTitle);
    double minX = 1e300, maxX = -1e300, maxY = 100;
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (const Series &s : series) {
        auto *upper = new QLineSeries;
        for (const QPointF &p : s.points) {
            *upper << p;
            minX = std::min(minX, p.x());
            maxX = std::max(maxX, p.x());
            maxY = std::max(maxY, p.y());
        }
        auto *area = new QAreaSeries(upper);
        upper->setParent(area); // an area series does not own its line series
        area->setName(s.name);
        QColor fill = s.color;
        fill.setAlpha(110);
        area->setBrush(fill);
        area->setPen(QPen(s.color, 1));
        chart->addSeries(area);
        area->attachAxis(x);
        area->attachAxis(y);
    }
    if (minX <= maxX)
        x->setRange(minX, maxX);
    y->setRange(0, maxY);
    return viewOf(chart, parent);
}

bool savePng(QWidget *chart, const QString &path)
{
    return chart && chart->grab().save(path, "PNG");
}

} // namespace rankscope::charts
