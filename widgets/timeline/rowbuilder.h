#pragma once
// Builds rows' rectangles on a worker thread. A rank opened from its index
// cache reads its events through a mapping (core/mappedpages.h): the first
// read of its rows may wait on the disk for longer than a frame. While the
// view scrolls, the canvas hands such rows here and draws them hatched until
// their rectangles arrive, so reading a rank's detail never holds a frame.
#include "core/report.h"
#include "timeline/slicegeometry.h"
#include "timeline/timescale.h"

#include <QObject>
#include <QThreadPool>

#include <compare>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

namespace rankscope {

// One row's work, exactly as the canvas does it itself: a row of events
// builds each of its tracks once per linear piece of the view; a collapsed
// group adds up its busy runs' share per pixel column, once per piece.
struct RowBuildJob {
    struct Part {
        SliceGeometryInput input;
        TimeScale scale;
    };
    std::vector<Part> parts;
    struct BusyPart {
        const SliceTrack *runs = nullptr;
        TimeNs sessionOffset = 0;
        TimeScale scale;
        int x0 = 0, x1 = -1;
    };
    std::vector<BusyPart> busyParts;
    int widthPx = 0;
    ReportPtr report; // keeps the tracks the inputs point into alive
};

struct BuiltRow {
    std::vector<SliceRect> rects; // a row of events
    std::vector<float> busy;      // a collapsed group: share per pixel column
};

BuiltRow buildRow(const RowBuildJob &job);

class RowBuilder : public QObject {
    Q_OBJECT
public:
    explicit RowBuilder(QObject *parent = nullptr);
    ~RowBuilder() override;

    // A new view (zoom, resize, other rows or session): whatever was built
    // or is being built for the old one is dropped.
    void startView();
    // The rows of the frame being drawn: a row requested and scrolled out
    // again before the worker reached it is not built, and rows built but
    // no longer in view are forgotten.
    void setRowsInView(std::set<int> rows);
    // The row as built for these lanes of the current view, if it was;
    // handed over (the canvas keeps it from then on).
    std::optional<BuiltRow> take(int row, int firstLane, int lastLane);
    // Builds the row on the worker unless it is already being built.
    void request(int row, int firstLane, int lastLane, RowBuildJob job);

signals:
    // A row arrived (take() has it), or a request was dropped.
    void rowsChanged();

private:
    struct Key {
        int row = 0, firstLane = 0, lastLane = 0;
        auto operator<=>(const Key &) const = default;
    };
    // What the worker reads before each job: is it still wanted?
    struct Wanted {
        std::mutex mutex;
        std::uint64_t generation = 0;
        std::set<int> rows;
    };
    void deliver(Key key, std::uint64_t generation, std::optional<BuiltRow> built);

    std::shared_ptr<Wanted> m_wanted = std::make_shared<Wanted>();
    std::uint64_t m_generation = 0; // the GUI thread's copy of m_wanted->generation
    std::set<Key> m_inFlight;
    std::map<Key, BuiltRow> m_built;
    // One thread: the other core paints. Destroyed first (declared last),
    // after waiting for the job it runs.
    QThreadPool m_pool;
};

} // namespace rankscope
