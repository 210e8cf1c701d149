#include "sqlquery.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace rankscope::test {

QList<QStringList> queryRows(const QString &path, const QString &sql)
{
    sqlite3 *db = nullptr;
    QList<QStringList> rows;
    // Read-only and immutable: never a byte written to a fixture.
    const QString uri = QStringLiteral("file:%1?immutable=1").arg(path);
    if (sqlite3_open_v2(uri.toUtf8().constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return rows;
    }
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &stmt, nullptr) == SQLITE_OK)
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            QStringList row;
            for (int c = 0; c < sqlite3_column_count(stmt); ++c)
                row << (sqlite3_column_type(stmt, c) == SQLITE_NULL
                            ? QString()
                            : QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(stmt, c))));
            rows << row;
        }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

QStringList summaryCells(const QString &groupConcat, qint64 *total)
{
    std::vector<double> d;
    for (const QString &v : groupConcat.split(QLatin1Char(','), Qt::SkipEmptyParts))
        d.push_back(v.toDouble());
    double sum = 0;
    for (const double x : d)
        sum += x;
    if (total)
        *total = qint64(sum);
    if (d.empty())
        return QStringList(5, QString());
    std::sort(d.begin(), d.end());
    const double n = double(d.size()), mean = sum / n;
    double squares = 0;
    for (const double x : d)
        squares += (x - mean) * (x - mean);
    const double median = d.size() % 2 ? d[d.size() / 2] : (d[d.size() / 2 - 1] + d[d.size() / 2]) / 2;
    const auto fixed1 = [](double v) { return QString::number(std::round(v * 10.0) / 10.0, 'f', 1); };
    return {fixed1(mean), fixed1(median), QString::number(qint64(d.front())), QString::number(qint64(d.back())),
            fixed1(d.size() > 1 ? std::sqrt(squares / (n - 1)) : 0.0)};
}

} // namespace rankscope::test
