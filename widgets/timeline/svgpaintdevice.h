#pragma once
// A paint device that records what a QPainter draws as an SVG document:
// rectangles, lines, paths, text and images, with pens, solid and hatched
// brushes, translation and scale, and rectangular clips. Enough for the
// timeline's own painting (File > Export > Timeline as SVG), without the
// Qt SVG module.
#include <QByteArray>
#include <QPaintDevice>
#include <QSize>
#include <memory>

namespace rankscope {

class SvgPaintEngine;

class SvgPaintDevice : public QPaintDevice {
public:
    explicit SvgPaintDevice(QSize size);
    ~SvgPaintDevice() override;

    QPaintEngine *paintEngine() const override;
    // The whole document; call after the painter has ended.
    QByteArray svg() const;

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    QSize m_size;
    std::unique_ptr<SvgPaintEngine> m_engine;
};

} // namespace rankscope
