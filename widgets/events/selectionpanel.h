#pragma once
// The Selection dock: a Shift+drag across rows and a time range (Perfetto's
// area selection) summarised as the slices by name that overlap it, with
// count, total, mean and longest duration, sortable and exportable.
// Computed on a worker: an area over every row of a 20M-event trace reads
// all of them. Double-click a name to find its instances.
#include "jobs/latestjob.h"
#include "session/session.h"
#include "stats/selectionsummary.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace rankscope {

class TableBox;

class SelectionPanel : public QWidget {
    Q_OBJECT
public:
    explicit SelectionPanel(QWidget *parent = nullptr);
    // Summarises `tracks` of `session` over `range` (session time);
    // `rows` says what was chosen ("3 rows").
    void summarise(std::shared_ptr<const Session> session, std::vector<stats::TrackRef> tracks, TimeRange range, int rows);
    void clear();
    // Returns when the summary asked for last is shown (tests).
    void waitForSummary();
    TableBox *table() const { return m_table; }
    QString title() const;

signals:
    void searchRequested(const QString &name);

private:
    QLabel *m_title;
    TableBox *m_table;
    LatestJob<ResultTable> m_summary{this}; // a newer area drops an older one's summary
};

} // namespace rankscope
