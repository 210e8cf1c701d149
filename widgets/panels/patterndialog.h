#pragma once
// Asks for a regular expression until the user gives a valid one or cancels
// (the panels' "Communication kernels..." and "Step ranges..." buttons).
#include <QString>

#include <functional>
#include <optional>

class QWidget;

namespace rankscope {

// `errorOf` says what is wrong with a pattern (empty: nothing); the answer
// is trimmed. None when cancelled.
std::optional<QString> askPattern(QWidget *parent, const QString &title, const QString &label, const QString &initial,
                                  const std::function<QString(const QString &)> &errorOf);

} // namespace rankscope
