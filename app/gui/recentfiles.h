#pragma once
// The most recently opened file sets, kept in QSettings.
#include <QStringList>

namespace rankscope {

class RecentFiles {
public:
    static constexpr int kMaximum = 10;
    // Each entry is one opened set: its paths joined by '\n'.
    static QList<QStringList> load();
    static void add(const QStringList &paths);
    static void clear();
};

} // namespace rankscope
