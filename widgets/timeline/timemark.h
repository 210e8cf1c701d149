#pragma once
// A span of time on one rank that a panel points at: a GPU gap, a
// diagnosis instance, a collective. The window zooms to it, brings its row
// into view (expanding the groups it is in), outlines it there, and shows
// it in Details: the event's own fields when it is one, else `fields`.
#include "core/timetypes.h"
#include "session/session.h"

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace rankscope {

struct TimeMark {
    int rankIndex = -1;                         // into Session::ranks()
    int deviceId = -1;                          // a GPU's row (its all-streams row), else the rank's
    TimeRange time;                             // session time
    std::optional<EventLocation> event;         // an event to select, if it is one
    QString title;                              // "GPU gap"
    QList<std::pair<QString, QString>> fields;  // label, value (plain text)
    std::optional<EventLocation> evidence = {}; // an event that explains it: outlined and brought into view too
};

} // namespace rankscope
