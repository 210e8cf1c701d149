#pragma once
// Expected values computed by SQL over an export's own tables (never by
// the code under test): the rows of a query, each a list of its cells as
// text (NULL: empty); none when the file or the query fails.
#include <QList>
#include <QString>
#include <QStringList>

namespace rankscope::test {

QList<QStringList> queryRows(const QString &path, const QString &sql);

} // namespace rankscope::test
