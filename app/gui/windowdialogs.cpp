#include "windowdialogs.h"

#include "session/residentbudget.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QInputDialog>
#include <QMessageBox>
#include <sqlite3.h>

#include <algorithm>
#include <climits>

namespace rankscope {

std::optional<std::pair<int, int>> askTwoRanks(QWidget *parent, const Session &session)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Compare Two Ranks"));
    auto *form = new QFormLayout(&dialog);
    QComboBox *first = new QComboBox(&dialog), *second = new QComboBox(&dialog);
    for (const RankEntry &e : session.ranks())
        for (QComboBox *box : {first, second})
            box->addItem(e.displayName() + QStringLiteral(" · ") + QFileInfo(e.report->filePath).fileName());
    second->setCurrentIndex(1);
    form->addRow(QObject::tr("Rank A:"), first);
    form->addRow(QObject::tr("Rank B:"), second);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return std::pair{first->currentIndex(), second->currentIndex()};
}

std::optional<int> askMemoryBudgetMiB(QWidget *parent, int currentMiB)
{
    const int totalMiB = int(std::min<std::uint64_t>(2 * ResidentBudget::defaultBytes() >> 20, std::uint64_t(INT_MAX)));
    bool ok = false;
    const int mib = QInputDialog::getInt(parent, QObject::tr("Memory Budget for Rank Detail"),
                                         QObject::tr("MiB of the ranks' index caches to keep in memory (default: half the RAM, %1 MiB).\n"
                                                     "Ranks opened from caches read their events from them as they are shown; "
                                                     "beyond the budget, the ranks used least recently give that memory back.")
                                             .arg(totalMiB / 2),
                                         currentMiB, 64, std::max(64, totalMiB), 256, &ok);
    return ok ? std::optional<int>(mib) : std::nullopt;
}

void showShortcutsDialog(QWidget *parent, const QString &shortcutsHtml)
{
    QMessageBox box(parent);
    box.setWindowTitle(QObject::tr("Keyboard Shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(shortcutsHtml);
    box.exec();
}

void showAboutDialog(QWidget *parent)
{
    QMessageBox::about(
        parent, QObject::tr("About Rankscope"),
        QObject::tr("<h3>Rankscope %1</h3><p>Timeline viewer for multi-rank GPU training traces.</p>"
                    "<p>Qt %2, SQLite %3.<br>Reads Nsight Systems SQLite exports (schema 2.9 to 3.28) and PyTorch profiler (Kineto) JSON traces.</p>")
            .arg(QStringLiteral(RANKSCOPE_VERSION), QString::fromLatin1(qVersion()), QString::fromLatin1(sqlite3_libversion())));
}

} // namespace rankscope
