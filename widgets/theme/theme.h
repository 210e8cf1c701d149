#pragma once
// Every colour Rankscope draws with, in one place (after Qt Creator's
// TimelineTheme). Event colours carry meaning and are the same in light and
// dark palettes: memcpys by direction (HtoD green, DtoH red, DtoD amber,
// PtoP violet), kernels and calls a stable colour per name, NVTX the colour
// the application gave. Everything around the events (backgrounds, lines,
// selection, highlights, tables, charts) follows the palette it is made from.
#include "core/report.h"
#include "stats/criticalpath/criticalpath.h"
#include "stats/diagnosis/memcpyanalysis.h"

#include <QBrush>
#include <QColor>
#include <QHash>
#include <QPalette>
#include <unordered_map>

namespace rankscope {

class Theme {
public:
    explicit Theme(const QPalette &palette) : m_palette(palette) { }

    // Events.
    static QColor eventColor(const Report &report, const Track &track, std::uint32_t event);
    static QColor kindColor(TrackKind kind); // merged summaries, counters, the overview
    // CPU samples: by the module of the innermost frame (a stable colour per
    // module's text), or by thread state; a marked function's samples stand out.
    static QColor moduleColor(std::string_view module);
    static QColor threadStateColor(std::uint8_t state);
    static QColor markedSampleColor() { return QColor(0xe0, 0x30, 0x90); }
    static QColor memcpyColor(MemcpyKind kind);
    static QColor mpiColor(MpiCallKind kind);
    static QColor transferColor(stats::Direction direction);
    // Copies from or to pageable host memory, told apart from pinned ones.
    static QColor pageableTransferColor(stats::Direction direction);
    // The pattern drawn over an event's fill: hatched for a pageable copy.
    static QBrush eventPattern(const Report &report, const Track &track, std::uint32_t event);
    static QColor textColorOn(const QColor &background);

    // The timeline around the events.
    QColor canvasBackground() const { return m_palette.color(QPalette::Base); }
    QColor groupBackground() const { return m_palette.color(QPalette::AlternateBase); }
    QColor rowSeparator() const { return m_palette.color(QPalette::Mid); }
    QColor labelBackground() const { return m_palette.color(QPalette::Window); }
    QColor labelText() const { return m_palette.color(QPalette::WindowText); }
    QColor edge() const { return m_palette.color(QPalette::Dark); }
    QColor valueText() const { return m_palette.color(QPalette::Text); }
    // The time range selection: `alpha` 50 over events, 90 on the ruler.
    QColor selectionShade(int alpha) const;
    QColor selectionOutline() const { return m_palette.color(QPalette::Highlight); }
    // Events outlined on request (a histogram bar's copies) and the line
    // joining a GPU op and its API call: a magenta that reads on both palettes.
    static QColor highlightOutline() { return QColor(0xe0, 0x30, 0x90); }

    // Tables and charts.
    QColor standoutCellBackground() const; // e.g. the worst rank of a column
    QColor adviceBackground() const;       // a note that suggests a fix
    QColor adviceText() const;
    QColor errorText() const;                          // "Error" in the Diagnostics dock
    static QColor seriesColor(int index);              // one per rank or GPU, repeating after 4
    static QColor neutralSeriesColor();                // a series that stands for no kind
    static QColor pathKindColor(stats::PathKind kind); // the critical path's kinds, in its chart
    static QColor criticalPathOutline() { return QColor(0xff, 0x5a, 0x00); }
    bool isDark() const { return m_palette.color(QPalette::Window).lightnessF() < 0.5; }

private:
    QPalette m_palette;
};

// Event colours remembered by name: hashing a kernel's 200-character name
// and converting from HSV for every rectangle of every frame cost more than
// filling it. One per timeline; clear() when its session changes (names
// are keyed by their report and string id).
class EventColorCache {
public:
    QColor color(const Report &report, const Track &track, std::uint32_t event);
    void clear()
    {
        m_reports.clear();
        m_last = nullptr;
    }

private:
    // Per report, by string id: the colour of that name on GPU-projected
    // NVTX rows and on every other row. Hashed, not an array over every
    // string: a frame shows a few thousand names of tens of millions
    // (emit_nvtx gives each range its own text), and the array cost 8 B a
    // string. Emptied when it holds more than kMostNames.
    static constexpr qsizetype kMostNames = 1 << 16;
    struct Names {
        QHash<StringId, QRgb> projected, other;
    };
    std::unordered_map<const Report *, Names> m_reports;
    const Report *m_lastReport = nullptr;
    Names *m_last = nullptr;
};

} // namespace rankscope
