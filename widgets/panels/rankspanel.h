#pragma once
// One row per rank; in each column the worst rank is marked, which is
// where a straggler or a starving rank shows.
#include "panels/statspanel.h"
#include "stats/resulttable.h"

namespace rankscope {

class TableBox;

class RanksPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit RanksPanel(QWidget *parent = nullptr);
    TableBox *table() const { return m_table; }

protected:
    void refresh() override;

private:
    void present(ResultTable table);

    TableBox *m_table;
};

} // namespace rankscope
