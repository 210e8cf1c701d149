#pragma once
// Durations across ranks (Paraver's 2D histogram): which events, by kind
// and name pattern, then ranks (or their threads and GPU streams) x
// power-of-two duration bins as a heat map of counts or total time, and
// the same as a table (for kernels: the kernel_duration_histogram report).
// Clicking a cell selects its events on the timeline.
#include "panels/statspanel.h"
#include "stats/ranks/durationhistogram.h"

class QComboBox;
class QLineEdit;
class QLabel;

namespace rankscope {

class HistogramGrid;
class TableBox;

class HistogramPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit HistogramPanel(QWidget *parent = nullptr);
    void setChoice(const stats::HistogramChoice &choice);
    stats::HistogramChoice choice() const;
    HistogramGrid *grid() const { return m_grid; }
    TableBox *table() const { return m_table; }
    // A cell's events, selected and zoomed to, as a click does.
    void activateCell(int row, int bin);

protected:
    void refresh() override;

private:
    struct Result {
        stats::DurationHistogram histogram;
        ResultTable table;
        QStringList rowNames;
        stats::HistogramChoice choice; // what it counts
        stats::StatsScope scope;
    };
    void present(Result result);
    void showScale(); // the notes: the table's, and what the colours stand for

    QComboBox *m_events;
    QLineEdit *m_pattern;
    QComboBox *m_rows; // ranks, or threads and streams
    QComboBox *m_measure;
    QLabel *m_notes;
    HistogramGrid *m_grid;
    TableBox *m_table;
    stats::HistogramChoice m_shown; // what the grid holds, and over which scope
    stats::StatsScope m_shownScope;
};

} // namespace rankscope
