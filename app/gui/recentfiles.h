#pragma once
// The most recently opened file sets, kept in QSettings: a session of its
// own, or a comparison (run A and run B), so that Open Recent reopens a
// comparison as one.
#include <QStringList>

namespace rankscope {

struct RecentSet {
    QStringList runA; // absolute, clean paths
    QStringList runB; // empty: not a comparison
    bool operator==(const RecentSet &) const = default;
};

class RecentFiles {
public:
    static constexpr int kMaximum = 10;
    // Newest first. Each entry is one set: run A's paths joined by '\n',
    // then, for a comparison, an empty line and run B's paths.
    static QList<RecentSet> load();
    static void add(const QStringList &runA, const QStringList &runB = {});
    static void clear();
    // The menu's text for a set: "a.sqlite and 3 more vs b.sqlite".
    static QString label(const RecentSet &set);
};

} // namespace rankscope
