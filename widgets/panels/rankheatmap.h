#pragma once
// A rank x time map (stats/ranks/ranktimemap.h) drawn as a heatmap: one row per
// rank, one column per time bin, the share as a colour. A rank out of step
// with the others (a straggler's idle GPU, the ranks waiting for it) stands
// out at any session size. Hover reads a cell; a click zooms the timeline
// to the cell's bin.
#include "stats/ranks/ranktimemap.h"

#include <QImage>
#include <QStringList>
#include <QWidget>

namespace rankscope {

class RankHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit RankHeatmap(QWidget *parent = nullptr);
    // `rowNames` names the map's rows; `measure` says what a share is
    // ("GPU busy"); times are written from `origin` (the session's start,
    // as the ruler and every panel count them).
    void setMap(stats::RankTimeMap map, QStringList rowNames, QString measure, TimeNs origin);
    // What the time axis says at its ends, and a cell's tooltip.
    std::pair<QString, QString> axisTexts() const;
    QString describeCell(int row, int bin) const;
    const stats::RankTimeMap &map() const { return m_map; }
    // The colour of a fraction of the scale (0..1; NaN: no data).
    static QColor shareColor(float fraction);
    // The share the scale's top colour stands for: the map's largest,
    // rounded up to 1, 2 or 5 times a power of ten, so that 9 % waits
    // against 0 % stand out as well as 99 % busy against 40 %.
    float scaleTop() const { return m_scaleTop; }
    QColor cellColor(float share) const { return shareColor(share / m_scaleTop); }
    // The cell under a widget position: row and bin, or {-1, -1}.
    std::pair<int, int> cellAt(QPoint position) const;
    QRect cellArea() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void binActivated(int rankIndex, rankscope::TimeRange range);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    int labelWidth() const;
    QString timeText(TimeNs t) const;

    stats::RankTimeMap m_map;
    QStringList m_rowNames;
    QString m_measure;
    TimeNs m_origin = 0;
    QImage m_image; // one pixel per cell, scaled when painted
    float m_scaleTop = 1.0f;
    int m_hoverRow = -1;
};

} // namespace rankscope
