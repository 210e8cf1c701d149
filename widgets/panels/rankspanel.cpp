#include "panels/rankspanel.h"

#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"
#include "stats/rankcomparison.h"

#include <QDir>
#include <QLabel>
#include <QVBoxLayout>

namespace rankscope {

RanksPanel::RanksPanel(QWidget *parent) : StatsPanel(parent), m_table(new TableBox(tr("Rank comparison"), this))
{
    auto *layout = new QVBoxLayout(this);
    auto *hint = new QLabel(tr("Shaded: the worst rank of each column (longest, most idle). Communication is not shaded: "
                                      "the rank that waits longest in a collective is waiting for a straggler, not the straggler."), this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    layout->addWidget(m_table, 1);
    exportTable(m_table);
}

void RanksPanel::refresh()
{
    if (!session())
        return;
    // All ranks are compared even when one is chosen elsewhere: a
    // comparison of one is none.
    stats::StatsScope scope = this->scope();
    scope.rankIndex.reset();
    const Session *s = session();
    run<ResultTable>([s, scope] { return stats::rankComparisonTable(*s, scope); }, [this](ResultTable t) { present(std::move(t)); });
}

void RanksPanel::present(ResultTable t)
{
    const auto worseIsHigher = stats::rankComparisonWorseIsHigher();
    std::set<std::pair<int, int>> worst;
    if (t.rows.size() > 1)
        for (std::size_t c = 0; c < worseIsHigher.size() && c < std::size_t(t.headers.size()); ++c) {
            if (!worseIsHigher[c])
                continue;
            int best = -1;
            bool differ = false; // all ranks equal: nobody is worst
            for (std::size_t r = 0; r < t.rows.size(); ++r) {
                const Cell &cell = t.rows[r][c];
                if (!cell.isNumber())
                    continue;
                if (best >= 0 && cell.toDouble() != t.rows[std::size_t(best)][c].toDouble())
                    differ = true;
                if (best < 0 || (*worseIsHigher[c] ? cell.toDouble() > t.rows[std::size_t(best)][c].toDouble()
                                                   : cell.toDouble() < t.rows[std::size_t(best)][c].toDouble()))
                    best = int(r);
            }
            if (best >= 0 && differ)
                worst.insert({best, int(c)});
        }
    m_table->setTable(std::move(t));
    m_table->model()->setHighlighted(std::move(worst));
}

} // namespace rankscope
