#pragma once
// A light and a dark desktop palette, as a system theme change would give
// every widget, for tests that check what follows the palette.
#include <QPalette>

namespace rankscope::test {

inline QColor paletteBackground(bool dark)
{
    return dark ? QColor(0x20, 0x22, 0x26) : QColor(0xfa, 0xfa, 0xfa);
}

inline QPalette desktopPalette(bool dark)
{
    QPalette palette;
    const QColor back = paletteBackground(dark);
    const QColor text = dark ? QColor(0xee, 0xee, 0xee) : QColor(0x10, 0x10, 0x10);
    for (QPalette::ColorRole role : {QPalette::Window, QPalette::Base})
        palette.setColor(role, back);
    palette.setColor(QPalette::AlternateBase, back.lighter(dark ? 130 : 97));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text})
        palette.setColor(role, text);
    return palette;
}

} // namespace rankscope::test
