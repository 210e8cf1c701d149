#include "panels/statspanel.h"

#include <QLayout>

namespace rankscope {

void replaceWidget(QWidget *&slot, QWidget *replacement)
{
    if (slot && slot->parentWidget() && slot->parentWidget()->layout())
        delete slot->parentWidget()->layout()->replaceWidget(slot, replacement);
    delete slot;
    slot = replacement;
}

} // namespace rankscope
