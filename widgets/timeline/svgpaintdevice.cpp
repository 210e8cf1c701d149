#include "timeline/svgpaintdevice.h"

#include <QBuffer>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QTextItem>

#include <set>

namespace rankscope {

namespace {

QByteArray escaped(const QString &text)
{
    return text.toHtmlEscaped().toUtf8();
}

QByteArray number(double v)
{
    return QByteArray::number(v, 'g', 7);
}

QByteArray colorOf(const QColor &c)
{
    return c.name(QColor::HexRgb).toLatin1();
}

QByteArray opacityOf(const char *attribute, const QColor &c)
{
    return c.alpha() == 255 ? QByteArray() : QByteArray(" ") + attribute + "=\"" + number(c.alphaF()) + "\"";
}

} // namespace

class SvgPaintEngine : public QPaintEngine {
public:
    SvgPaintEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}

    bool begin(QPaintDevice *) override { return true; }
    bool end() override { return true; }
    Type type() const override { return QPaintEngine::User; }

    void updateState(const QPaintEngineState &state) override
    {
        const DirtyFlags flags = state.state();
        if (flags & DirtyPen)
            m_pen = state.pen();
        if (flags & DirtyBrush)
            m_brush = state.brush();
        if (flags & DirtyTransform)
            m_transform = state.transform();
        if (flags & (DirtyClipRegion | DirtyClipPath | DirtyClipEnabled | DirtyTransform)) {
            // In device coordinates: the painter's clip, through its transform.
            if (painter() && painter()->hasClipping())
                m_clip = painter()->transform().mapRect(painter()->clipBoundingRect());
            else
                m_clip.reset();
        }
    }

    void drawRects(const QRectF *rects, int count) override
    {
        for (int i = 0; i < count; ++i) {
            QRectF r = m_transform.mapRect(rects[i]);
            if (m_clip)
                r = r.intersected(*m_clip);
            if (r.isEmpty())
                continue;
            const QByteArray box = "x=\"" + number(r.x()) + "\" y=\"" + number(r.y()) + "\" width=\"" + number(r.width())
                                   + "\" height=\"" + number(r.height()) + "\"";
            m_body += "<rect " + box + fill() + stroke() + "/>\n";
        }
    }
    void drawRects(const QRect *rects, int count) override
    {
        for (int i = 0; i < count; ++i) {
            const QRectF r(rects[i]);
            drawRects(&r, 1);
        }
    }

    void drawLines(const QLineF *lines, int count) override
    {
        if (m_pen.style() == Qt::NoPen)
            return;
        for (int i = 0; i < count; ++i) {
            const QLineF l = m_transform.map(lines[i]);
            if (m_clip && !m_clip->adjusted(-1, -1, 1, 1).intersects(QRectF(l.p1(), l.p2()).normalized().adjusted(-0.5, -0.5, 0.5, 0.5)))
                continue;
            m_body += "<line x1=\"" + number(l.x1()) + "\" y1=\"" + number(l.y1()) + "\" x2=\"" + number(l.x2()) + "\" y2=\""
                      + number(l.y2()) + "\"" + stroke() + "/>\n";
        }
    }
    void drawLines(const QLine *lines, int count) override
    {
        for (int i = 0; i < count; ++i) {
            const QLineF l(lines[i]);
            drawLines(&l, 1);
        }
    }

    void drawPath(const QPainterPath &path) override
    {
        const QPainterPath mapped = m_transform.map(path);
        QByteArray d;
        for (int i = 0; i < mapped.elementCount(); ++i) {
            const QPainterPath::Element e = mapped.elementAt(i);
            if (e.isMoveTo())
                d += "M" + number(e.x) + "," + number(e.y) + " ";
            else if (e.isLineTo())
                d += "L" + number(e.x) + "," + number(e.y) + " ";
            else if (e.isCurveTo() && i + 2 < mapped.elementCount()) {
                const auto c2 = mapped.elementAt(i + 1), end = mapped.elementAt(i + 2);
                d += "C" + number(e.x) + "," + number(e.y) + " " + number(c2.x) + "," + number(c2.y) + " " + number(end.x) + ","
                     + number(end.y) + " ";
                i += 2;
            }
        }
        const QByteArray rule = path.fillRule() == Qt::WindingFill ? " fill-rule=\"nonzero\"" : " fill-rule=\"evenodd\"";
        m_body += "<path d=\"" + d.trimmed() + "\"" + fill() + rule + stroke() + "/>\n";
    }

    void drawPolygon(const QPointF *points, int count, PolygonDrawMode mode) override
    {
        QPainterPath path;
        if (count == 0)
            return;
        path.moveTo(points[0]);
        for (int i = 1; i < count; ++i)
            path.lineTo(points[i]);
        if (mode != PolylineMode)
            path.closeSubpath();
        path.setFillRule(mode == WindingMode ? Qt::WindingFill : Qt::OddEvenFill);
        const QBrush saved = m_brush;
        if (mode == PolylineMode)
            m_brush = Qt::NoBrush;
        drawPath(path);
        m_brush = saved;
    }
    void drawPolygon(const QPoint *points, int count, PolygonDrawMode mode) override
    {
        QPolygonF polygon;
        for (int i = 0; i < count; ++i)
            polygon << QPointF(points[i]);
        drawPolygon(polygon.constData(), count, mode);
    }

    void drawTextItem(const QPointF &p, const QTextItem &item) override
    {
        const QPointF at = m_transform.map(p);
        if (m_clip && !m_clip->adjusted(-2, -item.font().pixelSize() - 20, 2, 20).contains(at))
            return;
        const QFont font = item.font();
        const double size = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 96.0 / 72.0;
        m_body += "<text x=\"" + number(at.x()) + "\" y=\"" + number(at.y()) + "\" font-family=\"" + escaped(font.family())
                  + "\" font-size=\"" + number(size) + "\"" + (font.bold() ? " font-weight=\"bold\"" : "") + " fill=\""
                  + colorOf(m_pen.color()) + "\"" + opacityOf("fill-opacity", m_pen.color()) + " xml:space=\"preserve\">"
                  + escaped(item.text()) + "</text>\n";
    }

    void drawPixmap(const QRectF &r, const QPixmap &pixmap, const QRectF &source) override
    {
        drawImage(r, pixmap.toImage(), source, Qt::AutoColor);
    }
    void drawImage(const QRectF &r, const QImage &image, const QRectF &source, Qt::ImageConversionFlags) override
    {
        const QRectF target = m_transform.mapRect(r);
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        image.copy(source.toAlignedRect()).save(&buffer, "PNG");
        m_body += "<image x=\"" + number(target.x()) + "\" y=\"" + number(target.y()) + "\" width=\"" + number(target.width())
                  + "\" height=\"" + number(target.height()) + "\" href=\"data:image/png;base64," + png.toBase64() + "\"/>\n";
    }

    QByteArray body() const { return m_defs + m_body; }

private:
    QByteArray fill()
    {
        if (m_brush.style() == Qt::NoBrush)
            return " fill=\"none\"";
        const QColor c = m_brush.color();
        if (m_brush.style() == Qt::SolidPattern)
            return " fill=\"" + colorOf(c) + "\"" + opacityOf("fill-opacity", c);
        // Hatched brushes (pageable copies): a pattern per colour.
        const QByteArray id = "hatch" + colorOf(c).mid(1);
        if (m_patterns.insert(id).second) {
            m_defs += "<defs><pattern id=\"" + id + "\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
                      "<path d=\"M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2\" stroke=\"" + colorOf(c) + "\" stroke-width=\"1\"/></pattern></defs>\n";
        }
        return " fill=\"url(#" + id + ")\"";
    }
    QByteArray stroke() const
    {
        if (m_pen.style() == Qt::NoPen)
            return {};
        QByteArray s = " stroke=\"" + colorOf(m_pen.color()) + "\" stroke-width=\"" + number(std::max(1.0, m_pen.widthF())) + "\""
                       + opacityOf("stroke-opacity", m_pen.color());
        if (m_pen.style() == Qt::DashLine)
            s += " stroke-dasharray=\"4,2\"";
        return s;
    }

    QPen m_pen;
    QBrush m_brush;
    QTransform m_transform;
    std::optional<QRectF> m_clip;
    QByteArray m_body;
    QByteArray m_defs;
    std::set<QByteArray> m_patterns; // hatch patterns already defined
};

SvgPaintDevice::SvgPaintDevice(QSize size) : m_size(size), m_engine(std::make_unique<SvgPaintEngine>()) {}

SvgPaintDevice::~SvgPaintDevice() = default;

QPaintEngine *SvgPaintDevice::paintEngine() const
{
    return m_engine.get();
}

int SvgPaintDevice::metric(PaintDeviceMetric metric) const
{
    switch (metric) {
    case PdmWidth: return m_size.width();
    case PdmHeight: return m_size.height();
    case PdmWidthMM: return int(m_size.width() * 25.4 / 96.0);
    case PdmHeightMM: return int(m_size.height() * 25.4 / 96.0);
    case PdmNumColors: return 0x7fffffff;
    case PdmDepth: return 32;
    case PdmDpiX:
    case PdmDpiY:
    case PdmPhysicalDpiX:
    case PdmPhysicalDpiY: return 96;
    case PdmDevicePixelRatio: return 1;
    case PdmDevicePixelRatioScaled: return int(QPaintDevice::devicePixelRatioFScale());
    }
    return 0;
}

QByteArray SvgPaintDevice::svg() const
{
    const QByteArray w = QByteArray::number(m_size.width()), h = QByteArray::number(m_size.height());
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + w
           + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h + "\">\n" + m_engine->body() + "</svg>\n";
}

} // namespace rankscope
