#pragma once
// A kind of timeline row as one item, as Tracy gives each timeline item its
// own Preprocess and Draw and Qt Creator's tracing library draws each model
// through its render passes: how tall the row is, what the geometry pass
// builds for it, how it paints that and its label, what is under the mouse
// (tooltip, click) and what an area selection over it holds. The canvas,
// its input and the rows dispatch through rowItem(kind) and never test a
// kind themselves; each kind registers once, in rowitem.cpp.
#include "session/sampledetails.h"
#include "session/session.h"
#include "stats/sampling/samplingprofile.h"
#include "stats/selectionsummary.h"
#include "timeline/collapsedbusy.h"
#include "timeline/displaytime.h"
#include "timeline/framegeometry.h"
#include "timeline/timelinerows.h"
#include "timeline/timescale.h"

#include <QElapsedTimer>
#include <QRect>
#include <QString>

#include <map>
#include <optional>
#include <set>
#include <vector>

class QPainter;

namespace rankscope {

class EventColorCache;
class RowBuilder;
class Theme;
class TimelineCanvas;

// CPU sample rows: coloured by the module of each sample's innermost
// frame, or by the thread's state.
enum class SampleColoring : std::uint8_t { ByModule, ByThreadState };

// What the rows' rectangles depend on besides their lanes in view: a
// frame of the same view (a scroll) keeps the rectangles of the rows still
// in view and builds only the rows scrolled in.
struct GeometryView {
    TimeNs start = 0;
    double nsPerPixel = 0;
    int width = -1;
    std::uint64_t rows = 0; // the canvas's count of changes to its rows
    bool operator==(const GeometryView &) const = default;
};

// What one geometry pass knows of the frame before it and of this one.
struct GeometryPass {
    TimeScale scale;
    int width = 0;
    GeometryView view, before;
    bool scrolled = false; // the same view as the last frame's, scrolled: its rows can stay
    bool zoomed = false;   // only the time changed: the last frame's rows stand in, moved
    // Of the last frame: rows whose rectangles can stay (a scroll), or
    // stand in until their rows arrive (a zoom).
    std::map<int, RowGeometry> previous;
    QElapsedTimer building;
    int built = 0; // rows scrolled in and built this frame: at least one, so every frame makes progress
};

// What rows keep between frames, and what the canvas sets on them.
struct RowState {
    // Per group row drawn collapsed, what it draws (collapsedbusy.h).
    std::map<int, CollapsedBusy> collapsedBusy;
    // Per rank, session times its GPU waited at collectives (left out of a
    // collapsed rank's busy); empty: busy as recorded.
    std::vector<std::vector<stats::Interval>> communicationWaits;
    // Per rank, which of its callchains hold the marked function; empty: none.
    std::vector<std::vector<bool>> markedChains;
    SampleColoring sampleColoring = SampleColoring::ByModule;
    std::uint64_t stretchGeneration = 1; // counts the canvas's stretches
    // A row of events scrolled in is built in the frame for at most this
    // long (at least one is), the rest in the frames after.
    static constexpr qint64 kScrollBuildBudgetNs = 6'000'000;
    qint64 scrollBuildBudgetNs = kScrollBuildBudgetNs;
    int pendingRows = 0;  // of the current frame, drawn pending
    int deferredRows = 0; // of those, the ones built in a later frame on this thread
};

// What the canvas lends an item to build one row of one frame.
struct RowFrame {
    const Session &session;
    const DisplayTime &displayTime;
    GeometryPass &pass;
    RowBuilder &builder;
    RowState &state;
    int visibleTop = 0;  // below the pinned rows, for a scrolled row
    int frameHeight = 0; // px painted
};

// A row's track area (viewport coordinates) and its geometry.
struct RowArea {
    QRect area;
    const RowGeometry *geometry = nullptr;
    // The top of a lane of the row.
    int laneTop(int lane) const;
};

// What the canvas lends an item to paint one row.
struct RowPaint {
    RowArea area;
    const RankEntry &entry;
    const Theme &theme;
    EventColorCache &colors;
    const DisplayTime &displayTime;
    std::optional<TimeRange> selection; // the zoom's selected range, display time
};

// Where a row's label goes in the label column.
struct RowLabel {
    QRect rect; // after the indent, the text's room
    bool pinned = false;
    QString pinnedText; // a pinned row says whose it is ("Rank 0 / GPU 0 / Stream 7")
};

// What a click on a row chooses.
struct RowChoice {
    std::optional<EventLocation> event;
    std::optional<SampleLocation> sample;
};

// What an area selection over rows holds.
struct AreaContents {
    std::vector<stats::TrackRef> tracks;
    std::set<stats::SamplingScope::ThreadKey> sampledThreads;
};

class RowItem {
public:
    virtual ~RowItem() = default;
    virtual int height(const TimelineRow &row) const = 0;
    // Whether its label folds and unfolds the rows under it (a group)
    // rather than choosing the row.
    virtual bool folds() const { return false; }
    // Whether it draws its rank's events: such a row of a rank holding
    // only its summaries is drawn pending until the events come.
    virtual bool drawsEvents() const { return true; }
    // The geometry pass: fills `g` (placed: row, top, height) for this frame.
    virtual void build(RowFrame &frame, RowGeometry &g, const TimelineRow &row) const = 0;
    // Draws what build() made, after the canvas drew the row's background.
    virtual void paint(QPainter &p, const RowPaint &paint, const TimelineRow &row) const = 0;
    // The label: by default one line, its least telling parts cut first.
    virtual void paintLabel(QPainter &p, const RowLabel &label, const TimelineRow &row) const;
    // The tooltip over the track area at `pos` (viewport coordinates).
    virtual QString tooltip(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const = 0;
    // What a click at `pos` chooses: by default the event drawn there.
    virtual RowChoice choiceAt(const TimelineCanvas &canvas, const FrameGeometry::Hit &hit, QPoint pos) const;
    // Adds what the row holds to an area selection over it.
    virtual void addToArea(const Session &session, const TimelineRow &row, AreaContents &area) const;
};

// The item of each kind of row: the one registration of a row kind.
const RowItem &rowItem(TimelineRow::Kind kind);

// One line of label text in `label.rect`, prefixed (a group's arrow).
void paintLabelLine(QPainter &p, const RowLabel &label, const TimelineRow &row, const QString &prefix = {});

// The separator under a row of the track area, and the hatching of a row
// whose geometry is pending with nothing to stand in. False: nothing more
// to draw.
bool paintRowBase(QPainter &p, const RowPaint &paint);
// A row drawn pending: hatched meanwhile.
void hatchPending(QPainter &p, const RowPaint &paint);

} // namespace rankscope
