#include "panels/chartfactory.h"
#include "common/plaintext.h"
#include "core/safefiles.h"

#include "theme/theme.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <QCursor>
#include <QEvent>
#include <QToolTip>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace rankscope::charts {

void fitAxisToData(QValueAxis *axis, double minimum, double maximum, double margin)
{
    if (!(maximum > minimum)) { // one value, or none
        minimum -= 0.5;
        maximum += 0.5;
    }
    const double pad = (maximum - minimum) * margin;
    axis->setRange(minimum - pad, maximum + pad);
    // Ticks at round values inside the range (1, 2 or 5 times a power of
    // ten, 4 to 8 of them), not a range stretched to round ends.
    const double rough = (maximum - minimum) / 8.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    double interval = magnitude;
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= rough) {
            interval = m * magnitude;
            break;
        }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(std::floor(minimum / interval) * interval);
    axis->setTickInterval(interval);
    axis->setLabelFormat(QStringLiteral("%g"));
}

namespace {

QChart::ChartTheme chartThemeOf(const QPalette &palette)
{
    return Theme(palette).isDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight;
}

// A chart in the theme of the palette it is shown in. The theme is set
// before any series is added: setting it later would repaint the series in
// the theme's own colours.
QChart *newChart(const QString &title, const QWidget *parent)
{
    auto *chart = new QChart;
    chart->setTheme(chartThemeOf(parent ? parent->palette() : QGuiApplication::palette()));
    chart->setTitle(title);
    return chart;
}

// A chart view that follows the palette: View > Theme changes the
// application's palette, and the chart's background, title, legend and axes
// change with it. The series keep their colours, which name kinds and ranks.
class ThemedChartView : public QChartView {
public:
    using QChartView::QChartView;

protected:
    void changeEvent(QEvent *event) override
    {
        QChartView::changeEvent(event);
        if (event->type() == QEvent::PaletteChange)
            retheme();
    }

private:
    void retheme()
    {
        QChart *c = chart();
        const QChart::ChartTheme wanted = chartThemeOf(palette());
        if (!c || c->theme() == wanted)
            return;
        // setTheme recolours the series in the theme's own colours: their
        // pens and brushes are kept and given back.
        struct Kept {
            QBarSet *set = nullptr;
            QAbstractSeries *series = nullptr;
            QPen pen;
            QBrush brush;
            QColor border;
        };
        std::vector<Kept> kept;
        for (QAbstractSeries *series : c->series()) {
            if (auto *bars = qobject_cast<QAbstractBarSeries *>(series)) {
                for (QBarSet *set : bars->barSets())
                    kept.push_back({set, nullptr, set->pen(), set->brush(), set->borderColor()});
            } else if (auto *scatter = qobject_cast<QScatterSeries *>(series)) {
                kept.push_back({nullptr, series, scatter->pen(), scatter->brush(), scatter->borderColor()});
            } else if (auto *xy = qobject_cast<QXYSeries *>(series)) {
                kept.push_back({nullptr, series, xy->pen(), xy->brush(), {}});
            } else if (auto *area = qobject_cast<QAreaSeries *>(series)) {
                kept.push_back({nullptr, series, area->pen(), area->brush(), area->borderColor()});
            }
        }
        c->setTheme(wanted);
        for (const Kept &k : kept) {
            if (k.set) {
                k.set->setPen(k.pen);
                k.set->setBrush(k.brush);
                k.set->setBorderColor(k.border);
            } else if (auto *scatter = qobject_cast<QScatterSeries *>(k.series)) {
                scatter->setPen(k.pen);
                scatter->setBrush(k.brush);
                scatter->setBorderColor(k.border);
            } else if (auto *xy = qobject_cast<QXYSeries *>(k.series)) {
                xy->setPen(k.pen);
                xy->setBrush(k.brush);
            } else if (auto *area = qobject_cast<QAreaSeries *>(k.series)) {
                area->setPen(k.pen);
                area->setBrush(k.brush);
            }
        }
    }
};

QChartView *viewOf(QChart *chart, QWidget *parent)
{
    // Beside the plot, not under it: docks are wide and short.
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    // Whole labels: "…" for a rank's name or a duration says nothing.
    for (QAbstractAxis *axis : chart->axes())
        axis->setTruncateLabels(false);
    auto *view = new ThemedChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(kMinimumChartHeight); // the plot, its axis labels and title
    return view;
}

} // namespace

namespace {

// One horizontal bar per category, the series stacked in it, the first
// category on top; `valueAxis` is the axis along the bars, `hoverText`
// what a hovered part says (category, series, value).
QWidget *stackedBars(const QString &title, const QStringList &categories, const std::vector<Series> &series, QValueAxis *valueAxis,
                     std::function<QString(const QString &, const QString &, double)> hoverText, std::function<void(int)> onClick,
                     Qt::Orientation orientation, QWidget *parent)
{
    QChart *chart = newChart(title, parent);
    const bool horizontal = orientation == Qt::Horizontal;
    QAbstractBarSeries *bars = horizontal ? static_cast<QAbstractBarSeries *>(new QHorizontalStackedBarSeries) : new QStackedBarSeries;
    bars->setBarWidth(0.8);
    // Qt draws the first category of horizontal bars at the bottom:
    // reversed, the first is on top as in the table.
    const int count = int(categories.size());
    const auto category = [count, horizontal](int index) { return horizontal ? count - 1 - index : index; };
    for (const Series &s : series) {
        auto *set = new QBarSet(s.name);
        set->setColor(s.color);
        set->setBorderColor(s.color);
        for (int i = 0; i < count; ++i) {
            const int c = category(i);
            *set << (std::size_t(c) < s.values.size() ? s.values[std::size_t(c)] : 0.0);
        }
        bars->append(set);
        if (onClick)
            QObject::connect(set, &QBarSet::clicked, set, [onClick, category](int index) { onClick(category(index)); });
    }
    chart->addSeries(bars);
    auto *axis = new QBarCategoryAxis;
    QStringList ordered;
    for (int i = 0; i < count; ++i)
        ordered << categories.value(category(i));
    axis->append(ordered);
    chart->addAxis(axis, horizontal ? Qt::AlignLeft : Qt::AlignBottom);
    bars->attachAxis(axis);
    chart->addAxis(valueAxis, horizontal ? Qt::AlignBottom : Qt::AlignLeft);
    bars->attachAxis(valueAxis);
    // Each part when hovered: a bar of 97 % compute hides 1 % idle.
    QObject::connect(bars, &QAbstractBarSeries::hovered, bars, [categories, category, hoverText](bool on, int index, QBarSet *set) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(), plainTooltip(hoverText(categories.value(category(index)), set->label(), set->at(index))));
    });
    QChartView *view = viewOf(chart, parent);
    chart->legend()->setAlignment(Qt::AlignBottom); // the bars take the width beside the table
    // A line of text per bar, so 64 ranks' labels stay apart (the panel scrolls).
    if (horizontal)
        view->setMinimumHeight(std::max(kMinimumChartHeight, count * kCategoryHeight + 90));
    return view;
}

} // namespace

QWidget *shareBarChart(const QString &title, const QStringList &categories, const std::vector<Series> &series, std::function<void(int)> onClick,
                       QWidget *parent)
{
    auto *share = new QValueAxis;
    share->setRange(0, 100);
    share->setTickCount(5);
    share->setLabelFormat(QStringLiteral("%d %%"));
    return stackedBars(
        title, categories, series, share,
        [](const QString &category, const QString &part, double value) {
            return category + QStringLiteral(" · ") + part + QStringLiteral(": ") + QString::number(value, 'f', 1) + QStringLiteral(" %");
        },
        std::move(onClick), Qt::Horizontal, parent);
}

QWidget *stackedBarChart(const QString &title, const QStringList &categories, const std::vector<Series> &series, const QString &valueTitle,
                         std::function<void(int)> onClick, QWidget *parent)
{
    double most = 0;
    for (int c = 0; c < int(categories.size()); ++c) {
        double total = 0;
        for (const Series &s : series)
            total += std::size_t(c) < s.values.size() ? s.values[std::size_t(c)] : 0.0;
        most = std::max(most, total);
    }
    auto *axis = new QValueAxis;
    axis->setTitleText(valueTitle);
    fitAxisToData(axis, 0, most > 0 ? most : 1, 0.02);
    axis->setMin(0);
    return stackedBars(
        title, categories, series, axis,
        [valueTitle](const QString &category, const QString &part, double value) {
            return category + QStringLiteral(" · ") + part + QStringLiteral(": ") + QString::number(value, 'g', 4) + QLatin1Char(' ') + valueTitle;
        },
        std::move(onClick), Qt::Vertical, parent);
}

QWidget *barChart(const QString &title, const QStringList &categories, const std::vector<Series> &series, const QString &valueTitle,
                  std::function<void(int, int)> onClick, QWidget *parent)
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
    // Whole labels ("256 B", not "256…"), slanted when there are many bins.
    x->setTruncateLabels(false);
    if (categories.size() > 8)
        x->setLabelsAngle(-45);
    return viewOf(chart, parent);
}

QWidget *scatterChart(const QString &title, const std::vector<Series> &series, const QString &xTitle, const QString &yTitle,
                      const std::optional<LogAxis> &logX, QWidget *parent)
{
    QChart *chart = newChart(title, parent);
    // On a log axis the points are placed at log2(x): Qt's log axis labels
    // its ticks with printf formats only ("1.04858e+06"), a category axis
    // at powers of two can say "1 MiB".
    auto place = [&](double x) { return logX ? std::log2(std::max(x, 1.0)) : x; };
    double minX = 1e300, maxX = -1e300, maxY = 0;
    std::vector<QScatterSeries *> made;
    for (const Series &s : series) {
        auto *scatter = new QScatterSeries;
        scatter->setName(s.name);
        scatter->setColor(s.color);
        scatter->setBorderColor(s.color.darker(140));
        scatter->setMarkerShape(s.squareMarkers ? QScatterSeries::MarkerShapeRectangle : QScatterSeries::MarkerShapeCircle);
        scatter->setMarkerSize(s.squareMarkers ? 8 : 7);
        for (const QPointF &p : s.points) {
            const double x = place(p.x());
            *scatter << QPointF(x, p.y());
            minX = std::min(minX, x);
            maxX = std::max(maxX, x);
            maxY = std::max(maxY, p.y());
        }
        chart->addSeries(scatter);
        made.push_back(scatter);
    }
    if (minX > maxX)
        minX = maxX = 0;
    QAbstractAxis *x = nullptr;
    if (logX) {
        auto *axis = new QCategoryAxis;
        const int first = int(std::floor(minX)) - 1, last = int(std::ceil(maxX)) + 1;
        const int step = std::max(1, (last - first + 7) / 8); // at most about 8 labels
        for (int k = first - (first % step + step) % step; k <= last; k += step)
            axis->append(logX->log2Label(k), k);
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        axis->setRange(first, last);
        x = axis;
    } else {
        auto *axis = new QValueAxis;
        fitAxisToData(axis, minX, maxX, 0.02); // a marker's width of margin, no more
        x = axis;
    }
    x->setTitleText(xTitle);
    auto *y = new QValueAxis;
    y->setTitleText(yTitle);
    y->setRange(0, std::max(1e-3, maxY * 1.1));
    y->applyNiceNumbers(); // 0, 200, 400 GB/s rather than 171.8, 343.6
    y->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QScatterSeries *s : made) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    return viewOf(chart, parent);
}

QWidget *areaChart(const QString &title, const std::vector<Series> &series, const QString &xTitle, const QString &yTitle, QWidget *parent)
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
        fitAxisToData(x, minX, maxX, 0.0); // the areas run to the axis' ends
    y->setRange(0, maxY);
    return viewOf(chart, parent);
}

namespace {

// As a new file renamed into place (core/safefiles.h): an export folder
// others can write may hold a link under the name.
bool saveImage(const QImage &image, const QString &path)
{
    AtomicFileWriter file(path);
    return file.open(QIODevice::WriteOnly) && image.save(&file, "PNG") && file.commit();
}

} // namespace

bool savePng(QWidget *chart, const QString &path)
{
    auto *view = qobject_cast<QChartView *>(chart);
    if (!view)
        return chart && saveImage(chart->grab().toImage(), path);
    // Laid out again at the export size, drawn, and put back: the view on
    // screen is often a strip too narrow for its axis labels.
    QChart *c = view->chart();
    const QSizeF onScreen = c->size();
    c->resize(kExportSize);
    QImage image(kExportSize, QImage::Format_ARGB32);
    image.fill(c->backgroundBrush().color());
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        view->scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(kExportSize)), QRectF(c->pos(), QSizeF(kExportSize)));
    }
    c->resize(onScreen);
    return saveImage(image, path);
}

} // namespace rankscope::charts
