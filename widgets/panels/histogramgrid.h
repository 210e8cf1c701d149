#pragma once
// A 2D histogram (stats/ranks/durationhistogram.h) drawn as a heat map, as
// Paraver draws its 2DH: one row per rank, one column per power-of-two
// duration bin, each cell coloured by its count or total time (on a log
// scale: a bin of 3 kernels beside one of 30,000 still shows). Hover reads
// a cell; a click asks for its events.
#include "stats/ranks/durationhistogram.h"

#include <QStringList>
#include <QWidget>

namespace rankscope {

class HistogramGrid : public QWidget {
    Q_OBJECT
public:
    enum class Measure { Count, TotalTime };
    explicit HistogramGrid(QWidget *parent = nullptr);
    // `what` names the events ("kernels") in tooltips.
    void setHistogram(stats::DurationHistogram histogram, QStringList rowNames, QString what);
    void setMeasure(Measure measure);
    Measure measure() const { return m_measure; }
    const stats::DurationHistogram &histogram() const { return m_histogram; }
    // The cell under a widget position: row and bin, or {-1, -1}.
    std::pair<int, int> cellAt(QPoint position) const;
    QRect cellArea() const;
    QString describeCell(int row, int bin) const;
    // A cell's share of the scale's top (0..1), log scaled; NaN when empty.
    double cellFraction(int row, int bin) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellActivated(int row, int bin);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    int labelWidth() const;
    int columns() const;
    double value(int row, int bin) const;

    stats::DurationHistogram m_histogram;
    QStringList m_rowNames;
    QString m_what;
    Measure m_measure = Measure::Count;
    double m_largest = 0;
};

} // namespace rankscope
