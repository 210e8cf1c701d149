#include "colorscheme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace rankscope {

namespace {

struct SystemLook {
    QString styleName;
    QPalette palette;
};

const SystemLook &systemLook()
{
    // Taken before the first change: what the desktop gave the process.
    static const SystemLook look{QApplication::style()->name(), QApplication::palette()};
    return look;
}

ColorScheme g_current = ColorScheme::System;

QPalette darkPalette()
{
    // Fusion's roles in dark greys, the highlight a blue that keeps white text readable.
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), text(0xe6, 0xe6, 0xe6), disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x45, 0x45, 0x45));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::Mid, QColor(0x33, 0x33, 0x33));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xb5));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    for (const QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace

void applyColorScheme(ColorScheme scheme)
{
    const SystemLook &system = systemLook();
    switch (scheme) {
    case ColorScheme::System:
        QApplication::setStyle(QStyleFactory::create(system.styleName));
        QApplication::setPalette(system.palette);
        break;
    case ColorScheme::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case ColorScheme::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    }
    g_current = scheme;
}

ColorScheme currentColorScheme()
{
    return g_current;
}

ColorScheme nextColorScheme(ColorScheme scheme)
{
    switch (scheme) {
    case ColorScheme::System:
        return ColorScheme::Light;
    case ColorScheme::Light:
        return ColorScheme::Dark;
    case ColorScheme::Dark:
        break;
    }
    return ColorScheme::System;
}

QString colorSchemeKey(ColorScheme scheme)
{
    switch (scheme) {
    case ColorScheme::Light:
        return QStringLiteral("light");
    case ColorScheme::Dark:
        return QStringLiteral("dark");
    case ColorScheme::System:
        break;
    }
    return QStringLiteral("system");
}

ColorScheme colorSchemeFromKey(const QString &key)
{
    if (key == QLatin1String("light"))
        return ColorScheme::Light;
    if (key == QLatin1String("dark"))
        return ColorScheme::Dark;
    return ColorScheme::System;
}

} // namespace rankscope
