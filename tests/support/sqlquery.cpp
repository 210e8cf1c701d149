#include "sqlquery.h"

#include <sqlite3.h>

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

} // namespace rankscope::test
