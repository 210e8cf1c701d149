#pragma once
// One row per rank; in each column the worst rank is marked, which is
// where a straggler or a starving rank shows. The header says which kernels
// count as communication, and the user can change that pattern here.
#include "panels/statspanel.h"
#include "stats/resulttable.h"

class QLabel;

namespace rankscope {

class TableBox;

class RanksPanel : public StatsPanel {
    Q_OBJECT
public:
    explicit RanksPanel(QWidget *parent = nullptr);
    TableBox *table() const { return m_table; }
    // The user's communication kernel pattern; empty: the built-in table.
    // Returns false (and keeps the current one) for an invalid expression.
    bool setCommunicationPattern(const QString &pattern);
    const QString &communicationPattern() const { return m_communicationPattern; }
    QString classesDescription() const;

signals:
    void communicationPatternChanged(const QString &pattern);

protected:
    void refresh() override;

private:
    void present(ResultTable table);
    void editCommunicationPattern();
    void describeClasses();

    TableBox *m_table;
    QLabel *m_classes;
    QString m_communicationPattern;
};

} // namespace rankscope
