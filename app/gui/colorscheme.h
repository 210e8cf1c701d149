#pragma once
// View > Theme: the desktop's own style and palette, or Fusion with a light
// or a dark palette. Every colour Rankscope draws follows the palette
// (widgets/theme), so switching repaints the timeline, tables and docks;
// charts take the new scheme when next drawn.
#include <QString>

namespace rankscope {

enum class ColorScheme { System, Light, Dark };

// Applies `scheme` to the application; the first call remembers the
// system's style and palette so that System restores them.
void applyColorScheme(ColorScheme scheme);
ColorScheme currentColorScheme();
// The scheme after `scheme` in the order System, Light, Dark (the shortcut cycles).
ColorScheme nextColorScheme(ColorScheme scheme);
// As kept in QSettings: "system", "light", "dark"; anything else is System.
QString colorSchemeKey(ColorScheme scheme);
ColorScheme colorSchemeFromKey(const QString &key);

} // namespace rankscope
