#include "details/diagnosticspanel.h"
#include "common/plaintext.h"

#include "core/units.h"
#include "theme/theme.h"

#include <QFileInfo>
#include <set>

namespace rankscope {

DiagnosticsPanel::DiagnosticsPanel(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(3);
    setHeaderLabels({tr("File"), tr("Severity"), tr("Message")});
    setRootIsDecorated(true);
    setAlternatingRowColors(true);
}

void DiagnosticsPanel::setSession(const Session &session)
{
    clear();
    for (const LoadFailure &f : session.failures()) {
        auto *item = new QTreeWidgetItem(this, {QFileInfo(f.path).fileName(), tr("Error"), tr("Could not open: %1").arg(f.error)});
        item->setToolTip(0, plainTooltip(f.path));
        item->setForeground(1, QBrush(Theme(palette()).errorText()));
    }
    std::set<const Report *> seen;
    for (const RankEntry &entry : session.ranks()) {
        if (!seen.insert(entry.report.get()).second || entry.report->diagnostics.empty())
            continue;
        auto *file = new QTreeWidgetItem(
            this, {QFileInfo(entry.report->filePath).fileName(), QString(), tr("%n messages", nullptr, int(entry.report->diagnostics.size()))});
        file->setToolTip(0, plainTooltip(entry.report->filePath));
        for (const Diagnostic &d : entry.report->diagnostics) {
            const QString severity = d.severity == Diagnostic::Severity::Error     ? tr("Error")
                                     : d.severity == Diagnostic::Severity::Warning ? tr("Warning")
                                                                                   : tr("Info");
            QString text = d.text;
            if (d.timestamp)
                text = QStringLiteral("[%1] ").arg(formatDuration(*d.timestamp)) + text;
            new QTreeWidgetItem(file, {QString(), severity, text});
        }
    }
    resizeColumnToContents(0);
    resizeColumnToContents(1);
}

} // namespace rankscope
