#include "load/workerpool.h"

#include <QThread>

#include <algorithm>

namespace rankscope {

QThreadPool *loadThreadPool()
{
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool; // lives as long as the process: loads may run until exit
        p->setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
        p->setObjectName(QStringLiteral("rankscope load pool"));
        return p;
    }();
    return pool;
}

} // namespace rankscope
