#pragma once
// Expected values computed by SQL over an export's own tables (never by
// the code under test): the rows of a query, each a list of its cells as
// text (NULL: empty); none when the file or the query fails.
#include <QList>
#include <QString>
#include <QStringList>

namespace rankscope::test {

QList<QStringList> queryRows(const QString &path, const QString &sql);

// The summary cells nsys prints of a group's values, given as SQL's
// group_concat of integers: Avg, Med, Min, Max, StdDev (sample), the
// decimals rounded to one place half away from zero; five empty cells for
// no values. `total`, when given, receives their sum.
QStringList summaryCells(const QString &groupConcat, qint64 *total = nullptr);

} // namespace rankscope::test
