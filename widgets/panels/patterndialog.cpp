#include "panels/patterndialog.h"

#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>

namespace rankscope {

std::optional<QString> askPattern(QWidget *parent, const QString &title, const QString &label, const QString &initial,
                                  const std::function<QString(const QString &)> &errorOf)
{
    QString pattern = initial;
    for (;;) {
        bool ok = false;
        pattern = QInputDialog::getText(parent, title, label, QLineEdit::Normal, pattern, &ok);
        if (!ok)
            return std::nullopt;
        const QString trimmed = pattern.trimmed();
        if (const QString error = errorOf(trimmed); !error.isEmpty()) {
            QMessageBox::warning(parent, title, error);
            continue;
        }
        return trimmed;
    }
}

} // namespace rankscope
