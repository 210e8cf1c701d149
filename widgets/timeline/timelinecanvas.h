#pragma once
// Paints the rows of a session (label column on the left, events on the
// right). The frame's geometry (FrameGeometry, from buildSliceGeometry()) is
// cached until the visible range, the size or the rows change; selection
// and highlights are drawn over it without rebuilding. Mouse, wheel and
// tooltips are TimelineInput's; keys are TimelineActions'.
#include "jobs/latestjob.h"
#include "session/sampledetails.h"
#include "session/session.h"
#include "stats/criticalpath/criticalpath.h"
#include "stats/sampling/samplingprofile.h"
#include "stats/selectionsummary.h"
#include "theme/theme.h"
#include "timeline/displaytime.h"
#include "timeline/framegeometry.h"
#include "timeline/rows/rowitem.h"
#include "timeline/timelinerows.h"
#include "timeline/timemark.h"
#include "timeline/timescale.h"

#include <QAbstractScrollArea>
#include <QLoggingCategory>
#include <map>
#include <memory>
#include <optional>

Q_DECLARE_LOGGING_CATEGORY(lcTimelinePaint)

namespace rankscope {

class RowBuilder;
class TimelineInput;
class ZoomState;

class TimelineCanvas : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineCanvas(ZoomState *zoom, QWidget *parent = nullptr);

    void setSession(std::shared_ptr<const Session> session);
    // The same ranks with more of them read (ranks opened with their
    // summaries only, now whole): the rows as the user arranged and
    // scrolled them stay.
    void replaceSession(std::shared_ptr<const Session> session);
    const Session *session() const { return m_session.get(); }
    TimelineRows &rows() { return m_rows; }
    const TimelineRows &rows() const { return m_rows; }
    void rowsChanged();
    // What a frame shows, onto any painter the viewport's size (exports).
    void paintTo(QPainter &p);
    // An export drawing more than the window shows: every row from the top
    // (`height` px, no scrolling) and optionally another time range.
    // Cleared with nullopt; painting the window uses the view meanwhile.
    struct ExportFrame {
        int height = 0;
        std::optional<TimeRange> visible;
    };
    void setExportFrame(std::optional<ExportFrame> frame);
    int frameHeight() const;        // px painted: the viewport's, or the export's
    TimeRange visibleRange() const; // the zoom's, or the export's

    int labelWidth() const { return m_labelWidth; }
    void setLabelWidth(int width);
    int trackAreaWidth() const;
    TimeScale scale() const;
    // Step k of compared runs drawn over each other (the points from
    // stats::stepStretchPoints), or every rank as recorded (empty).
    void setStretch(std::vector<std::vector<stats::StretchPoint>> points);
    const DisplayTime &displayTime() const { return m_displayTime; }
    // Where an event is drawn: its session time, through the stretch.
    TimeRange displayedTime(const EventLocation &event) const;
    // Where keyboard zoom anchors: the time under the mouse, or the view centre.
    TimeNs anchorTime() const;

    // What the canvas says while it shows no session: how to open one, or
    // why the files just opened could not be.
    void setEmptyMessage(const QString &text);
    const QString &emptyMessage() const { return m_emptyMessage; }

    std::optional<EventLocation> selectedEvent() const { return m_selected; }
    // Selects an event (or nothing); with `reveal`, expands its groups,
    // scrolls it into view and centres it if it is off screen.
    void selectEvent(std::optional<EventLocation> event, bool reveal = false);
    std::optional<EventLocation> eventAt(QPoint viewportPos) const;
    // The frame as drawn (built if stale), and what is drawn under a point.
    const FrameGeometry &geometry() const;
    // While scrolling, rows coming into view are never waited for. A row of
    // a rank opened from its index cache is built on a worker (its pages
    // may come from disk; rowbuilder.h); a row of a rank held in memory is
    // built in the frame, for at most this long per frame (at least one
    // is), and the rest in the frames after (scheduled at once). Both are
    // drawn pending (hatched) meanwhile. A zoom or pan hands the rows of
    // ranks opened from caches to the worker too, drawing the last frame's
    // rectangles moved to the new scale until they arrive. A first frame,
    // new rows or a new width build every row in the frame.
    static constexpr qint64 kScrollBuildBudgetNs = RowState::kScrollBuildBudgetNs;
    // Rows of the current frame drawn pending, and that budget (a test
    // sets 0: one row built per frame).
    int pendingRows() const { return m_rowState.pendingRows; }
    void setScrollBuildBudget(qint64 ns) { m_rowState.scrollBuildBudgetNs = ns; }
    // For benchmarks: every frame's painting time in ms, whoever asked for
    // the frame (a render, or the event loop after a row arrived).
    void setFrameTimeSink(std::vector<double> *frameTimes) { m_frameTimes = frameTimes; }
    FrameGeometry::Hit hit(QPoint viewportPos) const;
    ZoomState *zoom() const { return m_zoom; }
    // Events to outline (e.g. the copies of a histogram bar); the first is
    // also selected and brought into view.
    void setHighlighted(std::vector<EventLocation> events);
    const std::vector<EventLocation> &highlighted() const { return m_highlighted; }
    // A collective across ranks: a band over every row from its first to
    // its last arrival, each rank's kernel outlined, the last one marked.
    struct CollectiveOverlay {
        TimeRange arrivals; // session time
        std::vector<EventLocation> kernels;
        EventLocation last;
    };
    void setCollectiveOverlay(std::optional<CollectiveOverlay> overlay);
    // Outlines `mark` on its row (its GPU's all-streams row, else its
    // rank's), expands the groups the row is in and scrolls it into view;
    // cleared with nullopt, by a new session or Esc. Returns the row.
    int showMark(std::optional<TimeMark> mark);
    const std::optional<TimeMark> &mark() const { return m_mark; }
    int markRow() const { return m_markRow; }
    const std::optional<CollectiveOverlay> &collectiveOverlay() const { return m_collective; }
    // A step's critical path (the Critical path panel's): each segment
    // outlined on its event's row over its time, an arrow where the path
    // crosses ranks; null: none (also after a new session).
    void setCriticalPath(std::shared_ptr<const stats::StepCriticalPath> path);
    const std::shared_ptr<const stats::StepCriticalPath> &criticalPath() const { return m_criticalPath; }
    // Where a shown row is, in viewport coordinates (null when not shown).
    QRect rowRect(int row) const;
    // The viewport point at the middle of an event, if it is on screen.
    std::optional<QPoint> pointOf(const EventLocation &event) const;
    // A counter row over the selected range: "selection: min … · mean … ·
    // max …", or empty.
    QString counterRangeText(const TimelineRow &row) const;
    // Mouse, wheel, menu and tooltips.
    const TimelineInput *input() const { return m_input; }

    // The rows of the area selection: the shown rows from `fromRow` to
    // `toRow` in the order drawn (either way round); none: no area.
    void setAreaRows(int fromRow, int toRow);
    void clearAreaRows();
    const std::vector<int> &areaRows() const { return m_areaRows; }
    // Per rank (index into the session's ranks), times in session time its
    // GPU waited at collectives: collapsed ranks draw their GPU busy
    // without them. Empty: busy as recorded.
    void setCommunicationWaits(std::vector<std::vector<stats::Interval>> waits);
    // Which ranks (indices into the session's ranks) show their GPUs'
    // derived state rows (TimelineRows::setDerivedGpuRanks); every rank
    // when `all`, none when not.
    // Their counters are computed on a worker first; the rows come when
    // they are ready (derivedGpuRowsPending until then).
    void setDerivedGpuRanks(std::set<int> ranks);
    void setDerivedGpuRowsForAll(bool all);
    const std::set<int> &derivedGpuRanks() const { return m_rows.derivedGpuRanks(); }
    bool derivedGpuRowsPending() const { return m_derivedPending; }
    // CPU sample rows: coloured by the module of each sample's innermost
    // frame, or by the thread's state.
    using SampleColoring = rankscope::SampleColoring;
    void setSampleColoring(SampleColoring coloring);
    SampleColoring sampleColoring() const { return m_rowState.sampleColoring; }
    // The samples to mark (a function chosen in the CPU samples panel): per
    // rank, which of its report's callchains hold it; empty: none marked.
    void setMarkedCallchains(std::vector<std::vector<bool>> chainsPerRank);
    // The sample drawn under a point of a samples row, if any (within 3 px).
    std::optional<SampleLocation> sampleAt(QPoint pos) const;
    const std::vector<std::vector<stats::Interval>> &communicationWaits() const { return m_rowState.communicationWaits; }
    // Expands the groups `row` is in and scrolls it into view.
    void revealRow(int row);
    // The tracks the area's rows draw, a collapsed group's rows' included.
    std::vector<stats::TrackRef> areaTracks() const;
    // The sampled threads whose CPU samples rows the area holds, by (rank index, pid, tid).
    std::set<stats::SamplingScope::ThreadKey> areaSampledThreads() const;

signals:
    void eventSelected(std::optional<rankscope::EventLocation> event);
    // A CPU sample clicked: its time and fields (time, thread, state,
    // backtrace) for Details.
    void sampleChosen(const rankscope::TimeMark &sample);
    void labelWidthChanged(int width);
    // The user hid a row or showed the hidden ones.
    void rowVisibilityChanged();
    // The derived GPU rows asked for could not be shown: why.
    void derivedGpuRowsFailed(const QString &why);
    // The user clicked a row's label (for the Events table).
    void rowChosen(int row);
    // A Shift+drag ended across rows: areaRows() and the zoom's selection
    // are the area (Perfetto's area selection).
    void areaSelected();
    // The context menu's "Critical Path of the Step Here" at a session time.
    void criticalPathRequested(rankscope::TimeNs sessionTime);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void invalidateGeometry();
    // The geometry pass: each row in view placed, then built by its
    // kind's item (rows/rowitem.h), which also paints what it built.
    void ensureGeometry() const;
    void placeRow(GeometryPass &pass, int row, int y, bool pinned) const;
    // What a click at a point chooses (its row's item says).
    RowChoice choiceAt(QPoint viewportPos) const;
    // What the area selection's rows hold, a collapsed group's rows' included.
    AreaContents areaContents() const;
    int scrollOffset() const;
    QRect frameRect() const;
    void updateScrollBar();
    void paintLabels(QPainter &p) const;
    void paintRow(QPainter &p, const RowGeometry &g) const;
    void paintOverlays(QPainter &p) const;
    void paintCollective(QPainter &p) const;
    void paintCriticalPath(QPainter &p) const;
    // The middle of the lane an event is drawn in, in viewport coordinates
    // (none when its row is not shown).
    std::optional<int> laneMiddle(const EventLocation &event) const;
    // An arrow between two events' points, head at `to` when `forward`, in
    // `colour` (invalid: the selection's).
    void paintFlowArrow(QPainter &p, QPoint from, QPoint to, bool forward, QColor colour = {}) const;

    ZoomState *m_zoom;
    DisplayTime m_displayTime;
    std::shared_ptr<const Session> m_session;
    // The derived rows' counters being computed (nullopt: they did not fit
    // in memory); a newer request, or another session, drops an older one's.
    LatestJob<std::optional<std::vector<TimelineRows::DerivedCounters>>> m_derivedJob{this};
    bool m_derivedPending = false;
    TimelineRows m_rows;
    int m_labelWidth = 280;
    QString m_emptyMessage;
    std::optional<EventLocation> m_selected;
    std::optional<EventLocation> m_correlated;
    std::vector<EventLocation> m_flows; // forward <-> backward partners of the selection
    std::vector<EventLocation> m_highlighted;
    std::optional<CollectiveOverlay> m_collective;
    std::shared_ptr<const stats::StepCriticalPath> m_criticalPath;
    std::optional<TimeMark> m_mark;
    std::vector<int> m_areaRows; // the area selection's rows, in the order drawn
    int m_markRow = -1;
    // The row a mark is drawn on: the GPU's first row of the rank, else the
    // rank's group row.
    int rowOfMark(const TimeMark &mark) const;
    std::optional<ExportFrame> m_export;

    mutable FrameGeometry m_geometry;
    mutable bool m_geometryValid = false;
    mutable GeometryView m_geometryView;
    mutable bool m_exportedLast = false; // the last geometry was an export's: nothing of it stands in
    std::uint64_t m_rowsGeneration = 1;  // counts changes to the rows, the session or the stretch
    // What rows keep between frames (collapsed busy shares, sample colouring, ...).
    mutable RowState m_rowState;
    mutable EventColorCache m_colors;
    TimelineInput *m_input;
    RowBuilder *m_rowBuilder;
    std::vector<double> *m_frameTimes = nullptr;
};

} // namespace rankscope
