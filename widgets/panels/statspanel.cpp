#include "panels/statspanel.h"

#include "panels/chartfactory.h"
#include "panels/resulttablemodel.h"
#include "panels/tablebox.h"

#include <QDir>
#include <QLayout>

namespace rankscope {

QStringList StatsPanel::exportAll(const QString &directory) const
{
    const QDir dir(directory);
    QStringList written;
    for (TableBox *table : m_exportTables) {
        const QString path = dir.filePath(table->model()->table().name + QStringLiteral(".csv"));
        if (table->exportCsv(path))
            written << path;
    }
    for (const auto &[slot, fileName] : m_exportCharts) {
        const QString path = dir.filePath(fileName);
        if (charts::savePng(*slot, path))
            written << path;
    }
    return written;
}

void replaceWidget(QWidget *&slot, QWidget *replacement)
{
    if (slot && slot->parentWidget() && slot->parentWidget()->layout())
        delete slot->parentWidget()->layout()->replaceWidget(slot, replacement);
    delete slot;
    slot = replacement;
}

} // namespace rankscope
