#include "load/loadcontrol.h"

namespace rankscope {

LoadResult LoadResult::failure(const QString &why)
{
    QString line = why.simplified(); // newlines and runs of blanks: one space
    if (line.size() > kMaxErrorLength)
        line = line.left(kMaxErrorLength - 1) + QChar(0x2026);
    return {nullptr, line, false};
}

} // namespace rankscope
