#pragma once
// The main window's small dialogs, each asking one thing.
#include "session/session.h"

#include <optional>
#include <utility>

class QWidget;

namespace rankscope {

// File > Compare Two Ranks: two rank indices of `session` (possibly the
// same: the caller says that is no comparison); none when cancelled.
std::optional<std::pair<int, int>> askTwoRanks(QWidget *parent, const Session &session);

// View > Memory Budget for Rank Detail: MiB of the ranks' index caches to
// keep in memory, starting from `currentMiB`; none when cancelled.
std::optional<int> askMemoryBudgetMiB(QWidget *parent, int currentMiB);

// Help > Keyboard Shortcuts (the README's table) and Help > About.
void showShortcutsDialog(QWidget *parent, const QString &shortcutsHtml);
void showAboutDialog(QWidget *parent);

} // namespace rankscope
