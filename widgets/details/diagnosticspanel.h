#pragma once
// Files that failed to open and the non-fatal oddities of those that did
// (rows without an end, open NVTX ranges, the export's own warnings).
#include "session/session.h"

#include <QTreeWidget>

namespace rankscope {

class DiagnosticsPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(QWidget *parent = nullptr);
    void setSession(const Session &session);

private:
};

} // namespace rankscope
