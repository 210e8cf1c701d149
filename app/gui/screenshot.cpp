#include "screenshot.h"
#include "core/safefiles.h"

#include "mainwindow.h"
#include "panels/statsdock.h"
#include "timeline/timelineview.h"
#include "timeline/zoomstate.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QRegularExpression>
#include <QTimer>

namespace rankscope {

std::optional<TimeNs> parseTimeSpec(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*([0-9]*\\.?[0-9]+)\\s*(ns|us|µs|ms|s)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const double value = m.captured(1).toDouble();
    const QString unit = m.captured(2);
    const double scale = unit == QLatin1String("ns")                                     ? 1.0
                         : (unit == QLatin1String("us") || unit == QStringLiteral("µs")) ? 1e3
                         : unit == QLatin1String("ms")                                   ? 1e6
                                                                                         : 1e9;
    return TimeNs(value * scale);
}

std::optional<TimeRange> parseRangeSpec(const QString &text)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() != 2)
        return std::nullopt;
    const auto start = parseTimeSpec(parts[0]), end = parseTimeSpec(parts[1]);
    if (!start || !end || *end <= *start)
        return std::nullopt;
    return TimeRange{*start, *end};
}

std::optional<QSize> parseSizeSpec(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^(\\d+)x(\\d+)$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QSize size(m.captured(1).toInt(), m.captured(2).toInt());
    if (size.width() < 200 || size.height() < 150 || size.width() > 10000 || size.height() > 10000)
        return std::nullopt;
    return size;
}

QString saveScreenshot(MainWindow &window, const QString &path, QSize size, std::optional<TimeRange> range)
{
    window.resize(size);
    window.show();
    QApplication::processEvents();
    if (range) {
        const TimeNs zero = window.timeline()->zoom()->bounds().start;
        window.timeline()->zoom()->show({zero + range->start, zero + range->end});
    }
    QApplication::processEvents();
    // Statistics are computed in the background: wait for them (bounded).
    QElapsedTimer waited;
    waited.start();
    while (window.stats()->isComputing() && waited.elapsed() < 120000) {
        // Sleep in the event loop between checks: a processEvents() loop
        // would spin a core the statistics need.
        QEventLoop pause;
        QTimer::singleShot(20, &pause, &QEventLoop::quit);
        pause.exec();
    }
    QApplication::processEvents();
    const QPixmap shot = window.grab();
    AtomicFileWriter file(path);
    if (shot.isNull() || !file.open(QIODevice::WriteOnly) || !shot.save(&file, "PNG") || !file.commit())
        return QStringLiteral("cannot write %1%2").arg(path, file.errorString().isEmpty() ? QString() : QStringLiteral(": ") + file.errorString());
    return {};
}

} // namespace rankscope
